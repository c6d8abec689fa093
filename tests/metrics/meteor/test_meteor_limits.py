"""METEOR's bounds on one segment's work (issue 42, point 2): a segment of one word repeated
3,000 times took 36 s and 2.6 GB (10,000 words: MemoryError; the exact alignment: killed at
200 s, 5.3 GB). A segment over METEOR_MAX_MATCHES candidate matches or METEOR_MAX_WORDS words
a line is now left out of METEOR with a note in every output, the other segments scored as
before, on the compiled loops and on the pure-Python fallback alike; the exact alignment stops
at METEOR_EXACT_MAX_STEPS and keeps the beam's."""

from __future__ import annotations

import time
import warnings

import numpy as np
import pytest

from mteval_core.cli import main
from mteval_core.errors import InputError
from mteval_core.metrics.meteor import corpus_alignment
from mteval_core.metrics.meteor.aligner import search_weights
from mteval_core.metrics.meteor.matchers import match_exact, match_synonyms
from mteval_core.metrics.meteor.metric import METEOR
from mteval_core.metrics.meteor.optimal import TooManySteps, optimal_matches
from mteval_core.metrics.meteor.paraphrase_corpus import CorpusParaphrases
from mteval_core.metrics.meteor.paraphrases import ParaphraseTable
from mteval_core.metrics.meteor.segment_view import meteor_segment_view
from mteval_core.metrics.meteor.stage import Stage, TooManyMatches
from mteval_core.metrics.meteor.synonyms import SynonymDictionary
from mteval_core.metrics.scoring import score_test_set
from mteval_core.settings.limits import (
    METEOR_EXACT_MAX_STEPS,
    METEOR_MAX_MATCHES,
    METEOR_MAX_WORDS,
)
from mteval_core.settings.options import Options
from tests.helpers import make_test_set

REPEATED = " ".join(["haus"] * 3_000)  # the segment: 9 million exact matches
ORDINARY = ["der hund schläft", "ein kleines haus am see", "die katze"]
EXACT_STEM = Options.from_flags(meteor_language="de", meteor_modules=("exact", "stem"))


@pytest.fixture(params=["compiled", "python"])
def meteor_loops(request, monkeypatch):
    """Each test on the compiled loops and on the fallback without a C compiler."""
    if request.param == "compiled" and corpus_alignment.compiled_module() is None:
        pytest.skip("the compiled METEOR loops are not built")
    if request.param == "python":
        monkeypatch.setattr(corpus_alignment, "compiled_loops", None)
    return request.param


def scored(hypotheses: list[str], references: list[str], options: Options):
    return score_test_set(make_test_set(references, {"s": hypotheses}), ["meteor"], options)


@pytest.mark.usefixtures("meteor_loops")
@pytest.mark.parametrize("alignment", ["beam", "exact"])
def test_a_repeated_word_is_left_out_quickly_with_a_note(alignment):
    options = Options.from_flags(
        meteor_language="de", meteor_modules=("exact", "stem"), meteor_alignment=alignment
    )
    hypotheses = [ORDINARY[0], REPEATED, *ORDINARY[1:]]
    references = [ORDINARY[0], REPEATED + " x", *ORDINARY[1:]]
    started = time.perf_counter()
    with pytest.warns(UserWarning, match=r"s: METEOR leaves out 1 segment\(s\)"):
        scores = scored(hypotheses, references, options)
    assert time.perf_counter() - started < 10  # 36 s and 2.6 GB before, compiled
    (note,) = scores.notes
    assert "segment 2; segment 2 has more than 250,000 candidate matches" in note
    assert f"{METEOR_MAX_MATCHES:,} candidate matches" in note and "score 0" in note
    statistics = scores.statistics["meteor"]["s"]
    assert not statistics[1].any()  # out of every sum
    alone = scored(ORDINARY, ORDINARY, options)  # the others, as if the segment were not there
    np.testing.assert_array_equal(np.delete(statistics, 1, axis=0), alone.statistics["meteor"]["s"])
    assert scores.corpus()["s"]["meteor"] == alone.corpus()["s"]["meteor"]


@pytest.mark.usefixtures("meteor_loops")
def test_a_line_over_the_words_limit_is_left_out():
    long = " ".join(f"w{k}" for k in range(METEOR_MAX_WORDS + 1))
    with pytest.warns(UserWarning, match="METEOR leaves out 1 segment"):
        scores = scored([long, "a b"], ["w1 w2", "a b"], EXACT_STEM)
    (note,) = scores.notes
    assert f"segment 1 has {METEOR_MAX_WORDS + 1:,} words against 2" in note
    assert (
        scores.corpus()["s"]["meteor"]
        == scored(["a b"], ["a b"], EXACT_STEM).corpus()["s"]["meteor"]
    )


def test_just_under_the_limit_is_scored():
    """499 x 500 = 249,500 candidates: aligned (in under a second, compiled), not left out."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no note
        scores = scored([" ".join(["haus"] * 499)], [" ".join(["haus"] * 500)], EXACT_STEM)
    assert scores.statistics["meteor"]["s"][0, 0] == 499


def test_the_stage_stops_at_its_limit_without_holding_the_matches():
    stage = Stage(["a"] * 100, ["a"] * 100, limit=1_000)
    with pytest.raises(TooManyMatches):
        match_exact(stage, 0)
    assert stage.count == 1_000 and sum(map(len, stage.matches)) == 1_000


def test_synonyms_stop_at_the_limit_too():
    """Two different words of one synset, each repeated: every pair is a synonym match."""
    synonyms = SynonymDictionary("car\n1\nauto\n1\n", "")
    stage = Stage(["car"] * 60, ["auto"] * 60, limit=3_000)
    with pytest.raises(TooManyMatches):
        match_synonyms(stage, 0, synonyms)
    under = Stage(["car"] * 50, ["auto", "car"] * 25, limit=3_000)
    match_synonyms(under, 0, synonyms)  # 25 x 50 "auto" matches; "car" to "car" is skipped
    assert under.count == 1_250
    assert {under.reference[m.start] for ms in under.matches for m in ms} == {"auto"}


def test_the_paraphrase_joins_count_before_they_list():
    """A word whose paraphrase is another, each repeated on one line: the pair is over the limit
    and none of its matches is listed; the pair beside it keeps its own."""
    table = ParaphraseTable.from_bytes(b"0.5\nwagen\nauto\n0.5\nauto\nwagen\n")
    hypotheses = [["auto"] * 60, ["auto", "x"]]
    references = [["wagen"] * 60, ["wagen"]]
    rows, over = CorpusParaphrases(table).matches(hypotheses, references, 0, limit=3_000)
    assert over.tolist() == [True, False]
    assert rows[:, 0].tolist() == [1, 1]  # the second pair's two matches, one each way
    rows, over = CorpusParaphrases(table).matches(hypotheses, references, 0, limit=10_000)
    assert not over.any() and (rows[:, 0] == 0).sum() == 2 * 60 * 60


def test_the_exact_search_stops_at_its_steps():
    stage = Stage(["a"] * 60, ["a"] * 61)
    match_exact(stage, 0)
    with pytest.raises(TooManySteps):
        optimal_matches(stage, search_weights(["exact"]), max_steps=10_000)
    small = Stage(["a", "b", "c"], ["a", "b", "c"])
    match_exact(small, 0)
    found = optimal_matches(small, search_weights(["exact"]), max_steps=100)
    assert [(m.start, m.match_start) for m in found] == [(0, 0), (1, 1), (2, 2)]


def test_the_exact_alignment_keeps_the_beams_past_its_steps():
    """120 repeated words: 14,520 candidates, far more states than the search may visit."""
    hypothesis, reference = " ".join(["haus"] * 120), " ".join(["haus"] * 121)
    options = Options.from_flags(
        meteor_language="de", meteor_modules=("exact", "stem"), meteor_alignment="exact"
    )
    with pytest.warns(UserWarning, match=f"over {METEOR_EXACT_MAX_STEPS:,} steps"):
        exact = METEOR(options).segment_statistics([hypothesis], [[reference]])
    beam = METEOR(EXACT_STEM).segment_statistics([hypothesis], [[reference]])
    np.testing.assert_array_equal(exact, beam)


def test_the_command_line_prints_the_note_and_scores_the_rest(tmp_path, capsys):
    (tmp_path / "ref.de").write_text(f"{ORDINARY[0]}\n{REPEATED} x\n", encoding="utf-8")
    (tmp_path / "s.de").write_text(f"{ORDINARY[0]}\n{REPEATED}\n", encoding="utf-8")
    args = ["--refs", str(tmp_path / "ref.de"), "--hyps", str(tmp_path / "s.de")]
    code = main(["score", *args, "--metrics", "bleu,meteor", "--meteor-modules", "exact,stem"])
    captured = capsys.readouterr()
    assert code == 0
    assert "mteval: warning: s: METEOR leaves out 1 segment(s)" in captured.err
    assert "METEOR" in captured.out and "BLEU" in captured.out


def test_the_viewer_says_why_it_draws_no_alignment():
    with pytest.raises(InputError, match="too large to draw"):
        meteor_segment_view(" ".join(["a"] * 600), [" ".join(["b"] * 600)], EXACT_STEM)
    with pytest.raises(InputError, match=f"up to {METEOR_MAX_WORDS:,}"):
        meteor_segment_view(" ".join(["a"] * (METEOR_MAX_WORDS + 1)), ["b"], EXACT_STEM)


def test_the_viewer_says_so_where_the_modules_find_too_many():
    """Within the grid's cells, stems and synonyms both match every cell of "cars" x "car":
    2 x 160,000 candidates."""
    options = Options.from_flags(meteor_language="en", meteor_modules=("stem", "synonym"))
    try:
        METEOR(options).matchers()
    except InputError as error:
        pytest.skip(str(error))
    with pytest.raises(InputError, match="more than 250,000 candidate matches"):
        meteor_segment_view(" ".join(["cars"] * 400), [" ".join(["car"] * 400)], options)
