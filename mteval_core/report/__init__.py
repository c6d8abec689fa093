"""Everything that turns results into something a person reads: the command line's and the
downloads' writers (``writers``: text, JSON, CSV, LaTeX), the dashboard's tables as DataFrames
(``frames``, ``comparison_frames``) and the Plotly figure builders (``figures``)."""
