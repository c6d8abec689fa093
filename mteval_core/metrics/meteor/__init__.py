"""METEOR 1.5 (Denkowski & Lavie 2014), equal to the reference jar: matching, alignment, scoring.

The steps are the jar's. The matchers (exact, stem, synonym, paraphrase) each add their candidate
matches to one `Stage`; the aligner chooses among them the alignment the jar's beam search
chooses; the scorer turns the alignment into METEOR's per-segment statistics.
"""
