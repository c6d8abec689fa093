"""Benchmark: the dashboard in a real browser on real sizes (issue #12, "Speed on real sizes").

Each run starts a fresh ``streamlit run app.py`` (empty caches), opens Debian's Chromium through
Playwright, uploads a data set through the Data page's file inputs as a user does, and then walks
through the pages in one session, timing each step below. Times are the median (and the fastest)
of ``--runs`` runs; every figure is printed with the 1-minute load average when it was taken.

Data sets (from ../shared/data, next to the repository):

* wmt17: WMT17 newstest2017 en-de, 1 reference, 16 systems x 3,004 segments, no judgments.
* wmt21: WMT21 newstest2021 en-de (news), 3 references, 20 systems x 1,002 segments, the source,
  and the segment-level MQM file ``human/mqm_seg.tsv`` (system, segment_id = line number, score =
  negated MQM points: higher is better, so "lower is better" is left unticked; PROVENANCE.md).
  The set has no segment_ids.tsv (its ids are line numbers) and no Google-format error
  annotations (only averaged segment scores), so the Data page's segment-id and MQM inputs stay
  empty and the Loss page has no MQM sliders for it.

Steps (goal in brackets), in the order a user meets them within one session:

* upload [3 s]: from the click on "Use this test set" until the Data page has settled with
  "Every page now shows this test set", plus from the click on the sidebar's "Home" link until
  Home has settled with "Scores at a glance" (its scores of every dashboard metric but the slow
  ones, METEOR and TER, which it has scored in the background for the next pages:
  ``pages.ui.session_scores.SLOW_KINDS``).
  The few milliseconds the harness takes between the two clicks are not counted; both parts are
  printed and in the JSON.
* scores [3 s]: from the click on the sidebar's "Scores" link until Scores has settled, at
  the resamples the page opens with (``pages.ui.scores.resamples_offer``: the first offered at
  which a pair of systems can be significant after Holm's correction, 5,000 for WMT21's 190
  pairs and WMT17's 120), then the slider moved to 1,000 resamples and that rerun's time added
  (both parts are printed and in the JSON).
* correlation [5 s]: from the click on "Correlation" until it has settled (judgments needed:
  wmt21 only). Its segment-level statistics wait for their toggle above 5,000 cells, so the
  first view does not include them (as a user sees it).
* correlation-metric [1 s]: from choosing another metric (the next one) in the "Metric" select
  box until the page has settled (scatter plots, segment table and reliability curves of the
  new metric).
* bitext [2 s]: from the click on "Bitext grid" until it has settled (segment list of the first
  system and the grid of segment 1).
* bitext-exponent [1 s]: from one ArrowRight on the "Exponent e" slider (+0.1) until settled.
* compare [3 s]: from the click on "Compare" until it has settled (compare-mt's analyses of the
  two best systems with 1,000 resamples, their charts and the first bucket's sentences).
* compare-pair [1 s]: from choosing the next system in the "System b" select box until settled.
* loss [0.3 s]: on the Loss page (reached untimed), from one ArrowRight on "c3: cost of an
  incorrect response" (+0.5; the paper's Tate & Voss table: the Loss page ranks loss tables and
  Google-format MQM annotations, not the uploaded test set) until its fragment has settled.

A step starts at the browser's own input event (pointerdown or keydown, recorded in the page)
and ends when the page last became settled: Streamlit's script-run state (the
``data-test-script-state`` of the stApp element, which the status widget shows) is no longer
running and no spinner, progress bar or running-man icon is present. A step is settled once it
stays so for ``--quiet-ms`` (default 1000, not counted), so a second rerun is waited for.
"drawn" (per run, printed and in the JSON): until the main area's DOM last changed within that
quiet time (Plotly and tables drawing after the script). Each step then checks that its page
shows what it should and no error box; ``--verbose`` prints when each page became busy and idle.

    .venv/bin/python bench/bench_dashboard.py [--runs 3] [--sets wmt17,wmt21]
        [--steps upload,scores,...] [--add-metrics chrF,chrF++,TER,METEOR]
        [--screenshots DIR] [--json PATH]

--add-metrics (issue 24, "the dashboard with every metric"): before the upload, untimed, the
Data page's Metrics expander adds these metrics (by their labels) to the seven every page
computes by default, so that every step computes them too; METEOR keeps the modules the Data page
offers for the target language (German: exact and stem, the paraphrase table being absent).

Steps not chosen with --steps are still walked through where a later step needs them (the upload,
the Correlation and Bitext grid pages before their changes), untimed. Skips (exit 0) when
../shared/data is absent; fails (exit 2) when chromium or Playwright is missing; exits 1 when a
step could not be measured. The machine's other work counts: read the load average beside each
figure, and compare runs taken at similar loads.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
sys.path.insert(0, str(ROOT))  # the browser settings are the browser tests' own
from tests.e2e.harness import CHROMIUM_ARGS, VIEWPORT  # noqa: E402

UPLOADS = {"references": 0, "systems": 1, "source": 2, "human": 3, "segment_ids": 4, "mqm": 5}
STEPS = {  # name: (goal in seconds, what is timed)
    "upload": (3.0, "Use this test set -> Home settled"),
    "scores": (3.0, "Scores page, 1,000 resamples"),
    "correlation": (5.0, "Correlation first view"),
    "correlation-metric": (1.0, "Correlation: another metric"),
    "bitext": (2.0, "Bitext grid first view"),
    "bitext-exponent": (1.0, "Bitext grid: exponent +0.1"),
    "loss": (0.3, "Loss: c3 slider +0.5"),
    "compare": (3.0, "Compare first view (the two best)"),
    "compare-pair": (1.0, "Compare: another system b"),
}
RESAMPLES = 1000

# Installed in every document before its scripts: records the user's input events and every
# change between busy (script running, spinner, progress bar) and settled, with page timestamps.
OBSERVER = """
(() => {
  const bench = {inputs: [], events: [], busy: false, lastMain: 0};
  window.__bench = bench;
  for (const type of ['pointerdown', 'keydown']) {
    window.addEventListener(type, () => bench.inputs.push(performance.now()), true);
  }
  const BUSY = {spinner: '[data-testid=stSpinner]', progress: '[data-testid=stProgress]',
    icon: '[data-testid=stStatusWidgetRunningIcon]'};
  const check = (records) => {
    const now = performance.now();
    const app = document.querySelector('[data-testid=stApp]');
    const state = app ? app.getAttribute('data-test-script-state') : 'initial';
    const shown = Object.keys(BUSY).filter(k => document.querySelector(BUSY[k]) !== null);
    const busy = state !== 'notRunning' || shown.length > 0;
    if (busy !== bench.busy) {
      bench.busy = busy;
      bench.events.push({t: now, busy: busy, state: [state, ...shown].join('+')});
    }
    const main = document.querySelector('[data-testid=stMain]');
    if (main && records && records.some(r => main.contains(r.target))) bench.lastMain = now;
  };
  new MutationObserver(check).observe(document, {subtree: true, childList: true,
    attributes: true, characterData: true});
})();
"""


class StepError(RuntimeError):
    """A step that could not be measured: the page failed, or never settled."""


@dataclass
class DataSet:
    name: str
    title: str
    folder: str
    files: dict[str, list[str]]  # file input -> paths relative to the folder
    has_judgments: bool

    @property
    def path(self) -> Path:
        return DATA / self.folder

    def uploads(self) -> dict[str, list[Path]]:
        found = {}
        for name, patterns in self.files.items():
            paths = sorted(p for pattern in patterns for p in self.path.glob(pattern))
            if paths:
                found[name] = paths
        return found


SETS = {
    "wmt17": DataSet(
        "wmt17",
        "WMT17 en-de, 16 systems x 3,004 segments, 1 reference, no judgments",
        "wmt17-newstest2017-ende",
        {"references": ["ref/*"], "systems": ["sys/*"]},
        has_judgments=False,
    ),
    "wmt21": DataSet(
        "wmt21",
        "WMT21 en-de news, 20 systems x 1,002 segments, 3 references, source, MQM",
        "wmt21-newstest2021-ende",
        {
            "references": ["ref/*"],
            "systems": ["sys/*"],
            "source": ["src.en"],
            "human": ["human/mqm_seg.tsv"],
            "segment_ids": ["segment_ids.tsv"],  # absent in this copy: ids are line numbers
        },
        has_judgments=True,
    ),
}


@dataclass
class Measure:
    seconds: float
    drawn: float  # until the main area's DOM last changed
    load: float  # 1-minute load average right after
    parts: dict[str, float] = field(default_factory=dict)
    note: str = ""
    trace: str = ""  # busy/settled changes since the input, for --verbose


# ----------------------------------------------------------------------------------- the server
class Server:
    def __init__(self, log: Path, startup_seconds: float = 120):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        self.log = log
        command = [
            sys.executable, "-m", "streamlit", "run", str(ROOT / "app.py"),
            "--server.headless=true", "--server.fileWatcherType=none", f"--server.port={port}",
            "--server.address=127.0.0.1", "--browser.gatherUsageStats=false",
        ]  # fmt: skip
        with log.open("wb") as output:
            self.process = subprocess.Popen(
                command, cwd=ROOT, stdout=output, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + startup_seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=5):
                    return
            except OSError:
                time.sleep(0.5)
        self.stop()
        raise StepError(f"streamlit did not start within {startup_seconds:.0f} s (log: {log})")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


# ---------------------------------------------------------------------------- the page's state
def load_average() -> float:
    return os.getloadavg()[0]


def uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
    except OSError:
        return "load average: {:.2f}, {:.2f}, {:.2f}".format(*os.getloadavg())


def marks(page) -> tuple[int, int, float]:
    return tuple(
        page.evaluate("() => [__bench.inputs.length, __bench.events.length, performance.now()]")
    )


def page_problem(page) -> str | None:
    """The text of an error box, an exception or "Something went wrong", if the page shows one."""
    for selector in (
        "[data-testid=stException]",
        "[data-testid=stAlertContentError]",
        "[data-testid=stAlert]:has-text('Something went wrong')",
    ):
        found = page.locator(selector)
        if found.count():
            return found.first.inner_text()[:300]
    return None


def settle(
    page, mark: tuple[int, int, float], quiet_ms: float, timeout_s: float, start_s: float = 30
) -> Measure:
    """Wait until the page has been busy after ``mark`` and then settled for ``quiet_ms``; the
    time from the last input event before the rerun to the last settling."""
    inputs_at, events_at, before = mark
    deadline = time.monotonic() + timeout_s
    started = time.monotonic()
    while True:
        state = page.evaluate(
            """([i, e]) => ({now: performance.now(), busy: __bench.busy,
                inputs: __bench.inputs.slice(i), events: __bench.events.slice(e),
                lastMain: __bench.lastMain})""",
            [inputs_at, events_at],
        )
        events = state["events"]
        busy_events = [e for e in events if e["busy"]]
        if busy_events and not state["busy"]:
            settled_at = events[-1]["t"]
            if state["now"] - settled_at >= quiet_ms:
                break
        if not busy_events and time.monotonic() - started > start_s:
            raise StepError(f"no rerun started within {start_s:.0f} s of the action")
        if time.monotonic() > deadline:
            raise StepError(f"not settled within {timeout_s:.0f} s")
        time.sleep(0.05)
    first_busy = busy_events[0]["t"]
    inputs = [t for t in state["inputs"] if t <= first_busy]
    start = inputs[-1] if inputs else before
    drawn = max(settled_at, state["lastMain"])
    trace = " ".join(
        f"{'busy' if e['busy'] else 'idle'}({e['state']})@{(e['t'] - start) / 1000:.3f}"
        for e in events
    )
    return Measure((settled_at - start) / 1000, (drawn - start) / 1000, load_average(), trace=trace)


def act(page, action: Callable[[], None], ready: str | None, args) -> Measure:
    """Do ``action`` and time it until settled; then ``ready`` must be on the page, no error."""
    mark = marks(page)
    action()
    measure = settle(page, mark, args.quiet_ms, args.timeout)
    if problem := page_problem(page):
        raise StepError(f"the page shows an error: {problem!r}")
    if ready is not None:
        try:
            page.wait_for_selector(f"text={ready}", timeout=10_000)
        except Exception as error:
            raise StepError(f"settled without {ready!r} on the page") from error
    return measure


HOME = re.compile(r"^(Home|app)$")  # "app" (the file's name) before app.py named its pages


def sidebar(page, link: str | re.Pattern) -> Callable[[], None]:
    """A click on the sidebar's link to this page."""
    exact = None if isinstance(link, re.Pattern) else True
    return lambda: (
        page.locator("[data-testid=stSidebarNav]")
        .get_by_role("link", name=link, exact=exact)
        .click()
    )


def widget(page, kind: str, label: str):
    """The Streamlit widget of this test id whose label is exactly ``label``."""
    return page.locator(f"[data-testid={kind}]").filter(
        has=page.locator("[data-testid=stWidgetLabel]").get_by_text(label, exact=True)
    )


def slider_value(page, label: str) -> str:
    return (
        widget(page, "stSlider", label)
        .locator("[data-testid=stSliderThumbValue]")
        .first.inner_text()
        .replace(",", "")
    )


def press_slider(page, label: str, key: str = "ArrowRight") -> Callable[[], None]:
    def action() -> None:
        slider = widget(page, "stSlider", label).get_by_role("slider")
        slider.focus()
        slider.press(key)

    return action


def shot(page, folder: Path | None, name: str) -> None:
    """The whole page, 1,400 px wide (the window made as tall as the content)."""
    if folder is None:
        return
    folder.mkdir(parents=True, exist_ok=True)
    height = page.evaluate(
        "document.querySelector('[data-testid=stMainBlockContainer]').scrollHeight"
    )
    page.set_viewport_size({"width": VIEWPORT["width"], "height": min(height + 150, 8000)})
    page.wait_for_timeout(500)  # let Plotly redraw at the new size
    page.screenshot(path=str(folder / f"{name}.png"))
    page.set_viewport_size(VIEWPORT)
    page.wait_for_timeout(300)


# ------------------------------------------------------------------------------------ the steps
def upload_files(page, data: DataSet, args, navigate: bool = True) -> None:
    """Open the Data page (unless the session is there already: a new address would start a
    new session) and put the set's files into its inputs (not timed: the browser's upload to
    the server); wait until every chip has arrived."""
    if navigate:
        page.goto(f"{args.url}/Data")
    page.wait_for_selector("text=Use this test set")
    page.wait_for_selector("[data-testid=stApp][data-test-script-state=notRunning]")
    inputs = page.locator("[data-testid=stFileUploader] input[type=file]")
    files = data.uploads()
    for name, paths in files.items():
        inputs.nth(UPLOADS[name]).set_input_files([str(p) for p in paths])
    for paths in files.values():
        for path in paths:  # a chip shows a long name cut short; its title is the whole name
            page.wait_for_function(
                "(name) => [...document.querySelectorAll('[data-testid=stFileChipName]')]"
                ".some(chip => chip.title === name)",
                arg=path.name,
            )


def add_metrics(page, labels: list[str], args) -> None:
    """On the Data page, add each of ``labels`` in the Metrics expander (untimed), then check
    the caption that lists what every page computes."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.get_by_text("Metrics", exact=True).first.click()  # open the expander
    box = widget(page, "stMultiSelect", "Metrics every page computes")
    for label in labels:
        chip = box.locator(f'[data-tag][aria-label="{label}"]')  # the box's chip of it
        for attempt in range(3):
            try:  # a click while the list redraws after the last choice can be lost: again
                box.locator("input").click()
                page.get_by_role("option", name=label, exact=True).click(timeout=10_000)
                chip.wait_for(timeout=10_000)
                break
            except PlaywrightTimeout:
                page.keyboard.press("Escape")
                if attempt == 2:
                    raise StepError(f"the Metrics box did not take {label!r}") from None
        page.keyboard.press("Escape")  # close the list, so that it covers nothing below it
        # the rerun that takes it is over once the caption lists it
        caption = re.compile(r"^Every page computes .*" + re.escape(label))
        page.get_by_text(caption).wait_for(timeout=30_000)
    listed = page.get_by_text(re.compile(r"^Every page computes ")).inner_text()
    missing = [label for label in labels if label not in listed]
    if missing:
        raise StepError(f"the Data page does not list {', '.join(missing)}: {listed!r}")


def step_upload(page, data: DataSet, args) -> Measure:
    if args.add_metrics:
        page.goto(f"{args.url}/Data")
        page.wait_for_selector("[data-testid=stApp][data-test-script-state=notRunning]")
        add_metrics(page, args.add_metrics, args)
    upload_files(page, data, args, navigate=not args.add_metrics)
    submit = page.get_by_role("button", name="Use this test set")
    loaded = act(page, submit.click, "Every page now shows this test set", args)
    home = act(page, sidebar(page, HOME), "Scores at a glance", args)
    return Measure(
        loaded.seconds + home.seconds,
        loaded.seconds + home.drawn,
        home.load,
        {"data page": round(loaded.seconds, 3), "home": round(home.seconds, 3)},
        trace=f"data page: {loaded.trace} | home: {home.trace}",
    )


def step_scores(page, data: DataSet, args) -> Measure:
    measure = act(page, sidebar(page, "Scores"), "Download CSV", args)
    label = "Bootstrap resamples"
    value = slider_value(page, label)
    if value != str(RESAMPLES):  # not the default any more: move there, count that rerun too
        choices = [0, 200, 1000, 2000, 5000, 10000, 20000]
        key = "ArrowRight" if int(value) < RESAMPLES else "ArrowLeft"
        for _ in range(abs(choices.index(RESAMPLES) - choices.index(int(value)))):
            moved = act(page, press_slider(page, label, key), "Download CSV", args)
        measure.parts = {
            f"page at {value}": round(measure.seconds, 3),
            f"slider to {RESAMPLES}": round(moved.seconds, 3),
        }
        measure.seconds += moved.seconds
        measure.note = f"default was {value} resamples; moved to {RESAMPLES}"
    if slider_value(page, label) != str(RESAMPLES):
        raise StepError(f"the resamples slider shows {slider_value(page, label)}")
    return measure


def wait_for_figure(page, title_part: str) -> None:
    """A Plotly chart whose title holds ``title_part`` must be on the page (drawn already)."""
    try:
        page.wait_for_function(
            """(part) => [...document.querySelectorAll('.js-plotly-plot')].some(p =>
                ((p.layout && p.layout.title || {}).text || '').includes(part))""",
            arg=title_part,
            timeout=10_000,
        )
    except Exception as error:
        raise StepError(f"no figure titled ...{title_part}... on the page") from error


def step_correlation(page, data: DataSet, args) -> Measure:
    return act(page, sidebar(page, "Correlation"), "Every metric against the human scores", args)


def choose_next_option(page, label: str) -> tuple[str, Callable[[], None]]:
    """Open the select box labelled ``label`` and click the option after the current one."""
    box = widget(page, "stSelectbox", label)
    current = box.locator("input").input_value() or box.inner_text()
    box.locator("input").click()
    page.wait_for_selector("[role=option]")
    options = page.locator("[role=option]")
    names = [options.nth(k).inner_text().strip() for k in range(options.count())]
    following = [n for n in names if n != current.strip()]
    chosen = following[0] if following else names[-1]
    return chosen, lambda: page.get_by_role("option", name=chosen, exact=True).click()


def step_correlation_metric(page, data: DataSet, args) -> Measure:
    chosen, click = choose_next_option(page, "Metric")
    measure = act(page, click, None, args)
    shown = widget(page, "stSelectbox", "Metric").locator("input").input_value()
    if chosen not in shown:
        raise StepError(f"the Metric box shows {shown!r}, not {chosen!r}")
    wait_for_figure(page, f"{chosen} against")
    measure.note = f"metric -> {chosen}"
    return measure


def step_bitext(page, data: DataSet, args) -> Measure:
    measure = act(page, sidebar(page, "Bitext grid"), "Search segments", args)
    wait_for_figure(page, ", segment 1")
    return measure


def step_bitext_exponent(page, data: DataSet, args) -> Measure:
    label = "Exponent e"
    before = slider_value(page, label)
    measure = act(page, press_slider(page, label), "Search segments", args)
    measure.note = f"e {before} -> {slider_value(page, label)}"
    return measure


def step_loss(page, data: DataSet, args) -> Measure:
    act(page, sidebar(page, "Loss"), "Loss-function ranking", args)
    label = "c3: cost of an incorrect response"
    before = slider_value(page, label)
    measure = act(page, press_slider(page, label), "Ranking:", args)
    measure.note = f"c3 {before} -> {slider_value(page, label)}"
    return measure


def step_compare(page, data: DataSet, args) -> Measure:
    measure = act(page, sidebar(page, "Compare"), "List the sentences of", args)
    wait_for_figure(page, "Salient n-grams")
    return measure


def step_compare_pair(page, data: DataSet, args) -> Measure:
    chosen, click = choose_next_option(page, "System b")
    measure = act(page, click, "List the sentences of", args)
    measure.note = f"b -> {chosen}"
    return measure


RUNNERS = {
    "upload": step_upload,
    "scores": step_scores,
    "correlation": step_correlation,
    "correlation-metric": step_correlation_metric,
    "bitext": step_bitext,
    "bitext-exponent": step_bitext_exponent,
    "loss": step_loss,
    "compare": step_compare,
    "compare-pair": step_compare_pair,
}
NEEDS = {
    "correlation-metric": "correlation",
    "bitext-exponent": "bitext",
    "compare-pair": "compare",
}


def walk(data: DataSet, steps: list[str]) -> list[str]:
    """The steps to go through for ``steps``: upload always, a page before its change."""
    chosen = set(steps) | {"upload"} | {NEEDS[s] for s in steps if s in NEEDS}
    if not data.has_judgments:
        chosen -= {"correlation", "correlation-metric"}
    return [s for s in STEPS if s in chosen]


def one_run(browser, data: DataSet, steps: list[str], run: int, args, log_dir: Path):
    """A fresh server and browser context: the steps' measures, or the errors that stopped them."""
    results: dict[str, Measure | str] = {}
    server = Server(log_dir / f"{data.name}-run{run}-server.log")
    args.url = server.url
    context = browser.new_context(viewport=VIEWPORT)
    context.add_init_script(OBSERVER)
    page = context.new_page()
    page.set_default_timeout(args.timeout * 1000)
    try:
        for step in walk(data, steps):
            if step in NEEDS and not isinstance(results.get(NEEDS[step]), Measure):
                results[step] = f"not measured: {NEEDS[step]} failed"
                continue
            try:
                measure = RUNNERS[step](page, data, args)
            except Exception as error:
                results[step] = f"{type(error).__name__}: {str(error).splitlines()[0][:300]}"
                shot(page, args.screenshots, f"{data.name}-run{run}-{step}-FAILED")
                if step == "upload":  # nothing else to measure without the test set
                    for later in steps:
                        results.setdefault(later, "not measured: the upload failed")
                    break
                continue
            results[step] = measure
            extra = f" ({measure.note})" if measure.note else ""
            print(
                f"  {data.name} run {run} {step:19} {measure.seconds:8.3f} s  drawn "
                f"{measure.drawn:8.3f} s  load {measure.load:5.2f}{extra}",
                flush=True,
            )
            if args.verbose and measure.trace:
                print(f"    {measure.trace}", flush=True)
            shot(page, args.screenshots, f"{data.name}-run{run}-{step}")
    finally:
        context.close()
        server.stop()
    for step, result in results.items():
        if isinstance(result, str):
            print(f"  {data.name} run {run} {step:19} FAILED: {result}", flush=True)
    return {s: r for s, r in results.items() if s in steps}


# ------------------------------------------------------------------------------------ reporting
def summarise(data: DataSet, steps: list[str], runs: list[dict]) -> list[dict]:
    rows = []
    for step in steps:
        goal, what = STEPS[step]
        row = {"set": data.name, "step": step, "what": what, "goal_s": goal}
        if step in ("correlation", "correlation-metric") and not data.has_judgments:
            rows.append({**row, "status": "n/a: the set has no human judgments"})
            continue
        measures = [r[step] for r in runs if isinstance(r.get(step), Measure)]
        errors = [r[step] for r in runs if isinstance(r.get(step), str)]
        row["errors"] = errors
        if not measures:
            rows.append({**row, "status": "not measured: " + (errors[0] if errors else "?")})
            continue
        seconds = [m.seconds for m in measures]
        median = statistics.median(seconds)
        rows.append(
            {
                **row,
                "status": "measured",
                "runs": len(measures),
                "median_s": round(median, 3),
                "fastest_s": round(min(seconds), 3),
                "met": median <= goal,
                "seconds": [round(s, 3) for s in seconds],
                "drawn_s": [round(m.drawn, 3) for m in measures],
                "load_1min": [round(m.load, 2) for m in measures],
                "parts": [m.parts for m in measures],
                "notes": sorted({m.note for m in measures if m.note}),
            }
        )
    return rows


def print_table(rows: list[dict]) -> None:
    header = (
        f"{'set':6} {'step':19} {'median s':>9} {'fastest s':>9} {'goal s':>7} {'met?':5} "
        f"{'load 1m':>8}  notes"
    )
    print(header)
    print("-" * len(header))
    for row in rows:
        start = f"{row['set']:6} {row['step']:19}"
        if row["status"] != "measured":
            print(
                f"{start} {'-':>9} {'-':>9} {row['goal_s']:7.1f} {'-':5} {'-':>8}  {row['status']}"
            )
            continue
        notes = [
            f"{name} {statistics.median(p[name] for p in row['parts']):.2f} s"
            for name in row["parts"][0]
        ]
        notes += row["notes"]
        if row["errors"]:
            notes.append(f"{len(row['errors'])} run(s) failed")
        print(
            f"{start} {row['median_s']:9.2f} {row['fastest_s']:9.2f} {row['goal_s']:7.1f} "
            f"{'yes' if row['met'] else 'NO':5} {statistics.median(row['load_1min']):8.2f}  "
            + "; ".join(notes)
        )


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=3, help="runs per set (median reported)")
    parser.add_argument("--sets", default="wmt17,wmt21", help="comma-separated: wmt17, wmt21")
    parser.add_argument(
        "--steps", default=",".join(STEPS), help="comma-separated: " + ", ".join(STEPS)
    )
    parser.add_argument(
        "--add-metrics",
        default="",
        help="comma-separated metric labels the Data page adds before the upload (untimed), "
        "e.g. chrF,chrF++,TER,METEOR: every step then computes them too",
    )
    parser.add_argument("--screenshots", type=Path, help="folder for a screenshot after each step")
    parser.add_argument("--json", type=Path, help="write the numbers here")
    parser.add_argument("--timeout", type=float, default=900, help="seconds a step may take")
    parser.add_argument(
        "--quiet-ms",
        type=float,
        default=1000,
        help="how long a page must stay settled to count as settled (not counted)",
    )
    parser.add_argument(
        "--verbose", action="store_true", help="print when each step's page became busy, settled"
    )
    args = parser.parse_args()
    args.sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    args.add_metrics = [s.strip() for s in args.add_metrics.split(",") if s.strip()]
    steps = [s.strip() for s in args.steps.split(",") if s.strip()]
    if unknown := [s for s in args.sets if s not in SETS] + [s for s in steps if s not in STEPS]:
        parser.error(f"unknown set or step: {', '.join(unknown)}")
    args.steps = [s for s in STEPS if s in steps]
    return args


def find_chromium() -> str | None:
    """Debian's chromium, if it and Playwright are here; else None, with a message why not."""
    chromium = shutil.which("chromium")
    if chromium is None:
        print(
            "error: Debian's chromium is not installed (apt-get install chromium): this benchmark "
            "drives it through Playwright",
            file=sys.stderr,
        )
        return None
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        print(
            "error: Playwright is not installed in this Python (pip install playwright; the "
            "browser is Debian's chromium: no `playwright install` needed)",
            file=sys.stderr,
        )
        return None
    return chromium


def run_sets(chromium: str, sets: list[str], args, log_dir: Path) -> list[dict]:
    from playwright.sync_api import sync_playwright

    rows = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            for name in sets:
                data = SETS[name]
                print(f"{data.name}: {data.title} ({data.path})", flush=True)
                runs = []
                for run in range(1, args.runs + 1):
                    try:
                        runs.append(one_run(browser, data, args.steps, run, args, log_dir))
                    except StepError as error:
                        print(f"  {data.name} run {run} FAILED: {error}", flush=True)
                        runs.append(dict.fromkeys(args.steps, str(error)))
                rows += summarise(data, args.steps, runs)
        finally:
            browser.close()
    return rows


def main() -> int:
    args = parse_args()
    if not DATA.is_dir():
        print(f"skipped: {DATA} is not available (the shared WMT data sets live there)")
        return 0
    chromium = find_chromium()
    if chromium is None:
        return 2
    for name in [s for s in args.sets if not SETS[s].path.is_dir()]:
        print(f"skipped {name}: {SETS[name].path} is not available")
    sets = [s for s in args.sets if SETS[s].path.is_dir()]

    start_uptime = uptime()
    print(f"start: {start_uptime}  ({os.cpu_count()} cores)")
    print(
        f"{args.runs} run(s) per set, a fresh streamlit server each; steps: {', '.join(args.steps)}"
    )
    if args.add_metrics:
        print(f"metrics: the seven defaults and {', '.join(args.add_metrics)}")
    log_dir = Path(tempfile.mkdtemp(prefix="bench-dashboard-"))
    rows = run_sets(chromium, sets, args, log_dir)
    end_uptime = uptime()
    failed = any(row["status"].startswith("not measured") for row in rows)
    print()
    print_table(rows)
    print(f"\nstart: {start_uptime}\nend:   {end_uptime}")
    print(
        "Median and fastest of the runs, from the input event to settled (see the docstring); "
        "load 1m: the 1-minute load average right after the step, median over the runs."
    )
    if failed:
        print(f"server logs: {log_dir}")
    else:
        shutil.rmtree(log_dir, ignore_errors=True)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        numbers = {
            "runs": args.runs,
            "quiet_ms": args.quiet_ms,
            "cores": os.cpu_count(),
            "uptime_start": start_uptime,
            "uptime_end": end_uptime,
            "sets": {name: SETS[name].title for name in sets},
            "added_metrics": args.add_metrics,
            "steps": rows,
        }
        args.json.write_text(json.dumps(numbers, indent=2) + "\n")
        print(f"wrote {args.json}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
