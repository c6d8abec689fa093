"""Fixtures shared by every test folder (the helpers they use are in tests/helpers.py)."""

from __future__ import annotations

import functools
import getpass
import os
import tempfile
from pathlib import Path

import pytest

from mteval_core.model.testset import TestSet, TextColumn
from tests.helpers import read_lines, shared_dataset


def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """With pytest-xdist (scripts/test.sh: -n auto), every test is a unit of work of its own,
    except the browser tests: a module of them runs whole on one worker, in order, because its
    tests share one `streamlit run` and one Chromium (module fixtures) and some build on the
    session state of the test before."""
    from xdist.scheduler import LoadScopeScheduling

    class BrowserModulesTogether(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            in_browser = nodeid.startswith("tests/e2e/")
            return nodeid.split("::", 1)[0] if in_browser else nodeid

    return BrowserModulesTogether(config, log)


@pytest.fixture(scope="session", autouse=True)
def installed_components_scanned_once():
    """Each new AppTest, on its first run, scans every installed distribution's metadata for
    Streamlit components (streamlit.components.v2): 0.3-0.6 s each, for about 140 AppTests in
    the page tests, 40 CPU-s of every test run. A dashboard server scans once, when it starts;
    what is installed does not change while the tests run, so each test process scans once."""
    try:
        from streamlit.components.v2 import manifest_scanner
    except ImportError:  # without the dashboard's packages there are no page tests
        yield
        return
    with pytest.MonkeyPatch.context() as patch:
        scan = functools.cache(manifest_scanner.scan_component_manifests)
        patch.setattr(manifest_scanner, "scan_component_manifests", scan)
        yield


# Where the tests' METEOR paraphrase cache goes (108 MB for English): a folder of the system's
# temporary directory, one per user, shared by the processes of a run (pytest-xdist's workers,
# the dashboard servers and command lines the tests start) and kept between runs, so that the
# table is parsed once, never in the user's own ~/.cache/mteval.
TEST_CACHE = Path(tempfile.gettempdir()) / f"mteval-tests-{getpass.getuser()}"


@pytest.fixture(scope="session", autouse=True)
def cache_in_a_temporary_folder():
    """MTEVAL_CACHE_DIR (which metrics.meteor.paraphrases.cache_root honours) set to TEST_CACHE
    for the whole session, before any other fixture starts a server: every process the tests
    start inherits it."""
    before = os.environ.get("MTEVAL_CACHE_DIR")
    os.environ["MTEVAL_CACHE_DIR"] = str(TEST_CACHE)
    yield TEST_CACHE
    if before is None:
        os.environ.pop("MTEVAL_CACHE_DIR", None)
    else:
        os.environ["MTEVAL_CACHE_DIR"] = before


@pytest.fixture(scope="session")
def wmt17() -> TestSet:
    folder = shared_dataset("wmt17-newstest2017-ende")
    ref = read_lines(folder / "ref" / "ref.de")
    systems = [
        TextColumn(path.name.rsplit(".", 1)[0], tuple(read_lines(path)), str(path))
        for path in sorted((folder / "sys").iterdir())
    ]
    return TestSet(references=[TextColumn("ref", tuple(ref), "ref.de")], systems=systems)


@pytest.fixture(scope="session")
def ted() -> TestSet:
    """WMT21 TED en-de: the reference and the 13 systems, text only (skips where absent)."""
    folder = shared_dataset("wmt21-ted-mqm-ende")
    return TestSet(
        references=[TextColumn("ref-A", tuple(read_lines(folder / "ref" / "ref-A.de")), "ref")],
        systems=[
            TextColumn(path.stem, tuple(read_lines(path)), str(path))
            for path in sorted((folder / "sys").iterdir())
        ],
    )


@pytest.fixture(params=["compiled", "python"])
def gtm_loops(request, monkeypatch):
    """Run a GTM test twice: on the compiled loops and on the pure-Python fallback that installs
    without a C compiler; both must give the same numbers to the bit."""
    import mteval_core.gtm.matching as matching
    from mteval_core.gtm import _loops_python

    if request.param == "python":
        monkeypatch.setattr(matching, "loops", _loops_python)
    return request.param
