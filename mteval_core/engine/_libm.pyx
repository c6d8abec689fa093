# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False
"""The C library's log, exp and pow over arrays (engine/libm.py says why; its fallback is
Python's ``math``, which calls the same functions). A plain loop of scalar calls: compiled without
-ffast-math, GCC never swaps them for vector versions, so every result is the C library's."""

from libc.math cimport exp as c_exp, log as c_log, pow as c_pow


def log_into(const double[::1] values, double[::1] out) -> None:
    """out[i] = log(values[i]) for every i."""
    cdef Py_ssize_t i
    with nogil:
        for i in range(values.shape[0]):
            out[i] = c_log(values[i])


def exp_into(const double[::1] values, double[::1] out) -> None:
    """out[i] = exp(values[i]) for every i."""
    cdef Py_ssize_t i
    with nogil:
        for i in range(values.shape[0]):
            out[i] = c_exp(values[i])


def pow_into(const double[::1] values, double exponent, double[::1] out) -> None:
    """out[i] = pow(values[i], exponent) for every i."""
    cdef Py_ssize_t i
    with nogil:
        for i in range(values.shape[0]):
            out[i] = c_pow(values[i], exponent)
