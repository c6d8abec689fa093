"""engine.libm's log and exp equal Python's math (the C library's, as sacreBLEU, compare-mt and
NLTK call them) bit for bit, compiled and in the pure-Python fallback, whatever numpy's own
functions give on the CPU that runs the tests (on one with AVX-512, numpy's exp differs from the
C library's in the last bit for about 5% of these arguments)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from mteval_core.engine import libm


def arguments(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Arguments for log (positive, over many orders of magnitude, and the edge values) and for
    exp (from underflow to overflow, and the edge values)."""
    edges = [0.0, -0.0, -1.0, math.inf, -math.inf, math.nan, 1.0, 5e-324, 1.7976931348623157e308]
    logs = np.concatenate([10.0 ** rng.uniform(-300, 300, 100_000), rng.random(100_000), edges])
    exps = np.concatenate([rng.uniform(-750, 720, 100_000), rng.uniform(-3, 1, 100_000), edges])
    return logs, exps


def test_the_compiled_loops_equal_pythons_math(monkeypatch):
    """Compiled: the C library's functions called in C; the fallback: the same functions called
    through Python's math, one value at a time. Equal bits, whatever numpy gives here."""
    if libm.compiled is None:
        pytest.skip("mteval was installed without a C compiler")
    logs, exps = arguments(np.random.default_rng(20261127))
    compiled_log, compiled_exp = libm.log(logs), libm.exp(exps)
    monkeypatch.setattr(libm, "compiled", None)
    # equal floats are equal bits here: neither function returns -0.0, and NaN matches NaN
    np.testing.assert_array_equal(compiled_log, libm.log(logs))
    np.testing.assert_array_equal(compiled_exp, libm.exp(exps))


@pytest.mark.parametrize("build", ["compiled", "python"])
def test_values_by_hand_and_where_math_raises(build, monkeypatch):
    if build == "compiled" and libm.compiled is None:
        pytest.skip("mteval was installed without a C compiler")
    if build == "python":
        monkeypatch.setattr(libm, "compiled", None)
    assert libm.log([1.0, math.e, 0.0, math.inf]).tolist() == [0.0, 1.0, -math.inf, math.inf]
    assert np.isnan(libm.log([-1.0, math.nan])).all()
    assert libm.exp([0.0, 1.0, -math.inf, 1000.0]).tolist() == [1.0, math.e, 0.0, math.inf]
    assert libm.exp([-1000.0])[0] == 0.0 and np.isnan(libm.exp([math.nan])[0])
    assert libm.log(math.exp(2.5)) == math.log(math.exp(2.5))


def test_shapes_and_scalars_come_back_as_numpy_gives_them():
    grid = np.arange(1.0, 7.0).reshape(2, 3)
    assert libm.log(grid).shape == (2, 3)
    assert libm.exp(grid[:, ::2]).shape == (2, 2)  # not contiguous
    scalar = libm.exp(np.float64(1.0))
    assert isinstance(scalar, np.float64) and scalar == math.exp(1.0)
    assert libm.log([]).shape == (0,)
