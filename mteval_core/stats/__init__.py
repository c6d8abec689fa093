"""Statistics over per-segment sufficient statistics: correlations, bootstrap, significance."""
