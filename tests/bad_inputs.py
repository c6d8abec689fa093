"""Texts shared by the bad-input batteries of the command line (tests/cli) and the dashboard
(tests/e2e): a small test set, a well-formed WMT XML file, and an XML entity bomb built on it."""

from __future__ import annotations

REFERENCE = "The cat sat on the mat .\nA quick brown fox jumps over the lazy dog .\nIt rains .\n"
HYPOTHESIS = "The cat is on the mat .\nA fast brown fox jumped over a lazy dog .\nIt rains .\n"
REF_SEGMENTS = list(zip("123", REFERENCE.splitlines()))
HYP_SEGMENTS = list(zip("123", HYPOTHESIS.splitlines()))
WMT_XML = """<?xml version="1.0" encoding="utf-8"?>
<dataset id="t"><collection id="general"><doc id="d1" origlang="en">
<src lang="en"><p><seg id="1">Hello .</seg></p></src>
<ref lang="de" translator="A"><p><seg id="1">Hallo .</seg></p></ref>
<hyp system="s" lang="de"><p><seg id="1">Hallo .</seg></p></hyp>
</doc></collection></dataset>
"""
ENTITY_BOMB = (  # a billion laughs, cut short: a reader must refuse entity declarations
    '<?xml version="1.0"?>\n<!DOCTYPE dataset [\n<!ENTITY a "aaaaaaaaaa">\n'
    '<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">\n'
    '<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">\n]>\n'
    + WMT_XML.split("\n", 1)[1].replace("Hallo .", "&c;")
)
