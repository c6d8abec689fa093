#!/usr/bin/env bash
# .venv (scripts/venv.sh) with this checkout installed editable and the dependencies of its extras:
# `bash scripts/install.sh test` (test.sh) or `... dashboard ja ko` (app.sh).
#
# `pip install -e ".[test]"` builds the compiled modules first (two cores, about 20 s) and then
# installs the dependencies (one core, about 30 s). Here the two run side by side, as two pips:
# one builds and installs the package alone (--no-deps), the other installs what
# scripts/requirements.py lists for the extra. Together they take about the longer of the two.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/venv.sh
install=(.venv/bin/python -m pip install --quiet --no-compile)
"${install[@]}" --no-deps -e . &
build=$!
mapfile -t requirements < <(.venv/bin/python scripts/requirements.py "$@")
if ! "${install[@]}" "${requirements[@]}"; then
  wait "$build" || true
  exit 1
fi
wait "$build"
