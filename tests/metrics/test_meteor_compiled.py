"""METEOR's compiled matching and beam search give the rows of its Python fallback, exactly.

corpus_alignment.pair_statistics runs _beam_loops.pyx where it was built and aligner.align per
pair otherwise; both must give the same statistics (and so the same alignment counts) on the
jar's pinned cases and on random lines with many-word matches, ties and long lines.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mteval_core.errors import InputError
from mteval_core.metrics.meteor import corpus_alignment
from mteval_core.metrics.meteor.corpus_alignment import Search, WordTable, pair_statistics
from mteval_core.metrics.meteor.matchers import match_exact, match_stems
from mteval_core.metrics.meteor.metric import METEOR, configuration_of
from mteval_core.metrics.meteor.stage import Match, Stage
from tests.helpers import read_lines, shared_dataset
from tests.metrics.test_meteor_jar import fixture, options_for

pytestmark = pytest.mark.skipif(
    corpus_alignment.compiled_module() is None, reason="the compiled METEOR loops are not built"
)

# German and English, every module, several references (the other cases only vary options that
# act before the aligner: the jar test runs them all through the compiled path)
CASES = ["de-exact-stem", "de-3refs", "en-all", "en-2refs-all"]


def both_ways(compute, monkeypatch: pytest.MonkeyPatch) -> tuple[np.ndarray, np.ndarray]:
    """compute() with the compiled loops, then with the Python fallback."""
    compiled = compute()
    with monkeypatch.context() as patch:
        patch.setattr(corpus_alignment, "compiled_loops", None)
        fallback = compute()
    return compiled, fallback


@pytest.mark.parametrize("name", CASES)
def test_compiled_equals_fallback_on_the_jar_cases(name: str, monkeypatch) -> None:
    case = next(c for c in fixture()["cases"] if c["name"] == name)
    folder = shared_dataset(case["data"])
    stop = case["start"] + case["count"]
    references = [read_lines(folder / r)[case["start"] : stop] for r in case["references"]]
    system = sorted(case["systems"])[0]
    hypotheses = read_lines(folder / "sys" / system)[case["start"] : stop]
    options = options_for(case["jar_args"])
    try:
        metric = METEOR(options)
        metric.matchers()
    except InputError as error:
        pytest.skip(f"{name}: {error}")
    if metric.configuration.modules != configuration_of(options).modules:
        pytest.skip(f"{name}: not every module of the jar's run is available here")
    compiled, fallback = both_ways(
        lambda: metric.segment_statistics(hypotheses, references), monkeypatch
    )
    assert compiled.tobytes() == fallback.tobytes()


def first_letter(word: str) -> str:
    """A stemmer that makes many stem matches (and hash-equal stems of different words)."""
    return word[:1]


def span_matcher(spans):
    """Many-word matches, as the paraphrase module proposes them (those that fit the lines)."""

    def match(stage: Stage, module: int) -> None:
        for start, length, match_start, match_length in spans:
            if start + length <= len(stage.reference) and (
                match_start + match_length <= len(stage.hypothesis)
            ):
                stage.add(Match(start, length, match_start, match_length, 1.0, module))

    return match


LINES = st.lists(st.sampled_from(["a", "ab", "b", "ba", "the", "c", "Ob", "PC"]), max_size=80)
SPANS = st.lists(
    st.tuples(st.integers(0, 70), st.integers(1, 4), st.integers(0, 70), st.integers(1, 4)),
    max_size=12,
)


@settings(max_examples=60, deadline=None)
@given(
    pairs=st.lists(st.tuples(LINES, LINES), min_size=1, max_size=4),
    spans=SPANS,
    order=st.sampled_from([(0, 1, 2), (2, 0, 1), (1, 2, 0)]),
    beam=st.sampled_from([1, 3, 40]),
)
def test_compiled_equals_fallback_on_random_lines(pairs, spans, order, beam) -> None:
    names = ("exact", "stem", "paraphrase")
    available = (
        match_exact,
        lambda stage, k: match_stems(stage, k, first_letter),
        span_matcher(spans),
    )
    modules = tuple(names[k] for k in order)
    matchers = [available[k] for k in order]
    hypotheses = [list(h) for h, _ in pairs]
    references = [list(r) for _, r in pairs]
    function_words = frozenset({"the", "a"})

    def compute() -> np.ndarray:
        table = WordTable(first_letter, function_words)
        return pair_statistics(
            hypotheses, references, matchers, modules, table, Search(beam_size=beam)
        )

    compiled = compute()
    saved = corpus_alignment.compiled_loops
    corpus_alignment.compiled_loops = None
    try:
        fallback = compute()
    finally:
        corpus_alignment.compiled_loops = saved
    assert compiled.tobytes() == fallback.tobytes()
