"""Error spans: reading them from the files that have them, checking their offsets, scoring
predicted spans against gold spans as WMT25 task 2 does (per character, with partial credit
for the wrong severity), matching spans exactly or by overlap, agreement between two
annotators, MQM scores from spans, error-free and critical-error detection, and a segment's
spans drawn as escaped HTML. The data model is mteval_core.model.spans.
"""
