"""Builds the one compiled module, mteval_core/gtm/_loops.pyx; pyproject.toml has the rest.

The module is optional: without a C compiler the build still succeeds and GTM runs on the
pure-Python loops (mteval_core/gtm/_loops_python.py: the same numbers, slower, with a note).
An sdist ships the generated C file, so installing from it needs a compiler but not Cython.
"""

from pathlib import Path

from setuptools import Extension, setup

SOURCE = Path("mteval_core") / "gtm" / "_loops.pyx"

try:
    from Cython.Build import cythonize

    extensions = cythonize([str(SOURCE)], language_level=3)
except ImportError:  # an sdist built elsewhere: compile its generated C file
    extensions = [Extension("mteval_core.gtm._loops", [str(SOURCE.with_suffix(".c"))])]
for extension in extensions:  # cythonize() drops optional=True, so it is set on what it returns
    extension.optional = True

setup(ext_modules=extensions)
