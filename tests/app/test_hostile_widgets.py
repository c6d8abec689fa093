"""Every widget label, option, tooltip and caption of every page, with hostile names (issue 42):
a test set whose systems, reference, files, criterion and MQM raters are named with images, links,
``<script>``, ``$math$``, ``**``, backticks and a bidi override (and an uploaded metric with
the worst name a metric may have) is loaded, every page is opened
and every view of it visited (each option of its radios, select sliders and small select boxes,
each toggle and checkbox on and off, and those of the views they open), and whatever
the page rendered is read from Streamlit's element protos, not from a list of widget kinds:

- Markdown (labels, tooltips, radio and select-slider options, captions, alerts, headers, metric
  labels and values, tab, expander and page-link labels, st.table cells): every special
  character of a name escaped, and no bidi control at all (a backslash does not stop one);
- plain text (select box and multiselect options, data frames): the name as written, never its
  Markdown escape (which would show backslashes);
- HTML (st.html) and Plotly figures: no tag from a name.

tests/app/test_hostile_pages.py checks the pages' texts with fewer names; this walks them all.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest, element_tree

from mteval_core.io.mqm_tsv import read_mqm
from mteval_core.io.uploads import read_uploaded_metric
from pages.ui.markdown_escape import escape_markdown
from tests.app.test_hostile_pages import (
    BIDI,
    BOLD,
    CODE,
    IMAGE,
    MATH,
    RAW,
    SCRIPT,
    SCRIPT_LINK,
    TAG,
    hostile_test_set,
)

ROOT = Path(__file__).resolve().parents[2]
PAGES = [
    None,  # Home
    "pages/0_Data.py",
    "pages/1_Scores.py",
    "pages/2_Correlation.py",
    "pages/3_Bitext_grid.py",
    "pages/4_Loss.py",
    "pages/5_Compare.py",
    "pages/6_Rankings.py",
    "pages/7_Spans.py",
]
MORE_SYSTEMS = (SCRIPT, MATH, CODE, BIDI)
NAMES = (IMAGE, SCRIPT_LINK, BOLD, TAG, *MORE_SYSTEMS)
CRITERION = f"{CODE} {IMAGE}"
# an uploaded metric's name: check_metric_name allows letters, digits and _ . + - only, so no
# markup; underscores, which Markdown reads as emphasis between spaces, are the worst it takes
METRIC = "m_1_+x"
BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")
MAX_OPTIONS = 8  # a select box with more options is a list of items, not of views
MAX_VIEWS = 60  # page runs per page
# at least this many runs per page (when written: 1, 19, 18, 41, 24, 14, 28, 17 and 17 in this
# order), so that a walk that stops finding the widgets fails instead of passing on the first view
MIN_VIEWS = dict(zip(PAGES, (1, 12, 12, 28, 16, 9, 19, 12, 17)))
# what renders as Markdown besides labels and tooltips: options of these widgets...
MARKDOWN_OPTIONS = {"radio", "select_slider", "button_group"}
# ...and the body of every element but these
PLAIN_BODIES = {"text", "code", "json", "exception", "html", "plotly_chart"}


@dataclass(frozen=True)
class Rendered:
    where: str  # element type and field
    text: str
    kind: str  # "markdown", "plain", "html" or "plotly"


@cache
def session() -> dict:
    """The session's inputs: the hostile test set, an uploaded metric and MQM annotations
    with hostile names."""
    test_set = hostile_test_set(more=MORE_SYSTEMS, criterion=CRITERION)
    rows = "system,score\n" + "".join(
        f'"{name}",{k / 10}\n' for k, name in enumerate(test_set.system_names)
    )
    metric = read_uploaded_metric((f"{SCRIPT}.csv", rows.encode()), METRIC, "higher", test_set, {})
    mqm = "system\tseg_id\trater\tcategory\tseverity\n" + "".join(
        f"{name}\t{k}\t{IMAGE}\tAccuracy/{TAG}\t{('Minor', 'Major')[k % 2]}\n"
        for name in test_set.system_names
        for k in range(1, 7)
    )
    return {
        "test_set": test_set,
        "external_metrics": metric,
        "mqm": read_mqm(mqm.encode(), f"{BOLD}.tsv"),
        "mqm_upload": (f"{BOLD}.tsv", hostile_spans(test_set.system_names[:2])),
    }


def hostile_spans(systems: tuple[str, ...]) -> bytes:
    """An MQM file with spans for the Spans page: two raters named with images and links per
    translation, each marking hostile words under a hostile category."""
    target = f"{SCRIPT} {TAG} {BIDI} {MATH}"
    marked = f"{SCRIPT} <v>{TAG}</v> {BIDI} {MATH}"
    header = "system\tdoc\tdocSegId\tglobalSegId\trater\tsource\ttarget\tcategory\tseverity\n"
    return (
        header
        + "".join(
            f"{name}\t{CODE}\t{k}\t{k}\t{rater}\t{BOLD}\t{text}\tAccuracy/{TAG}\t{severity}\n"
            for name in systems
            for k in range(1, 3)
            for rater, text, severity in (
                (IMAGE, marked, "Major"),
                (SCRIPT_LINK, target, "No-error"),
            )
        )
    ).encode()


def opened(page: str | None) -> AppTest:
    """``page`` opened from Home (as the sidebar opens it) with the hostile session."""
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    for key, value in session().items():
        app.session_state[key] = value
    if page is not None:
        app.switch_page(page)
    return ran(app)


def ran(app: AppTest) -> AppTest:
    app.run()
    assert not app.exception, [e.message for e in app.exception]
    return app


def rendered(app: AppTest) -> list[Rendered]:
    """Every text the page rendered, and how it renders it."""
    return list(_rendered(app._tree))


def _rendered(node) -> Iterator[Rendered]:
    proto, kind = getattr(node, "proto", None), getattr(node, "type", "")
    if proto is not None and hasattr(proto, "ListFields"):
        yield from _fields(kind, proto)
    if kind == "table":  # st.table renders its cells, index and header as Markdown
        yield from (Rendered("table cell", cell, "markdown") for cell in _cells(node.value))
    if kind in ("dataframe", "arrow_data_frame"):
        yield from (Rendered("dataframe cell", cell, "plain") for cell in _cells(node.value))
    for child in (getattr(node, "children", None) or {}).values():
        yield from _rendered(child)


def _cells(frame) -> list[str]:
    """Every header, index entry and cell of a table, as text."""
    values = frame.to_numpy().ravel().tolist()
    return [str(x) for x in (*frame.columns, *frame.index, *values)]


def _fields(kind: str, proto) -> Iterator[Rendered]:
    """A proto's strings: labels, tooltips and bodies, its options, and the labels of blocks
    (tabs, expanders) one level down."""
    for field, value in proto.ListFields():
        name = field.name
        if name in ("label", "help", "delta", "title", "caption", "placeholder", "text"):
            if isinstance(value, str):
                yield Rendered(
                    f"{kind}.{name}", value, "plain" if name == "placeholder" else "markdown"
                )
        elif name == "body" and isinstance(value, str):
            how = {"html": "html", "plotly_chart": "plotly"}.get(kind, "plain")
            yield Rendered(f"{kind}.body", value, "markdown" if kind not in PLAIN_BODIES else how)
        elif name == "spec" and kind == "plotly_chart":
            yield Rendered("plotly_chart.spec", value, "plotly")
        elif name in ("options", "captions") and kind not in ("selectbox", "multiselect"):
            how = "markdown" if kind in MARKDOWN_OPTIONS or name == "captions" else "plain"
            for option in value:
                text = option if isinstance(option, str) else getattr(option, "content", "")
                yield Rendered(f"{kind}.{name}", text, how)
        elif name == "options":
            yield from (Rendered(f"{kind}.options", option, "plain") for option in value)
        elif name in ("expandable", "tab", "popover") and hasattr(value, "label"):
            yield Rendered(f"{name}.label", value.label, "markdown")


def problems(app: AppTest) -> list[tuple[str, str]]:
    """(where, text) of every rendered text that shows a hostile name as anything but text."""
    found = []
    for item in rendered(app):
        if item.kind == "markdown":
            unescaped = re.sub(r"\\.", "\0", item.text)
            if any(raw in unescaped for raw in RAW) or BIDI_CONTROLS.search(item.text):
                found.append((item.where, item.text))
        elif item.kind == "plain":
            doubled = [escape_markdown(n) for n in NAMES if escape_markdown(n) != n]
            if any(escaped in item.text for escaped in doubled):
                found.append((item.where, item.text))
        elif any(tag in item.text for tag in ("<img", "<script", "<a ")):
            found.append((item.where, item.text[:300]))
    return found


class Shown(str):
    """An option as the page shows it (its format_func's label): what the browser sends back."""


@pytest.fixture
def by_label(monkeypatch):
    """AppTest sets an option given as a ``Shown`` label as it is (its own fallback for a label
    applies only when the format_func fails on it), so a view is chosen without its value."""
    original = element_tree._format_value_for_widget

    def formatted(format_func, value):
        return str(value) if isinstance(value, Shown) else original(format_func, value)

    monkeypatch.setattr(element_tree, "_format_value_for_widget", formatted)


def view_widgets(app: AppTest) -> dict[tuple, object]:
    """What chooses a view of the page, by identity: its radios, select sliders, toggles and
    checkboxes, and its select boxes of at most MAX_OPTIONS options."""
    widgets = {}
    for widget in [*app.radio, *app.selectbox, *app.select_slider, *app.toggle, *app.checkbox]:
        if widget.type == "selectbox" and len(widget.options) > MAX_OPTIONS:
            continue
        widgets[(widget.type, widget.key or widget.label)] = widget
    return widgets


def choices(widget) -> list[object]:
    """The values a view widget can be given: each option as the page shows it (a select
    slider's whole numbers as numbers: its format_func is str), or on and off."""
    if widget.type in ("toggle", "checkbox"):
        return [True, False]
    if widget.type == "select_slider":
        return [int(option) for option in widget.options if option.isdigit()]
    return [Shown(option) for option in widget.options]


FLAG = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]+")


def flag_words(app: AppTest) -> list[tuple[str, str]]:
    """(where, text) of every text the page shows that names a command-line flag: the
    dashboard says what to do in its own words (the command line phrases its own hints)."""
    return [
        (item.where, item.text)
        for item in rendered(app)
        if item.kind in ("markdown", "plain") and FLAG.search(item.text)
    ]


def visit_every_view(app: AppTest, check=problems) -> tuple[int, list[tuple[str, str]]]:
    """Each choice of each view widget, those that appear on the way included (at most
    MAX_VIEWS runs): how many views were seen, and what ``check`` found in any of them."""
    found = [("first view: " + where, text) for where, text in check(app)]
    queue = list(view_widgets(app))
    known = set(queue)  # every widget queued once
    done: set[tuple] = set()
    seen = 1
    while queue and seen < MAX_VIEWS:
        identity = queue.pop(0)
        widget = view_widgets(app).get(identity)
        for value in choices(widget) if widget is not None else []:
            if (identity, repr(value)) in done or seen >= MAX_VIEWS:
                continue
            done.add((identity, repr(value)))
            widget = view_widgets(app).get(identity)
            if widget is None or (isinstance(value, Shown) and value not in widget.options):
                break
            widget.set_value(value)
            ran(app)
            seen += 1
            found += [(f"{identity} = {value!r}: {w}", t) for w, t in check(app)]
            new = [key for key in view_widgets(app) if key not in known]
            queue += new
            known.update(new)
    return seen, found


@pytest.mark.parametrize("page", PAGES, ids=lambda p: "Home" if p is None else Path(p).stem)
def test_every_view_of_every_page_shows_hostile_names_as_text(page, by_label):
    app = opened(page)
    shown = " ".join(item.text for item in rendered(app))
    assert escape_markdown(IMAGE) in shown or IMAGE in shown  # the names are on the page
    seen, found = visit_every_view(app)
    assert found == [], found
    assert seen >= MIN_VIEWS[page]  # the walk reached the page's views


@pytest.mark.parametrize("page", PAGES, ids=lambda p: "Home" if p is None else Path(p).stem)
def test_no_view_of_any_page_names_a_command_line_flag(page, by_label):
    """Issue 42: the dashboard's texts named --bootstrap, --rank-metrics, --rated-segments-only
    and sacreBLEU's --paired-bs; no view of any page says a flag now."""
    seen, found = visit_every_view(opened(page), check=flag_words)
    assert seen >= MIN_VIEWS[page]
    assert found == []
