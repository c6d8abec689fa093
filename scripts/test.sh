#!/usr/bin/env bash
# Set everything up (a virtual environment in .venv, the package with its test tools) and run
# the linters and every test. Extra arguments go to pytest, e.g. `bash scripts/test.sh -k bleu`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh test
# meteor-1.5.jar, the oracle of tests/metrics/test_meteor_parity.py, ships inside this PyPI
# package; it installs (mostly waiting on the disk) while ruff checks the code, once
oracle=
installed='import importlib.metadata as m; assert m.version("pycocoevalcap") == "1.2"'
if ! .venv/bin/python -I -c "$installed" 2>/dev/null; then
  .venv/bin/python -m pip install --quiet --no-deps "pycocoevalcap==1.2" &
  oracle=$!
fi
.venv/bin/ruff check .
.venv/bin/ruff format --check .
[ -z "$oracle" ] || wait "$oracle"
# Each module's bytecode is written by the first process that imports it and read by every later
# one (test workers, dashboard servers, the command lines the tests start). Where the machine sets
# PYTHONDONTWRITEBYTECODE, every process would compile again all it imports; compiling all of
# .venv ahead (23 s here) compiled three times what the tests import.
unset PYTHONDONTWRITEBYTECODE
# On every core (pytest-xdist); a module of browser tests stays on one worker (tests/conftest.py).
exec .venv/bin/python -m pytest -n auto "$@"
