"""The Bitext grid page as a person uses it, through Streamlit's AppTest."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from mteval_core.gtm.grid import bitext_grid, segment_table, segments_matching
from mteval_core.model.testset import TestSet, TextColumn
from mteval_core.report.figures.bitext import MIN_CELL
from mteval_core.report.figures.meteor_grid import summary
from mteval_core.settings.options import Options
from pages.ui.bitext import GRID_WIDTH, SCROLL_HINT
from tests.helpers import load_sample, make_test_set, read_lines, shared_dataset

PAGE = str(Path(__file__).resolve().parents[2] / "pages" / "3_Bitext_grid.py")
SAMPLE = load_sample().test_set
AT_E2 = Options.from_flags(
    gtm_exponent=2.0
)  # chosen on the Data page: the page starts at its exponent


def open_page(**query: str) -> AppTest:
    app = AppTest.from_file(PAGE, default_timeout=60)
    app.session_state["options"] = AT_E2
    app.query_params.update(query)
    return run(app)


def run(app: AppTest) -> AppTest:
    app.run()
    assert not app.exception, [e.message for e in app.exception]
    return app


def figures(app: AppTest) -> list[dict]:
    return [json.loads(chart.proto.spec) for chart in app.get("plotly_chart")]


def title(app: AppTest, index: int = 0) -> str:
    return figures(app)[index]["layout"]["title"]["text"]


def metrics(app: AppTest) -> dict[str, str]:
    return {metric.label: metric.value for metric in app.metric}


def cell_pixels(figure: dict) -> tuple[float, float]:
    """The room per cell across and down, as the figure's layout gives it."""
    layout = figure["layout"]
    rows, cols = len(figure["data"][0]["y"]), len(figure["data"][0]["x"])
    across = (layout["width"] - layout["margin"]["l"] - layout["margin"]["r"]) / cols
    down = (layout["height"] - layout["margin"]["t"] - layout["margin"]["b"]) / rows
    return across, down


def names_over_columns(figure: dict) -> list[tuple[str, float]]:
    return [(note["text"], note["x"]) for note in figure["layout"]["annotations"]]


def test_bitext_grid_page_draws_blocks_and_barriers():
    app = open_page()
    figure = figures(app)[0]
    shapes = figure["layout"]["shapes"]
    rectangles = [s for s in shapes if s["type"] == "rect"]
    barriers = [s for s in shapes if s["type"] == "line"]
    grid = bitext_grid(SAMPLE, "neural-large", 1, AT_E2, exact=True)
    assert len(rectangles) == len(grid.greedy.blocks) >= 5 and len(barriers) == 2  # 2 references
    assert title(app).startswith("neural-large, segment 1<br><sup>greedy: sum of len^e")
    assert metrics(app) == {
        "P": f"{grid.greedy.precision:.3f}",
        "R": f"{grid.greedy.recall:.3f}",
        "F": f"{grid.greedy.f:.3f}",
        "sum of len^e": f"{grid.greedy.weight:.4g}",
    }
    app.radio(key="bitext_matching").set_value("exact (maximum)")
    run(app)
    assert title(app).split("<sup>")[1].startswith(f"{grid.exact.method}: sum of len^e")


def test_segment_list_of_the_chosen_system_at_the_chosen_exponent():
    app = open_page()
    expected = segment_table(SAMPLE, "neural-large", AT_E2)
    pd.testing.assert_frame_equal(app.dataframe[0].value, expected)
    app.selectbox(key="bitext_system").set_value("phrase-based")
    app.slider(key="bitext_exponent").set_value(3.0)
    run(app)
    expected = segment_table(SAMPLE, "phrase-based", Options.from_flags(gtm_exponent=3.0))
    pd.testing.assert_frame_equal(app.dataframe[0].value, expected)
    captions = " ".join(caption.value for caption in app.caption)
    assert "40 of 40 segments of phrase-based at e = 3" in captions


def test_choosing_a_segment_changes_the_grid_and_the_url():
    app = open_page()
    app.number_input(key="bitext_segment").set_value(7)
    run(app)
    assert title(app).startswith("neural-large, segment 7<br>")
    assert dict(app.query_params) == {"system": "neural-large", "segment": "7"}
    app.session_state["bitext_segment"] = 12  # what a click on the row of segment 12 does
    run(app)
    assert title(app).startswith("neural-large, segment 12<br>")
    grid = bitext_grid(SAMPLE, "neural-large", 12, AT_E2, exact=True)
    assert metrics(app)["F"] == f"{grid.greedy.f:.3f}"
    assert app.query_params["segment"] == "12"


def test_search_keeps_the_segments_that_contain_the_text():
    app = open_page()
    app.text_input(key="bitext_search").set_value("BIKE")
    run(app)
    shown = app.dataframe[0].value
    expected = segments_matching(SAMPLE, "neural-large", "bike").nonzero()[0] + 1
    assert shown["segment"].tolist() == expected.tolist() and 0 < len(shown) < 40
    for segment in shown["segment"]:
        texts = [SAMPLE.system("neural-large")[segment - 1]]
        texts += [reference.segments[segment - 1] for reference in SAMPLE.references]
        assert any("bike" in text.lower() for text in texts)
    assert app.caption[0].value.startswith(f"{len(shown)} of 40 segments")


def test_a_link_to_a_system_and_segment_preselects_them():
    app = open_page(system="neural-small", segment="5")
    assert app.selectbox(key="bitext_system").value == "neural-small"
    assert app.number_input(key="bitext_segment").value == 5
    assert title(app).startswith("neural-small, segment 5<br>")
    assert (
        app.dataframe[0]
        .value["F greedy"]
        .equals(segment_table(SAMPLE, "neural-small", AT_E2)["F greedy"])
    )
    assert not app.warning


def test_a_bad_link_is_named_and_ignored():
    app = open_page(system="nobody", segment="99")
    warnings = [warning.value for warning in app.warning]
    assert any("“nobody”" in text for text in warnings)
    assert any("“99”" in text and "1 to 40" in text for text in warnings)
    assert title(app).startswith("neural-large, segment 1<br>")
    assert dict(app.query_params) == {"system": "neural-large", "segment": "1"}
    app = open_page(segment="two")
    assert "“two”" in app.warning[0].value and title(app).startswith("neural-large, segment 1")


def test_compare_draws_both_systems_with_their_numbers():
    app = open_page(segment="3")
    app.selectbox(key="bitext_compare").set_value("word-by-word")
    run(app)
    first, second = (title(app, i) for i in range(2))
    assert first.startswith("neural-large, segment 3<br>")
    assert second.startswith("word-by-word, segment 3<br>")
    assert [header.value for header in app.subheader] == ["neural-large", "word-by-word"]
    f_values = [metric.value for metric in app.metric if metric.label == "F"]
    grids = [bitext_grid(SAMPLE, name, 3, AT_E2) for name in ("neural-large", "word-by-word")]
    assert f_values == [f"{grid.greedy.f:.3f}" for grid in grids]
    for figure in figures(app):  # 44 columns: too many for half the page, so one above the other
        assert GRID_WIDTH[2] < figure["layout"]["width"] <= GRID_WIDTH[1]
        assert min(cell_pixels(figure)) >= MIN_CELL
    app.selectbox(key="bitext_system").set_value("word-by-word")  # the other one: compare ends
    run(app)
    assert len(figures(app)) == 1 and app.selectbox(key="bitext_compare").value is None


def test_where_greedy_falls_short_both_matchings_are_shown():
    app = AppTest.from_file(PAGE, default_timeout=60)
    app.session_state["test_set"] = make_test_set(["a a a b", "x y z"], {"s": ["a b a a", "x y z"]})
    app.session_state["options"] = Options.from_flags(tokenize="none", gtm_exponent=2.0)
    run(app)
    assert metrics(app) == {  # |C| = |R| = 4: P = R = F = size / 4
        "P greedy": "0.612",  # sqrt(6) / 4: runs of 2, 1 and 1
        "P exact": "0.707",  # sqrt(8) / 4: two runs of 2
        "R greedy": "0.612",
        "R exact": "0.707",
        "F greedy": "0.612",
        "F exact": "0.707",
        "sum of len^e greedy": "6",
        "sum of len^e exact": "8",
    }
    assert "greedy falls short here: sum of len^e 6 against 8" in app.info[0].value
    assert app.dataframe[0].value["size shortfall"].round(4).tolist() == [0.3789, 0.0]
    app.number_input(key="bitext_segment").set_value(2)
    run(app)
    assert list(metrics(app)) == ["P", "R", "F", "sum of len^e"] and not app.info


def test_a_sixty_token_ted_segment(ted):
    """Its speed is in bench/bench_dashboard.py (timed tests are flaky on a shared machine)."""
    app = AppTest.from_file(PAGE, default_timeout=60)
    app.session_state["test_set"] = ted
    app.query_params.update({"system": "Facebook-AI", "segment": "1"})
    run(app)  # lists the system's 529 segments once, exactly: one reference
    assert len(app.dataframe[0].value) == 529 and "F exact" in app.dataframe[0].value
    app.number_input(key="bitext_segment").set_value(220)  # 60 candidate tokens
    run(app)
    figure = figures(app)[0]
    assert len(figure["data"]) == 1 and len(figure["data"][0]["y"]) == 60


def test_the_exponent_is_the_data_pages_unless_overridden_here():
    app = AppTest.from_file(PAGE, default_timeout=60)
    run(app)  # default options: e = 1, as GTM 1.4
    assert app.slider(key="bitext_exponent").value == 1.0
    assert not [c for c in app.caption if "Scores and Correlation use" in c.value]
    app.slider(key="bitext_exponent").set_value(2.5)
    run(app)
    notes = [c.value for c in app.caption if "Scores and Correlation use" in c.value]
    assert notes == [
        "This page uses e = 2.5; Scores and Correlation use e = 1 from the Data page, so their "
        "GTM differs from the F shown here."
    ]
    expected = segment_table(SAMPLE, "neural-large", Options.from_flags(gtm_exponent=2.5))
    pd.testing.assert_series_equal(app.dataframe[0].value["F greedy"], expected["F greedy"])


def test_exact_f_for_every_segment_waits_for_the_switch_on_large_multi_reference_sets():
    references = [[f"w{i} x{i} y" for i in range(400)] for _ in range(3)]
    test_set = make_test_set(references, {"s": [f"y x{i} w{i}" for i in range(400)]})
    app = AppTest.from_file(PAGE, default_timeout=60)
    app.session_state["test_set"] = test_set
    app.session_state["options"] = AT_E2
    run(app)
    assert app.toggle(key="bitext_exact_all").value is False
    assert "F exact" not in app.dataframe[0].value.columns
    app.toggle(key="bitext_exact_all").set_value(True)
    run(app)
    expected = segment_table(test_set, "s", AT_E2)
    pd.testing.assert_frame_equal(app.dataframe[0].value, expected)


def test_a_short_segment_of_two_systems_is_drawn_side_by_side():
    test_set = make_test_set(["a b c d", "x"], {"s": ["a b c d", "x"], "t": ["a c b d", "x"]})
    app = AppTest.from_file(PAGE, default_timeout=60)
    app.session_state["test_set"] = test_set
    app.session_state["options"] = Options(tokenize="none")
    run(app)
    app.selectbox(key="bitext_compare").set_value("t")
    run(app)
    assert all(figure["layout"]["width"] <= GRID_WIDTH[2] for figure in figures(app))
    assert len([column for column in app.columns if column.get("plotly_chart")]) == 2
    assert not [radio for radio in app.radio if radio.key == "bitext_reference"]  # one reference


def three_references() -> TestSet:
    """Two segments of 60 tokens, 3 references; each shares a 15-token run with system "s"."""
    rng = np.random.default_rng(5)
    words = [f"w{i}" for i in range(40)]
    candidates, references = [], [[], [], []]
    for _ in range(2):
        candidate = list(rng.choice(words, 60))
        candidates.append(" ".join(candidate))
        for k, segments in enumerate(references):
            reference = list(rng.choice(words, 60))
            reference[:15] = candidate[15 * k : 15 * k + 15]
            segments.append(" ".join(reference))
    return TestSet(
        references=[
            TextColumn(name, tuple(segments), name)
            for name, segments in zip(("ref-A", "ref-C", "ref-D"), references)
        ],
        systems=[
            TextColumn("s", tuple(candidates), "s"),
            TextColumn("t", tuple(reversed(candidates)), "t"),
        ],
    )


def wmt21_news_ende() -> TestSet:
    """WMT21 newstest2021 en-de: its 3 references and 2 of its 20 systems (skips where absent)."""
    folder = shared_dataset("wmt21-newstest2021-ende")
    return TestSet(
        references=[
            TextColumn(path.stem, tuple(read_lines(path)), path.name)
            for path in sorted((folder / "ref").iterdir())
        ],
        systems=[
            TextColumn(name, tuple(read_lines(folder / "sys" / f"{name}.de")), f"{name}.de")
            for name in ("Facebook-AI", "Online-W")
        ],
    )


def check_three_reference_grids(
    test_set: TestSet, options: Options, system: str, other: str, segment: int
) -> AppTest:
    """What a user of a 3-reference set sees: readable cells in a grid wider than the page,
    each reference named over its columns, one reference at a time on request, and a second
    system's grid under the first's rather than beside it."""
    app = AppTest.from_file(PAGE, default_timeout=60)
    app.session_state["test_set"] = test_set
    app.session_state["options"] = options
    app.query_params.update({"system": system, "segment": str(segment)})
    run(app)
    grid = bitext_grid(test_set, system, segment, options, exact=True)
    (figure,) = figures(app)
    assert len(figure["data"][0]["y"]) == len(grid.candidate) >= 60
    assert figure["layout"]["width"] > GRID_WIDTH[1] and min(cell_pixels(figure)) >= MIN_CELL
    assert names_over_columns(figure) == [
        (f"<b>{name}</b>", (start + end - 1) / 2)
        for name, (start, end) in zip(grid.reference_names, grid.reference_spans)
    ]
    for note in figure["layout"]["annotations"]:  # hung from the grid's top edge, not below it
        assert (note["y"], note["yref"], note["yanchor"]) == (1, "y domain", "bottom")
    assert "max-width: none" in app.get("html")[0].proto.body  # the grid's row scrolls instead
    assert SCROLL_HINT in [caption.value for caption in app.caption]

    choice = app.radio(key="bitext_reference")
    assert choice.options == ["all 3", *grid.reference_names] and choice.value is None
    choice.set_value(1)
    run(app)
    (figure,) = figures(app)
    start, end = grid.reference_spans[1]
    title = figure["layout"]["title"]["text"]
    assert title.startswith(f"{system}, segment {segment}, ref-C only<br>")
    assert names_over_columns(figure) == [("<b>ref-C</b>", (end - start - 1) / 2)]
    assert figure["layout"]["width"] <= GRID_WIDTH[1] and min(cell_pixels(figure)) > MIN_CELL
    assert f"F {grid.greedy.f:.3f}" in title  # the F of the matching against all references
    assert SCROLL_HINT not in [caption.value for caption in app.caption]

    app.radio(key="bitext_reference").set_value(None)
    app.selectbox(key="bitext_compare").set_value(other)
    run(app)
    both = figures(app)
    assert [header.value for header in app.subheader] == [system, other]
    assert [len(figure["layout"]["annotations"]) for figure in both] == [3, 3]
    assert all(figure["layout"]["width"] > GRID_WIDTH[1] for figure in both)
    assert all(min(cell_pixels(figure)) >= MIN_CELL for figure in both)
    assert not any(column.get("plotly_chart") for column in app.columns)  # one under the other
    return app


def test_three_references_of_sixty_tokens_are_readable():
    app = check_three_reference_grids(three_references(), Options(tokenize="none"), "s", "t", 1)
    app.radio(key="bitext_reference").set_value(2)
    run(app)
    assert [figure["layout"]["annotations"][0]["text"] for figure in figures(app)] == [
        "<b>ref-D</b>",
        "<b>ref-D</b>",
    ]
    app.session_state["test_set"] = make_test_set([["a b"], ["a c"]], {"s": ["a b"]})
    run(app)  # a set with 2 references: the choice of the third is dropped, not an error
    choice = app.radio(key="bitext_reference")
    assert choice.options == ["all 2", "ref1", "ref2"] and choice.value is None
    assert len(figures(app)[0]["layout"]["annotations"]) == 2


def test_wmt21_news_ende_with_its_three_references():
    # segment 954: 61 tokens of Facebook-AI against 63, 66 and 61 of ref-A, ref-C and ref-D
    check_three_reference_grids(wmt21_news_ende(), AT_E2, "Facebook-AI", "Online-W", 954)


# --------------------------------------------------------------------------- METEOR's alignment
def meteor_view(system: str, segment: int):
    from mteval_core.metrics.meteor.segment_view import meteor_segment_view

    return meteor_segment_view(
        SAMPLE.system(system)[segment - 1],
        [r.segments[segment - 1] for r in SAMPLE.references],
        AT_E2,
    )


def test_meteors_alignment_beside_gtms_runs_with_its_numbers():
    """Segment 20 of neural-large: METEOR keeps ref-B, and beam and exact differ there."""
    pytest.importorskip("pycocoevalcap")
    app = open_page(segment="20")
    app.radio(key="bitext_view").set_value("both")
    app.radio(key="bitext_reference").set_value(0)  # ref-A: both grids fit half the page
    run(app)
    gtm, meteor = figures(app)
    view = meteor_view("neural-large", 20)
    assert view.beam.reference == 1 and view.searches_differ
    assert gtm["layout"]["title"]["text"].startswith("neural-large, segment 20, ref-A only<br>")
    assert meteor["layout"]["title"]["text"] == (
        f"neural-large, segment 20: METEOR<br><sup>{summary(view.beam)}</sup>"
    )
    assert len([c for c in app.columns if c.get("plotly_chart")]) == 2  # side by side
    chunks = [s for s in meteor["layout"]["shapes"] if s["name"].startswith("chunk")]
    assert len(chunks) == view.beam.chunks >= 1
    numbers = app.dataframe[1].value
    assert list(numbers.columns) == ["beam (the jar's)", "exact"]
    assert numbers.loc["METEOR", "exact"] == f"{view.exact.score:.4f}"
    assert numbers.loc["chunks", "beam (the jar's)"] == str(view.beam.chunks)
    assert numbers.loc["reference kept"].tolist() == ["ref-B", "ref-B"]
    captions = " ".join(caption.value for caption in app.caption)
    assert "METEOR keeps ref-B, the reference it scores best against" in captions
    assert "The GTM grid shows ref-A, which METEOR does not keep for this segment." in captions
    assert "Beam and exact differ for this segment" in captions
    app.radio(key="bitext_meteor_search").set_value("exact")
    app.radio(key="bitext_view").set_value("METEOR alignment")
    run(app)
    (meteor,) = figures(app)
    assert meteor["layout"]["title"]["text"].endswith(f"<sup>{summary(view.exact)}</sup>")
    app.selectbox(key="bitext_compare").set_value("word-by-word")
    run(app)  # two systems' METEOR grids, each fits half the page: beside each other
    assert [title(app, k).split("<br>")[0] for k in range(2)] == [
        "neural-large, segment 20: METEOR",
        "word-by-word, segment 20: METEOR",
    ]
    assert all(figure["layout"]["width"] <= GRID_WIDTH[2] for figure in figures(app))


def test_meteor_captions_say_what_the_numbers_cannot():
    from dataclasses import replace

    from pages.ui.meteor_alignment import comparison_caption, reference_caption
    from tests.report.figures.test_meteor_grid import VIEW

    assert comparison_caption(VIEW).startswith(
        "Beam and exact differ for this segment: beam 4 matches in 2 chunks, METEOR 0.5000 "
        "against exact 3 matches in 1 chunk,"
    )
    fell_back = replace(VIEW, exact=replace(VIEW.beam, search="exact", found=False))
    assert "too many competing matches" in comparison_caption(fell_back)
    assert comparison_caption(replace(VIEW, exact=VIEW.beam)) == (
        "Beam and exact keep the same alignment for this segment."
    )
    assert reference_caption(VIEW.beam, ["a*", "b_"], 1) == (
        "METEOR keeps b\\_, the reference it scores best against (0.5000; a\\* 0.2000)."
    )
    assert reference_caption(VIEW.beam, ["a", "b"], 0).endswith(
        "The GTM grid shows a, which METEOR does not keep for this segment."
    )


def test_without_meteors_data_gtms_grid_stays_and_the_problem_is_named(tmp_path):
    """METEOR's data given as a folder without it: only GTM's grid is offered, and one line
    names the problem (tests/app/test_meteor_availability.py: no jar installed at all)."""
    app = AppTest.from_file(PAGE, default_timeout=60)
    app.session_state["options"] = Options.from_flags(gtm_exponent=2.0, meteor_data=str(tmp_path))
    run(app)
    assert [r for r in app.radio if r.label == "Grid"] == []
    assert len(figures(app)) == 1 and title(app).startswith("neural-large, segment 1<br>")
    (line,) = [c.value for c in app.caption if c.value.startswith("Only GTM's grid is drawn.")]
    assert "holds no meteor" in line and not app.error
