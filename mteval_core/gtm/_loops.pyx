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

The exact matching (exact_matching, exact_totals) starts from the greedy and works on runs too:
it cuts the grid into independent components and searches only those where the greedy reaches no
bound; _loops_python.py explains the search in its docstrings. Its memory is linear in the runs
and lines of the grid, one block a segment; its time is bounded by the caller's step limit.
"""

import numpy as np

from cpython.exc cimport PyErr_CheckSignals
from libc.math cimport ceil, floor, pow
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
    i64 max_runs, stop=None,
):
    """size = (sum of len ** e) ** (1 / e) of GTM 1.4's greedy for every segment, and a status
    per segment (DONE, or why it was not computed: its size is then 0). Ctrl-C stops it; in a
    worker thread, which never sees the signal, ``stop`` (a threading.Event) being set does,
    and what it leaves is not to be read."""
    cdef Py_ssize_t s, n, m, x, first, start
    cdef int status
    cdef bint stopped = False
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
                    stopped = stop is not None and stop.is_set()
                if stopped:
                    break
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


# ------------------------------------------------ dense helpers of the exact integer program
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


# ------------------------------------------------------------------------- the exact matching
# matching.py says what the exact matching is; _loops_python.py has the same search in Python,
# function for function (_components, _Search, _improve, _exact), with the reasons in its
# docstrings. Here every array of a segment is allocated once, in one Workspace.

# How exact_matching settled a segment (matching.py names them).
BOUND = 0
SEARCH = 1
UNSOLVED = 2
CLOSED_FORM = 3
GREEDY_FALLBACK = 4

cdef enum:
    _BOUND = 0
    _SEARCH = 1
    _UNSOLVED = 2
    _CLOSED_FORM = 3
    _GREEDY_FALLBACK = 4
    UNDECIDED = -1  # a row's state in the search, when not the column it is matched to
    FREE = -2
    SMALL_SORT = 16  # arrays up to this length are sorted by insertion


cdef struct Choice:  # a row's choice in the search
    double bound  # the most the matching can weigh after it
    i64 column  # or FREE
    i64 order  # its place among the row's choices: ties keep it


cdef struct Triple:  # a block of whole cells
    i64 i
    i64 j
    i64 length


cdef struct Workspace:
    char* memory  # every array below, in one block
    # the segment: its grid and its long runs (2 cells or more), in the order of their keys
    const i64* c
    const i64* r
    i64 m, x
    i64 n_long
    i64* run_i0
    i64* run_j0
    i64* run_length
    char* is_long  # per row: holds a cell of a long run
    i64* row_start  # the long runs through row i: row_runs[row_start[i] : row_start[i + 1]]
    i64* row_runs
    # its components (_components): runs, long rows, and (word, line) pairs, by component
    i64 n_components
    i64* component_of  # per run, then per row (row_component), then per column
    i64* row_component
    i64* col_component
    i64* runs_start  # per component, into component_runs
    i64* component_runs
    i64* dfs_start  # per component, into dfs_rows: its long rows, ascending
    i64* dfs_rows
    i64* rows_start  # per component, into rows: its (word, row) pairs, sorted
    TokenAt* rows
    i64* cols_start
    TokenAt* cols
    # one component's words
    i64 n_words
    i64* word_rows_start  # into the component's rows
    i64* word_cols_start  # into the component's columns
    i64* word_of  # per row
    # the search's state
    i64* match  # per row: UNDECIDED, FREE or its column
    i64* chain  # per row: the length of its block so far
    char* col_used
    i64* free_rows  # per word: rows left to the blocks of 1
    i64* free_cols
    double* row_best
    double* col_best
    double* values  # per depth: the weight above it
    i64* cells
    Choice* choices  # per depth, from choice_start[depth]: scored choices, best first
    i64* choice_start
    i64* choice_count
    i64* next
    double* by_row  # scratch of the bound
    double* by_col
    double* pairs
    # the heavier matching found: its cells (row, column) and blocks, per component and all
    TokenAt* found
    i64 n_found
    double* incumbents  # per component: the weight of the greedy's blocks in it
    char* improved  # per component: the search found a heavier matching
    Triple* new_blocks
    Triple* blocks


cdef struct Search:  # one component's search (_loops_python._Search)
    Workspace* w
    const double* powers
    i64 first_run, n_runs  # into w.component_runs
    const i64* rows  # the long rows, ascending
    i64 n_rows
    TokenAt* word_rows
    TokenAt* word_cols
    i64 budget, max_steps, steps
    i64 size  # the cells and lines a bound looks at: the cost of a step
    double best, tolerance
    bint improved


cdef void* _carve(char* base, Py_ssize_t* used, Py_ssize_t n, Py_ssize_t size) noexcept nogil:
    """The next n items of ``size`` bytes in the block at ``base`` (NULL: only count them)."""
    cdef char* p = base + used[0] if base != NULL else NULL
    used[0] += (n * size + 7) // 8 * 8 + 8  # 8-byte aligned, never empty
    return p


cdef Py_ssize_t _layout(Workspace* w, Blocks* runs, char* base) noexcept nogil:
    """Place every array of the segment's search in the block at ``base`` (NULL: only measure);
    its size in bytes."""
    cdef i64 m = w.m, x = w.x, n = runs.size, long_cells = 0, k
    cdef Py_ssize_t used = 0
    for k in range(n):
        if runs.items[k].length > 1:
            long_cells += runs.items[k].length
    w.run_i0 = <i64*> _carve(base, &used, n, sizeof(i64))
    w.run_j0 = <i64*> _carve(base, &used, n, sizeof(i64))
    w.run_length = <i64*> _carve(base, &used, n, sizeof(i64))
    w.is_long = <char*> _carve(base, &used, m, 1)
    w.row_start = <i64*> _carve(base, &used, m + 1, sizeof(i64))
    w.row_runs = <i64*> _carve(base, &used, long_cells, sizeof(i64))
    w.component_of = <i64*> _carve(base, &used, n + m + x, sizeof(i64))
    w.runs_start = <i64*> _carve(base, &used, n + 1, sizeof(i64))
    w.component_runs = <i64*> _carve(base, &used, n, sizeof(i64))
    w.dfs_start = <i64*> _carve(base, &used, n + 1, sizeof(i64))
    w.dfs_rows = <i64*> _carve(base, &used, m, sizeof(i64))
    w.rows_start = <i64*> _carve(base, &used, n + 1, sizeof(i64))
    w.rows = <TokenAt*> _carve(base, &used, m, sizeof(TokenAt))
    w.cols_start = <i64*> _carve(base, &used, n + 1, sizeof(i64))
    w.cols = <TokenAt*> _carve(base, &used, x, sizeof(TokenAt))
    w.word_rows_start = <i64*> _carve(base, &used, m + 1, sizeof(i64))
    w.word_cols_start = <i64*> _carve(base, &used, m + 1, sizeof(i64))
    w.word_of = <i64*> _carve(base, &used, m, sizeof(i64))
    w.match = <i64*> _carve(base, &used, m, sizeof(i64))
    w.chain = <i64*> _carve(base, &used, m, sizeof(i64))
    w.col_used = <char*> _carve(base, &used, x, 1)
    w.free_rows = <i64*> _carve(base, &used, m, sizeof(i64))
    w.free_cols = <i64*> _carve(base, &used, m, sizeof(i64))
    w.row_best = <double*> _carve(base, &used, m, sizeof(double))
    w.col_best = <double*> _carve(base, &used, x, sizeof(double))
    w.values = <double*> _carve(base, &used, m + 1, sizeof(double))
    w.cells = <i64*> _carve(base, &used, m + 1, sizeof(i64))
    w.choices = <Choice*> _carve(base, &used, long_cells + m, sizeof(Choice))
    w.choice_start = <i64*> _carve(base, &used, m, sizeof(i64))
    w.choice_count = <i64*> _carve(base, &used, m, sizeof(i64))
    w.next = <i64*> _carve(base, &used, m, sizeof(i64))
    w.by_row = <double*> _carve(base, &used, m, sizeof(double))
    w.by_col = <double*> _carve(base, &used, x, sizeof(double))
    w.pairs = <double*> _carve(base, &used, m, sizeof(double))
    w.found = <TokenAt*> _carve(base, &used, m, sizeof(TokenAt))
    w.incumbents = <double*> _carve(base, &used, n, sizeof(double))
    w.improved = <char*> _carve(base, &used, n, 1)
    w.new_blocks = <Triple*> _carve(base, &used, m, sizeof(Triple))
    w.blocks = <Triple*> _carve(base, &used, m, sizeof(Triple))
    return used


cdef bint _allocate_workspace(Workspace* w, Blocks* runs) noexcept nogil:
    """Every array of the segment's search in one zeroed block (w.memory); False when memory
    runs out."""
    w.memory = <char*> calloc(_layout(w, runs, NULL), 1)
    if w.memory == NULL:
        return False
    _layout(w, runs, w.memory)
    w.row_component = w.component_of + runs.size
    w.col_component = w.component_of + runs.size + w.m
    return True


# ------------------------------------------------------------------------------ components
cdef void _long_runs(Workspace* w, Blocks* runs) noexcept nogil:
    """The long runs in the order of their keys, the rows they cross, and the long runs through
    each row (in the same order)."""
    cdef i64 k, t, i, n = 0
    cdef i64* filled = w.next  # scratch: the runs each row has got so far
    memset(w.is_long, 0, w.m)
    memset(w.row_start, 0, (w.m + 1) * sizeof(i64))
    for k in range(runs.size):
        if runs.items[k].length > 1:
            w.run_i0[n] = runs.items[k].key // w.x
            w.run_j0[n] = runs.items[k].key % w.x
            w.run_length[n] = runs.items[k].length
            for t in range(w.run_length[n]):
                w.is_long[w.run_i0[n] + t] = 1
                w.row_start[w.run_i0[n] + t + 1] += 1
            n += 1
    w.n_long = n
    for i in range(w.m):
        w.row_start[i + 1] += w.row_start[i]
        filled[i] = 0
    for k in range(n):
        for t in range(w.run_length[k]):
            i = w.run_i0[k] + t
            w.row_runs[w.row_start[i] + filled[i]] = k
            filled[i] += 1


cdef inline i64 _root(i64* parent, i64 k) noexcept nogil:
    while parent[k] != k:
        parent[k] = parent[parent[k]]
        k = parent[k]
    return k


cdef void _union_runs(Workspace* w, Blocks* runs, bint whole) noexcept nogil:
    """Each run's component (component_of), numbered in the order of their first runs (with
    ``whole``, all in component 0), and each row's and column's component, or -1."""
    cdef i64 k, t, line, n = runs.size
    cdef i64* parent = w.component_runs  # scratch: the union-find forest
    cdef i64* number = w.runs_start  # scratch: each root's component
    cdef i64* row_owner = w.row_component  # first the first run through each row
    cdef i64* col_owner = w.col_component
    for k in range(n):
        parent[k] = k
        number[k] = -1
    for line in range(w.m):
        row_owner[line] = -1
    for line in range(w.x):
        col_owner[line] = -1
    for k in range(n):
        for t in range(runs.items[k].length):
            line = runs.items[k].key // w.x + t
            if row_owner[line] < 0:
                row_owner[line] = k
            elif not whole:
                parent[_root(parent, k)] = _root(parent, row_owner[line])
            line = runs.items[k].key % w.x + t
            if col_owner[line] < 0:
                col_owner[line] = k
            elif not whole:
                parent[_root(parent, k)] = _root(parent, col_owner[line])
    w.n_components = 0
    for k in range(n):
        line = 0 if whole else _root(parent, k)
        if number[line] < 0:
            number[line] = w.n_components
            w.n_components += 1
        w.component_of[k] = number[line]
    for line in range(w.m):
        if row_owner[line] >= 0:
            row_owner[line] = w.component_of[row_owner[line]]
    for line in range(w.x):
        if col_owner[line] >= 0:
            col_owner[line] = w.component_of[col_owner[line]]


cdef void _group(Workspace* w) noexcept nogil:
    """Per component: its long runs (keys ascending), its long rows (ascending), and its
    (word, row) and (word, column) pairs, each sorted."""
    cdef i64 k, line, n = w.n_components
    cdef i64* cursor = w.next  # scratch, one per component (fewer than rows)
    for k in range(n + 1):
        w.runs_start[k] = 0
        w.dfs_start[k] = 0
        w.rows_start[k] = 0
        w.cols_start[k] = 0
    for k in range(w.n_long):
        w.runs_start[w.row_component[w.run_i0[k]] + 1] += 1
    for line in range(w.m):
        if w.row_component[line] >= 0:
            w.rows_start[w.row_component[line] + 1] += 1
            w.dfs_start[w.row_component[line] + 1] += w.is_long[line]
    for line in range(w.x):
        if w.col_component[line] >= 0:
            w.cols_start[w.col_component[line] + 1] += 1
    for k in range(n):
        w.runs_start[k + 1] += w.runs_start[k]
        w.dfs_start[k + 1] += w.dfs_start[k]
        w.rows_start[k + 1] += w.rows_start[k]
        w.cols_start[k + 1] += w.cols_start[k]
    for k in range(n):
        cursor[k] = w.runs_start[k]
    for k in range(w.n_long):
        w.component_runs[cursor[w.row_component[w.run_i0[k]]]] = k
        cursor[w.row_component[w.run_i0[k]]] += 1
    for k in range(n):
        cursor[k] = w.dfs_start[k]
    for line in range(w.m):
        if w.row_component[line] >= 0 and w.is_long[line]:
            w.dfs_rows[cursor[w.row_component[line]]] = line
            cursor[w.row_component[line]] += 1
    _group_words(w.rows, w.rows_start, w.row_component, w.c, w.m, n, cursor)
    _group_words(w.cols, w.cols_start, w.col_component, w.r, w.x, n, cursor)


cdef void _group_words(
    TokenAt* pairs, const i64* start, const i64* component, const i64* tokens, i64 n_lines,
    i64 n, i64* cursor,
) noexcept nogil:
    """The (word, line) pairs of each component's lines, sorted."""
    cdef i64 k, line
    for k in range(n):
        cursor[k] = start[k]
    for line in range(n_lines):
        if component[line] >= 0:
            pairs[cursor[component[line]]].token = tokens[line]
            pairs[cursor[component[line]]].position = line
            cursor[component[line]] += 1
    for k in range(n):
        qsort(pairs + start[k], start[k + 1] - start[k], sizeof(TokenAt), _by_token)


cdef void _words(Workspace* w, i64 component) noexcept nogil:
    """The component's words: where each one's rows and columns start, each long row's word,
    and the rows and columns each word has for the blocks of 1 to begin with."""
    cdef TokenAt* rows = w.rows + w.rows_start[component]
    cdef TokenAt* cols = w.cols + w.cols_start[component]
    cdef i64 n_rows = w.rows_start[component + 1] - w.rows_start[component]
    cdef i64 n_cols = w.cols_start[component + 1] - w.cols_start[component], q, n = -1
    w.n_words = 0
    for q in range(n_rows):
        if q == 0 or rows[q].token != rows[q - 1].token:
            w.word_rows_start[w.n_words] = q
            w.free_rows[w.n_words] = 0
            w.n_words += 1
        w.word_of[rows[q].position] = w.n_words - 1
        w.free_rows[w.n_words - 1] += not w.is_long[rows[q].position]
    w.word_rows_start[w.n_words] = n_rows
    for q in range(n_cols):
        if q == 0 or cols[q].token != cols[q - 1].token:
            n += 1
            w.word_cols_start[n] = q
    w.word_cols_start[w.n_words] = n_cols
    for n in range(w.n_words):
        w.free_cols[n] = w.word_cols_start[n + 1] - w.word_cols_start[n]


# ---------------------------------------------------------------------------------- the search
cdef int _descending_doubles(const void* a, const void* b) noexcept nogil:
    cdef double p = (<const double*> a)[0]
    cdef double q = (<const double*> b)[0]
    return (p < q) - (p > q)


cdef void _sort_descending(double* values, i64 n) noexcept nogil:
    cdef i64 k, q
    cdef double value
    if n > SMALL_SORT:
        qsort(values, n, sizeof(double), _descending_doubles)
        return
    for k in range(1, n):
        value = values[k]
        q = k
        while q > 0 and values[q - 1] < value:
            values[q] = values[q - 1]
            q -= 1
        values[q] = value


cdef int _by_bound(const void* a, const void* b) noexcept nogil:
    cdef const Choice* p = <const Choice*> a
    cdef const Choice* q = <const Choice*> b
    if p.bound != q.bound:
        return (p.bound < q.bound) - (p.bound > q.bound)
    return (p.order > q.order) - (p.order < q.order)


cdef double _bound(Search* s, i64 depth, i64 cells) noexcept nogil:
    """What the rows from rows[depth] on and the blocks of 1 can add, at most (_Search.bound)."""
    cdef Workspace* w = s.w
    cdef i64 i = s.rows[depth] if depth < s.n_rows else w.m, above = UNDECIDED, k = 0
    cdef i64 q, run, i0, j0, length, t, start, piece, u, n, n_row, n_col, n_pairs = 0
    cdef i64 room = s.budget - cells
    cdef double weight, total = 0.0
    if room == 0:
        return 0.0
    if depth < s.n_rows and i > 0:
        above = w.match[i - 1]
    if above >= 0:
        k = w.chain[i - 1]
    for q in range(s.first_run, s.first_run + s.n_runs):
        run = w.component_runs[q]
        i0, j0, length = w.run_i0[run], w.run_j0[run], w.run_length[run]
        t = i - i0 if i > i0 else 0
        while t < length:
            if w.col_used[j0 + t]:
                t += 1
                continue
            start = t
            while t < length and not w.col_used[j0 + t]:
                t += 1
            piece = t - start if t - start < room else room
            if above >= 0 and i0 + start == i and j0 + start == above + 1:
                weight = (s.powers[k + piece] - s.powers[k]) / <double> piece
            else:
                weight = s.powers[piece] / <double> piece
            for u in range(start, t):
                if weight > w.row_best[i0 + u]:
                    w.row_best[i0 + u] = weight
                if weight > w.col_best[j0 + u]:
                    w.col_best[j0 + u] = weight
    for n in range(w.n_words):
        n_row = 0
        for q in range(w.free_rows[n]):
            w.by_row[n_row] = 1.0
            n_row += 1
        for q in range(w.word_rows_start[n], w.word_rows_start[n + 1]):
            u = s.word_rows[q].position
            if w.is_long[u] and u >= i:
                w.by_row[n_row] = w.row_best[u] if w.row_best[u] > 1.0 else 1.0
                n_row += 1
            w.row_best[u] = 0.0
        n_col = 0
        for q in range(w.word_cols_start[n], w.word_cols_start[n + 1]):
            u = s.word_cols[q].position
            if not w.col_used[u]:
                w.by_col[n_col] = w.col_best[u] if w.col_best[u] > 1.0 else 1.0
                n_col += 1
            w.col_best[u] = 0.0
        _sort_descending(w.by_row, n_row)
        _sort_descending(w.by_col, n_col)
        for q in range(n_row if n_row < n_col else n_col):
            w.pairs[n_pairs] = w.by_row[q] if w.by_row[q] < w.by_col[q] else w.by_col[q]
            n_pairs += 1
    if n_pairs > room:
        _sort_descending(w.pairs, n_pairs)
        n_pairs = room
    for q in range(n_pairs):
        total += w.pairs[q]
    return total


cdef void _choose(Search* s, i64 depth, i64 j) noexcept nogil:
    """Match the row to column j, or leave it to the blocks of 1 (FREE)."""
    cdef Workspace* w = s.w
    cdef i64 i = s.rows[depth]
    cdef double gain
    w.values[depth + 1], w.cells[depth + 1] = w.values[depth], w.cells[depth]
    w.match[i] = j
    if j == FREE:
        w.free_rows[w.word_of[i]] += 1
        return
    w.col_used[j] = 1
    w.free_cols[w.word_of[i]] -= 1
    w.chain[i] = w.chain[i - 1] + 1 if i > 0 and j > 0 and w.match[i - 1] == j - 1 else 1
    gain = s.powers[w.chain[i]] - s.powers[w.chain[i] - 1]
    w.values[depth + 1] = w.values[depth] + gain
    w.cells[depth + 1] = w.cells[depth] + 1


cdef void _unchoose(Search* s, i64 depth) noexcept nogil:
    cdef Workspace* w = s.w
    cdef i64 i = s.rows[depth]
    if w.match[i] == FREE:
        w.free_rows[w.word_of[i]] -= 1
    elif w.match[i] >= 0:
        w.col_used[w.match[i]] = 0
        w.free_cols[w.word_of[i]] += 1
    w.match[i] = UNDECIDED


cdef i64 _options(Search* s, i64 depth, Choice* out) noexcept nogil:
    """The row's choices (_Search.options) into out[:].column; their number."""
    cdef Workspace* w = s.w
    cdef i64 i = s.rows[depth], cells = w.cells[depth], above = UNDECIDED, n = 0, q, run, j
    if i > 0:
        above = w.match[i - 1]
    if above >= 0 and w.chain[i - 1] == 1:
        out[0].column = above + 1
        return 1
    for q in range(w.row_start[i], w.row_start[i + 1]):
        run = w.row_runs[q]
        j = w.run_j0[run] + i - w.run_i0[run]
        if w.col_used[j]:
            continue
        if j == above + 1 and above >= 0:
            if cells < s.budget:
                out[n].column = j
                n += 1
        elif (
            i - w.run_i0[run] + 1 < w.run_length[run] and not w.col_used[j + 1]
            and cells + 2 <= s.budget
        ):
            out[n].column = j
            n += 1
    out[n].column = FREE
    return n + 1


cdef bint _expand(Search* s, i64 depth) noexcept nogil:
    """Score the row's choices and keep those whose bound beats the best matching, best first;
    False when over the step limit."""
    cdef Workspace* w = s.w
    cdef Choice* choices = w.choices + w.choice_start[depth]
    cdef i64 n = _options(s, depth, choices), kept = 0, q, j
    cdef double bound
    for q in range(n):
        j = choices[q].column
        s.steps += s.size
        if s.steps > s.max_steps:
            return False
        _choose(s, depth, j)
        bound = w.values[depth + 1] + _bound(s, depth + 1, w.cells[depth + 1])
        _unchoose(s, depth)
        if bound > s.best + s.tolerance:
            choices[kept].bound = bound
            choices[kept].column = j
            choices[kept].order = kept
            kept += 1
    qsort(choices, kept, sizeof(Choice), _by_bound)
    w.choice_count[depth] = kept
    w.next[depth] = 0
    return True


cdef bint _next_choice(Search* s, i64 depth) noexcept nogil:
    """Undo the row's last choice and make its next, unless its bound no longer beats the best
    matching; False when none is left."""
    cdef Workspace* w = s.w
    cdef Choice choice
    _unchoose(s, depth)
    if w.next[depth] == w.choice_count[depth]:
        return False
    choice = w.choices[w.choice_start[depth] + w.next[depth]]
    if choice.bound <= s.best + s.tolerance:
        return False
    w.next[depth] += 1
    _choose(s, depth, choice.column)
    return True


cdef void _record(Search* s) noexcept nogil:
    """Keep the matching of the last row's choice (_Search.record): its long blocks' cells,
    then each word's free rows with its free columns, in order, within the budget."""
    cdef Workspace* w = s.w
    cdef i64 n = s.n_rows, room = s.budget - w.cells[s.n_rows], d, word, q_row, q_col, i
    s.best = w.values[n] + _bound(s, n, w.cells[n])
    s.improved = True
    w.n_found = 0
    for d in range(n):
        if w.match[s.rows[d]] >= 0:
            w.found[w.n_found].token = s.rows[d]
            w.found[w.n_found].position = w.match[s.rows[d]]
            w.n_found += 1
    for word in range(w.n_words):
        q_row, q_col = w.word_rows_start[word], w.word_cols_start[word]
        while room > 0:
            while q_row < w.word_rows_start[word + 1]:
                i = s.word_rows[q_row].position
                if not w.is_long[i] or w.match[i] == FREE:
                    break
                q_row += 1
            while q_col < w.word_cols_start[word + 1] and w.col_used[s.word_cols[q_col].position]:
                q_col += 1
            if q_row == w.word_rows_start[word + 1] or q_col == w.word_cols_start[word + 1]:
                break
            w.found[w.n_found].token = s.word_rows[q_row].position
            w.found[w.n_found].position = s.word_cols[q_col].position
            w.n_found += 1
            room -= 1
            q_row += 1
            q_col += 1


cdef bint _run(Search* s) noexcept nogil:
    """Search the component (_Search.run); False when over the step limit."""
    cdef i64 depth = 0
    if _bound(s, 0, 0) <= s.best + s.tolerance:
        return True
    if s.n_rows == 0:
        _record(s)
        return True
    if not _expand(s, 0):
        return False
    while depth >= 0:
        if not _next_choice(s, depth):
            depth -= 1
        elif depth + 1 == s.n_rows:
            _record(s)
        elif not _expand(s, depth + 1):
            return False
        else:
            depth += 1
    return True


# -------------------------------------------------------------------------- one segment
cdef int _canonical(const void* a, const void* b) noexcept nogil:
    """Longest first, then by row and column: the order the integer program's blocks come in."""
    cdef const Triple* p = <const Triple*> a
    cdef const Triple* q = <const Triple*> b
    if p.length != q.length:
        return (p.length < q.length) - (p.length > q.length)
    if p.i != q.i:
        return (p.i > q.i) - (p.i < q.i)
    return (p.j > q.j) - (p.j < q.j)


cdef struct Settings:  # one segment's search
    i64 budget
    i64 max_steps
    double tolerance
    const double* powers


cdef i64 _found_blocks(Workspace* w, Triple* blocks) noexcept nogil:
    """The found cells (sorted by row here) as blocks: a cell below-right of the one before
    extends its block. Their number."""
    cdef TokenAt* cells = w.found  # (row, column)
    cdef i64 q, n = 0
    qsort(cells, w.n_found, sizeof(TokenAt), _by_token)
    for q in range(w.n_found):
        if (
            q > 0 and cells[q - 1].token == cells[q].token - 1
            and cells[q - 1].position == cells[q].position - 1
        ):
            blocks[n - 1].length += 1
        else:
            blocks[n].i, blocks[n].j, blocks[n].length = cells[q].token, cells[q].position, 1
            n += 1
    return n


cdef i64 _improve(
    Workspace* w, Blocks* runs, const Triple* greedy, i64 n_greedy, Settings* settings,
    bint whole, i64* n_blocks,
) noexcept nogil:
    """As _loops_python._improve: a heavier matching than the greedy's into w.blocks, longest
    first (n_blocks of them, 0 when the greedy's is optimal); the steps of search below the
    components' roots, or -1 when over the step limit."""
    cdef Search s
    cdef i64 component, q, d, row, n_new = 0, steps = 0
    _union_runs(w, runs, whole)
    _group(w)
    for component in range(w.n_components):
        w.incumbents[component] = 0.0
        w.improved[component] = 0
    for q in range(n_greedy):
        w.incumbents[w.row_component[greedy[q].i]] += settings.powers[greedy[q].length]
    for row in range(w.m):
        w.match[row] = UNDECIDED
    memset(w.col_used, 0, w.x)
    w.values[0], w.cells[0] = 0.0, 0
    n_blocks[0] = 0
    for component in range(w.n_components):
        _words(w, component)
        s.w, s.powers = w, settings.powers
        s.first_run = w.runs_start[component]
        s.n_runs = w.runs_start[component + 1] - s.first_run
        s.rows = w.dfs_rows + w.dfs_start[component]
        s.n_rows = w.dfs_start[component + 1] - w.dfs_start[component]
        s.word_rows = w.rows + w.rows_start[component]
        s.word_cols = w.cols + w.cols_start[component]
        s.budget, s.max_steps, s.steps = settings.budget, settings.max_steps - steps, 0
        s.best, s.tolerance, s.improved = w.incumbents[component], settings.tolerance, False
        s.size = (
            w.rows_start[component + 1] - w.rows_start[component]
            + w.cols_start[component + 1] - w.cols_start[component]
        )
        for q in range(s.first_run, s.first_run + s.n_runs):
            s.size += w.run_length[w.component_runs[q]]
        q = 0
        for d in range(s.n_rows):  # room for each row's choices: its long runs, and FREE
            w.choice_start[d] = q
            q += w.row_start[s.rows[d] + 1] - w.row_start[s.rows[d]] + 1
        if not _run(&s):
            return -1
        steps += s.steps
        if s.improved:
            w.improved[component] = 1
            n_new += _found_blocks(w, w.new_blocks + n_new)
    if n_new == 0:
        return steps
    for q in range(n_greedy):
        if not w.improved[w.row_component[greedy[q].i]]:
            w.blocks[n_blocks[0]] = greedy[q]
            n_blocks[0] += 1
    for q in range(n_new):
        w.blocks[n_blocks[0]] = w.new_blocks[q]
        n_blocks[0] += 1
    qsort(w.blocks, n_blocks[0], sizeof(Triple), _canonical)
    return steps


cdef struct Limits:  # matching.py's limits for one segment
    i64 max_hits
    i64 max_runs
    i64 max_cells
    i64 max_steps


cdef double _exact(
    const i64* c, i64 m, const i64* r, i64 x, i64 budget, double e, Limits* limits, Triple* out,
    i64* n_out, int* method, int* status,
) noexcept nogil:
    """As _loops_python._exact: the sum of len ** e of the maximum matching with at most
    ``budget`` cells, its blocks into ``out`` (room for min(m, x)), how it was settled."""
    cdef i64 capacity = m if m < x else x, q, hits = 0, longest = 0, steps, n_blocks = 0, cells = 0
    cdef Py_ssize_t n_chosen = 0
    cdef double total
    cdef double* chosen = <double*> malloc(3 * capacity * sizeof(double))
    cdef double* powers = NULL
    cdef Blocks runs
    cdef Workspace w
    cdef Settings settings
    method[0] = _CLOSED_FORM if e == 1.0 else _BOUND
    n_out[0] = 0
    if chosen == NULL:
        status[0] = _NO_MEMORY
        return 0.0
    total = _greedy(
        c, m, r, x, <double> budget, e, limits.max_hits, limits.max_runs, chosen, &n_chosen, status
    )
    for q in range(n_chosen):
        out[q].i, out[q].j = <i64> chosen[3 * q], <i64> chosen[3 * q + 1]
        out[q].length = <i64> chosen[3 * q + 2]
    n_out[0] = n_chosen
    free(chosen)
    if status[0] != _DONE or n_chosen == 0 or e == 1.0:
        return total
    if m * x > limits.max_cells:
        method[0] = _GREEDY_FALLBACK
        return total
    memset(&w, 0, sizeof(Workspace))
    w.c, w.m, w.r, w.x = c, m, r, x
    runs.capacity, runs.size = 16, 0
    runs.items = <Block*> malloc(runs.capacity * sizeof(Block))
    status[0] = _NO_MEMORY if runs.items == NULL else _collect_runs(
        c, m, r, x, limits.max_hits, limits.max_runs, &runs, &hits
    )
    if status[0] == _DONE:
        for q in range(runs.size):
            longest = runs.items[q].length if runs.items[q].length > longest else longest
        powers = <double*> malloc((longest + 1) * sizeof(double))
        if powers == NULL or not _allocate_workspace(&w, &runs):
            status[0] = _NO_MEMORY
    if status[0] == _DONE:
        for q in range(longest + 1):
            powers[q] = pow(<double> q, e)
        _long_runs(&w, &runs)
        settings.budget, settings.max_steps, settings.powers = budget, limits.max_steps, powers
        settings.tolerance = 1e-12 * (total if total > 1.0 else 1.0)
        steps = _improve(&w, &runs, out, n_chosen, &settings, False, &n_blocks)
        for q in range(n_blocks):
            cells += w.blocks[q].length
        if cells > budget:  # the components' best matchings together exceed the budget
            settings.max_steps -= steps
            steps = _improve(&w, &runs, out, n_chosen, &settings, True, &n_blocks)
        if steps < 0:
            method[0] = _UNSOLVED
        elif n_blocks == 0:
            method[0] = _SEARCH if steps > 0 else _BOUND
        else:
            method[0] = _SEARCH
            total = 0.0
            for q in range(n_blocks):
                out[q] = w.blocks[q]
                total += powers[w.blocks[q].length]
            n_out[0] = n_blocks
    free(runs.items)
    free(powers)
    free(w.memory)
    return total


cdef Limits _limits(tuple limits):
    cdef Limits bounds
    bounds.max_hits, bounds.max_runs, bounds.max_cells, bounds.max_steps = limits
    return bounds


def exact_matching(
    const i64[::1] candidate, const i64[::1] rcat, i64 budget, double exponent, tuple limits
):
    """The maximum matching of one segment with at most ``budget`` cells: (sum of len ** e,
    blocks (i, j, len) as int64 rows, method, status); limits: (max_hits, max_runs, max_cells,
    max_steps)."""
    cdef Py_ssize_t m = candidate.shape[0], x = rcat.shape[0]
    cdef Limits bounds = _limits(limits)
    cdef i64 n = 0
    cdef int method = _CLOSED_FORM if exponent == 1.0 else _BOUND, status = _DONE
    cdef double total
    blocks = np.empty((max(min(m, x), 1), 3), np.int64)
    cdef i64[:, ::1] out = blocks
    if m == 0 or x == 0:
        return 0.0, blocks[:0], method, status
    total = _exact(
        &candidate[0], m, &rcat[0], x, budget, exponent, &bounds, <Triple*> &out[0, 0], &n,
        &method, &status,
    )
    return total, blocks[:n], method, status


def exact_totals(
    const i64[::1] candidates, const i64[::1] candidate_offsets, const i64[::1] rcats,
    const i64[::1] rcat_offsets, const double[::1] caps, double exponent, tuple limits,
):
    """The sum of len ** e of every segment's maximum matching with at most floor(cap) cells,
    how each was settled and a status per segment (see exact_matching). Ctrl-C stops it."""
    cdef Py_ssize_t s, m, x, first, start, capacity = 1
    cdef Limits bounds = _limits(limits)
    cdef i64 n
    cdef int method, status
    totals = np.zeros(caps.shape[0])
    methods = np.zeros(caps.shape[0], np.int8)
    statuses = np.zeros(caps.shape[0], np.int8)
    cdef double[::1] out_total = totals
    cdef signed char[::1] out_method = methods
    cdef signed char[::1] out_status = statuses
    for s in range(caps.shape[0]):
        m = candidate_offsets[s + 1] - candidate_offsets[s]
        x = rcat_offsets[s + 1] - rcat_offsets[s]
        capacity = max(capacity, min(m, x))
    cdef Triple* blocks = <Triple*> malloc(capacity * sizeof(Triple))
    if blocks == NULL:
        raise MemoryError
    try:
        with nogil:
            for s in range(caps.shape[0]):
                first = candidate_offsets[s]
                start = rcat_offsets[s]
                m = candidate_offsets[s + 1] - first
                x = rcat_offsets[s + 1] - start
                if s % 256 == 255 or <i64> m * x > 1_000_000:
                    with gil:
                        PyErr_CheckSignals()
                method = _CLOSED_FORM if exponent == 1.0 else _BOUND
                status = _DONE
                if m > 0 and x > 0:
                    out_total[s] = _exact(
                        &candidates[first], m, &rcats[start], x, <i64> floor(caps[s]), exponent,
                        &bounds, blocks, &n, &method, &status,
                    )
                out_method[s] = method
                out_status[s] = status
    finally:
        free(blocks)
    return totals, methods, statuses
