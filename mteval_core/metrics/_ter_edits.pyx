# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""TER's per-segment statistics, compiled: sacreBLEU 2.x's numbers (edits and mean reference
length), far faster than its Python (ter_statistics.py prepares the input; the fallback is
sacreBLEU's own code through sacrebleu_segments.py).

Input: the code points of every segment of every column (references first, then systems; already
lowercased where TER is case-insensitive), one uint32 array, and offsets: segment s of column c is
text[offsets[c * n_segments + s] : offsets[c * n_segments + s + 1]]. A segment is split on
Python's whitespace (sacreBLEU's default Tercom tokenization is a lowercasing and a split) and its
words, all columns together, get ids from a hash table, compared in full on equal hashes: equal
ids exactly when the words are equal strings.

The algorithm is sacreBLEU's Tercom re-implementation (lib_ter.py), step by step:

- the edit distance is computed in a beam around the pseudo-diagonal i * n_ref / n_hyp, 25 cells
  either side (wider when one side is more than 50 times longer), the last row in full; a cell
  outside the beam is "infinite" and ties prefer match/substitution, then deletion, then
  insertion, which fixes the trace and so the alignment the shift search reads;
- the shift search looks at every pair (hypothesis start, reference start) at most 50 apart whose
  words agree for 1..10 words, in sacreBLEU's order, skips those that are already right or that
  would move a span inside itself, tries every insertion point the alignment gives for the
  span's reference words, and keeps the best by (edits saved, span length, earliest start,
  earliest target); shifting stops when no shift saves edits, or once 1,000 candidates were
  tried for this hypothesis and reference (that round's shift is then not applied);
- sacreBLEU caches matrix rows by hypothesis prefix: rows depend only on the prefix (every
  candidate has the hypothesis's length), so the cache changes speed, not results. Here a
  candidate's rows are computed from the first word where it differs from the current
  hypothesis, on the rows of the current hypothesis's matrix, and only costs are kept (the
  trace is needed for the current hypothesis only).

Per segment and system: the fewest edits over the references and the mean reference length; a
system whose words equal an earlier system's in that segment is copied, not recomputed.
"""

import os

import numpy as np

from libc.math cimport ceil, floor
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset

from mteval_core.metrics._text_units cimport (
    SlotTable, check_offsets, i64, is_space, table_clear, table_free, table_reserve, text_id, u32,
)

# sacreBLEU's limits (lib_ter.py)
DEF MAX_SHIFT_SIZE = 10
DEF MAX_SHIFT_DIST = 50
DEF BEAM_WIDTH = 25
DEF MAX_SHIFT_CANDIDATES = 1000
# Larger than any real cost (at most n_hyp + n_ref); "infinity + 1" never beats it, as in Python.
DEF INFINITE = 1 << 30
DEF MAX_WORDS = 1 << 20  # per segment and column, so that costs stay far below INFINITE

# Edit operations in the matrix, as sacreBLEU's trace characters.
DEF OP_NOP = 0
DEF OP_SUB = 1
DEF OP_INS = 2  # a reference word (j - 1)
DEF OP_DEL = 3  # a hypothesis word (i - 1)
DEF OP_UNDEF = 4


cdef struct Work:
    # Buffers for one (hypothesis, reference) pair, grown as needed.
    int *cost        # (n_hyp + 1) x (n_ref + 1): the current hypothesis's matrix
    unsigned char *op
    int *row_a       # two rows for candidates
    int *row_b
    int *lo          # per row i: the beam [lo[i], hi[i])
    int *hi
    int *hyp         # the current hypothesis
    int *shifted     # a candidate
    int *align       # reference position -> hypothesis position (-1: before the first)
    int *hyp_err_sum  # prefix sums of the hypothesis / reference error flags
    int *ref_err_sum
    unsigned char *trace
    i64 cells
    i64 words


cdef int _work_reserve(Work *w, i64 n_hyp, i64 n_ref) noexcept nogil:
    """Room for a pair of these lengths; 0 on success, -1 out of memory."""
    cdef i64 cells = (n_hyp + 1) * (n_ref + 1)
    cdef i64 words = n_hyp + n_ref + 2
    if cells > w.cells:
        w.cost = <int *> realloc(w.cost, cells * sizeof(int))
        w.op = <unsigned char *> realloc(w.op, cells)
        if w.cost == NULL or w.op == NULL:
            return -1
        w.cells = cells
    if words > w.words:
        w.row_a = <int *> realloc(w.row_a, words * sizeof(int))
        w.row_b = <int *> realloc(w.row_b, words * sizeof(int))
        w.lo = <int *> realloc(w.lo, words * sizeof(int))
        w.hi = <int *> realloc(w.hi, words * sizeof(int))
        w.hyp = <int *> realloc(w.hyp, words * sizeof(int))
        w.shifted = <int *> realloc(w.shifted, words * sizeof(int))
        w.align = <int *> realloc(w.align, words * sizeof(int))
        w.hyp_err_sum = <int *> realloc(w.hyp_err_sum, words * sizeof(int))
        w.ref_err_sum = <int *> realloc(w.ref_err_sum, words * sizeof(int))
        w.trace = <unsigned char *> realloc(w.trace, words)
        if (w.row_a == NULL or w.row_b == NULL or w.lo == NULL or w.hi == NULL or w.hyp == NULL
                or w.shifted == NULL or w.align == NULL or w.hyp_err_sum == NULL
                or w.ref_err_sum == NULL or w.trace == NULL):
            return -1
        w.words = words
    return 0


cdef void _work_free(Work *w) noexcept nogil:
    free(w.cost)
    free(w.op)
    free(w.row_a)
    free(w.row_b)
    free(w.lo)
    free(w.hi)
    free(w.hyp)
    free(w.shifted)
    free(w.align)
    free(w.hyp_err_sum)
    free(w.ref_err_sum)
    free(w.trace)


cdef void _beam_rows(Work *w, int n_hyp, int n_ref) noexcept nogil:
    """Every row's beam, as sacreBLEU computes it (in floating point, the same operations)."""
    cdef double ratio = <double> n_ref / <double> n_hyp if n_hyp > 0 else 1.0
    cdef int width = BEAM_WIDTH
    cdef int i
    cdef i64 diagonal
    if BEAM_WIDTH < ratio / 2:  # very unequal lengths: rows would not overlap
        width = <int> ceil(ratio / 2 + BEAM_WIDTH)
    for i in range(1, n_hyp + 1):
        diagonal = <i64> floor(i * ratio)
        w.lo[i] = <int> (diagonal - width if diagonal - width > 0 else 0)
        w.hi[i] = <int> (diagonal + width if diagonal + width < n_ref + 1 else n_ref + 1)
    if n_hyp > 0:
        w.hi[n_hyp] = n_ref + 1


cdef int _full_matrix(Work *w, const int *ref, int n_hyp, int n_ref) noexcept nogil:
    """The current hypothesis's matrix with its operations; returns its edit distance.

    Cells outside the beam stay infinite, so every row may be reused by a candidate."""
    cdef int width = n_ref + 1
    cdef int i, j, cost, candidate, word
    cdef unsigned char op
    cdef int *row
    cdef int *above
    cdef unsigned char *ops
    for j in range(width):
        w.cost[j] = j
        w.op[j] = OP_INS
    for i in range(1, n_hyp + 1):
        row = w.cost + <i64> i * width
        above = row - width
        ops = w.op + <i64> i * width
        word = w.hyp[i - 1]
        for j in range(width):
            row[j] = INFINITE
            ops[j] = OP_UNDEF
        for j in range(w.lo[i], w.hi[i]):
            if j == 0:
                row[0] = above[0] + 1
                ops[0] = OP_DEL
                continue
            if word == ref[j - 1]:
                cost = above[j - 1]
                op = OP_NOP
            else:
                cost = above[j - 1] + 1
                op = OP_SUB
            if cost >= INFINITE:  # the cell starts infinite and only a smaller cost replaces it
                cost = INFINITE
                op = OP_UNDEF
            candidate = above[j] + 1
            if candidate < cost:
                cost = candidate
                op = OP_DEL
            candidate = row[j - 1] + 1
            if candidate < cost:
                cost = candidate
                op = OP_INS
            row[j] = cost
            ops[j] = op
    return w.cost[<i64> n_hyp * width + n_ref]


cdef int _alignment(Work *w, int n_hyp, int n_ref) noexcept nogil:
    """Reads the trace of the current matrix (from its last cell back) into the alignment and
    the prefix sums of the error flags, as sacreBLEU's trace_to_alignment on the flipped trace.
    Returns -1 if the trace meets a cell outside the beam (sacreBLEU raises there)."""
    cdef int width = n_ref + 1
    cdef int i = n_hyp, j = n_ref, length = 0, k, pos_hyp = -1, pos_ref = -1
    cdef unsigned char op
    while i > 0 or j > 0:
        op = w.op[<i64> i * width + j]
        w.trace[length] = op
        length += 1
        if op == OP_NOP or op == OP_SUB:
            i -= 1
            j -= 1
        elif op == OP_INS:
            j -= 1
        elif op == OP_DEL:
            i -= 1
        else:
            return -1
    w.hyp_err_sum[0] = 0
    w.ref_err_sum[0] = 0
    for k in range(length - 1, -1, -1):
        op = w.trace[k]
        if op == OP_NOP or op == OP_SUB:
            pos_hyp += 1
            pos_ref += 1
            w.align[pos_ref] = pos_hyp
            w.hyp_err_sum[pos_hyp + 1] = w.hyp_err_sum[pos_hyp] + (op == OP_SUB)
            w.ref_err_sum[pos_ref + 1] = w.ref_err_sum[pos_ref] + (op == OP_SUB)
        elif op == OP_INS:  # a reference word the hypothesis lacks
            pos_ref += 1
            w.align[pos_ref] = pos_hyp
            w.ref_err_sum[pos_ref + 1] = w.ref_err_sum[pos_ref] + 1
        else:  # a hypothesis word the reference lacks
            pos_hyp += 1
            w.hyp_err_sum[pos_hyp + 1] = w.hyp_err_sum[pos_hyp] + 1
    return 0


cdef void _shift_into(const int *words, int n, int start, int length, int target,
                      int *out) noexcept nogil:
    """sacreBLEU's _perform_shift: the span [start, start + length) moved before ``target``
    (with its slicing when the target lies within the span's own reach)."""
    cdef int k = 0, p, stop
    if target < start:
        for p in range(target):
            out[k] = words[p]; k += 1
        for p in range(start, start + length):
            out[k] = words[p]; k += 1
        for p in range(target, start):
            out[k] = words[p]; k += 1
        for p in range(start + length, n):
            out[k] = words[p]; k += 1
    else:
        if target > start + length:
            stop = target
        else:
            stop = length + target if length + target < n else n
        for p in range(start):
            out[k] = words[p]; k += 1
        for p in range(start + length, stop):
            out[k] = words[p]; k += 1
        for p in range(start, start + length):
            out[k] = words[p]; k += 1
        for p in range(stop, n):
            out[k] = words[p]; k += 1


cdef int _candidate_distance(Work *w, const int *ref, int n_hyp, int n_ref,
                             int first_change, int current, int bound) noexcept nogil:
    """The edit distance of w.shifted, whose first ``first_change`` words are the current
    hypothesis's: its rows from there on, on the current matrix's row ``first_change``.

    A distance over ``bound`` cannot make the candidate the best: once a whole row is over it
    (a path's cost never decreases, and every path crosses every row), bound + 1 is returned."""
    cdef int width = n_ref + 1
    cdef int i, j, lo, hi, cost, candidate, word, next_hi, lowest
    cdef const int *above
    cdef int *row
    cdef int *spare = w.row_b
    if first_change >= n_hyp:
        return current
    above = w.cost + <i64> first_change * width
    row = w.row_a
    for i in range(first_change + 1, n_hyp + 1):
        lo = w.lo[i]
        hi = w.hi[i]
        word = w.shifted[i - 1]
        if lo > 0:
            row[lo - 1] = INFINITE
        lowest = INFINITE
        for j in range(lo, hi):
            if j == 0:
                row[0] = above[0] + 1
                lowest = row[0]
                continue
            cost = above[j - 1] + (word != ref[j - 1])
            if cost > INFINITE:
                cost = INFINITE
            candidate = above[j] + 1
            if candidate < cost:
                cost = candidate
            candidate = row[j - 1] + 1
            if candidate < cost:
                cost = candidate
            row[j] = cost
            if cost < lowest:
                lowest = cost
        if lowest > bound:
            return bound + 1
        if i < n_hyp:  # cells the next row reads beyond this row's beam are infinite
            next_hi = w.hi[i + 1]
            for j in range(hi, next_hi):
                row[j] = INFINITE
        above = row
        row = spare
        spare = <int *> above
    return above[n_ref]


cdef inline bint _better(int gain, int length, int start, int target, int best_gain,
                         int best_length, int best_start, int best_target) noexcept nogil:
    """sacreBLEU's ranking of shifts: most edits saved, then the longest span, then the
    earliest start, then the earliest target."""
    if gain != best_gain:
        return gain > best_gain
    if length != best_length:
        return length > best_length
    if start != best_start:
        return start < best_start
    return target < best_target


cdef int _best_shift(Work *w, const int *ref, int n_hyp, int n_ref, int current, int *checked,
                     int *best) noexcept nogil:
    """Tries the shifts of the current hypothesis in sacreBLEU's order; best[0..3] gets the
    best's (gain, length, start, target). Returns 1 if there was a candidate, else 0."""
    cdef int start_h, start_r, length, offset, target, previous, first_change, k
    cdef int distance, gain, found = 0, lowest, highest
    for start_h in range(n_hyp):
        lowest = start_h - MAX_SHIFT_DIST if start_h > MAX_SHIFT_DIST else 0
        highest = start_h + MAX_SHIFT_DIST + 1 if start_h + MAX_SHIFT_DIST + 1 < n_ref else n_ref
        for start_r in range(lowest, highest):
            length = 0
            while length < MAX_SHIFT_SIZE and w.hyp[start_h + length] == ref[start_r + length]:
                length += 1
                # the span must be wrong in the hypothesis, wrong in the reference, and the
                # reference's position must not lie inside the span
                if (w.hyp_err_sum[start_h + length] != w.hyp_err_sum[start_h]
                        and w.ref_err_sum[start_r + length] != w.ref_err_sum[start_r]
                        and not (start_h <= w.align[start_r] < start_h + length)):
                    previous = -1
                    for offset in range(-1, length):
                        target = 0 if start_r + offset == -1 else w.align[start_r + offset] + 1
                        if target == previous:
                            continue
                        previous = target
                        _shift_into(w.hyp, n_hyp, start_h, length, target, w.shifted)
                        first_change = start_h if start_h < target else target
                        while first_change < n_hyp and w.shifted[first_change] == w.hyp[first_change]:
                            first_change += 1
                        # with a best so far, only a distance at most current - its gain
                        # can win (a tie on gain is decided by length, start and target)
                        distance = _candidate_distance(
                            w, ref, n_hyp, n_ref, first_change, current,
                            current - best[0] if found else INFINITE)
                        gain = current - distance
                        checked[0] += 1
                        if not found or _better(gain, length, start_h, target,
                                                best[0], best[1], best[2], best[3]):
                            found = 1
                            best[0] = gain
                            best[1] = length
                            best[2] = start_h
                            best[3] = target
                    if checked[0] >= MAX_SHIFT_CANDIDATES:
                        return found
                if start_h + length == n_hyp or start_r + length == n_ref:
                    break
    return found


cdef i64 _edits(Work *w, const int *hyp, int n_hyp, const int *ref, int n_ref) noexcept nogil:
    """sacreBLEU's translation_edit_rate: shifts plus the edit distance after them.
    -1 out of memory, -2 if a trace left the beam."""
    cdef int checked = 0, shifts = 0, current, found
    cdef int best[4]
    if n_ref == 0:
        return n_hyp
    if n_hyp >= MAX_WORDS or n_ref >= MAX_WORDS:
        return -3
    if _work_reserve(w, n_hyp, n_ref) != 0:
        return -1
    memcpy(w.hyp, hyp, n_hyp * sizeof(int))
    _beam_rows(w, n_hyp, n_ref)
    while True:
        current = _full_matrix(w, ref, n_hyp, n_ref)
        if _alignment(w, n_hyp, n_ref) != 0:
            return -2
        found = _best_shift(w, ref, n_hyp, n_ref, current, &checked, best)
        if checked >= MAX_SHIFT_CANDIDATES or not found or best[0] <= 0:
            return shifts + current
        shifts += 1
        _shift_into(w.hyp, n_hyp, best[2], best[1], best[3], w.shifted)
        memcpy(w.hyp, w.shifted, n_hyp * sizeof(int))


cdef struct Words:
    # One segment's words, every column: where each starts and ends in the text, its id; and the
    # table giving ids (SlotTable: keyed with a random seed per call, so an upload cannot be
    # crafted to pile its words into one run of slots).
    i64 *start
    i64 *length
    int *ids
    i64 *first_start  # per id: its first occurrence, to compare words in full on equal hashes
    i64 *first_length
    i64 capacity
    SlotTable table


cdef int _words_reserve(Words *w, i64 n_words) noexcept nogil:
    """Room for this many words and an emptied table of at least twice as many slots; 0 on
    success, -1 out of memory."""
    if n_words > w.capacity:
        w.start = <i64 *> realloc(w.start, n_words * sizeof(i64))
        w.length = <i64 *> realloc(w.length, n_words * sizeof(i64))
        w.ids = <int *> realloc(w.ids, n_words * sizeof(int))
        w.first_start = <i64 *> realloc(w.first_start, n_words * sizeof(i64))
        w.first_length = <i64 *> realloc(w.first_length, n_words * sizeof(i64))
        if (w.start == NULL or w.length == NULL or w.ids == NULL or w.first_start == NULL
                or w.first_length == NULL):
            return -1
        w.capacity = n_words
    if table_reserve(&w.table, n_words) != 0:
        return -1
    table_clear(&w.table)
    return 0


cdef inline int _word_id(Words *w, const u32 *text, i64 start, i64 length) noexcept nogil:
    """The word's id in this segment: equal exactly when the code points are equal."""
    return text_id(&w.table, text, start, length, w.first_start, w.first_length, True)


cdef i64 _split(const u32 *text, i64 a, i64 b, Words *w, i64 n_words) noexcept nogil:
    """Appends the words of text[a:b] (split on whitespace, as ``str.split()``) to w; returns
    how many there are now."""
    cdef i64 p = a, first
    while p < b:
        if is_space(text[p]):
            p += 1
            continue
        first = p
        while p < b and not is_space(text[p]):
            p += 1
        w.start[n_words] = first
        w.length[n_words] = p - first
        n_words += 1
    return n_words


cdef void _words_free(Words *w) noexcept nogil:
    free(w.start)
    free(w.length)
    free(w.ids)
    free(w.first_start)
    free(w.first_length)
    table_free(&w.table)


cdef bint _same_words(const int *ids, i64 a, i64 a_len, i64 b, i64 b_len) noexcept nogil:
    cdef i64 k
    if a_len != b_len:
        return False
    for k in range(a_len):
        if ids[a + k] != ids[b + k]:
            return False
    return True


cdef i64 _segment(Work *work, Words *w, const u32 *text, const i64[::1] offsets, i64 seg,
                  i64 n_segments, int n_refs, int n_systems, i64 *col_start, i64 *col_len,
                  double[:, :, ::1] result) noexcept nogil:
    """One segment: its words and their ids, then every system's statistics; 0, or the error
    of _edits."""
    cdef int n_cols = n_refs + n_systems
    cdef int c, h, r, earlier
    cdef i64 a, b, n_chars = 0, n_words = 0, p, edits, best_edits, ref_length = 0
    for c in range(n_cols):
        n_chars += offsets[c * n_segments + seg + 1] - offsets[c * n_segments + seg]
    if _words_reserve(w, n_chars + 1) != 0:  # never more words than characters
        return -1
    for c in range(n_cols):
        a = offsets[c * n_segments + seg]
        b = offsets[c * n_segments + seg + 1]
        col_start[c] = n_words
        n_words = _split(text, a, b, w, n_words)
        col_len[c] = n_words - col_start[c]
        if c < n_refs:
            ref_length += col_len[c]
    for p in range(n_words):
        w.ids[p] = _word_id(w, text, w.start[p], w.length[p])
    for h in range(n_systems):
        c = n_refs + h
        best_edits = -1
        for earlier in range(h):  # the same words as an earlier system's: the same numbers
            if _same_words(w.ids, col_start[n_refs + earlier], col_len[n_refs + earlier],
                           col_start[c], col_len[c]):
                best_edits = <i64> result[earlier, seg, 0]
                break
        if best_edits < 0:
            for r in range(n_refs):
                edits = _edits(work, w.ids + col_start[c], <int> col_len[c],
                               w.ids + col_start[r], <int> col_len[r])
                if edits < 0:
                    return edits
                if best_edits < 0 or edits < best_edits:
                    best_edits = edits
        result[h, seg, 0] = <double> best_edits
        result[h, seg, 1] = <double> ref_length / <double> n_refs
    return 0


def ter_statistics(const u32[::1] text, const i64[::1] offsets, int n_refs, int n_systems):
    """(n_systems, n_segments, 2) float64 statistics: per segment and system, the fewest edits
    over the references and the mean reference length, as sacreBLEU's TER gives them."""
    cdef int n_cols = n_refs + n_systems
    cdef i64 n_segments = (offsets.shape[0] - 1) // n_cols if n_cols else 0
    out = np.zeros((n_systems, n_segments, 2), dtype=np.float64)
    cdef double[:, :, ::1] result = out
    if n_refs < 1 or n_systems < 1 or n_segments == 0:
        return out
    if offsets.shape[0] != n_cols * n_segments + 1:
        raise ValueError("offsets do not match the columns and segments")
    check_offsets(offsets, text.shape[0])
    cdef Work work
    cdef Words words
    memset(&work, 0, sizeof(Work))
    memset(&words, 0, sizeof(Words))
    words.table.seed = int.from_bytes(os.urandom(8), "little")
    cdef i64 *col_start = <i64 *> malloc(n_cols * sizeof(i64))
    cdef i64 *col_len = <i64 *> malloc(n_cols * sizeof(i64))
    cdef const u32 *tp = &text[0] if text.shape[0] > 0 else NULL
    cdef i64 seg, status = 0
    try:
        if col_start == NULL or col_len == NULL:
            raise MemoryError()
        with nogil:
            for seg in range(n_segments):
                status = _segment(&work, &words, tp, offsets, seg, n_segments, n_refs,
                                  n_systems, col_start, col_len, result)
                if status < 0:
                    break
        if status == -1:
            raise MemoryError()
        if status == -2:
            raise RuntimeError("TER's trace left the beam (sacreBLEU raises here too)")
        if status == -3:
            raise ValueError("a segment has more than a million words")
    finally:
        free(col_start)
        free(col_len)
        _work_free(&work)
        _words_free(&words)
    return out
