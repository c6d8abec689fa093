# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled loops of GTM's bitext grid; mteval_core/matching.py says what they compute and why.

GTM 1.4's matching is a sequential greedy per segment over a small grid: in Python it costs a few
hundred microseconds a segment, compiled a few microseconds. Token ids and offsets are int64
arrays (C-contiguous), a reference barrier is the id -1 and matches nothing.
"""

import numpy as np

from libc.math cimport ceil, pow
from libc.stdlib cimport free, malloc, qsort
from libc.string cimport memset

ctypedef long long i64


cdef int _descending(const void* a, const void* b) noexcept nogil:
    cdef i64 x = (<const i64*> a)[0]
    cdef i64 y = (<const i64*> b)[0]
    return (x < y) - (x > y)


cdef void _run_lengths(const i64* c, Py_ssize_t m, const i64* r, Py_ssize_t x, int* L) noexcept nogil:
    """L[i * (x + 1) + j]: length of the chain of hits starting at (i, j); row m and column x are 0."""
    cdef Py_ssize_t i, j, w = x + 1
    memset(L, 0, (m + 1) * w * sizeof(int))
    for i in range(m - 1, -1, -1):
        for j in range(x - 1, -1, -1):
            if r[j] == c[i] and c[i] != -1:
                L[i * w + j] = L[(i + 1) * w + j + 1] + 1


cdef i64* _sorted_blocks(const int* L, Py_ssize_t m, Py_ssize_t x, Py_ssize_t* count) noexcept nogil:
    """Keys l * m * x + i * x + j of every block, sorted descending (GTM 1.4's order); malloc'ed."""
    cdef Py_ssize_t i, j, k = 0, n = 0, w = x + 1
    cdef int length
    cdef i64 area = <i64> m * x
    for i in range(m):
        for j in range(x):
            n += L[i * w + j]
    cdef i64* keys = <i64*> malloc((n if n > 0 else 1) * sizeof(i64))
    for i in range(m):
        for j in range(x):
            for length in range(1, L[i * w + j] + 1):
                keys[k] = length * area + i * x + j
                k += 1
    qsort(keys, n, sizeof(i64), _descending)
    count[0] = n
    return keys


cdef double _greedy(
    const i64* c, Py_ssize_t m, const i64* r, Py_ssize_t x, double cap, double e, double* chosen,
    Py_ssize_t* n_chosen,
) noexcept nogil:
    """GTM 1.4's greedy: the sum of len ** e; the blocks (i, j, len) go to ``chosen`` if given."""
    n_chosen[0] = 0
    if m == 0 or x == 0 or cap <= 0:
        return 0.0
    cdef int* L = <int*> malloc((m + 1) * (x + 1) * sizeof(int))
    cdef char* row_used = <char*> malloc(m)
    cdef char* col_used = <char*> malloc(x)
    memset(row_used, 0, m)
    memset(col_used, 0, x)
    _run_lengths(c, m, r, x, L)
    cdef Py_ssize_t count, k, t, i, j, cells
    cdef i64* keys = _sorted_blocks(L, m, x, &count)
    cdef i64 area = <i64> m * x, position
    cdef double remaining = cap, total = 0.0, length
    cdef bint free_cells
    for k in range(count):
        if remaining <= 0:
            break
        position = keys[k] % area
        i = position // x
        j = position % x
        length = <double> (keys[k] // area)
        if remaining < length:
            length = remaining
        cells = <Py_ssize_t> ceil(length)
        free_cells = True
        for t in range(cells):
            if row_used[i + t] or col_used[j + t]:
                free_cells = False
                break
        if not free_cells:
            continue
        for t in range(cells):
            row_used[i + t] = 1
            col_used[j + t] = 1
        remaining -= length
        total += pow(length, e)
        if chosen != NULL:
            chosen[3 * n_chosen[0]] = i
            chosen[3 * n_chosen[0] + 1] = j
            chosen[3 * n_chosen[0] + 2] = length
        n_chosen[0] += 1
    free(keys)
    free(L)
    free(row_used)
    free(col_used)
    return total


def run_lengths(const i64[::1] candidate, const i64[::1] rcat):
    """L[i, j]: length of the chain of hits starting at (i, j), shape (m + 1, x + 1)."""
    cdef Py_ssize_t m = candidate.shape[0], x = rcat.shape[0]
    lengths = np.zeros((m + 1, x + 1), np.int32)
    cdef int[:, ::1] view = lengths
    if m > 0 and x > 0:
        _run_lengths(&candidate[0], m, &rcat[0], x, &view[0, 0])
    return lengths


def candidate_blocks(const int[:, ::1] lengths):
    """Every block as rows (i, j, l), in GTM 1.4's order: l descending, then i*X + j descending."""
    cdef Py_ssize_t m = lengths.shape[0] - 1, x = lengths.shape[1] - 1, count = 0, k
    if m <= 0 or x <= 0:
        return np.empty((0, 3), np.int64)
    cdef i64* keys = _sorted_blocks(&lengths[0, 0], m, x, &count)
    blocks = np.empty((count, 3), np.int64)
    cdef i64[:, ::1] out = blocks
    cdef i64 area = <i64> m * x
    for k in range(count):
        out[k, 0] = (keys[k] % area) // x
        out[k, 1] = (keys[k] % area) % x
        out[k, 2] = keys[k] // area
    free(keys)
    return blocks


def greedy_matching(const i64[::1] candidate, const i64[::1] rcat, double cap, double exponent):
    """GTM 1.4's greedy: (sum of len ** e, selected blocks as rows (i, j, len) in order)."""
    cdef Py_ssize_t m = candidate.shape[0], x = rcat.shape[0], n = 0
    chosen = np.empty((min(m, x), 3), np.float64)
    cdef double[:, ::1] out = chosen
    if m == 0 or x == 0:
        return 0.0, chosen
    total = _greedy(&candidate[0], m, &rcat[0], x, cap, exponent, &out[0, 0], &n)
    return total, chosen[:n]


def greedy_sizes(
    const i64[::1] candidates, const i64[::1] candidate_offsets, const i64[::1] rcats,
    const i64[::1] rcat_offsets, const double[::1] caps, double exponent,
):
    """size = (sum of len ** e) ** (1 / e) of GTM 1.4's greedy matching, for every segment."""
    cdef Py_ssize_t s, n, m, x, first, start
    sizes = np.zeros(caps.shape[0])
    cdef double[::1] out = sizes
    cdef double inverse = 1.0 / exponent
    cdef const i64* c
    cdef const i64* r
    with nogil:
        for s in range(caps.shape[0]):
            first = candidate_offsets[s]
            start = rcat_offsets[s]
            m = candidate_offsets[s + 1] - first
            x = rcat_offsets[s + 1] - start
            if m == 0 or x == 0:
                continue
            c = &candidates[first]
            r = &rcats[start]
            # a general pow, as GTM 1.4: 216 ** (1/3) = 5.999999999999999
            out[s] = pow(_greedy(c, m, r, x, caps[s], exponent, NULL, &n), inverse)
    return sizes


def run_weights(const int[:, ::1] lengths, double exponent):
    """For every hit, (length of the maximal run through it) ** (e - 1), else 0."""
    cdef Py_ssize_t m = lengths.shape[0] - 1, x = lengths.shape[1] - 1, i, j, t
    cdef int run
    cdef double weight
    weights = np.zeros((max(m, 0), max(x, 0)))
    cdef double[:, ::1] out = weights
    for i in range(m):
        for j in range(x):
            run = lengths[i, j]
            if run > 0 and (i == 0 or j == 0 or lengths[i - 1, j - 1] == 0):
                weight = pow(<double> run, exponent - 1.0)
                for t in range(run):
                    out[i + t, j + t] = weight
    return weights
