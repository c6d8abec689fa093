"""GTM's bitext grid (Melamed, Green & Turian 2003): its matchings and the loops under them.

``matching`` holds GTM 1.4's greedy and the paper's exact maximum matching, with the limits that
bound them; ``_loops.pyx`` is their compiled core and ``_loops_python.py`` the same algorithm in
plain Python for installs without a C compiler. The metric is ``mteval_core.metrics.gtm``, the
viewer's grid ``mteval_core.gtm.grid``.
"""
