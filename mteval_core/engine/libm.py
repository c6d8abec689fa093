"""Natural logarithm, exponential and power equal to the C library's, bit for bit, on every CPU.

numpy chooses its ``log``, ``exp`` and ``power`` loops by CPU: where AVX-512 is found it runs its
own SIMD versions, which round differently from the C library in the last bit (on a Xeon with
AVX-512, for 4.7% of a million random arguments of ``exp`` and 0.1% of ``log``; ``power`` put
3,537 of 110,331 WMT23 English METEOR segment scores 1-2 units in the last place off the jar's).
The programs our numbers must equal (sacreBLEU, compare-mt, NLTK through Python's ``math``,
mteval-v13a.pl through Perl) all call the C library, so BLEU's and NIST's scores use these
instead, and METEOR's fragmentation penalty the C library's ``pow``, as near as C gets to Java's
``Math.pow``: the same numbers whatever machine runs them, not only where numpy happens to agree.

The loops are compiled (``_libm.pyx``); without a C compiler, Python's ``math`` gives the same
results about a hundred times slower (about 0.3 microseconds a value).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import partial

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


def power(values: ArrayLike, exponent: float) -> np.ndarray:
    """Every value to the power ``exponent``, as C's ``pow`` (inf where it overflows, NaN for a
    negative value and a fractional exponent)."""
    exponent = float(exponent)
    return _apply(
        values,
        "pow_into",
        partial(_python_pow, exponent=exponent),
        lambda flat, out: compiled.pow_into(flat, exponent, out),
    )


def _apply(
    values: ArrayLike,
    compiled_name: str,
    python: Callable[[float], float],
    call: Callable[[np.ndarray, np.ndarray], None] | None = None,
) -> np.ndarray:
    """``values`` through one of the functions (``call``: how to call the compiled loop when it
    takes more than the values and the output), in their shape (a numpy scalar for a scalar, as
    numpy's own functions give)."""
    array = np.asarray(values, dtype=np.float64)
    flat = np.ascontiguousarray(array.reshape(-1))
    if compiled is not None:
        out = np.empty_like(flat)
        (call or getattr(compiled, compiled_name))(flat, out)
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


def _python_pow(value: float, exponent: float) -> float:
    """C's pow where math.pow raises instead: 0 to a negative power is infinite (negative for
    -0 and an odd whole exponent), a negative value to a fractional power NaN, and an overflow
    infinite with the sign C gives it."""
    try:
        return math.pow(value, exponent)
    except (ValueError, OverflowError):
        odd = exponent.is_integer() and exponent % 2 == 1
        if value == 0:
            return math.copysign(math.inf, value) if odd else math.inf
        if value < 0 and not exponent.is_integer():
            return math.nan
        return -math.inf if value < 0 and odd else math.inf
