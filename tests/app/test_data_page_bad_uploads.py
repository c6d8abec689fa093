"""Files uploaded through the Data page's form (AppTest's file uploaders): a bad one gets the
friendly message (file, line, what to do) while the previous test set stays loaded, never
Streamlit's error box; a judgments file that rates many systems the test set lacks gets a note
that counts them and names a few."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = b"the cat sat on the mat\na dog ran\nit rains\n"
SYSTEM = b"the cat sat on a mat\na dog runs\nit rains\n"


def upload(references, systems, human=None) -> AppTest:
    """The Data page after its form was sent with these (name, bytes) files."""
    app = AppTest.from_file(str(ROOT / "pages/0_Data.py"), default_timeout=120)
    app.run()
    uploaders = {
        uploader.label.split(" (")[0].split(":")[0]: uploader for uploader in app.file_uploader
    }
    uploaders["References"].set_value([(name, data, "text/plain") for name, data in references])
    uploaders["System outputs"].set_value([(name, data, "text/plain") for name, data in systems])
    if human is not None:
        uploaders["Human judgments"].set_value((*human, "text/plain"))
    (send,) = [button for button in app.button if button.label == "Use this test set"]
    send.click().run()
    assert not app.exception, [e.message for e in app.exception]
    return app


def test_a_lone_surrogate_in_json_lines_is_named_with_its_line_and_field() -> None:
    """JSON's escape \\ud800 was read, and the pages failed where they hashed or showed the name
    (Streamlit's own error box on Data, Home and Bitext grid)."""
    lines = [
        f'{{"system": "A\\ud800", "segment": {k}, "hypothesis": "x", "reference": "y"}}\n'
        for k in (1, 2, 3)
    ]
    app = upload([("ref.en", REFERENCE)], [("out.jsonl", "".join(lines).encode())])
    (error,) = app.error
    assert error.value.startswith("out.jsonl, line 1, column system: ")
    assert "half of a UTF-16 surrogate pair" in error.value
    assert "Write the character itself" in app.expander[0].markdown[0].value
    assert not app.success  # the sample stays loaded
    assert "sample" in app.subheader[0].value


def test_judgments_of_many_systems_without_text_are_counted_in_a_short_note() -> None:
    rows = "".join(f"anon-{n:05d}\t1\t{n % 5 + 1}\n" for n in range(2_000))
    human = ("system\tsegment_id\tscore\nout\t1\t3\nout\t2\t4\n" + rows).encode()
    app = upload([("ref.en", REFERENCE)], [("out.en", SYSTEM)], ("judgments.tsv", human))
    assert app.success, [e.value for e in app.error]
    (note,) = [info.value for info in app.info if "set aside" in info.value]
    assert "2,000 rows for 2,000 systems without text in the test set" in note
    assert "anon-00009 and 1,990 more" in note
    assert "anon-00010" not in note and len(note) < 400
