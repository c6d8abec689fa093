#!/usr/bin/env bash
# .venv (scripts/venv.sh) with this checkout installed editable and the dependencies of its extras:
# `bash scripts/install.sh test` (test.sh) or `... dashboard ja ko` (app.sh).
#
# `pip install -e ".[test]"` builds the compiled modules first (two cores, about 20 s) and then
# installs the dependencies (one core, about 30 s). Here the two run side by side, as two pips:
# one builds and installs the package alone (--no-deps), the other installs what
# scripts/requirements.py lists for the extra. Together they take about the longer of the two.
#
# Once done, a stamp in .venv records what the install was made from (pyproject.toml, setup.py,
# the .pyx and .pxd files, these scripts, Python's version) with the extra's requirements and the
# compiled modules it built. The next call with the same inputs, an extra whose requirements a
# stamp covers (the test extra's covers the dashboard's) and those modules still in place does
# nothing: the editable install already serves every edit of a .py file. Changing any of the
# inputs (or deleting .venv) installs again.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/venv.sh
extras=$(IFS=+; echo "$*")  # the stamp's name: "test", "dashboard+ja+ko"
mapfile -t requirements < <(.venv/bin/python scripts/requirements.py "$@")
inputs=$(
  {
    .venv/bin/python --version
    find mteval_core -name '*.pyx' -o -name '*.pxd' | LC_ALL=C sort | xargs sha256sum
    sha256sum pyproject.toml setup.py scripts/requirements.py scripts/install.sh scripts/venv.sh
  } | sha256sum | cut -d' ' -f1
)

# A stamp: its first line the inputs' hash, then "built FILE" per compiled module and
# "requires REQUIREMENT" per requirement of its extra.
up_to_date() {
  local stamp line
  for stamp in .venv/.mteval-install-*; do
    [ -f "$stamp" ] && [ "$(head -n 1 "$stamp")" = "$inputs" ] || continue
    while read -r line; do
      [ "${line#built }" = "$line" ] || [ -f "${line#built }" ] || continue 2
    done <"$stamp"
    for line in "${requirements[@]}"; do
      grep -qxF "requires $line" "$stamp" || continue 2
    done
    # still installed (isolated: not found in the current folder instead)
    .venv/bin/python -I -c "import mteval_core" 2>/dev/null || return 1
    return 0
  done
  return 1
}
if up_to_date; then
  exit 0
fi

rm -f .venv/.mteval-install-*  # a failed install below leaves no stamp that says otherwise
install=(.venv/bin/python -m pip install --quiet --no-compile)
"${install[@]}" --no-deps -e . &
build=$!
if ! "${install[@]}" "${requirements[@]}"; then
  wait "$build" || true
  exit 1
fi
wait "$build"
{
  echo "$inputs"
  find mteval_core -name '*.so' -o -name '*.pyd' | LC_ALL=C sort | sed 's/^/built /'
  printf 'requires %s\n' "${requirements[@]}"
} >".venv/.mteval-install-$extras"
