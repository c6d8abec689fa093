#!/usr/bin/env bash
# Build what users install (an sdist, a wheel with the compiled GTM loops, and one built without a
# C compiler), install each wheel into a fresh virtual environment outside the checkout, and score
# the sample with BLEU, NIST, F1, GTM, chrF and TER: this proves the installed artifacts work, not
# just the source tree, and that the compiled modules (GTM's loops, the tokenizer, the n-gram
# matches, chrF, TER) and their Python fallbacks agree. METEOR's compiled beam search is checked to be built (or not) as the
# wheel says; scoring with it needs the jar's data, which these environments do not have (its
# fallback's equality is tests/metrics/test_meteor_compiled.py's).
set -euo pipefail
cd "$(dirname "$0")/.."
# The compiled modules, each with a Python fallback: pyproject.toml's one list, as setup.py reads it.
mapfile -t COMPILED < <(python3 -c 'import tomllib
for module in tomllib.load(open("pyproject.toml", "rb"))["tool"]["mteval"]["compiled"]:
    print(module.removeprefix("mteval_core."))')
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 -m venv "$work/builder"
"$work/builder/bin/python" -m pip install --quiet --upgrade pip build
"$work/builder/bin/python" -m build --sdist --outdir "$work/dist" . >/dev/null 2>&1
sdist="$(ls "$work/dist"/*.tar.gz)"
tar -tzf "$sdist" >"$work/sdist.txt"
grep -q "mteval_core/_cython_shared.c" "$work/sdist.txt"  # a source install needs no Cython
for module in "${COMPILED[@]}"; do
  grep -q "mteval_core/${module//.//}.c" "$work/sdist.txt" || { echo "the sdist lacks $module's C"; exit 1; }
done
grep -q "LICENSE" "$work/sdist.txt" || { echo "the sdist lacks LICENSE"; exit 1; }
# Both wheels from the sdist, in pip's clean build folders: one compiled, one as on a machine
# without a C compiler.
"$work/builder/bin/python" -m pip wheel --quiet --no-deps -w "$work/dist" "$sdist" 2>/dev/null
CC=/bin/false "$work/builder/bin/python" -m pip wheel --quiet --no-deps -w "$work/plain" \
  "$sdist" 2>/dev/null

score_sample() {  # $1: a wheel; $2: "compiled" or "python" (which GTM loops it must use)
  local venv="$work/venv-$2"
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet "$1"
  (
    cd "$work"  # away from the checkout, so the installed package is the one imported
    "$venv/bin/mteval" score --refs "$OLDPWD/sample_data/ref/ref-A.en" \
      --hyps "$OLDPWD"/sample_data/sys/*.en --metrics bleu,nist,f1,gtm,chrf,chrf++,ter --gtm-exponent 2 --format json \
      >"$work/$2.json" 2>"$work/$2.err"
    for module in "${COMPILED[@]}"; do  # each built (or not) as the wheel says
      if "$venv/bin/python" -c "import mteval_core.$module" 2>/dev/null; then found=compiled
      else found=python; fi
      [ "$found" = "$2" ] || { echo "the $2 wheel has the $found mteval_core.$module"; exit 1; }
    done
    if [ "$2" = python ]; then grep -q "pure-Python" "$work/$2.err"; fi
    if "$venv/bin/python" -c "import streamlit" 2>/dev/null; then
      echo "the library installed Streamlit"; exit 1
    fi
  )
}
for wheel in "$work"/dist/*.whl "$work"/plain/*.whl; do  # sources stay in the sdist
  python3 -c 'import sys, zipfile; print("\n".join(zipfile.ZipFile(sys.argv[1]).namelist()))' \
    "$wheel" >"$work/wheel.txt"
  if grep -E '\.(c|pyx|pxd)$' "$work/wheel.txt"; then echo "$wheel holds sources"; exit 1; fi
  grep -q "^mteval_core/py.typed$" "$work/wheel.txt" || { echo "$wheel lacks py.typed"; exit 1; }
done
score_sample "$(ls "$work/dist"/*.whl)" compiled
score_sample "$(ls "$work/plain"/*.whl)" python
cmp "$work/compiled.json" "$work/python.json"  # the same numbers, to the last digit
echo "package check: sdist, compiled and compiler-free wheels install and score the sample alike"
