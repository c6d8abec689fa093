# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""chrF's and chrF++'s per-segment statistics, compiled: sacreBLEU 2.x's numbers, about a hundred
times faster than its Counters of n-gram strings (chrf_statistics.py prepares the input and says
what is computed; the fallback is sacreBLEU's own Python).

Input: the code points of every segment of every column (references first, then systems), one
uint32 array, and offsets: segment s of column c is text[offsets[c * n_segments + s] :
offsets[c * n_segments + s + 1]]. A segment is counted on its own, all its columns together:

- its characters without whitespace (Python's ``str.split()`` whitespace, see _is_space) and, for
  chrF++, its words (split on that whitespace, a leading or trailing ASCII punctuation mark split
  off as sacreBLEU's ``_remove_punctuation`` does) get dense ids from a hash table: a character by
  its code point, a word by its code points (compared in full on equal hashes, so exact);
- an n-gram's id is the dense id of the pair (id of its (n-1)-gram, id of its last unit), so n-grams
  of every order are told apart exactly, without strings or 64-bit hashes that could collide;
- ids come from the references' n-grams only: a system's n-gram that no reference has is -1 and
  can never match, and one whose (n-1)-gram is -1 is -1 without a look-up;
- the counts of a reference's n-gram ids are set once and each system's matches are its clipped
  counts against them.

With several references the statistics of the reference with the best sentence chrF are kept
(the first on ties); the f-score is computed with sacreBLEU's operations in sacreBLEU's order, so
the choice agrees even where two references score within a rounding of each other.
"""

import os

import numpy as np

from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memset

from mteval_core.metrics._text_units cimport (
    SlotTable, check_offsets, first_slot, i64, is_space, table_clear, table_free, table_reserve,
    text_id, u32, u64,
)


cdef inline bint _is_punct(u32 c) noexcept nogil:
    """sacreBLEU's chrF punctuation: the 32 ASCII punctuation marks."""
    return (33 <= c <= 47) or (58 <= c <= 64) or (91 <= c <= 96) or (123 <= c <= 126)


cdef inline i64 _slot(const SlotTable *t, u64 key) noexcept nogil:
    """The key's first slot in this table (first_slot: keyed Fibonacci hashing)."""
    return first_slot(key, t.seed, t.shift)


cdef inline int _key_id(SlotTable *t, u64 key) noexcept nogil:
    """The dense id of an integer key, a new one if the key is new."""
    cdef i64 mask = t.capacity - 1
    cdef i64 slot = _slot(t, key)
    while t.stamps[slot] == t.stamp:
        if t.keys[slot] == key:
            return t.ids[slot]
        slot = (slot + 1) & mask
    t.stamps[slot] = t.stamp
    t.keys[slot] = key
    t.ids[slot] = t.n_ids
    t.n_ids += 1
    return t.ids[slot]


cdef inline int _key_lookup(const SlotTable *t, u64 key) noexcept nogil:
    """The dense id of an integer key, -1 if it is not in the table."""
    cdef i64 mask = t.capacity - 1
    cdef i64 slot = _slot(t, key)
    while t.stamps[slot] == t.stamp:
        if t.keys[slot] == key:
            return t.ids[slot]
        slot = (slot + 1) & mask
    return -1


cdef double _f_score(const i64 *stats, int n_orders, double beta) noexcept nogil:
    """sacreBLEU's sentence chrF (effective order, no epsilon smoothing), operation by operation."""
    cdef double avg_prec = 0.0, avg_rec = 0.0, factor = beta * beta, score
    cdef int order, effective = 0
    cdef i64 n_hyp, n_ref, n_match
    for order in range(n_orders):
        n_hyp = stats[3 * order]
        n_ref = stats[3 * order + 1]
        n_match = stats[3 * order + 2]
        if n_hyp > 0 and n_ref > 0:
            avg_prec += <double> n_match / <double> n_hyp
            avg_rec += <double> n_match / <double> n_ref
            effective += 1
    if effective == 0:
        return 0.0
    avg_prec /= effective
    avg_rec /= effective
    if avg_prec + avg_rec == 0.0:
        return 0.0
    score = (1.0 + factor) * avg_prec * avg_rec
    score /= factor * avg_prec + avg_rec
    return 100.0 * score


cdef struct Scratch:
    # Per segment, every column: units (characters or words) and their ids, grown as needed.
    u32 *chars
    i64 *word_start
    i64 *word_len
    i64 *first_start
    i64 *first_len
    int *base
    int *ids
    int *ref_count
    int *used
    i64 capacity


cdef int _scratch_reserve(Scratch *s, i64 units) noexcept nogil:
    """Room for this many units; 0 on success, -1 out of memory."""
    if units <= s.capacity:
        return 0
    if units < 2 * s.capacity:
        units = 2 * s.capacity
    s.chars = <u32 *> realloc(s.chars, units * sizeof(u32))
    s.word_start = <i64 *> realloc(s.word_start, units * sizeof(i64))
    s.word_len = <i64 *> realloc(s.word_len, units * sizeof(i64))
    s.first_start = <i64 *> realloc(s.first_start, units * sizeof(i64))
    s.first_len = <i64 *> realloc(s.first_len, units * sizeof(i64))
    s.base = <int *> realloc(s.base, units * sizeof(int))
    s.ids = <int *> realloc(s.ids, units * sizeof(int))
    s.ref_count = <int *> realloc(s.ref_count, units * sizeof(int))
    s.used = <int *> realloc(s.used, units * sizeof(int))
    if (s.chars == NULL or s.word_start == NULL or s.word_len == NULL or s.first_start == NULL
            or s.first_len == NULL or s.base == NULL or s.ids == NULL or s.ref_count == NULL
            or s.used == NULL):
        return -1
    memset(s.ref_count, 0, units * sizeof(int))
    memset(s.used, 0, units * sizeof(int))
    s.capacity = units
    return 0


cdef void _count_orders(SlotTable *t, Scratch *s, const i64 *col_start, const i64 *col_len,
                        int n_refs, int n_systems, int max_order, int first_order,
                        i64 *pair_stats, int n_stat_orders) noexcept nogil:
    """Hypothesis count, reference count and clipped matches of orders 1..max_order of the units
    whose ids are in s.base, for every (system, reference) pair, into pair_stats at
    first_order (pair_stats[(h * n_refs + r) * 3 * n_stat_orders + 3 * order + ...])."""
    cdef int order, r, h, c, k
    cdef i64 p, n, start, ref_n, hyp_n, match, total = 0
    cdef i64 *row
    cdef int n_cols = n_refs + n_systems
    for c in range(n_cols):
        total += col_len[c]
    for p in range(total):
        s.ids[p] = s.base[p]
    for order in range(1, max_order + 1):
        if order > 1:  # n-gram ids from the (n-1)-gram's id and the last unit's id
            table_clear(t)
            for c in range(n_refs):
                start = col_start[c]
                for p in range(start, start + col_len[c] - order + 1):
                    s.ids[p] = _key_id(t, (<u64> s.ids[p] << 32) | <u64> s.base[p + order - 1])
            # A system's n-gram only needs an id if some reference has it: one whose prefix or
            # last unit no reference has is -1 (never matches) without a look-up.
            for c in range(n_refs, n_cols):
                start = col_start[c]
                for p in range(start, start + col_len[c] - order + 1):
                    k = s.base[p + order - 1]
                    if s.ids[p] >= 0 and k >= 0:
                        s.ids[p] = _key_lookup(t, (<u64> s.ids[p] << 32) | <u64> k)
                    else:
                        s.ids[p] = -1
        for r in range(n_refs):
            start = col_start[r]
            ref_n = col_len[r] - order + 1
            if ref_n < 0:
                ref_n = 0
            for p in range(start, start + ref_n):
                s.ref_count[s.ids[p]] += 1
            for h in range(n_systems):
                c = n_refs + h
                hyp_n = col_len[c] - order + 1
                if hyp_n < 0:
                    hyp_n = 0
                match = 0
                for p in range(col_start[c], col_start[c] + hyp_n):
                    k = s.ids[p]
                    if k >= 0 and s.used[k] < s.ref_count[k]:
                        s.used[k] += 1
                        match += 1
                for p in range(col_start[c], col_start[c] + hyp_n):
                    k = s.ids[p]
                    if k >= 0:
                        s.used[k] = 0
                row = (pair_stats + (h * n_refs + r) * 3 * n_stat_orders
                       + 3 * (first_order + order - 1))
                # sacreBLEU counts no hypothesis n-grams where the reference has none
                row[0] = hyp_n if ref_n > 0 else 0
                row[1] = ref_n
                row[2] = match
            for p in range(start, start + ref_n):
                s.ref_count[s.ids[p]] = 0


cdef i64 _split_segment(const u32 *text, i64 a, i64 b, Scratch *s, i64 n_chars, i64 n_words,
                        i64 *chars_added, bint words) noexcept nogil:
    """Appends the segment's non-space characters to s.chars and (if words) its words, with a
    leading or trailing punctuation mark split off, to s.word_start / s.word_len."""
    cdef i64 p = a, w, length, added_words = 0
    cdef i64 c0 = n_chars
    while p < b:
        if is_space(text[p]):
            p += 1
            continue
        w = p
        while p < b and not is_space(text[p]):
            s.chars[n_chars] = text[p]
            n_chars += 1
            p += 1
        if words:
            length = p - w
            if length > 1 and _is_punct(text[p - 1]):
                s.word_start[n_words] = w
                s.word_len[n_words] = length - 1
                s.word_start[n_words + 1] = p - 1
                s.word_len[n_words + 1] = 1
                n_words += 2
                added_words += 2
            elif length > 1 and _is_punct(text[w]):
                s.word_start[n_words] = w
                s.word_len[n_words] = 1
                s.word_start[n_words + 1] = w + 1
                s.word_len[n_words + 1] = length - 1
                n_words += 2
                added_words += 2
            else:
                s.word_start[n_words] = w
                s.word_len[n_words] = length
                n_words += 1
                added_words += 1
    chars_added[0] = n_chars - c0
    return added_words


def chrf_statistics(const u32[::1] text, const i64[::1] offsets, int n_refs, int n_systems,
                    int char_order, int word_order, double beta):
    """(n_systems, n_segments, 3 * (char_order + word_order)) int64 statistics: per segment and
    system, those of the reference with the best sentence chrF (the first on ties)."""
    cdef int n_cols = n_refs + n_systems
    cdef i64 n_segments = (offsets.shape[0] - 1) // n_cols if n_cols else 0
    cdef int n_orders = char_order + word_order
    cdef int n_stats = 3 * n_orders
    out = np.zeros((n_systems, n_segments, n_stats), dtype=np.int64)
    cdef i64[:, :, ::1] result = out
    if n_refs < 1 or n_systems < 1 or n_segments == 0:
        return out
    if offsets.shape[0] != n_cols * n_segments + 1:
        raise ValueError("offsets do not match the columns and segments")
    check_offsets(offsets, text.shape[0])
    cdef SlotTable table
    cdef Scratch s
    memset(&table, 0, sizeof(SlotTable))
    table.seed = int.from_bytes(os.urandom(8), "little")
    memset(&s, 0, sizeof(Scratch))
    cdef i64 *col_start = <i64 *> malloc(n_cols * sizeof(i64))
    cdef i64 *col_len = <i64 *> malloc(n_cols * sizeof(i64))
    cdef i64 *word_col_start = <i64 *> malloc(n_cols * sizeof(i64))
    cdef i64 *word_col_len = <i64 *> malloc(n_cols * sizeof(i64))
    cdef i64 *pair_stats = <i64 *> malloc(n_systems * n_refs * n_stats * sizeof(i64))
    cdef const u32 *tp = &text[0] if text.shape[0] > 0 else NULL
    cdef i64 seg, a, b, units, ref_units = 0, n_chars, n_words, added, p
    cdef int c, h, r, k, best
    cdef double f, best_f
    cdef bint failed = False
    try:
        if (col_start == NULL or col_len == NULL or word_col_start == NULL
                or word_col_len == NULL or pair_stats == NULL):
            raise MemoryError()
        with nogil:
            for seg in range(n_segments):
                units = 0
                for c in range(n_cols):
                    if c == n_refs:
                        ref_units = units  # only the references' units go into the table
                    units += offsets[c * n_segments + seg + 1] - offsets[c * n_segments + seg]
                if (_scratch_reserve(&s, units + 1) != 0
                        or table_reserve(&table, ref_units + 1) != 0):
                    failed = True
                    break
                n_chars = 0
                n_words = 0
                for c in range(n_cols):
                    a = offsets[c * n_segments + seg]
                    b = offsets[c * n_segments + seg + 1]
                    col_start[c] = n_chars
                    word_col_start[c] = n_words
                    added = _split_segment(tp, a, b, &s, n_chars, n_words, &col_len[c],
                                           word_order > 0)
                    n_chars += col_len[c]
                    word_col_len[c] = added
                    n_words += added
                table_clear(&table)  # units get ids from the references; -1: in none
                for p in range(col_start[n_refs]):
                    s.base[p] = _key_id(&table, <u64> s.chars[p])
                for p in range(col_start[n_refs], n_chars):
                    s.base[p] = _key_lookup(&table, <u64> s.chars[p])
                _count_orders(&table, &s, col_start, col_len, n_refs, n_systems, char_order, 0,
                              pair_stats, n_orders)
                if word_order > 0:
                    table_clear(&table)
                    for p in range(n_words):
                        s.base[p] = text_id(&table, tp, s.word_start[p], s.word_len[p],
                                             s.first_start, s.first_len,
                                             p < word_col_start[n_refs])
                    _count_orders(&table, &s, word_col_start, word_col_len, n_refs, n_systems,
                                  word_order, char_order, pair_stats, n_orders)
                for h in range(n_systems):
                    best = 0
                    best_f = -1.0
                    for r in range(n_refs):
                        f = _f_score(pair_stats + (h * n_refs + r) * n_stats, n_orders, beta)
                        if f > best_f:
                            best_f = f
                            best = r
                    for k in range(n_stats):
                        result[h, seg, k] = pair_stats[(h * n_refs + best) * n_stats + k]
        if failed:
            raise MemoryError()
    finally:
        free(col_start)
        free(col_len)
        free(word_col_start)
        free(word_col_len)
        free(pair_stats)
        table_free(&table)
        free(s.chars)
        free(s.word_start)
        free(s.word_len)
        free(s.first_start)
        free(s.first_len)
        free(s.base)
        free(s.ids)
        free(s.ref_count)
        free(s.used)
    return out
