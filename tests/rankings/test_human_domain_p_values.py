"""The domains' p-values a WMT24 pair test combines, as the Rankings page shows them: on the
public waves 2-3, Stouffer's method over them gives each pair's combined p-value."""

from __future__ import annotations

import math

import pytest
from scipy.stats import norm

from mteval_core.io.appraise_esa import read_documents, read_esa_exports
from mteval_core.rankings.human import rank_wmt24


def test_the_domains_p_values_combine_to_the_pairs_p_value(wmt24):
    export = read_esa_exports(sorted((wmt24 / "waves").glob("*.csv")))
    documents = dict(read_documents(p) for p in sorted((wmt24 / "documents").glob("*.docs")))
    checked = 0
    for ranking in rank_wmt24(export.ratings, documents):
        for entry in ranking.systems:
            for other, by_domain in entry.extra["domain_p_values"].items():
                combined = entry.extra["p_values"][other]
                if combined is None or any(p is None for p in by_domain.values()):
                    continue
                z = sum(norm.ppf(1 - p) for p in by_domain.values()) / math.sqrt(len(by_domain))
                assert 1 - norm.cdf(z) == pytest.approx(combined, rel=1e-9, abs=1e-15)
                assert set(by_domain) == set(entry.extra["domains"])
                checked += 1
    assert checked >= 600  # most of the 662 p-values (a system against each other one)
