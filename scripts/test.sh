#!/usr/bin/env bash
# Set everything up (a virtual environment in .venv, the package with its test tools) and run
# the linters and every test. Extra arguments go to pytest, e.g. `bash scripts/test.sh -k bleu`.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet --no-compile -e ".[test]"
# byte-compile what was installed on every core: pip does it one file at a time, half of a
# fresh setup (plotly alone has thousands of files). A file that does not compile (some
# packages ship Python 2 examples) is skipped, as pip skips it.
.venv/bin/python -m compileall -q -j 0 "$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')" >/dev/null || true
# and the project's own modules, which every test process, server and command imports (where
# PYTHONDONTWRITEBYTECODE is set, Python would compile them again in each)
.venv/bin/python -m compileall -q -j 0 app.py pages mteval_core tests >/dev/null
# meteor-1.5.jar, the oracle of tests/metrics/test_meteor_parity.py, ships inside this PyPI package
.venv/bin/python -m pip install --quiet --no-deps "pycocoevalcap==1.2"
.venv/bin/ruff check .
.venv/bin/ruff format --check .
# On every core (pytest-xdist); a module of browser tests stays on one worker (tests/conftest.py).
exec .venv/bin/python -m pytest -n auto "$@"
