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
from mteval_core.metrics.meteor.matchers import match_exact, match_stems, match_synonyms
from mteval_core.metrics.meteor.metric import METEOR, configuration_of
from mteval_core.metrics.meteor.stage import Match, Stage
from mteval_core.metrics.meteor.synonyms import SynonymDictionary
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


# A small dictionary in the jar's format (word line, synsets line; base form line, forms line):
# words sharing synsets, a word whose synsets come from its regular base form ("cars" -> "car"),
# one from an irregular one ("ran" -> "run"), and hash-equal words ("Aa" and "BB" have one Java
# hash, so the matcher skips the pair even though they share a synset).
SYNSETS = "car\n1 2\nauto\n2\nrun\n3\nsprint\n3 4\ndash\n4\nAa\n5\nBB\n5\nthe\n6\n"
EXCEPTIONS = "run\nran\n"
SYNONYM_WORDS = ["car", "cars", "auto", "run", "ran", "sprint", "dash", "Aa", "BB", "the", "x"]


@settings(max_examples=60, deadline=None)
@given(
    pairs=st.lists(
        st.tuples(
            st.lists(st.sampled_from(SYNONYM_WORDS), max_size=40),
            st.lists(st.sampled_from(SYNONYM_WORDS), max_size=40),
        ),
        min_size=1,
        max_size=4,
    ),
    order=st.sampled_from([(0, 1, 2), (2, 0, 1), (1, 2, 0), (2, 1, 0)]),
    beam=st.sampled_from([1, 3, 40]),
)
def test_compiled_synonyms_equal_the_python_matcher(pairs, order, beam) -> None:
    """The compiled synonym matcher (synsets per word row) gives the rows of match_synonyms."""
    synonyms = SynonymDictionary(SYNSETS, EXCEPTIONS)
    names = ("exact", "stem", "synonym")
    available = (
        match_exact,
        lambda stage, k: match_stems(stage, k, first_letter),
        lambda stage, k: match_synonyms(stage, k, synonyms),
    )
    modules = tuple(names[k] for k in order)
    matchers = [available[k] for k in order]
    hypotheses = [list(h) for h, _ in pairs]
    references = [list(r) for _, r in pairs]

    def compute(table_synonyms) -> np.ndarray:
        table = WordTable(first_letter, frozenset({"the"}), table_synonyms)
        return pair_statistics(
            hypotheses, references, matchers, modules, table, Search(beam_size=beam)
        )

    compiled = compute(synonyms)
    per_pair = compute(None)  # the synonym module's matches found in Python, handed over
    saved = corpus_alignment.compiled_loops
    corpus_alignment.compiled_loops = None
    try:
        fallback = compute(synonyms)
    finally:
        corpus_alignment.compiled_loops = saved
    assert compiled.tobytes() == fallback.tobytes() == per_pair.tobytes()


def test_compiled_synonyms_refuse_rows_outside_the_table() -> None:
    """The loops read the synset arrays unchecked, so they check them first."""
    loops = corpus_alignment.compiled_module()
    keys = np.zeros(1, dtype=np.int32)
    flags = np.zeros(1, dtype=np.int8)
    offsets = np.array([0, 1], dtype=np.int64)
    kinds = np.array([loops.SYNONYM], dtype=np.int32)
    with pytest.raises(ValueError, match="outside the synset table"):
        loops.pair_statistics(
            keys, keys, flags, offsets, keys, keys, flags, offsets,
            np.array([5], dtype=np.int32), np.array([0], dtype=np.int32),
            np.array([0, 0], dtype=np.int64), np.zeros(0, dtype=np.int32),
            kinds, np.zeros(2, dtype=np.int64), np.zeros((0, 5), dtype=np.int32),
            np.ones(1), 40, 100, 100, np.zeros(1, dtype=np.int8),
        )  # fmt: skip
