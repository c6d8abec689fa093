"""chrF's and chrF++'s compiled statistics (metrics/_chrf_counts.pyx) against sacreBLEU's own.

Every comparison is with sacreBLEU's per-segment statistics
(``CHRF._extract_corpus_statistics``), not with our fallback, so a fault shared by our two paths
cannot hide: on random Unicode text (punctuation, CJK, emoji, combining marks, every kind of
whitespace, empty and blank segments, 1-3 references, empty references), with and without
lowercasing, and on WMT17 en-de; the fallback (sacreBLEU's Python, with a note) is checked to give
the same scores as the compiled path.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import CHRF as SacrebleuCHRF

from mteval_core.metrics import chrf_statistics, code_points, get_metric
from mteval_core.settings.options import Options
from tests.helpers import make_test_set, read_lines, shared_dataset
from tests.oracle_pins import inputs_key, oracle_values

pytestmark = pytest.mark.skipif(
    chrf_statistics.compiled_module() is None, reason="the compiled chrF module is not built"
)

# Python's whitespace (what str.split() splits on): the compiled code has it as a table.
ALL_SPACES = "".join(chr(c) for c in range(0x110000) if chr(c).isspace())
# Characters just beside those ranges, and invisible ones that are not whitespace.
NEAR_SPACES = "\x08\x0e\x1b!\x84\x86\x9f\xa1\u167f\u1681\u180e\u1fff\u200b\u200c\u200d\u2027"
NEAR_SPACES += "\u202a\u202e\u2030\u205e\u2060\u2fff\u3001\ufeff"

ALPHABET = (
    "abcABC xyz"  # letters and the plain space
    + "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"  # sacreBLEU's punctuation (split off words)
    + "«»“”„–—…¡¿、。，！？"  # Unicode punctuation (not split off)
    + "日本語中文字한국어"  # CJK and Hangul
    + "👍🏽😀\u200d"  # emoji, a skin-tone modifier, a zero-width joiner
    + "e\u0301\u0308"  # combining marks
    + "İIıiẞßΣσς"  # letters whose lowercase differs in length or by context
    + "\t\n\u00a0\u2009\u3000\x1c"  # other whitespace
)


def sacrebleu_statistics(
    references: list[list[str]], hypotheses: list[str], word_order: int, lowercase: bool
) -> np.ndarray:
    scorer = SacrebleuCHRF(char_order=6, word_order=word_order, beta=2, lowercase=lowercase)
    rows = scorer._extract_corpus_statistics(hypotheses, references)
    return np.array(rows, dtype=np.float64).reshape(len(hypotheses), 3 * (6 + word_order))


def ours(
    references: list[list[str]], systems: dict[str, list[str]], word_order: int, lowercase: bool
) -> dict[str, np.ndarray]:
    return chrf_statistics.chrf_segment_statistics(
        references, systems, char_order=6, word_order=word_order, beta=2, lowercase=lowercase
    )


def assert_equal_to_sacrebleu(
    references: list[list[str]],
    systems: dict[str, list[str]],
    word_order: int,
    lowercase: bool,
    pin: str | None = None,
) -> None:
    """Every segment's statistics equal sacreBLEU's; on a shared test set (``pin`` names it)
    sacreBLEU's statistics are pinned (tests/oracle_pins.py)."""
    computed = ours(references, systems, word_order, lowercase)
    for name, hypotheses in systems.items():
        if pin is None:
            expected = sacrebleu_statistics(references, hypotheses, word_order, lowercase)
        else:
            texts = [text for column in (*references, hypotheses) for text in column]
            described = f"sacrebleu {sacrebleu.__version__} chrf {word_order} {lowercase}"
            expected = oracle_values(
                f"{pin}-{name}",
                inputs_key(described, texts),
                len(hypotheses),
                lambda indices, hypotheses=hypotheses: sacrebleu_statistics(
                    [[ref[i] for i in indices] for ref in references],
                    [hypotheses[i] for i in indices],
                    word_order,
                    lowercase,
                ).astype(np.int32),
            )
        np.testing.assert_array_equal(computed[name], expected, err_msg=name)


segment = st.text(alphabet=ALPHABET, max_size=60)
long_segment = st.text(alphabet=ALPHABET, min_size=200, max_size=2000)


@st.composite
def random_test_sets(draw: st.DrawFn) -> tuple[list[list[str]], dict[str, list[str]]]:
    n_segments = draw(st.integers(1, 6))
    text = st.one_of(segment, long_segment) if draw(st.booleans()) else segment
    column = st.lists(text, min_size=n_segments, max_size=n_segments)
    references = draw(st.lists(column, min_size=1, max_size=3))
    systems = {f"s{i}": draw(column) for i in range(draw(st.integers(1, 3)))}
    if draw(st.booleans()):  # a system that copies a reference: full matches
        systems["copy"] = list(references[-1])
    return references, systems


@settings(max_examples=400, deadline=None)
@given(random_test_sets(), st.sampled_from([0, 2]), st.booleans())
def test_random_text_gives_sacrebleus_statistics(data, word_order, lowercase):
    references, systems = data
    assert_equal_to_sacrebleu(references, systems, word_order, lowercase)


@pytest.mark.parametrize("word_order", [0, 2])
def test_every_python_whitespace_is_removed_and_splits_words(word_order):
    segments = [f"ab{ALL_SPACES}cd,", f"{ALL_SPACES}", ""]
    segments += [f"x{space}y. (z{space}y" for space in ALL_SPACES]
    segments += [f"x{char}y. (z{char}y" for char in NEAR_SPACES]
    references = [[f"xy. (z y{ALL_SPACES}" for _ in segments], [s[::-1] for s in segments]]
    assert_equal_to_sacrebleu(references, {"a": segments, "b": segments[::-1]}, word_order, False)


@pytest.mark.parametrize("word_order", [0, 2])
def test_empty_references_and_hypotheses(word_order):
    references = [["", "a", "", " ", "abc def"], ["", "", "b", "\t", ""]]
    systems = {"a": ["", "", "b", "", "abc"], "b": ["x", "a", "", " ", ""]}
    assert_equal_to_sacrebleu(references, systems, word_order, False)


def test_long_segments_with_many_distinct_characters():
    """Tables and buffers grow past their first size: 20,000 distinct CJK characters."""
    rng = np.random.default_rng(5)
    chars = [chr(0x4E00 + int(c)) for c in rng.integers(0, 20_000, size=30_000)]
    words = ["".join(chars[i : i + 7]) + ("," if i % 3 else "") for i in range(0, 30_000, 7)]
    reference = " ".join(words)
    hypothesis = " ".join(words[::2] + words[1::2])
    assert_equal_to_sacrebleu(
        [[reference, "short"]], {"s": [hypothesis, reference]}, word_order=2, lowercase=False
    )


def test_segments_are_encoded_a_block_at_a_time(monkeypatch):
    references = [[f"segment {i} ref, words" for i in range(11)]]
    systems = {"s": [f"segment {i % 3} hyp words!" for i in range(11)]}
    whole = ours(references, systems, 2, False)
    monkeypatch.setattr(code_points, "SEGMENT_BLOCK", 4)
    np.testing.assert_array_equal(ours(references, systems, 2, False)["s"], whole["s"])


@pytest.mark.parametrize(("word_order", "lowercase"), [(0, False), (2, False), (2, True)])
def test_wmt17_ende_gives_sacrebleus_statistics(word_order, lowercase):
    data = shared_dataset("wmt17-newstest2017-ende")
    reference = read_lines(data / "ref" / "ref.de")
    names = ["online-A.0.de", "PROMT-Rule-based.4735.de"]
    systems = {name: read_lines(data / "sys" / name) for name in names}
    pin = f"chrf-statistics-wmt17-{word_order}-{'lc' if lowercase else 'cased'}"
    assert_equal_to_sacrebleu([reference], systems, word_order, lowercase, pin)


def test_wmt17_ende_with_several_references():
    """Two systems serve as extra references: the best reference is chosen per segment."""
    data = shared_dataset("wmt17-newstest2017-ende")
    references = [
        read_lines(data / "ref" / "ref.de"),
        read_lines(data / "sys" / "online-B.0.de"),
        read_lines(data / "sys" / "KIT.4950.de"),
    ]
    systems = {"xmu": read_lines(data / "sys" / "xmu.4910.de")}
    assert_equal_to_sacrebleu(references, systems, 2, False, "chrf-statistics-wmt17-3refs")


def test_without_the_compiled_module_sacrebleus_python_says_so_and_agrees():
    script = textwrap.dedent(
        """
        import sys, warnings
        sys.modules["mteval_core.metrics._chrf_counts"] = None  # as if built without a compiler
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            from mteval_core.settings.options import Options
            from mteval_core.metrics.scoring import score_test_set
            from mteval_core.model.testset import TestSet, TextColumn
            text = ("Der Hund, bellt!", "日本語 テキスト", "")
            test_set = TestSet(
                references=[TextColumn("ref", text, "ref")],
                systems=[TextColumn("s", ("Die Hunde bellen.", "日本語", "x"), "s")],
            )
            corpus = score_test_set(test_set, ["chrf", "chrf++"], Options()).corpus()["s"]
            print(repr(corpus["chrf"]), repr(corpus["chrf++"]))
        print(sum("sacreBLEU's pure-Python" in str(w.message) for w in caught))
        """
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))),
        check=True,
    )
    chrf, chrf_pp, warned = done.stdout.split()
    test_set = make_test_set(
        ["Der Hund, bellt!", "日本語 テキスト", ""],
        {"s": ["Die Hunde bellen.", "日本語", "x"]},
    )
    for name, fallback in (("chrf", chrf), ("chrf++", chrf_pp)):
        metric = get_metric(name, Options())
        assert float(fallback) == metric.corpus_score(metric.text_statistics(test_set, "s"))
    assert int(warned) >= 1
