"""What the pages say about the numbers they show: a correlation over constant human scores reads
"undefined (constant human scores)" in the table and in the figures, never None or nan; the
Scores page names the smallest p-value its resamples can give, and the notes of the scores (e.g.
GTM segments too large for the exact matching)."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from mteval_core.io.uploads import test_set_from_uploads
from mteval_core.stats.significance import smallest_reachable_p
from pages.ui.markdown_escape import escape_markdown
from tests.helpers import make_test_set

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = b"the cat sat on the mat\na dog barked loudly\nit rains today\nbirds sing\n"
SYSTEMS = [
    ("a.txt", b"the cat sat\na dog barked\nit rains\nbirds\n"),
    ("b.txt", b"the cat\na dog\nit\nbirds sing\n"),
    ("c.txt", REFERENCE),
]


def test_correlations_over_constant_human_scores_are_undefined_with_the_reason():
    constant = b"system\tscore\na\t3\nb\t3\nc\t3\n"
    test_set = test_set_from_uploads([("ref.txt", REFERENCE)], SYSTEMS, human=("h.tsv", constant))
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    app.session_state["test_set"] = test_set
    app.switch_page("pages/2_Correlation.py").run()
    assert not app.exception, [e.message for e in app.exception]
    table = app.dataframe[0].value
    assert table.loc["BLEU", "Pearson (unstemmed)"] == "undefined (constant human scores)"
    cells = " ".join(str(cell) for cell in table.to_numpy().ravel())
    assert "None" not in cells and "nan" not in cells.lower()
    scatter, differences = (json.loads(c.proto.spec) for c in app.get("plotly_chart"))
    assert scatter["layout"]["title"]["text"].endswith(
        "Pearson r = undefined (constant human scores)"
    )
    assert differences["layout"]["title"]["text"] == (
        "Pairwise differences: Pearson r = undefined (constant human scores)"
    )


def test_the_scores_page_names_the_smallest_reachable_p():
    """Two segments three times: 6, the fewest with a paired test."""
    systems = {f"system {k}": [" ".join("abcdef"[: k % 6 + 1]), "g h"] * 3 for k in range(11)}
    app = AppTest.from_file(str(ROOT / "pages/1_Scores.py"), default_timeout=120)
    app.session_state["test_set"] = make_test_set(["a b c d e f", "g h"] * 3, systems)
    app.run()
    app.select_slider[0].set_value(200).run()
    assert not app.exception
    floor = smallest_reachable_p(200, 55)  # 11 systems: 55 pairs
    warnings = " ".join(warning.value for warning in app.warning)
    assert f"the smallest p-value a pair can get is {floor:.4f}" in warnings


def test_the_notes_of_the_scores_are_shown_beside_them():
    from mteval_core.settings.options import Options

    words = " ".join(f"w{k % 3}" for k in range(1100))  # 1,100 x 1,100 cells, many blocks
    app = AppTest.from_file(str(ROOT / "pages/1_Scores.py"), default_timeout=120)
    app.session_state["test_set"] = make_test_set([words], {"long": [words]})
    app.session_state["options"] = Options.from_flags(gtm_matching="exact", gtm_exponent=2.0)
    app.run()
    assert not app.exception
    (note,) = [w.value for w in app.warning if "too large for the exact matching" in w.value]
    assert note.startswith(escape_markdown("long: 1 segment(s) too large"))
