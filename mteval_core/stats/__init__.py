"""Statistics over per-segment sufficient statistics.

From the bottom up: ``bootstrap`` draws the resamples; ``correlation`` measures how a metric
agrees with people over systems; ``significance`` derives intervals and paired tests from one
resampling; ``meta`` puts them together for a test set with human judgments (``evaluate``) or
for two system-level tables (``correlate_tables``). ``segment_level``, ``ranking`` and
``reliability`` are the segment-level statistics, system rankings and reliability curves.
"""
