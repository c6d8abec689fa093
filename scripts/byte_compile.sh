#!/usr/bin/env bash
# Byte-compile, on every core, what the dashboard and the tests import from the virtual
# environment in .venv, and any project folders given as arguments. pip would compile one file
# at a time (scripts/app.sh and scripts/test.sh install with --no-compile); where
# PYTHONDONTWRITEBYTECODE is set, every process would otherwise compile each module it imports.
#
# Left out, a third of the files and of the time: test suites shipped inside packages, pip and
# setuptools (not imported at run time), and Plotly's generated figure classes (15 MB, of
# which a page imports a few dozen modules). A file that does not compile (some packages ship
# Python 2 examples) is skipped, as pip skips it.
set -euo pipefail
cd "$(dirname "$0")/.."
site_packages="$(.venv/bin/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
.venv/bin/python -m compileall -q -j 0 \
  -x "^$site_packages/((.+/)?tests?|pip|setuptools|plotly/graph_objs|plotly/validators)/" \
  "$site_packages" >/dev/null || true
if [ "$#" -gt 0 ]; then
  .venv/bin/python -m compileall -q -j 0 "$@" >/dev/null
fi
