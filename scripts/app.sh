#!/usr/bin/env bash
# Set everything up (a virtual environment in .venv with the package) and open the dashboard on
# the sample data at http://127.0.0.1:8501. Extra arguments go to `streamlit run`.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet --no-compile -e ".[dashboard]"
# byte-compile what was installed on every core: pip does it one file at a time, half of a
# fresh setup (plotly alone has thousands of files). A file that does not compile (some
# packages ship Python 2 examples) is skipped, as pip skips it.
.venv/bin/python -m compileall -q -j 0 "$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')" >/dev/null || true
exec .venv/bin/streamlit run app.py --server.address=127.0.0.1 --browser.gatherUsageStats=false "$@"
