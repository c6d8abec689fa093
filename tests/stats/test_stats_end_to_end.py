"""From text and segment-level MQM to correlations with intervals: the WMT21 TED sets."""

from __future__ import annotations

import numpy as np
import pytest

from mteval_core.io import read_directory
from mteval_core.metrics.scoring import score_test_set
from mteval_core.model.judgment_matrices import segment_matrix
from mteval_core.settings.options import Options
from mteval_core.stats.bootstrap import BootstrapOptions
from mteval_core.stats.significance import bootstrap_scores
from tests.helpers import shared_dataset


@pytest.mark.parametrize("name", ["wmt21-ted-mqm-ende", "wmt21-ted-mqm-zhen"])
def test_ted_mqm_correlations_with_intervals(name):
    test_set = read_directory(shared_dataset(name)).test_set
    assert test_set.human.criteria == ["MQM"]
    scores = score_test_set(test_set, ["bleu", "fmean", "gtm"], Options())
    systems = scores.systems
    human = segment_matrix(test_set.human, systems, test_set.n_segments, "MQM")
    assert np.isfinite(human).all()  # every system is rated on every TED segment
    options = BootstrapOptions(n_resamples=300, seed=3)
    result = bootstrap_scores(scores, options, human, systems)
    again = bootstrap_scores(scores, options, human, systems)
    for metric, statistics in result.agreement.correlations.items():
        assert statistics.n == len(systems)
        low, high = statistics.pearson_ci
        assert low <= statistics.pearson <= high, metric
        assert statistics == again.agreement.correlations[metric]  # same seed, same numbers
    corpus = scores.corpus()
    for system in systems:
        low, high = result.ci[system]["bleu"]
        assert low <= corpus[system]["bleu"] <= high
    assert len(result.pairs) == 3 * len(systems) * (len(systems) - 1) // 2
    assert all(p.p_holm >= p.p for p in result.pairs)
    comparison = result.agreement.metric_comparisons[0]
    assert (comparison.a, comparison.b) == ("bleu", "fmean")
    assert 0 <= comparison.share_a_better <= 1 and 0 <= comparison.williams_p_a_better <= 1
