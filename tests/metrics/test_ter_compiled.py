"""TER's compiled statistics (metrics/_ter_edits.pyx) against sacreBLEU's own.

Every comparison is with sacreBLEU's per-segment statistics (``TER._extract_corpus_statistics``),
live or pinned, never with our fallback, so a fault our two paths share cannot hide:

- live, on random text from a few words (shifts everywhere), on Unicode punctuation, case and
  whitespace, empty and blank segments, 1-3 references, case-sensitive and not;
- pinned by scripts/pin_ter_statistics.py (sacreBLEU takes minutes there): slices of every
  shared test set, every system, and synthetic segments past sacreBLEU's limits (shift size and
  distance, the 1,000-candidate limit, a widened beam);
- ``mteval score --metrics ter`` gives the same JSON, byte for byte, with and without the
  compiled module.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics import TER as SacrebleuTER

from mteval_core.cli import main
from mteval_core.metrics import code_points, ter_statistics
from tests.helpers import ROOT, read_lines, shared_dataset

pytestmark = pytest.mark.skipif(
    ter_statistics.compiled_module() is None, reason="the compiled TER module is not built"
)

FIXTURE = json.loads(
    (Path(__file__).parent / "fixtures" / "ter_sacrebleu.json").read_text(encoding="utf-8")
)


def sacrebleu_statistics(
    references: list[list[str]], hypotheses: list[str], case_sensitive: bool
) -> np.ndarray:
    rows = SacrebleuTER(case_sensitive=case_sensitive)._extract_corpus_statistics(
        hypotheses, references
    )
    return np.array(rows, dtype=np.float64).reshape(len(hypotheses), 2)


def assert_equal_to_sacrebleu(
    references: list[list[str]], systems: dict[str, list[str]], case_sensitive: bool
) -> None:
    ours = ter_statistics.ter_segment_statistics(references, systems, case_sensitive=case_sensitive)
    for name, hypotheses in systems.items():
        expected = sacrebleu_statistics(references, hypotheses, case_sensitive)
        np.testing.assert_array_equal(ours[name], expected, err_msg=name)


# A few words, some differing only in case: every hypothesis has many shift candidates.
FEW_WORDS = ["a", "b", "c", "A", "the", "The", "cat"]
few_word_segment = st.lists(st.sampled_from(FEW_WORDS), max_size=12).map(" ".join)


@st.composite
def few_word_test_sets(draw: st.DrawFn) -> tuple[list[list[str]], dict[str, list[str]]]:
    n_segments = draw(st.integers(1, 3))
    column = st.lists(few_word_segment, min_size=n_segments, max_size=n_segments)
    references = draw(st.lists(column, min_size=1, max_size=3))
    systems = {f"s{i}": draw(column) for i in range(draw(st.integers(1, 2)))}
    if draw(st.booleans()):  # a system that repeats another's words: computed once, copied
        systems["copy"] = [" " + segment for segment in systems["s0"]]
    return references, systems


@settings(max_examples=150, deadline=None)
@given(few_word_test_sets(), st.booleans())
def test_random_few_word_text_gives_sacrebleus_statistics(data, case_sensitive):
    references, systems = data
    assert_equal_to_sacrebleu(references, systems, case_sensitive)


# Pairs where shifts tie on edits saved, span length and start, and the earliest target must win
# (found by a search against a build that took the latest): the tie-breaking changes the edits.
TIED_SHIFTS = [
    ("c a b b a c b c c c c c", "a b c a c b b a b a b c"),
    ("a a e f e d a d f e c f", "b b d a a c f e f f c"),
    ("c d b b d d c d e e e", "e a d a c c e e e d c"),
    ("d a c a c d a", "c a d b a d a a d c b"),
    ("e b e d c d a a", "d a b e e a e e d"),
]


def test_tied_shifts_are_broken_as_sacrebleu_breaks_them():
    references = [[reference for reference, _ in TIED_SHIFTS]]
    assert_equal_to_sacrebleu(references, {"s": [h for _, h in TIED_SHIFTS]}, case_sensitive=True)


def test_the_search_stops_at_exactly_1000_candidates():
    """A pair whose candidates reach exactly 1,000 after a span (found by a search against a
    build that stopped at 1,001): that round's shift is not made, as in sacreBLEU."""
    reference = "b b a a c c c a c b a a b b b b c a c c c c a b c a b b c a b b b b b c b c c a"
    hypothesis = "b c c a b c a b c b b a b a b b c a c c c a a c a b b a b b c c c b c b b b"
    assert_equal_to_sacrebleu([[reference]], {"s": [hypothesis]}, case_sensitive=True)


# Words of Unicode punctuation, letters whose lowercase differs in length, joined by any space.
UNICODE_WORDS = [
    "«",
    "»",
    "“Haus”",
    "—",
    "…",
    "¿qué?",
    "、",
    "。",
    "İ",
    "i̇",
    "ẞ",
    "ß",
    "ΣΑΣ",
    "σας",
    "ΟΔΟΣ.",
]
SPACES = [" ", "  ", "\t", "\u00a0", "\u3000", "\u2009", "\n", "\x1c", "\u200b"]


@st.composite
def unicode_segments(draw: st.DrawFn) -> str:
    words = draw(st.lists(st.sampled_from(UNICODE_WORDS), max_size=10))
    gaps = draw(st.lists(st.sampled_from(SPACES), min_size=len(words) + 1, max_size=len(words) + 1))
    return "".join(gap + word for gap, word in zip(gaps, [*words, ""], strict=True))


@settings(max_examples=60, deadline=None)
@given(st.lists(unicode_segments(), min_size=4, max_size=4), st.booleans())
def test_unicode_punctuation_case_and_whitespace(segments, case_sensitive):
    references = [segments[:2], segments[2:]]
    assert_equal_to_sacrebleu(references, {"s": [segments[1], segments[0]]}, case_sensitive)


# Python's whitespace (what str.split() splits on): the compiled code has it as a table.
ALL_SPACES = "".join(chr(c) for c in range(0x110000) if chr(c).isspace())
# Characters just beside those ranges, and invisible ones that are not whitespace.
NEAR_SPACES = "\x08\x0e\x1b!\x84\x86\x9f\xa1\u167f\u1681\u180e\u1fff\u200b\u200c\u200d"
NEAR_SPACES += "\u2027\u202a\u202e\u2030\u205e\u2060\u2fff\u3001\ufeff"


def test_every_python_whitespace_splits_words_and_nothing_else_does():
    hypotheses = [f"b{space}a c" for space in ALL_SPACES] + [f"b{c}a c" for c in NEAR_SPACES]
    hypotheses.append(f"{ALL_SPACES}a{ALL_SPACES}b{ALL_SPACES}")
    references = [
        ["a b c"] * len(hypotheses),
        [f"a{c}b c" for c in ALL_SPACES + NEAR_SPACES] + [""],
    ]
    assert_equal_to_sacrebleu(references, {"s": hypotheses}, case_sensitive=False)


@pytest.mark.parametrize("case_sensitive", [False, True])
def test_empty_and_whitespace_only_segments(case_sensitive):
    references = [["", "a b", "", " \t", "a", "\u3000"], ["", "", "b a", "x", "\n", "A"]]
    systems = {
        "a": ["", "", "a b", " ", "\u00a0a\u2003", "a"],
        "b": ["x y", "B A", "", "", "", "\u200b"],
    }
    assert_equal_to_sacrebleu(references, systems, case_sensitive)


def test_segments_are_tokenized_a_block_at_a_time(monkeypatch):
    references = [[f"the cat {i} sat on the mat" for i in range(11)]]
    systems = {"s": [f"on the mat sat the cat {i % 3}" for i in range(11)]}
    whole = ter_statistics.ter_segment_statistics(references, systems, case_sensitive=False)
    monkeypatch.setattr(code_points, "SEGMENT_BLOCK", 4)
    blocks = ter_statistics.ter_segment_statistics(references, systems, case_sensitive=False)
    np.testing.assert_array_equal(blocks["s"], whole["s"])


def test_a_system_of_the_wrong_length_is_refused():
    with pytest.raises(ValueError, match="s: 1 hypotheses for 2 segments"):
        ter_statistics.ter_segment_statistics([["a", "b"]], {"s": ["a"]}, case_sensitive=False)


@pytest.mark.parametrize(
    "case",
    FIXTURE["synthetic"],
    ids=[f"{c['name']}-{c['case_sensitive']}" for c in FIXTURE["synthetic"]],
)
def test_segments_past_sacrebleus_limits_give_its_pinned_statistics(case):
    references = [[reference] for reference in case["references"]]
    ours = ter_statistics.ter_segment_statistics(
        references, {"s": [case["hypothesis"]]}, case_sensitive=case["case_sensitive"]
    )["s"]
    assert ours.tolist() == [[case["edits"], case["reference_length"]]]


@pytest.mark.parametrize(
    "pinned", FIXTURE["sets"], ids=[f"{s['name']}-{s['case_sensitive']}" for s in FIXTURE["sets"]]
)
def test_shared_sets_give_sacrebleus_pinned_statistics(pinned):
    """Every system of every shared set, its first segments and its longest ones."""
    folder = shared_dataset(pinned["folder"])
    segments = pinned["segments"]

    def column(path: Path) -> list[str]:
        lines = read_lines(path)
        return [lines[i] for i in segments]

    references = [column(folder / "ref" / name) for name in pinned["references"]]
    systems = {name: column(folder / "sys" / name) for name in pinned["edits"]}
    ours = ter_statistics.ter_segment_statistics(
        references, systems, case_sensitive=pinned["case_sensitive"]
    )
    for name, edits in pinned["edits"].items():
        assert ours[name][:, 0].tolist() == edits, name
        assert ours[name][:, 1].tolist() == pinned["reference_length"], name


def test_wmt17_slice_gives_sacrebleus_statistics_live():
    """The pinned numbers are sacreBLEU's: a few segments of WMT17 against it, live."""
    data = shared_dataset("wmt17-newstest2017-ende")
    reference = read_lines(data / "ref" / "ref.de")[:25]
    systems = {
        name: read_lines(data / "sys" / name)[:25] for name in ("xmu.4910.de", "FBK.4870.de")
    }
    assert_equal_to_sacrebleu([reference], systems, case_sensitive=False)


FALLBACK = """
import sys
sys.modules["mteval_core.metrics._ter_edits"] = None  # as if built without a compiler
from mteval_core.cli import main
raise SystemExit(main(sys.argv[1:]))
"""


def test_compiled_and_fallback_give_the_same_json(tmp_path, capsys, monkeypatch):
    """``mteval score --metrics ter --segments``, byte for byte, with and without the module;
    the fallback says it is slow."""
    texts = {
        "ref.txt": ["The cat sat on the mat .", "", "a b c d", "Hello , World !", "x y"],
        "ref2.txt": ["the mat , the cat", "nothing", "d c b a", "hello world", ""],
        "s1.txt": ["on the mat the cat sat .", "something", "c a b", "World , hello !", " "],
        "s2.txt": ["THE CAT SAT ON THE MAT .", "", "a b c d", "«Hallo» Welt", "y x y x"],
    }
    for name, lines in texts.items():
        (tmp_path / name).write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    arguments = ["score", "--refs", "ref.txt", "ref2.txt", "--hyps", "s1.txt", "s2.txt"]
    arguments += ["--metrics", "ter", "--segments", "--format", "json"]
    monkeypatch.chdir(tmp_path)
    for extra in ([], ["--ter-case-sensitive"]):
        assert main([*arguments, *extra]) == 0
        compiled = capsys.readouterr().out
        fallback = subprocess.run(
            [sys.executable, "-c", FALLBACK, *arguments, *extra],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            check=True,
        )
        assert fallback.stdout == compiled
        assert "sacreBLEU's pure-Python shift search" in fallback.stderr
        assert json.loads(compiled)["scores"]["s1"]["ter"] > 0
