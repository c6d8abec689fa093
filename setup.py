"""Builds the compiled modules; pyproject.toml has the rest.

- mteval_core/gtm/_loops.pyx: GTM's matching loops (fallback: gtm/_loops_python.py);
- mteval_core/text/_scan.pyx: tokenization and token ids in one pass (fallback: the Python
  tokenizers in text/__init__.py);
- mteval_core/metrics/_chrf_counts.pyx: chrF's and chrF++'s per-segment statistics (fallback:
  sacreBLEU's own Python, through metrics/sacrebleu_segments.py);
- mteval_core/metrics/_ter_edits.pyx: TER's per-segment statistics, sacreBLEU's shift search on
  word ids (fallback: sacreBLEU's own Python, through metrics/sacrebleu_segments.py);
- mteval_core/metrics/meteor/_beam_loops.pyx: METEOR's exact and stem matching and the jar's
  beam search over many segment pairs (fallback: meteor/aligner.py per pair, through
  meteor/corpus_alignment.py).

All are optional: without a C compiler the build still succeeds and mteval runs on the
pure-Python code (the same numbers, slower, with a note for GTM). An sdist ships the generated C
files, so installing from it needs a compiler but not Cython.
"""

import os
import sys
from pathlib import Path

from setuptools import Extension, setup

SOURCES = [
    Path("mteval_core") / "gtm" / "_loops.pyx",
    Path("mteval_core") / "text" / "_scan.pyx",
    Path("mteval_core") / "metrics" / "_chrf_counts.pyx",
    Path("mteval_core") / "metrics" / "_ter_edits.pyx",
    Path("mteval_core") / "metrics" / "meteor" / "_beam_loops.pyx",
]

CORES = os.cpu_count() or 1  # cythonize and compile on every core: most of a fresh setup's time

try:
    from Cython.Build import cythonize

    extensions = cythonize([str(source) for source in SOURCES], language_level=3, nthreads=CORES)
except ImportError:  # an sdist built elsewhere: compile its generated C files
    extensions = [
        Extension(".".join(source.with_suffix("").parts), [str(source.with_suffix(".c"))])
        for source in SOURCES
    ]
for extension in extensions:  # cythonize() drops optional=True, so it is set on what it returns
    extension.optional = True
    if sys.platform == "win32":  # MSVC: no debugging symbols and no contraction by default
        continue
    # no debugging symbols (Python's own CFLAGS ask for -g): a third less compile time
    extension.extra_compile_args = ["-g0"]
    if extension.name.endswith(("_chrf_counts", "_ter_edits", "_beam_loops")):
        # chrF picks a segment's reference by comparing f-scores, TER places its beam at
        # floor(i * ratio), METEOR's beam truncates coverage + length * weight: no fused
        # multiply-add, so they round as sacreBLEU's Python and the jar's Java do.
        extension.extra_compile_args.append("-ffp-contract=off")

setup(ext_modules=extensions, options={"build_ext": {"parallel": CORES}})
