# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""The compiled loops of GTM's bitext grid; mteval_core/matching.py says what they compute and why.

GTM 1.4's matching is a sequential greedy per segment: in Python it costs a few hundred
microseconds a segment, compiled a few microseconds. Token ids and offsets are int64 arrays
(C-contiguous), a reference barrier is the id -1 and matches nothing.

The greedy works on runs (maximal diagonals of hits), never on the |C| x |Rcat| grid or on the
list of every block ((i, j), l): for one word repeated n times that list has n^3 / 3 entries, and
allocating it took a shared server down. Its memory is linear in the number of runs, its time in
the number of hits; both are bounded by the caller's limits, counted before anything large is
allocated, and every allocation is checked.
"""

import numpy as np

from cpython.exc cimport PyErr_CheckSignals
from libc.math cimport ceil, pow
from libc.stdlib cimport calloc, free, malloc, qsort, realloc
from libc.string cimport memset

ctypedef long long i64

# What happened to one segment (greedy_sizes reports it per segment).
DONE = 0
TOO_MANY_HITS = 1
TOO_MANY_RUNS = 2
NO_MEMORY = 3
BROKEN_INVARIANT = 4  # a bug of ours, never seen: the caller reports it instead of a number

cdef int _DONE = 0, _TOO_MANY_HITS = 1, _TOO_MANY_RUNS = 2, _NO_MEMORY = 3, _BROKEN = 4
cdef Py_ssize_t DENSE_CELLS = 4096  # smaller grids find their hits by a double loop
cdef i64 NEVER = 1LL << 62  # "no block accepted yet", above every level and key


cdef struct Block:
    i64 length  # cells on the diagonal
    i64 key  # i * x + j of its first cell: GTM 1.4 takes later blocks first among equals


cdef struct TokenAt:
    i64 token
    i64 position


cdef struct Blocks:  # a growable array; _push and _pop keep it a max-heap (longest, then key)
    Block* items
    Py_ssize_t size
    Py_ssize_t capacity


# ---------------------------------------------------------------------------------- the heap
cdef inline bint _before(Block a, Block b) noexcept nogil:
    return a.length > b.length or (a.length == b.length and a.key > b.key)


cdef int _append(Blocks* list_, Block block) noexcept nogil:
    """Add a block at the end, as to a plain list; 0, or -1 when memory runs out."""
    cdef Block* grown
    if list_.size == list_.capacity:
        grown = <Block*> realloc(list_.items, 2 * list_.capacity * sizeof(Block))
        if grown == NULL:
            return -1
        list_.items = grown
        list_.capacity *= 2
    list_.items[list_.size] = block
    list_.size += 1
    return 0


cdef int _push(Blocks* heap, Block block) noexcept nogil:
    """Add a block to the heap; 0, or -1 when memory runs out."""
    cdef Py_ssize_t k, parent
    if _append(heap, block) != 0:
        return -1
    k = heap.size - 1
    while k > 0:
        parent = (k - 1) // 2
        if not _before(block, heap.items[parent]):
            break
        heap.items[k] = heap.items[parent]
        k = parent
    heap.items[k] = block
    return 0


cdef void _sift_down(Blocks* heap, Py_ssize_t k) noexcept nogil:
    cdef Block block = heap.items[k]
    cdef Py_ssize_t child
    while True:
        child = 2 * k + 1
        if child >= heap.size:
            break
        if child + 1 < heap.size and _before(heap.items[child + 1], heap.items[child]):
            child += 1
        if not _before(heap.items[child], block):
            break
        heap.items[k] = heap.items[child]
        k = child
    heap.items[k] = block


cdef Block _pop(Blocks* heap) noexcept nogil:
    cdef Block top = heap.items[0]
    heap.size -= 1
    if heap.size > 0:
        heap.items[0] = heap.items[heap.size]
        _sift_down(heap, 0)
    return top


# ------------------------------------------------------------------------- hits and runs
cdef int _by_token(const void* a, const void* b) noexcept nogil:
    cdef const TokenAt* p = <const TokenAt*> a
    cdef const TokenAt* q = <const TokenAt*> b
    if p.token != q.token:
        return (p.token > q.token) - (p.token < q.token)
    return (p.position > q.position) - (p.position < q.position)


cdef Py_ssize_t _first_at_least(const TokenAt* sorted_tokens, Py_ssize_t n, i64 token) noexcept nogil:
    cdef Py_ssize_t low = 0, high = n, middle
    while low < high:
        middle = (low + high) // 2
        if sorted_tokens[middle].token < token:
            low = middle + 1
        else:
            high = middle
    return low


cdef inline i64 _run_length(
    const i64* c, Py_ssize_t m, const i64* r, Py_ssize_t x, Py_ssize_t i, Py_ssize_t j
) noexcept nogil:
    cdef i64 n = 0
    while i + n < m and j + n < x and c[i + n] == r[j + n]:
        n += 1
    return n


cdef int _add_run(
    Blocks* runs, const i64* c, Py_ssize_t m, const i64* r, Py_ssize_t x, Py_ssize_t i,
    Py_ssize_t j, i64 max_runs,
) noexcept nogil:
    """Record the run starting at hit (i, j) if it starts there (no hit up-left of it)."""
    cdef Block run
    if i > 0 and j > 0 and c[i - 1] == r[j - 1]:
        return _DONE  # (i, j) continues a run that starts further up-left
    if runs.size >= max_runs:
        return _TOO_MANY_RUNS
    run.length = _run_length(c, m, r, x, i, j)
    run.key = <i64> i * x + j
    return _DONE if _append(runs, run) == 0 else _NO_MEMORY


cdef int _collect_runs(
    const i64* c, Py_ssize_t m, const i64* r, Py_ssize_t x, i64 max_hits, i64 max_runs,
    Blocks* runs, i64* hits,
) noexcept nogil:
    """Every run of the grid into ``runs`` (unordered); the hits are counted before any work
    that grows with them, so a segment over ``max_hits`` costs O(|C| log |Rcat|) to refuse."""
    cdef Py_ssize_t i, j, k, n = 0
    cdef int status
    cdef TokenAt* sorted_tokens
    hits[0] = 0
    if <i64> m * x <= DENSE_CELLS:
        for i in range(m):
            for j in range(x):
                hits[0] += c[i] == r[j] and r[j] != -1
        if hits[0] > max_hits:
            return _TOO_MANY_HITS
        for i in range(m):
            for j in range(x):
                if c[i] == r[j] and r[j] != -1:
                    status = _add_run(runs, c, m, r, x, i, j, max_runs)
                    if status != _DONE:
                        return status
        return _DONE
    sorted_tokens = <TokenAt*> malloc(x * sizeof(TokenAt))
    if sorted_tokens == NULL:
        return _NO_MEMORY
    for j in range(x):
        if r[j] != -1:
            sorted_tokens[n].token = r[j]
            sorted_tokens[n].position = j
            n += 1
    qsort(sorted_tokens, n, sizeof(TokenAt), _by_token)
    for i in range(m):  # two binary searches a row: O(|C| log |Rcat|) however many the hits
        hits[0] += _first_at_least(sorted_tokens, n, c[i] + 1) - _first_at_least(
            sorted_tokens, n, c[i]
        )
    if hits[0] > max_hits:
        free(sorted_tokens)
        return _TOO_MANY_HITS
    status = _DONE
    for i in range(m):
        k = _first_at_least(sorted_tokens, n, c[i])
        while status == _DONE and k < n and sorted_tokens[k].token == c[i]:
            status = _add_run(runs, c, m, r, x, i, sorted_tokens[k].position, max_runs)
            k += 1
        if status != _DONE:
            break
    free(sorted_tokens)
    return status


# ---------------------------------------------------------------------------- the greedy
cdef struct Grid:  # one segment's grid and the rows and columns the greedy has used
    const i64* c
    Py_ssize_t m
    const i64* r
    Py_ssize_t x
    char* row_used
    char* col_used


cdef inline bint _cell_free(Grid* g, i64 key, i64 t) noexcept nogil:
    return not g.row_used[key // g.x + t] and not g.col_used[key % g.x + t]


cdef bint _block_free(Grid* g, i64 key, i64 cells) noexcept nogil:
    cdef i64 t
    for t in range(cells):
        if not _cell_free(g, key, t):
            return False
    return True


cdef int _split(Grid* g, Blocks* heap, Block block, bint* was_free) noexcept nogil:
    """Push the still-free pieces of a block whose cells were partly taken since it was queued."""
    cdef i64 t, start = -1
    cdef Block piece
    was_free[0] = True
    for t in range(block.length + 1):
        if t < block.length and _cell_free(g, block.key, t):
            if start < 0:
                start = t
            continue
        if t < block.length:
            was_free[0] = False
        if start >= 0:
            piece.length = t - start
            piece.key = block.key + start * (g.x + 1)
            if _push(heap, piece) != 0:
                return -1
            start = -1
    return 0


cdef bint _find_cut_block(
    Grid* g, Blocks* runs, double remaining, i64 last_level, i64 last_key, i64* found
) noexcept nogil:
    """The block GTM 1.4 cuts to ``remaining`` when the cap bites: the first, in its order, of the
    blocks after the last accepted one (level ``last_level``, key ``last_key``) whose level
    exceeds ``remaining`` and whose first ceil(remaining) cells are free. A block ((i, j), l)
    exists for every l up to the length of the chain of hits from (i, j), so in run (i0, j0, R)
    position t offers levels up to R - t."""
    cdef i64 cells = <i64> ceil(remaining), best_level = 0, best_key = -1
    cdef i64 t, free_after, key, level, limit
    cdef Py_ssize_t k
    cdef Block run
    for k in range(runs.size):
        run = runs.items[k]
        free_after = 0  # free cells from t on along the run
        for t in range(run.length - 1, -1, -1):
            free_after = free_after + 1 if _cell_free(g, run.key, t) else 0
            if free_after < cells:
                continue
            key = run.key + t * (g.x + 1)
            limit = last_level if key < last_key else last_level - 1
            level = run.length - t if run.length - t < limit else limit
            if <double> level > remaining and (
                level > best_level or (level == best_level and key > best_key)
            ):
                best_level, best_key = level, key
    found[0] = best_key
    return best_key >= 0


cdef double _greedy(
    const i64* c, Py_ssize_t m, const i64* r, Py_ssize_t x, double cap, double e,
    i64 max_hits, i64 max_runs, double* chosen, Py_ssize_t* n_chosen, int* status,
) noexcept nogil:
    """GTM 1.4's greedy: the sum of len ** e; the blocks (i, j, len) go to ``chosen`` if given.

    GTM 1.4 takes every block ((i, j), l) in the order l descending, then i * x + j descending,
    while the cap lasts. Here the free part of each run is a queued block, longest first: when a
    queued block comes up and is still free, it is exactly the block GTM 1.4 takes next; when some
    of its cells were taken meanwhile, its free pieces are queued instead. Once a block would
    exceed what is left of the cap, GTM 1.4 cuts it, and that block is found by a scan of the runs.
    """
    cdef Blocks runs, queue
    cdef Grid g
    cdef i64 hits, last_level = NEVER, last_key = NEVER, found, t, cells
    cdef double remaining = cap, total = 0.0, length
    cdef bint searched = False, was_free
    cdef Block block
    n_chosen[0] = 0
    status[0] = _DONE
    if m == 0 or x == 0 or cap <= 0:
        return 0.0
    runs.capacity = 16
    runs.size = 0
    runs.items = <Block*> malloc(runs.capacity * sizeof(Block))
    queue.items = NULL
    g.c, g.m, g.r, g.x = c, m, r, x
    g.row_used = <char*> calloc(m, 1)
    g.col_used = <char*> calloc(x, 1)
    if runs.items == NULL or g.row_used == NULL or g.col_used == NULL:
        status[0] = _NO_MEMORY
    else:
        status[0] = _collect_runs(c, m, r, x, max_hits, max_runs, &runs, &hits)
    if status[0] == _DONE:
        queue.capacity = runs.size if runs.size > 16 else 16
        queue.size = 0
        queue.items = <Block*> malloc(queue.capacity * sizeof(Block))
        if queue.items == NULL:
            status[0] = _NO_MEMORY
    if status[0] == _DONE:
        for t in range(runs.size):
            _push(&queue, runs.items[t])  # cannot grow: the capacity holds every run
    while status[0] == _DONE and queue.size > 0 and remaining > 0:
        block = _pop(&queue)
        if <double> block.length >= remaining:  # GTM 1.4 may cut a block now
            if not searched:
                if _find_cut_block(&g, &runs, remaining, last_level, last_key, &found):
                    length = remaining
                    cells = <i64> ceil(length)
                    block.key = found
                    for t in range(cells):
                        g.row_used[found // x + t] = 1
                        g.col_used[found % x + t] = 1
                    remaining = 0.0
                    total += pow(length, e)
                    if chosen != NULL:
                        chosen[3 * n_chosen[0]] = found // x
                        chosen[3 * n_chosen[0] + 1] = found % x
                        chosen[3 * n_chosen[0] + 2] = length
                    n_chosen[0] += 1
                    break
                searched = True
            if <double> block.length > remaining:
                # No block is cut, so no free stretch is longer than what is left: this one has
                # lost cells since it was queued.
                if _split(&g, &queue, block, &was_free) != 0:
                    status[0] = _NO_MEMORY
                elif was_free:
                    status[0] = _BROKEN
                continue
        if not _block_free(&g, block.key, block.length):
            if _split(&g, &queue, block, &was_free) != 0:
                status[0] = _NO_MEMORY
            continue
        for t in range(block.length):
            g.row_used[block.key // x + t] = 1
            g.col_used[block.key % x + t] = 1
        length = <double> block.length
        remaining -= length
        total += pow(length, e)
        if chosen != NULL:
            chosen[3 * n_chosen[0]] = block.key // x
            chosen[3 * n_chosen[0] + 1] = block.key % x
            chosen[3 * n_chosen[0] + 2] = length
        n_chosen[0] += 1
        last_level, last_key = block.length, block.key
        searched = False
    free(runs.items)
    free(queue.items)
    free(g.row_used)
    free(g.col_used)
    return total if status[0] == _DONE else 0.0


def greedy_matching(
    const i64[::1] candidate, const i64[::1] rcat, double cap, double exponent, i64 max_hits,
    i64 max_runs,
):
    """GTM 1.4's greedy of one segment: (sum of len ** e, blocks (i, j, len) in order, status)."""
    cdef Py_ssize_t m = candidate.shape[0], x = rcat.shape[0], n = 0
    cdef int status = _DONE
    chosen = np.empty((min(m, x), 3), np.float64)
    cdef double[:, ::1] out = chosen
    if m == 0 or x == 0:
        return 0.0, chosen, DONE
    total = _greedy(
        &candidate[0], m, &rcat[0], x, cap, exponent, max_hits, max_runs, &out[0, 0], &n, &status
    )
    return total, chosen[:n], status


def greedy_sizes(
    const i64[::1] candidates, const i64[::1] candidate_offsets, const i64[::1] rcats,
    const i64[::1] rcat_offsets, const double[::1] caps, double exponent, i64 max_hits,
    i64 max_runs,
):
    """size = (sum of len ** e) ** (1 / e) of GTM 1.4's greedy for every segment, and a status
    per segment (DONE, or why it was not computed: its size is then 0). Ctrl-C stops it."""
    cdef Py_ssize_t s, n, m, x, first, start
    cdef int status
    sizes = np.zeros(caps.shape[0])
    statuses = np.zeros(caps.shape[0], np.int8)
    cdef double[::1] out = sizes
    cdef signed char[::1] out_status = statuses
    cdef double inverse = 1.0 / exponent, total
    with nogil:
        for s in range(caps.shape[0]):
            first = candidate_offsets[s]
            start = rcat_offsets[s]
            m = candidate_offsets[s + 1] - first
            x = rcat_offsets[s + 1] - start
            if s % 256 == 255 or <i64> m * x > 1_000_000:
                with gil:
                    PyErr_CheckSignals()
            if m == 0 or x == 0:
                continue
            total = _greedy(
                &candidates[first], m, &rcats[start], x, caps[s], exponent, max_hits, max_runs,
                NULL, &n, &status,
            )
            out_status[s] = status
            if status == _DONE:
                # a general pow, as GTM 1.4: 216 ** (1/3) = 5.999999999999999
                out[s] = pow(total, inverse)
    return sizes, statuses


# ------------------------------------------------------- dense helpers of the exact matching
# These build |C| x |Rcat| arrays: matching.py calls them only under GTM_EXACT_MAX_CELLS.
cdef void _run_lengths(const i64* c, Py_ssize_t m, const i64* r, Py_ssize_t x, int* L) noexcept nogil:
    """L[i * (x + 1) + j]: length of the chain of hits starting at (i, j); row m and column x are 0."""
    cdef Py_ssize_t i, j, w = x + 1
    memset(L, 0, (m + 1) * w * sizeof(int))
    for i in range(m - 1, -1, -1):
        for j in range(x - 1, -1, -1):
            if r[j] == c[i] and c[i] != -1:
                L[i * w + j] = L[(i + 1) * w + j + 1] + 1


def run_lengths(const i64[::1] candidate, const i64[::1] rcat):
    """L[i, j]: length of the chain of hits starting at (i, j), shape (m + 1, x + 1)."""
    cdef Py_ssize_t m = candidate.shape[0], x = rcat.shape[0]
    lengths = np.zeros((m + 1, x + 1), np.int32)
    cdef int[:, ::1] view = lengths
    if m > 0 and x > 0:
        _run_lengths(&candidate[0], m, &rcat[0], x, &view[0, 0])
    return lengths


cdef int _descending(const void* a, const void* b) noexcept nogil:
    cdef i64 p = (<const i64*> a)[0]
    cdef i64 q = (<const i64*> b)[0]
    return (p < q) - (p > q)


def candidate_blocks(const int[:, ::1] lengths, i64 max_blocks):
    """Every block as rows (i, j, l) in GTM 1.4's order (l descending, then i*X + j descending),
    or None when there are more than ``max_blocks`` (counted before anything is allocated)."""
    cdef Py_ssize_t m = lengths.shape[0] - 1, x = lengths.shape[1] - 1, i, j, k = 0
    cdef i64 count = 0, area, length
    if m <= 0 or x <= 0:
        return np.empty((0, 3), np.int64)
    for i in range(m):
        for j in range(x):
            count += lengths[i, j]
    if count > max_blocks:
        return None
    area = <i64> m * x
    keys_array = np.empty(max(count, 1), np.int64)
    cdef i64[::1] keys = keys_array
    for i in range(m):
        for j in range(x):
            for length in range(1, lengths[i, j] + 1):
                keys[k] = length * area + i * x + j
                k += 1
    qsort(&keys[0], count, sizeof(i64), _descending)
    blocks = np.empty((count, 3), np.int64)
    cdef i64[:, ::1] out = blocks
    for k in range(count):
        out[k, 0] = (keys[k] % area) // x
        out[k, 1] = (keys[k] % area) % x
        out[k, 2] = keys[k] // area
    return blocks


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
