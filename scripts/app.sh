#!/usr/bin/env bash
# Set everything up (a virtual environment in .venv with the package; a second start finds it up
# to date, see scripts/install.sh) and open the dashboard on the sample data at
# http://127.0.0.1:8501. Extra arguments go to `streamlit run`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh dashboard
# The server writes the bytecode of what it imports, so that the next start reads it instead of
# compiling again, also where the machine sets PYTHONDONTWRITEBYTECODE (see scripts/test.sh).
# Streamlit's file watcher does not take that bytecode for an edit of the app: pages/ is a
# regular package (pages/__init__.py says why; tests/app/test_file_watcher.py).
unset PYTHONDONTWRITEBYTECODE
exec .venv/bin/streamlit run app.py --server.address=127.0.0.1 --browser.gatherUsageStats=false "$@"
