"""System rankings as WMT makes them: human rankings from raw annotations by each year's
procedure (``human``), AutoRank over automatic metrics (``autorank``), and the one record both
give (``table``): per language pair, the systems with a score, a rank range and a cluster."""
