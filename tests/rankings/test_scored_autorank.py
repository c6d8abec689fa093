"""AutoRank of a scored test set (the Rankings page without uploads): WMT25's recipe over the
corpus scores, a lower-is-better metric flipped, its bootstrap on the very resamples the Scores
page's intervals come from."""

from __future__ import annotations

import numpy as np
import pytest

from mteval_core.errors import InputError
from mteval_core.metrics.scoring import score_test_set
from mteval_core.rankings.autorank import RANK_RANGE_LEVEL, autorank_wmt25
from mteval_core.rankings.scored_autorank import rankable_metrics, scored_autorank
from mteval_core.settings.options import Options
from mteval_core.stats.bootstrap import BootstrapOptions
from mteval_core.stats.significance import bootstrap_scores
from tests.helpers import make_test_set

REFERENCE = [f"the cat number {k} sat on the mat today" for k in range(30)]
SYSTEMS = {
    "good": [f"the cat number {k} sat on the mat today" for k in range(30)],
    "fair": [f"the cat number {k} sat on a mat" for k in range(30)],
    "poor": [f"a dog {k} ran" for k in range(30)],
    "mixed": [REFERENCE[k] if k % 2 else f"a dog {k} ran" for k in range(30)],
}


@pytest.fixture(scope="module")
def scores():
    return score_test_set(make_test_set(REFERENCE, SYSTEMS), ["bleu", "ter", "chrf"], Options())


def test_the_autorank_is_wmt25s_recipe_over_the_corpus_scores_with_ter_flipped(scores):
    ranking = scored_autorank(scores, ["bleu", "ter", "chrf"], 0, 1)
    corpus = scores.corpus()
    means = np.array([[corpus[s]["bleu"], -corpus[s]["ter"], corpus[s]["chrf"]] for s in SYSTEMS])
    expected = dict(zip(SYSTEMS, autorank_wmt25(means)))
    assert {e.system: e.autorank for e in ranking.systems} == pytest.approx(expected, abs=1e-12)
    assert ranking.systems[0].system == "good"
    ter = {e.system: e.extra["metrics"]["TER"] for e in ranking.systems}
    assert ter == {s: corpus[s]["ter"] for s in SYSTEMS}  # shown as TER, not flipped
    assert any("TER: lower is better" in note for note in ranking.notes)


def test_the_intervals_come_from_the_scores_pages_own_resamples(scores):
    resamples, seed = 300, 7
    ranking = scored_autorank(scores, ["bleu", "ter"], resamples, seed)
    samples = bootstrap_scores(scores, BootstrapOptions(resamples, seed)).samples
    draws = np.stack([samples["bleu"], -samples["ter"]], axis=-1)  # resamples x systems x 2
    autorank = autorank_wmt25(draws)
    tail = 100 * (1 - RANK_RANGE_LEVEL) / 2
    low, high = np.percentile(autorank, [tail, 100 - tail], axis=0)
    for entry in ranking.systems:
        i = scores.systems.index(entry.system)
        assert entry.extra["autorank_interval"] == pytest.approx([low[i], high[i]], abs=1e-12)
        assert entry.rank[0] <= entry.rank[1]


def test_a_metric_without_segments_or_none_at_all_is_refused(scores):
    assert rankable_metrics(scores) == ["bleu", "ter", "chrf"]
    with pytest.raises(InputError, match="no metric chosen"):
        scored_autorank(scores, [], 0, 1)
    with pytest.raises(InputError, match="cannot combine nist"):
        scored_autorank(scores, ["nist"], 0, 1)
