#!/usr/bin/env bash
# Set everything up (a virtual environment in .venv with the package; a second start finds it up
# to date, see scripts/install.sh) and open the dashboard on the sample data at
# http://127.0.0.1:8501. Extra arguments go to `streamlit run`.
set -euo pipefail
cd "$(dirname "$0")/.."
# Japanese and Korean output are tokenized with MeCab by default (sacreBLEU's ja-mecab, ko-mecab):
# the extras ja and ko (MeCab's wheels and two pure-Python dictionaries, a 46 MB download) come
# along, so that the dashboard's defaults run; where they cannot be installed, one line says so.
log="$(mktemp -t mteval-mecab.XXXXXX)"
if bash scripts/install.sh dashboard ja ko 2>"$log"; then
  rm -f "$log"
else
  echo "app.sh: MeCab (extras ja, ko) could not be installed ($log says why): the dashboard" \
    "then asks for another tokenizer for Japanese and Korean output (char, as WMT)" >&2
  bash scripts/install.sh dashboard
fi
# The server writes the bytecode of what it imports, so that the next start reads it instead of
# compiling again, also where the machine sets PYTHONDONTWRITEBYTECODE (see scripts/test.sh).
# Streamlit's file watcher does not take that bytecode for an edit of the app: pages/ is a
# regular package (pages/__init__.py says why; tests/app/test_file_watcher.py).
unset PYTHONDONTWRITEBYTECODE
exec .venv/bin/streamlit run app.py --server.address=127.0.0.1 --browser.gatherUsageStats=false "$@"
