"""The Data page's Snowball language follows the loaded set's target language until the user
picks one (a user found it on english beside a caption recommending snowball-german)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from mteval_core.model.testset import TestSet, TextColumn

ROOT = Path(__file__).resolve().parents[2]


def data_page_with(target: str) -> AppTest:
    lines = ("Ein Satz.", "Noch einer.")
    test_set = TestSet(
        references=[TextColumn("ref", lines, f"ref.{target}")],
        systems=[TextColumn("system", lines, f"system.{target}")],
    )
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    app.session_state["test_set"] = test_set
    app.switch_page("pages/0_Data.py").run()
    assert not app.exception, [e.message for e in app.exception]
    return app


def snowball_box(app: AppTest):
    return next(box for box in app.selectbox if box.label == "Snowball language")


def test_german_output_suggests_the_german_stemmer_and_a_choice_sticks():
    app = data_page_with("de")
    assert snowball_box(app).value == "german"
    assert app.session_state["options"].stem_language == "german"
    snowball_box(app).set_value("dutch").run()
    app.run()
    assert snowball_box(app).value == "dutch"
    assert app.session_state["options"].stem_language == "dutch"


def test_english_output_keeps_english():
    assert snowball_box(data_page_with("en")).value == "english"
