"""The Data page's uploads as a person makes them: a system output whose first segment looks like
another format is read as plain text (with a note that says so), and a file refused for a carriage
return inside a line loads once the user chooses how to read it (issue 26)."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from pages.ui.markdown_escape import escape_markdown

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = b"The cat sat on the mat .\nIt rains .\nA dog barks .\n"
CR_LABEL = "Carriage returns without a line feed (CR inside a line, old Mac line ends)"


def data_page() -> AppTest:
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60)
    app.switch_page("pages/0_Data.py").run()
    assert not app.exception, [e.message for e in app.exception]
    return app


def submit(app: AppTest, system: tuple[str, bytes], carriage_returns: str | None = None):
    """Put the reference and ``system`` into the form (and the CR choice), then submit it."""
    references, systems = app.file_uploader[0], app.file_uploader[1]
    references.set_value([("ref.en", REFERENCE, "text/plain")])
    systems.set_value([(*system, "text/plain")])
    if carriage_returns is not None:
        next(radio for radio in app.radio if radio.label == CR_LABEL).set_value(carriage_returns)
    next(b for b in app.button if b.label == "Use this test set").click()
    app.run()
    assert not app.exception, [e.message for e in app.exception]
    return app


def loaded_segments(app: AppTest) -> tuple[str, ...] | None:
    test_set = app.session_state.get("test_set")  # None: the sample is still shown
    return test_set.systems[0].segments if test_set is not None else None


def test_a_first_segment_that_is_a_json_object_is_a_segment_with_a_note():
    system = b'{"system": "A", "hypothesis": "x"}\nIt rains .\nA dog barks .\n'
    app = submit(data_page(), ("mt.txt", system))
    assert not app.error, [e.value for e in app.error]
    assert loaded_segments(app) == (
        '{"system": "A", "hypothesis": "x"}',
        "It rains .",
        "A dog barks .",
    )
    notes = [info.value for info in app.info]  # shown as text: escaped Markdown
    said = escape_markdown("mt.txt: read as plain text, one segment per line: line 1 is a JSON")
    assert any(note.startswith(said) and "line 2 is not" in note for note in notes), notes


def test_the_note_is_shown_beside_the_error_when_the_files_do_not_fit():
    system = b"<doc> It rains .\nA dog barks .\n"  # two segments: the reference has three
    app = submit(data_page(), ("mt.txt", system))
    assert "has 2 segments" in " ".join(e.value for e in app.error)
    said = escape_markdown("line 1: this <doc> has no docid")
    assert any(said in info.value for info in app.info), [info.value for info in app.info]
    assert loaded_segments(app) is None  # the sample stays


def test_a_carriage_return_is_refused_with_the_choice_then_read_as_chosen():
    system = ("mt.txt", b"The cat\ris on the mat .\nIt rains .\nA dog barks .\n")
    app = submit(data_page(), system)
    assert "line 1, column 8" in app.error[0].value and "carriage return" in app.error[0].value
    hint = app.expander[0].markdown[0].value
    assert "choose 'end the segment there, as sacreBLEU does' or 'read as a space'" in hint
    assert loaded_segments(app) is None
    app = submit(app, system, "space")
    assert not app.error, [e.value for e in app.error]
    assert loaded_segments(app) == ("The cat is on the mat .", "It rains .", "A dog barks .")
    split = ("mt.txt", b"The cat is on the mat .\rIt rains .\nA dog barks .\n")
    app = submit(app, split, "split")
    assert loaded_segments(app) == ("The cat is on the mat .", "It rains .", "A dog barks .")


BOM_LABEL = "Byte order mark (U+FEFF) at the start of a plain-text file"


def test_a_byte_order_mark_is_kept_with_a_note_then_dropped_when_chosen():
    """As sacreBLEU reads plain text, the mark is the first character (issue 22, part 2)."""
    system = ("mt.txt", b"\xef\xbb\xbfThe cat .\nIt rains .\nA dog barks .\n")
    app = submit(data_page(), system)
    assert not app.error, [e.value for e in app.error]
    assert loaded_segments(app)[0] == "\ufeffThe cat ."
    said = escape_markdown("mt.txt: starts with a byte order mark (U+FEFF)")
    (note,) = [info.value for info in app.info if info.value.startswith(said)]
    # the way to drop it in the page's words: its radio and button, no command-line flag
    offer = "choose 'drop it' under 'Byte order mark' above, then press 'Use this test set' again"
    assert note.endswith(escape_markdown(f"to drop it, {offer}")), note
    assert "--" not in note
    next(radio for radio in app.radio if radio.label == BOM_LABEL).set_value("drop")
    app = submit(app, system)
    assert loaded_segments(app)[0] == "The cat ."
