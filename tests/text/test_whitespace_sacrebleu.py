"""Every tokenizer that signs with a sacreBLEU name splits as sacreBLEU's BLEU does: on every
Unicode whitespace (Python's str.split), NBSP, U+2009 and U+3000 included; GTM 1.4's split
(the "gtm14" tokenizer) keeps its five separators.

Issue 42: ``tok:none`` split on GTM's five characters only, so French with NBSP scored 35.22
where sacreBLEU's none gives 68.87 under the same signature. The oracles are sacreBLEU 2.6's own
tokenizer classes, called as its BLEU calls them (``tokenizer(line.rstrip()).split()``), and
its corpus BLEU on WMT23 en-uk and en-cs, whose references hold NBSP on 227 and 86 lines (GTM's
split there gave ONLINE-B 33.87 BLEU on en-uk where sacreBLEU's none gives 34.89).
"""

from __future__ import annotations

import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.metrics.bleu import _get_tokenizer

from mteval_core.metrics.scoring import score_test_set
from mteval_core.settings.options import Options
from mteval_core.text import tokenizers
from tests.helpers import make_test_set, wmt23_pair

# every code point Python's str.split() splits on (29 in Unicode 15), and what sits near spaces
UNICODE_WHITESPACE = "".join(c for c in map(chr, range(0x110000)) if c.isspace())
AROUND = "ab09.,-&;'\"()<>{}/中文。，かなカナ한€\u200b\ufeff\x01\x1b"
TEXTS = st.text(alphabet=UNICODE_WHITESPACE + AROUND, max_size=40)
SACREBLEU_NAMED = ("13a", "intl", "zh", "char", "none")  # ours, signed with sacreBLEU's names
ORACLES = {name: _get_tokenizer(name)() for name in SACREBLEU_NAMED}


def sacre(name: str, line: str) -> list[str]:
    return ORACLES[name](line.rstrip()).split()


def python_path(lines: list[str], options: Options, patch: pytest.MonkeyPatch) -> list:
    with patch.context() as inner:
        inner.setattr(tokenizers, "_scan", None)
        return tokenizers.tokenize(lines, options)


def test_the_alphabet_holds_the_whitespace_of_the_issue():
    assert {"\xa0", "\u2009", "\u3000", "\u202f", "\x1c", "\x85"} <= set(UNICODE_WHITESPACE)


@settings(max_examples=600, deadline=None)
@given(TEXTS, st.sampled_from(SACREBLEU_NAMED), st.booleans())
def test_every_sacrebleu_tokenizer_splits_on_unicode_whitespace(line, name, lowercase):
    options = Options(tokenize=name, lowercase=lowercase)
    expected = [sacre(name, line.lower() if lowercase else line)]
    with pytest.MonkeyPatch.context() as patch:
        assert python_path([line], options, patch) == expected, name
    if tokenizers._scan is not None:
        assert (
            tokenizers._scan.scan(*tokenizers._compiled_arguments([line], options)) == expected
        ), name


@settings(max_examples=300, deadline=None)
@given(TEXTS)
def test_the_split_of_outside_tokenizers_is_str_split(line):
    """MeCab's and SentencePiece's spaced-out lines are split by the compiled SPLIT scheme."""
    if tokenizers._scan is None:
        pytest.skip("built without a C compiler")
    assert tokenizers._scan.scan([line], tokenizers._SCHEMES["spm"], b"") == [line.split()]


def test_gtm14_keeps_gtm_14s_five_separators():
    line = " a\xa0b\u3000c\u2009d\te\x0bf\x01 "
    expected = [["a\xa0b\u3000c\u2009d", "e\x0bf"]]  # Java's trim drops the \x01 at the end
    assert tokenizers.tokenize([line], Options(tokenize="gtm14")) == expected
    with pytest.MonkeyPatch.context() as patch:
        assert python_path([line], Options(tokenize="gtm14"), patch) == expected
    assert tokenizers.tokenize([line], Options(tokenize="none")) == [line.split()]


@pytest.mark.parametrize("pair", ["en-uk", "en-cs"])
def test_bleu_with_none_equals_sacrebleus_on_wmt23_outputs_with_nbsp(pair, monkeypatch):
    texts = dict(wmt23_pair(pair))
    reference = texts.pop("refA")
    assert sum("\xa0" in line for line in reference) > 80
    systems = dict(sorted(texts.items())[:6])
    test_set = make_test_set(reference, systems)
    compiled = score_test_set(test_set, ["bleu"], Options(tokenize="none")).corpus()
    monkeypatch.setattr(tokenizers, "_scan", None)
    python = score_test_set(test_set, ["bleu"], Options(tokenize="none")).corpus()
    for name, hypotheses in systems.items():
        expected = sacrebleu.corpus_bleu(hypotheses, [reference], tokenize="none").score
        assert compiled[name]["bleu"] == pytest.approx(expected, abs=1e-9), name
        assert python[name]["bleu"] == pytest.approx(expected, abs=1e-9), name


def test_the_gtm_command_keeps_gtm_14s_split(tmp_path, capsys):
    """`mteval gtm` reproduces gtm.jar, whose words keep NBSP: "a\\xa0b c" against "a b c"
    matches c alone (P 1/2, R 1/3, F 0.4), where a split on Unicode whitespace matches all."""
    from mteval_core.cli import main

    candidate, reference = tmp_path / "cand.txt", tmp_path / "ref.txt"
    candidate.write_text("a\xa0b c\n", encoding="utf-8")
    reference.write_text("a b c\n", encoding="utf-8")
    assert main(["gtm", "+s", str(candidate), str(reference)]) == 0
    segment_line = capsys.readouterr().out.splitlines()[0]
    assert float(segment_line.split()[-1]) == pytest.approx(0.4)
