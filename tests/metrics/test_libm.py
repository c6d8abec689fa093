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


def power_arguments(rng: np.random.Generator) -> np.ndarray:
    """Bases for pow: METEOR's fragmentations (chunks / mean matched words, 0 to 1) and the rest
    of the line, with the edge values."""
    chunks = rng.integers(1, 60, 50_000)
    matched = chunks + rng.integers(0, 200, 50_000)
    fragmentations = chunks / ((matched + matched + rng.integers(0, 3, 50_000)) / 2)
    edges = [0.0, -0.0, -1.0, -2.0, 1.0, math.inf, -math.inf, math.nan, 5e-324, 1e308]
    return np.concatenate([fragmentations, 10.0 ** rng.uniform(-300, 300, 50_000), edges])


@pytest.mark.parametrize("exponent", [0.2, 1.0, 1.3, 1.4, 3.0, -1.0, -0.5, 0.0])
def test_power_equals_pythons_math_compiled_and_not(exponent, monkeypatch):
    """C's pow, as Python's math.pow calls it (and as it answers where math.pow raises), for
    METEOR's betas (0.2 English and Czech, 1.0 German, 1.3 Spanish, 1.4 French and Russian,
    3.0 the li task) and the edges: the compiled loop and the fallback give the same bits."""
    bases = power_arguments(np.random.default_rng(20261208))
    expected = []
    for base in bases.tolist():
        try:
            expected.append(math.pow(base, exponent))
        except (ValueError, OverflowError):
            expected.append(None)  # C's answer: checked by hand below
    computed = {"fallback": None}
    if libm.compiled is not None:
        computed["compiled"] = libm.power(bases, exponent)
    monkeypatch.setattr(libm, "compiled", None)
    computed["fallback"] = libm.power(bases, exponent)
    for values in computed.values():
        for got, want in zip(values.tolist(), expected, strict=True):
            if want is not None:
                assert got == want or (math.isnan(got) and math.isnan(want))
    if "compiled" in computed:
        np.testing.assert_array_equal(computed["compiled"], computed["fallback"])


@pytest.mark.parametrize("build", ["compiled", "python"])
def test_power_where_math_raises_gives_cs_answers(build, monkeypatch):
    if build == "compiled" and libm.compiled is None:
        pytest.skip("mteval was installed without a C compiler")
    if build == "python":
        monkeypatch.setattr(libm, "compiled", None)
    assert libm.power([0.0, -0.0], -1.0).tolist() == [math.inf, -math.inf]
    assert libm.power([0.0, -0.0], -2.0).tolist() == [math.inf, math.inf]
    assert libm.power([-0.0], -0.5).tolist() == [math.inf]
    assert np.isnan(libm.power([-2.0], 0.5)).all()
    assert libm.power([1e300, -1e300, -1e300], 3.0).tolist() == [math.inf, -math.inf, -math.inf]
    assert libm.power([-1e300], 2.0).tolist() == [math.inf]
    assert libm.power(np.float64(0.25), 0.2) == math.pow(0.25, 0.2)
    assert libm.power(np.zeros((2, 3)), 1.4).shape == (2, 3)
