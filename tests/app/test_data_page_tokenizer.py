"""What a user who opens WMT23 en-ja sees, on the Data page and every page that scores.

Issue 42: with MeCab missing (after app.sh) the Data page fell back to 13a with one warning that
did not mention char: ONLINE-B scored 17.01 BLEU against the official 40.23, the best system
changed and 36 of 120 pairs were ordered the other way, where `mteval score` refuses. Now:

- MeCab missing: the Tokenizer box shows ja-mecab (sacreBLEU's default, as `mteval score`
  chooses it), an error says it cannot run, what to install and that WMT's official BLEU uses
  char; Home, Scores and the Bitext grid refuse to score with the same problem. Choosing char
  gives the official numbers.
- MeCab there: ja-mecab, sacreBLEU's BLEU(trg_lang="ja") numbers, and a caption naming char.
- A tokenizer chosen on one test set is not carried to the next: that one starts on its own
  language's default.
"""

from __future__ import annotations

import hashlib
import sys
import tempfile
from pathlib import Path

import pytest
import sacrebleu
from streamlit.testing.v1 import AppTest

from mteval_core.metrics.ter import unspaced_note
from mteval_core.model.testset import TestSet, TextColumn
from pages.ui.markdown_escape import escape_markdown
from tests.helpers import wmt23_official_bleu, wmt23_pair

ROOT = Path(__file__).resolve().parents[2]
SYSTEMS = ("ONLINE-B", "ONLINE-W", "ONLINE-Y")  # best first under char


def wmt23(pair: str) -> TestSet:
    """refA and SYSTEMS of a WMT23 pair, under their released file names."""
    texts = wmt23_pair(pair)
    target = pair[-2:]
    return TestSet(
        references=[TextColumn("refA", texts["refA"], f"generaltest2023.{pair}.ref.refA.{target}")],
        systems=[
            TextColumn(name, texts[name], f"generaltest2023.{pair}.hyp.{name}.{target}")
            for name in SYSTEMS
            if name in texts
        ],
    )


def opened(test_set: TestSet, page: str = "pages/0_Data.py") -> AppTest:
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    app.session_state["test_set"] = test_set
    return shown(app, page)


def shown(app: AppTest, page: str) -> AppTest:
    app.switch_page(page).run()
    assert not app.exception, [e.message for e in app.exception]
    return app


def tokenizer_box(app: AppTest):
    return next(box for box in app.selectbox if box.label == "Tokenizer")


def plain(element) -> str:
    return element.value.replace("\\", "")  # markdown escapes undone


def home_bleu(app: AppTest) -> dict[str, float]:
    table = app.dataframe[0].value
    return table["BLEU"].to_dict()


def test_without_mecab_every_page_refuses_and_names_char(monkeypatch):
    monkeypatch.setitem(sys.modules, "MeCab", None)
    app = opened(wmt23("en-ja"))
    assert tokenizer_box(app).value == "ja-mecab"
    assert app.session_state["options"].tokenize == "ja-mecab"
    (error,) = [plain(e) for e in app.error]
    assert error.startswith("The output is in Japanese, whose default tokenizer")
    assert 'pip install "mteval-core[ja]"' in error and "WMT's official BLEU" in error
    assert "char" in error and "--" not in error  # no command-line flag on a page
    for page in ("app.py", "pages/1_Scores.py", "pages/3_Bitext_grid.py"):
        shown(app, page)
        problems = [plain(e) for e in app.error]
        assert any('pip install "mteval-core[ja]"' in p for p in problems), page
        assert any("char" in m.value for m in app.markdown), page  # the hint: char, as WMT
        assert not app.dataframe or page == "pages/3_Bitext_grid.py", page
        assert app.session_state["options"].tokenize == "ja-mecab", page  # never 13a
    shown(app, "pages/0_Data.py")
    tokenizer_box(app).set_value("char").run()
    assert not app.error
    scores = home_bleu(shown(app, "app.py"))
    official = wmt23_official_bleu("en-ja")
    for system in SYSTEMS:
        assert scores[system] == pytest.approx(official[system], abs=5e-5), system
    assert max(scores, key=scores.get) == "ONLINE-B"


def test_with_mecab_the_default_is_sacrebleus():
    pytest.importorskip("MeCab")
    pytest.importorskip("ipadic")
    test_set = wmt23("en-ja")
    app = opened(test_set)
    assert tokenizer_box(app).value == "ja-mecab" and not app.error
    assert any("WMT's official BLEU tokenizes Japanese with char" in plain(c) for c in app.caption)
    assert "tok:ja-mecab" in app.caption[-1].value
    scores = home_bleu(shown(app, "app.py"))
    bleu = sacrebleu.BLEU(trg_lang="ja")
    reference = [test_set.references[0].segments]
    for column in test_set.systems:
        expected = bleu.corpus_score(list(column.segments), reference).score
        assert scores[column.name] == pytest.approx(expected, abs=5e-5), column.name


def test_a_choice_stays_with_its_test_set(monkeypatch):
    monkeypatch.setitem(sys.modules, "MeCab", None)
    app = opened(wmt23("en-ja"))
    tokenizer_box(app).set_value("char").run()
    assert app.session_state["options"].tokenize == "char"
    shown(app, "pages/1_Scores.py")
    assert tokenizer_box(shown(app, "pages/0_Data.py")).value == "char"  # kept across pages
    app.session_state["test_set"] = wmt23("en-zh")
    app.run()
    assert tokenizer_box(app).value == "zh"
    assert app.session_state["options"].tokenize == "zh"


def test_ter_options_and_their_note_on_the_data_page():
    app = opened(wmt23("en-zh"))
    note = escape_markdown(unspaced_note("Chinese"))
    assert note in [c.value for c in app.caption]
    boxes = {box.label: box for box in app.checkbox}
    boxes["TER: normalized"].check()
    boxes["TER: Asian support"].check().run()
    options = app.session_state["options"]
    assert options.ter.normalized and options.ter.asian_support and not options.ter.no_punct
    assert note not in [c.value for c in app.caption]


def test_a_sentencepiece_upload_is_checked_kept_in_memory_and_signed(tmp_path, monkeypatch):
    spm = pytest.importorskip("sentencepiece")
    corpus = tmp_path / "corpus.txt"
    corpus.write_text("\n".join(wmt23_pair("en-zh")["refA"][:500]), encoding="utf-8")
    spm.SentencePieceTrainer.train(
        input=str(corpus), model_prefix=str(tmp_path / "zh"), vocab_size=2000, minloglevel=2
    )
    model = (tmp_path / "zh.model").read_bytes()
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "server-tmp"))  # nothing lands here
    (tmp_path / "server-tmp").mkdir()
    app = opened(wmt23("en-zh"))
    tokenizer_box(app).set_value("flores200").run()
    assert "Upload its .model file above" in plain(app.error[0])
    assert app.session_state["options"].tokenize == "zh"  # kept until a model comes
    (uploader,) = [u for u in app.file_uploader if u.label.startswith("SentencePiece model")]
    uploader.set_value(("my notes.model", b"not a model at all", "application/octet-stream"))
    app.run()
    refused = [plain(e) for e in app.error]
    assert any(e.startswith("my notes.model: this is not a SentencePiece model") for e in refused)
    assert not any(str(tmp_path) in e or "/tmp" in e for e in refused)  # no server path
    uploader = next(u for u in app.file_uploader if u.label.startswith("SentencePiece model"))
    uploader.set_value(("zh.model", model, "application/octet-stream")).run()
    assert not app.exception and not app.error, [plain(e) for e in app.error]
    options = app.session_state["options"]
    assert options.tokenize == "flores200" and options.spm_model.name == "zh.model"
    digest = hashlib.sha256(model).hexdigest()
    assert f"tok:flores200|spm-model:{digest[:12]}" in app.caption[-1].value
    assert list((tmp_path / "server-tmp").iterdir()) == []
    scores = home_bleu(shown(app, "app.py"))  # scored through the model in memory
    assert set(scores) == set(SYSTEMS)
