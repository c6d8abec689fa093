"""Natural logarithm and exponential equal to the C library's, bit for bit, on every CPU.

numpy chooses its ``log`` and ``exp`` loops by CPU: where AVX-512 is found it runs its own SIMD
versions, which round differently from the C library in the last bit (on a Xeon with AVX-512,
for 4.7% of a million random arguments of ``exp`` and 0.1% of ``log``). The programs our numbers
must equal (sacreBLEU, compare-mt, NLTK through Python's ``math``, mteval-v13a.pl through Perl)
all call the C library, so BLEU's and NIST's scores use these two instead: the same numbers as
theirs whatever machine runs them, not only where numpy happens to agree.

The loops are compiled (``_libm.pyx``); without a C compiler, Python's ``math`` gives the same
results about a hundred times slower (about 0.3 microseconds a value).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike

try:
    from mteval_core.engine import _libm as compiled
except ImportError:  # installed without a C compiler
    compiled = None


def log(values: ArrayLike) -> np.ndarray:
    """The natural logarithm of every value, as C's ``log`` (-inf at 0, NaN below 0)."""
    return _apply(values, "log_into", _python_log)


def exp(values: ArrayLike) -> np.ndarray:
    """e to the power of every value, as C's ``exp`` (inf where it overflows)."""
    return _apply(values, "exp_into", _python_exp)


def _apply(values: ArrayLike, compiled_name: str, python: Callable[[float], float]) -> np.ndarray:
    """``values`` through one of the two, in their shape (a numpy scalar for a scalar, as numpy's
    own functions give)."""
    array = np.asarray(values, dtype=np.float64)
    flat = np.ascontiguousarray(array.reshape(-1))
    if compiled is not None:
        out = np.empty_like(flat)
        getattr(compiled, compiled_name)(flat, out)
    else:
        out = np.fromiter(map(python, flat.tolist()), dtype=np.float64, count=flat.size)
    return out.reshape(array.shape)[()]


def _python_log(value: float) -> float:
    if value > 0:
        return math.log(value)
    return -math.inf if value == 0 else math.nan  # C's log; math.log raises instead


def _python_exp(value: float) -> float:
    try:
        return math.exp(value)
    except OverflowError:  # C's exp gives inf
        return math.inf
