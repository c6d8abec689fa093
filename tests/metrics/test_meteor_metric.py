"""The meteor metric in mteval: its options, its references, its signature and its command line.

The jar's numbers are pinned in test_meteor_jar.py; these tests need no Java, only the jar's
function-word list (skipped without pycocoevalcap).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from mteval_core.cli import main
from mteval_core.metrics.meteor.availability import jar_path
from mteval_core.metrics.meteor.metric import METEOR
from mteval_core.metrics.scoring import score_test_set
from mteval_core.settings.options import Options
from tests.helpers import make_test_set

EXACT = Options.from_flags(meteor_modules=("exact",))


@pytest.fixture(autouse=True)
def needs_the_jar():
    if jar_path(None) is None:
        pytest.skip("pycocoevalcap (meteor-1.5.jar, METEOR's function words) is not installed")


def test_a_perfect_segment_adds_no_chunks_and_scores_fmean():
    metric = METEOR(EXACT)
    stats = metric.segment_statistics(["the cat sat", "a b c d"], [["the cat sat", "d c b a"]])
    assert stats[0, -1] == 0  # matched whole in one chunk: the jar's sums leave it out
    assert stats[1, -1] == 4
    scores = metric.segment_scores(stats)
    assert scores[0] == pytest.approx(1.0)  # no fragmentation
    assert 0 < scores[1] < 0.5
    # the corpus score is that of the summed statistics, with the perfect segment's 0 chunks
    assert metric.corpus_score(stats) == metric.score_from_totals(stats.sum(axis=0))


def test_the_best_reference_is_kept_and_the_first_on_ties():
    metric = METEOR(EXACT)
    one = metric.segment_statistics(["a b c"], [["a b c"]])
    worse_then_better = metric.segment_statistics(["a b c"], [["x y z"], ["a b c"]])
    np.testing.assert_array_equal(one, worse_then_better)
    tie = metric.segment_statistics(["p q"], [["p x"], ["q y"]])
    first = metric.segment_statistics(["p q"], [["p x"]])
    np.testing.assert_array_equal(tie, first)


def test_lowercase_is_the_jars_lower_and_changes_matches():
    text = (["The Cat"], [["the cat"]])
    mixed = METEOR(EXACT).segment_statistics(*text)
    lower = METEOR(
        Options.from_flags(meteor_modules=("exact",), lowercase=True)
    ).segment_statistics(*text)
    assert mixed[0, 4] == 0 and lower[0, 4] + lower[0, 6] == 2


def test_scores_and_signature_in_score_test_set():
    test_set = make_test_set([["a b c d", "x y"]], {"s": ["a b d c", "x y"]})
    scores = score_test_set(test_set, ["meteor"], Options.from_flags(meteor_language="de"))
    signature = scores.signatures["meteor"]
    for part in ("meteor-lang:de", "meteor-p:0.95+1+0.55+0.55", "meteor-norm:no", "case:mixed"):
        assert part in signature
    assert "tok:" not in signature  # METEOR reads the raw text
    assert any("leaves out" in note for note in scores.notes) or len(scores.notes) == 0


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["score", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_command_line_scores_meteor_with_its_options(tmp_path, capsys):
    (tmp_path / "ref.de").write_text("der Hund bellt\ndie Katze\n", encoding="utf-8")
    (tmp_path / "sys.de").write_text("der Hund bellt laut\ndie Katze\n", encoding="utf-8")
    common = ["--refs", str(tmp_path / "ref.de"), "--hyps", str(tmp_path / "sys.de")]
    code, out, err = run(
        capsys, *common, "--metrics", "meteor", "--meteor-modules", "exact", "--format", "json"
    )
    assert code == 0, err
    report = json.loads(out)
    assert "meteor-lang:de" in report["signatures"]["meteor"]  # the target language, from .de
    assert 0 < report["scores"]["sys"]["meteor"] < 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--meteor-weights", "1,0.5"], "2 METEOR weight(s) for 1 module(s)"),
        (["--meteor-parameters", "0.5,1"], "METEOR takes 4 parameters"),
        (["--meteor-parameters", "0.5,x,1,1"], "'x' is not a number"),
        (["--meteor-language", "klingon"], "METEOR has no language 'klingon'"),
        (["--meteor-task", "util"], "invalid choice"),
        (["--meteor-modules", "exact,lemma"], "unknown METEOR module 'lemma'"),
        (["--meteor-data", "/nonexistent"], "/nonexistent: does not exist"),
    ],
)
def test_bad_meteor_options_are_one_line_errors(tmp_path, capsys, args, message):
    (tmp_path / "ref.txt").write_text("a b\n", encoding="utf-8")
    (tmp_path / "sys.txt").write_text("a b\n", encoding="utf-8")
    common = ["--refs", str(tmp_path / "ref.txt"), "--hyps", str(tmp_path / "sys.txt")]
    extra = [] if "--meteor-modules" in args else ["--meteor-modules", "exact"]
    code, _, err = run(capsys, *common, "--metrics", "meteor", *extra, *args)
    assert code == 2
    assert message in err
    assert "Traceback" not in err
