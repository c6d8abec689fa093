"""METEOR's alignment of one segment as the bitext grid draws it: valid spans, chunks that agree
with the statistics, the metric's own scores and best reference, exact against beam.

Needs the jar's function-word list (pycocoevalcap); the synonym and paraphrase modules run where
pycocoevalcap ships their data, as in the developer's venv."""

from __future__ import annotations

import numpy as np
import pytest

from mteval_core.metrics.meteor.availability import jar_path
from mteval_core.metrics.meteor.metric import METEOR
from mteval_core.metrics.meteor.segment_view import SearchResult, meteor_segment_view
from mteval_core.settings.options import Options
from tests.helpers import load_sample

SAMPLE = load_sample().test_set
SYSTEM = "word-by-word"  # the sample's most scrambled output: many chunks, some paraphrases
SEGMENTS = range(12)


@pytest.fixture(autouse=True)
def needs_the_jar():
    if jar_path(None) is None:
        pytest.skip("pycocoevalcap (meteor-1.5.jar, METEOR's function words) is not installed")


@pytest.fixture(scope="module")
def views():
    references = [r.segments for r in SAMPLE.references]
    return [
        meteor_segment_view(
            SAMPLE.system(SYSTEM)[k], [segments[k] for segments in references], Options()
        )
        for k in SEGMENTS
    ]


def search_coverage(result: SearchResult) -> float:
    """The weighted coverage both searches maximise (exact 1, every other module 0.5)."""
    return sum(
        (m.hypothesis_length + m.reference_length) * (1.0 if m.module == "exact" else 0.5)
        for m in result.matches
    )


def check_valid(result: SearchResult, n_hypothesis: int, n_reference: int) -> None:
    hypothesis_used: list[int] = []
    reference_used: list[int] = []
    for m in result.matches:
        assert m.hypothesis_start >= 0 and m.hypothesis_start + m.hypothesis_length <= n_hypothesis
        assert m.reference_start >= 0 and m.reference_start + m.reference_length <= n_reference
        assert m.hypothesis_length >= 1 and m.reference_length >= 1
        hypothesis_used += range(m.hypothesis_start, m.hypothesis_start + m.hypothesis_length)
        reference_used += range(m.reference_start, m.reference_start + m.reference_length)
    assert len(set(hypothesis_used)) == len(hypothesis_used) == result.hypothesis_matched
    assert len(set(reference_used)) == len(reference_used) == result.reference_matched
    assert [m.reference_start for m in result.matches] == sorted(
        m.reference_start for m in result.matches
    )


def check_chunks(result: SearchResult) -> None:
    """Chunk numbers run 0, 1, ... in reference order, one per chunk the statistics count, and
    the matches of one chunk follow each other directly on both lines."""
    numbers = [m.chunk for m in result.matches]
    assert numbers == sorted(numbers) and set(numbers) == set(range(result.chunks))
    assert len(result.chunk_spans) == result.chunks
    for before, after in zip(result.matches, result.matches[1:]):
        follows = (
            after.reference_start == before.reference_start + before.reference_length
            and after.hypothesis_start == before.hypothesis_start + before.hypothesis_length
        )
        assert follows == (after.chunk == before.chunk)


def test_spans_are_valid_and_chunks_agree_with_the_statistics(views):
    modules_seen = set()
    blocks = 0
    for view in views:
        for result in (view.beam, view.exact):
            reference = view.references[result.reference]
            check_valid(result, len(view.hypothesis), len(reference))
            check_chunks(result)
            assert sum(c.matches for c in result.per_module) == len(result.matches)
            modules_seen |= {m.module for m in result.matches}
            blocks += sum(m.hypothesis_length + m.reference_length > 2 for m in result.matches)
    assert {"exact", "synonym", "paraphrase"} <= modules_seen and blocks > 0


def test_scores_and_kept_reference_are_the_metrics(views):
    references = [[r.segments[k] for k in SEGMENTS] for r in SAMPLE.references]
    hypotheses = [SAMPLE.system(SYSTEM)[k] for k in SEGMENTS]
    for search in ("beam", "exact"):
        metric = METEOR(Options.from_flags(meteor_alignment=search))
        expected = metric.segment_scores(metric.segment_statistics(hypotheses, references))
        shown = np.array([view.result(search).score for view in views])
        np.testing.assert_array_equal(shown, expected)
        for view in views:
            result = view.result(search)
            assert result.reference == int(np.argmax(result.reference_scores))
            assert result.score == max(result.reference_scores)
    assert views[0].modules == METEOR(Options()).configuration.modules


def test_exact_never_has_more_chunks_than_beam_at_equal_coverage(views):
    compared = 0
    for view in views:
        beam, exact = view.beam, view.exact
        if beam.reference != exact.reference or not exact.found:
            continue
        compared += 1
        assert search_coverage(exact) >= search_coverage(beam) - 1e-9
        if search_coverage(exact) == pytest.approx(search_coverage(beam)):
            assert exact.chunks <= beam.chunks
    assert compared >= len(views) // 2


def test_the_best_reference_is_kept_and_exact_stem_run_alone():
    options = Options.from_flags(meteor_modules=("exact", "stem"))
    view = meteor_segment_view("the cats sat on a mat", ["x y z", "a cat sat on the mat"], options)
    assert view.modules == ("exact", "stem") and view.left_out == ()
    beam = view.beam
    assert beam.reference == 1 and beam.reference_scores[0] < beam.reference_scores[1]
    assert [(m.module, m.chunk) for m in beam.matches] == [
        ("exact", 0),  # a
        ("stem", 1),  # cat ~ cats
        ("exact", 1),  # sat
        ("exact", 1),  # on
        ("exact", 2),  # the
        ("exact", 3),  # mat
    ]
    assert beam.chunks == 4 and not view.searches_differ
    assert beam.fragmentation == pytest.approx(4 / 6)
    assert [(c.module, c.matches) for c in beam.per_module] == [("exact", 5), ("stem", 1)]
    kept = {(m.hypothesis_start, m.reference_start) for m in beam.matches}
    assert {(c.hypothesis_start, c.reference_start) for c in view.candidates[1]} >= kept


def test_a_whole_match_in_one_chunk_has_no_fragmentation():
    view = meteor_segment_view(
        "the cat sat", ["the cat sat"], Options.from_flags(meteor_modules=("exact",))
    )
    beam = view.beam
    assert beam.chunks == 1 and len(beam.chunk_spans) == 1 and beam.chunk_spans[0] == (0, 3, 0, 3)
    assert beam.fragmentation == beam.penalty == 0.0 and beam.score == pytest.approx(1.0)
