"""Builds the one compiled module, mteval_core/_gtm_loops.pyx; pyproject.toml has the rest."""

from Cython.Build import cythonize
from setuptools import setup

setup(ext_modules=cythonize(["mteval_core/_gtm_loops.pyx"], language_level=3))
