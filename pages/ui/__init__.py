"""What every dashboard page shares, one module per subject: session (what the user gave the
Data page), caching (the shared cache and ``cache_key``), session_scores (``scores_of``),
friendly_errors, resamples, markdown_escape, overview, background_imports; and each page's own
logic in the module of its name (data, scores, correlation, bitext, loss, compare, home).

Streamlit treats only the .py files directly in pages/ as pages, so this sub-package is not one.
"""
