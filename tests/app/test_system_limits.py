"""The dashboard's bound on systems (and so on their pairs): the Data page refuses one system
more than it takes, by file name and with the command line as the way round, and keeps the test
set it had; a test set at the bound opens the Scores page, whose work grows with both."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from mteval_core.settings.limits import MAX_SYSTEM_PAIRS, MAX_UPLOAD_SYSTEMS
from tests.app.test_data_page_bad_uploads import upload
from tests.helpers import make_test_set

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = [  # six segments: the fewest a paired test needs (stats.significance)
    "the cat sat on the mat",
    "a dog ran",
    "it rains",
    "the sun is out",
    "we walk home",
    "birds sing at dawn",
]


def outputs(n_systems: int) -> dict[str, list[str]]:
    """``n_systems`` different outputs: each replaces words of the reference in its own way."""
    return {
        f"mt-{k:02d}": [f"{line} {'w' * (k % 7)}" if k % 3 else line[k % 5 :] for line in REFERENCE]
        for k in range(n_systems)
    }


def files(systems: dict[str, list[str]]) -> list[tuple[str, bytes]]:
    return [(f"{name}.en", ("\n".join(lines) + "\n").encode()) for name, lines in systems.items()]


def test_the_data_page_refuses_one_system_more_and_keeps_the_sample() -> None:
    reference = [("ref.en", ("\n".join(REFERENCE) + "\n").encode())]
    app = upload(reference, files(outputs(MAX_UPLOAD_SYSTEMS + 1)))
    (error,) = app.error
    assert error.value == (
        "mt-50.en: with this file the test set has 51 systems (1,275 pairs of systems); the "
        "dashboard takes test sets of up to 50 systems (1,225 pairs, each compared under every "
        "metric)"
    )
    assert "mteval score" in app.expander[0].markdown[0].value
    assert not app.success and "sample" in app.subheader[0].value


def test_the_data_page_states_the_bound_on_systems() -> None:
    app = AppTest.from_file(str(ROOT / "pages/0_Data.py"), default_timeout=60).run()
    text = " ".join(caption.value for caption in app.caption)
    assert f"{MAX_UPLOAD_SYSTEMS} systems" in text


def test_a_test_set_at_the_bound_opens_the_scores_page() -> None:
    """50 systems, 1,225 pairs a metric: the page starts at its most resamples (20,000; a pair
    would need 24,500 to reach p < 0.05 after Holm) and shows every system in clusters."""
    test_set = make_test_set(REFERENCE, outputs(MAX_UPLOAD_SYSTEMS))
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    app.session_state["test_set"] = test_set
    app.switch_page("pages/1_Scores.py").run()
    assert not app.exception and not app.error, [e.value for e in app.error]
    assert len(app.dataframe[0].value) == MAX_UPLOAD_SYSTEMS
    assert app.select_slider[0].value == 20_000
    assert f"over this metric's {MAX_SYSTEM_PAIRS} system pairs" in " ".join(
        caption.value for caption in app.caption
    )
