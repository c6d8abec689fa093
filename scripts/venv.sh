#!/usr/bin/env bash
# The virtual environment in .venv with an up-to-date pip, created once (test.sh and app.sh).
#
# Python's own `venv` unpacks its bundled pip (ensurepip) and the upgrade then replaces it: 13 s
# on two cores. A venv without pip, given the newest pip by the system's pip (`--python`, pip
# 22.3 and later), takes 5 s. Where the system's pip is older or missing, the usual way is used.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] && exit 0
if ! { python3 -m venv --without-pip .venv &&
  python3 -m pip --python .venv/bin/python install --quiet --upgrade pip 2>/dev/null; }; then
  rm -rf .venv
  python3 -m venv .venv
  .venv/bin/python -m pip install --quiet --upgrade pip
fi
