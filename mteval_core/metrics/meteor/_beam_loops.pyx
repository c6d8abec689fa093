# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""METEOR's matching and beam search for many segment pairs in one call, compiled.

aligner.py says what the jar's aligner does and why every detail is kept; this file does the same
on integer arrays, one (hypothesis, reference) pair after another, and returns each pair's
statistics row in scorer.py's layout. corpus_alignment.py prepares the input and keeps the
pure-Python path (aligner.align per pair) as the fallback: both give the same rows.

Input, for pair p: hypothesis words hyp_*[hyp_offsets[p]:hyp_offsets[p + 1]], reference words
ref_*[ref_offsets[p]:ref_offsets[p + 1]]; *_keys are the words' Java hash keys (what the exact
matcher compares), *_stems the keys of their stems (what the stem matcher compares), *_function
1 for a function word, *_rows the words' rows in the word table, whose WordNet synsets are
synset_ids[synset_offsets[row]:synset_offsets[row + 1]] (ascending; what the synonym matcher
compares). module_kinds[k] says how module k finds its matches: EXACT, STEM and SYNONYM here,
GIVEN from given[given_offsets[p]:given_offsets[p + 1]] (rows: reference start, reference
length, hypothesis start, hypothesis length, module), listed in the order the Python matchers
added them. Matches are generated in the jar's order (modules in order; exact, stem and synonym
with the reference word outer, the hypothesis word inner), which decides the beam's ties.

A partial alignment keeps its used words as bit sets (one per line) and its chosen matches as a
node of a shared arena (match, previous node), so that copying one costs a few words.

The pairs are aligned without the interpreter lock, so that corpus_alignment.py can give ranges
of pairs to threads, one per core.

A pair is left out (its row NaN, left_out[p] set) where it was left out before the call (the
given matches' modules found too many), where a line has more than max_words words, or where
its modules' candidate matches pass max_matches: the matching stops at the first one over, so
that neither the matches nor the beam's work on them grow past the limits (settings/limits.py).
"""

import numpy as np

from cpython.exc cimport PyErr_CheckSignals
from libc.math cimport NAN
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset

ctypedef long long i64
ctypedef unsigned long long u64

EXACT = 0
STEM = 1
GIVEN = 2
SYNONYM = 3
cdef int _EXACT = 0, _STEM = 1, _GIVEN = 2, _SYNONYM = 3

cdef int N_FIXED = 4  # scorer.N_FIXED
cdef int PER_MODULE = 4  # scorer.PER_MODULE


cdef struct Path:
    i64 weighted_hyp
    i64 weighted_ref
    i64 coverage
    i64 chunks
    i64 distance
    i64 idx
    i64 last_end
    i64 chosen  # node index, -1 for none


cdef struct Synsets:
    # the words' rows (hypothesis, reference tokens) and each row's ascending synset numbers
    const int* hyp_rows
    const int* ref_rows
    const i64* offsets
    const int* ids


cdef struct Work:
    # matches of the pair in generation order, then by reference start (counting sort)
    i64 n_matches, cap_matches, max_matches
    int* m_start
    int* m_len
    int* m_mstart
    int* m_mlen
    int* m_module
    int* by_start  # match indices ordered by start, stable
    i64 cap_words
    i64* first  # first[j]..first[j + 1]: by_start range of matches starting at j
    int* hyp_cov
    int* ref_cov
    int* fixed_at  # match index fixed at reference start j, or -1
    # beam pools
    i64 cap_paths, cap_used, words_h, words_r
    Path* paths_a
    Path* paths_b
    u64* used_a  # per path: words_h hypothesis words then words_r reference words
    u64* used_b
    int* order
    int* order_tmp
    # chosen-match arena
    i64 n_nodes, cap_nodes
    int* node_match
    i64* node_prev
    int* chosen
    i64 n_chosen


cdef int _grow(void** pointer, i64 count, size_t size) except -1 nogil:
    cdef void* grown = realloc(pointer[0], <size_t>(count if count > 0 else 1) * size)
    if grown == NULL:
        with gil:
            raise MemoryError()
    pointer[0] = grown
    return 0


cdef int _reserve_matches(Work* w, i64 need) except -1 nogil:
    if need <= w.cap_matches:
        return 0
    cdef i64 cap = max(need, 2 * w.cap_matches, 64)
    _grow(<void**>&w.m_start, cap, sizeof(int))
    _grow(<void**>&w.m_len, cap, sizeof(int))
    _grow(<void**>&w.m_mstart, cap, sizeof(int))
    _grow(<void**>&w.m_mlen, cap, sizeof(int))
    _grow(<void**>&w.m_module, cap, sizeof(int))
    _grow(<void**>&w.by_start, cap, sizeof(int))
    w.cap_matches = cap
    return 0


cdef int _reserve_words(Work* w, i64 need) except -1 nogil:
    if need <= w.cap_words:
        return 0
    cdef i64 cap = max(need, 2 * w.cap_words, 64)
    _grow(<void**>&w.first, cap + 1, sizeof(i64))
    _grow(<void**>&w.hyp_cov, cap, sizeof(int))
    _grow(<void**>&w.ref_cov, cap, sizeof(int))
    _grow(<void**>&w.fixed_at, cap, sizeof(int))
    _grow(<void**>&w.chosen, cap, sizeof(int))
    w.cap_words = cap
    return 0


cdef int _reserve_paths(Work* w, i64 need, i64 words_h, i64 words_r) except -1 nogil:
    """Room for `need` paths of this pair's bit-set size (grown, never shrunk)."""
    cdef i64 cap
    w.words_h = words_h
    w.words_r = words_r
    if need > w.cap_paths:
        cap = max(need, 2 * w.cap_paths)
        _grow(<void**>&w.paths_a, cap, sizeof(Path))
        _grow(<void**>&w.paths_b, cap, sizeof(Path))
        _grow(<void**>&w.order, cap, sizeof(int))
        _grow(<void**>&w.order_tmp, cap, sizeof(int))
        w.cap_paths = cap
    if w.cap_paths * (words_h + words_r) > w.cap_used:
        w.cap_used = 2 * w.cap_paths * (words_h + words_r)
        _grow(<void**>&w.used_a, w.cap_used, sizeof(u64))
        _grow(<void**>&w.used_b, w.cap_used, sizeof(u64))
    return 0


cdef int _add_node(Work* w, int match, i64 previous) except -1 nogil:
    if w.n_nodes == w.cap_nodes:
        w.cap_nodes = max(2 * w.cap_nodes, 1024)
        _grow(<void**>&w.node_match, w.cap_nodes, sizeof(int))
        _grow(<void**>&w.node_prev, w.cap_nodes, sizeof(i64))
    w.node_match[w.n_nodes] = match
    w.node_prev[w.n_nodes] = previous
    w.n_nodes += 1
    return 0


cdef int _add_match(Work* w, int start, int length, int mstart, int mlength,
                    int module) except -1 nogil:
    """Append a match; 1 (and nothing appended) where the pair has max_matches already."""
    if w.n_matches == w.max_matches:
        return 1
    _reserve_matches(w, w.n_matches + 1)
    cdef i64 k = w.n_matches
    w.m_start[k] = start
    w.m_len[k] = length
    w.m_mstart[k] = mstart
    w.m_mlen[k] = mlength
    w.m_module[k] = module
    w.n_matches += 1
    return 0


cdef inline bint _better(Path* a, Path* b) noexcept nogil:
    """The jar's PARTIAL_COMPARE_TOTAL: a strictly before b."""
    if a.coverage != b.coverage:
        return a.coverage > b.coverage
    if a.chunks != b.chunks:
        return a.chunks < b.chunks
    return a.distance < b.distance


cdef void _stable_sort(int* order, int* tmp, i64 n, Path* paths) noexcept nogil:
    """Bottom-up merge sort of path indices, stable (as Java's and Python's sorts)."""
    cdef i64 width = 1, lo, mid, hi, i, j, k
    cdef int* source = order
    cdef int* target = tmp
    cdef int* swap
    while width < n:
        lo = 0
        while lo < n:
            mid = min(lo + width, n)
            hi = min(lo + 2 * width, n)
            i, j, k = lo, mid, lo
            while i < mid and j < hi:
                if _better(&paths[source[j]], &paths[source[i]]):
                    target[k] = source[j]
                    j += 1
                else:
                    target[k] = source[i]
                    i += 1
                k += 1
            while i < mid:
                target[k] = source[i]
                i += 1
                k += 1
            while j < hi:
                target[k] = source[j]
                j += 1
                k += 1
            lo += 2 * width
        swap = source
        source = target
        target = swap
        width *= 2
    if source != order:
        memcpy(order, source, n * sizeof(int))


cdef inline bint _bit(u64* bits, i64 k) noexcept nogil:
    return (bits[k >> 6] >> (k & 63)) & 1


cdef inline void _set(u64* bits, i64 k) noexcept nogil:
    bits[k >> 6] |= (<u64>1) << (k & 63)


cdef inline bint _free_span(u64* bits, i64 first, i64 length) noexcept nogil:
    cdef i64 k
    for k in range(first, first + length):
        if _bit(bits, k):
            return False
    return True


cdef int _take(Work* w, Path* path, int match, double weight) except -1 nogil:
    """aligner._Path.take: coverage truncated as the jar's int, chunk, position, node."""
    path.weighted_hyp = <i64>(<double>path.weighted_hyp + w.m_mlen[match] * weight)
    path.weighted_ref = <i64>(<double>path.weighted_ref + w.m_len[match] * weight)
    path.coverage = path.weighted_hyp + path.weighted_ref
    if path.last_end != -1 and w.m_mstart[match] != path.last_end:
        path.chunks += 1
    path.idx = w.m_start[match] + w.m_len[match]
    path.last_end = w.m_mstart[match] + w.m_mlen[match]
    _add_node(w, match, path.chosen)
    path.chosen = w.n_nodes - 1
    return 0


cdef void _copy_path(Work* w, Path* paths_to, u64* used_to, i64 to, Path* paths_from,
                     u64* used_from, i64 source) noexcept nogil:
    cdef i64 words = w.words_h + w.words_r
    paths_to[to] = paths_from[source]
    memcpy(&used_to[to * words], &used_from[source * words], words * sizeof(u64))


cdef bint _share_synset(const Synsets* s, int hyp_row, int ref_row) noexcept nogil:
    """Whether two words' ascending synset lists meet (matchers.match_synonyms' test)."""
    cdef i64 a = s.offsets[hyp_row], a_end = s.offsets[hyp_row + 1]
    cdef i64 b = s.offsets[ref_row], b_end = s.offsets[ref_row + 1]
    while a < a_end and b < b_end:
        if s.ids[a] == s.ids[b]:
            return True
        if s.ids[a] < s.ids[b]:
            a += 1
        else:
            b += 1
    return False


cdef int _generate(Work* w, i64 p, const int[::1] hyp_keys, const int[::1] hyp_stems,
                   i64 h0, i64 nh, const int[::1] ref_keys, const int[::1] ref_stems, i64 r0,
                   i64 nr, const int[::1] module_kinds, const i64[::1] given_offsets,
                   const int[:, ::1] given, const Synsets* synsets) except -1 nogil:
    """Every module's candidate matches in the jar's order (aligner.align's matcher loop); 1 where
    they pass w.max_matches (the matching stops there), else 0."""
    cdef i64 i, j, g, k
    cdef int n_modules = module_kinds.shape[0], kind
    cdef bint identical = nh == nr
    if identical:
        for i in range(nh):
            if hyp_keys[h0 + i] != ref_keys[r0 + i]:
                identical = False
                break
    if identical:  # the jar: identical lines need the first module only
        n_modules = 1
    w.n_matches = 0
    for k in range(n_modules):
        kind = module_kinds[k]
        if kind == _EXACT:
            for j in range(nr):
                for i in range(nh):
                    if hyp_keys[h0 + i] == ref_keys[r0 + j]:
                        if _add_match(w, j, 1, i, 1, k):
                            return 1
        elif kind == _STEM:
            for j in range(nr):
                for i in range(nh):
                    if (hyp_stems[h0 + i] == ref_stems[r0 + j]
                            and hyp_keys[h0 + i] != ref_keys[r0 + j]):
                        if _add_match(w, j, 1, i, 1, k):
                            return 1
        elif kind == _SYNONYM:
            for j in range(nr):
                for i in range(nh):
                    if (hyp_keys[h0 + i] != ref_keys[r0 + j] and _share_synset(
                            synsets, synsets.hyp_rows[h0 + i], synsets.ref_rows[r0 + j])):
                        if _add_match(w, j, 1, i, 1, k):
                            return 1
        else:
            for g in range(given_offsets[p], given_offsets[p + 1]):
                if given[g, 4] == k:
                    if _add_match(w, given[g, 0], given[g, 1], given[g, 2], given[g, 3], k):
                        return 1
    return 0


cdef void _index_matches(Work* w, i64 nh, i64 nr) noexcept nogil:
    """Matches by reference start (stable), coverage counts and the fixed matches."""
    cdef i64 j, k, m, q
    cdef bint alone
    for j in range(nr + 1):
        w.first[j] = 0
    for j in range(nh):
        w.hyp_cov[j] = 0
    for j in range(nr):
        w.ref_cov[j] = 0
        w.fixed_at[j] = -1
    for m in range(w.n_matches):
        w.first[w.m_start[m] + 1] += 1
        for q in range(w.m_mstart[m], w.m_mstart[m] + w.m_mlen[m]):
            w.hyp_cov[q] += 1
        for q in range(w.m_start[m], w.m_start[m] + w.m_len[m]):
            w.ref_cov[q] += 1
    for j in range(nr):
        w.first[j + 1] += w.first[j]
    # place (first[j] is used as a cursor, then restored)
    for m in range(w.n_matches):
        j = w.m_start[m]
        w.by_start[w.first[j]] = <int>m
        w.first[j] += 1
    for j in range(nr, 0, -1):
        w.first[j] = w.first[j - 1]
    w.first[0] = 0
    for j in range(nr):
        if w.first[j + 1] - w.first[j] != 1:
            continue
        m = w.by_start[w.first[j]]
        alone = True
        for q in range(w.m_start[m], w.m_start[m] + w.m_len[m]):
            if w.ref_cov[q] != 1:
                alone = False
        for q in range(w.m_mstart[m], w.m_mstart[m] + w.m_mlen[m]):
            if w.hyp_cov[q] != 1:
                alone = False
        if alone:
            w.fixed_at[j] = <int>m


cdef int _beam_search(Work* w, i64 nh, i64 nr, const double[::1] weights,
                      int beam_size) except -1 nogil:  # long: the jar's loop, a step per word
    """aligner.beam_search: the chosen matches of the best complete path into w.chosen."""
    cdef i64 words_h = (nh + 63) // 64 + 1, words_r = (nr + 63) // 64 + 1
    cdef i64 words = words_h + words_r
    cdef i64 most = 1, j, k, n_cur, n_next, taken, current, s, node, m, count, best
    cdef Path* cur
    cdef Path* nxt
    cdef Path* path
    cdef Path* ext
    cdef u64* cur_used
    cdef u64* nxt_used
    cdef u64* used
    cdef u64* swap_used
    cdef Path* swap_paths
    for j in range(nr):
        most = max(most, w.first[j + 1] - w.first[j] + 1)
    _reserve_paths(w, beam_size * most + 1, words_h, words_r)
    w.n_nodes = 0
    cur, nxt, cur_used, nxt_used = w.paths_a, w.paths_b, w.used_a, w.used_b
    # the first path: the fixed matches' words taken
    memset(cur_used, 0, words * sizeof(u64))
    for j in range(nr):
        m = w.fixed_at[j]
        if m >= 0:
            for k in range(w.m_mstart[m], w.m_mstart[m] + w.m_mlen[m]):
                _set(cur_used, k)
            for k in range(w.m_start[m], w.m_start[m] + w.m_len[m]):
                _set(cur_used + words_h, k)
    cur[0] = Path(0, 0, 0, 0, 0, 0, -1, -1)
    n_cur = 1
    for current in range(nr + 1):
        for s in range(n_cur):
            w.order[s] = <int>s
        _stable_sort(w.order, w.order_tmp, n_cur, cur)
        taken = min(n_cur, <i64>beam_size)
        n_next = 0
        for s in range(taken):
            path = &cur[w.order[s]]
            used = &cur_used[w.order[s] * words]
            if current == nr:  # complete: close the open chunk
                if path.last_end != -1:
                    path.chunks += 1
                _copy_path(w, nxt, nxt_used, n_next, cur, cur_used, w.order[s])
                n_next += 1
            elif _bit(used + words_h, current):
                if current < path.idx:
                    _copy_path(w, nxt, nxt_used, n_next, cur, cur_used, w.order[s])
                    n_next += 1
                elif path.idx < nr and w.fixed_at[path.idx] >= 0:
                    m = w.fixed_at[path.idx]
                    _take(w, path, <int>m, weights[w.m_module[m]])
                    path.distance += abs(w.m_start[m] - w.m_mstart[m])
                    _copy_path(w, nxt, nxt_used, n_next, cur, cur_used, w.order[s])
                    n_next += 1
            else:
                for k in range(w.first[current], w.first[current + 1]):
                    m = w.by_start[k]
                    if not _free_span(used, w.m_mstart[m], w.m_mlen[m]) or not _free_span(
                        used + words_h, w.m_start[m], w.m_len[m]
                    ):
                        continue
                    _copy_path(w, nxt, nxt_used, n_next, cur, cur_used, w.order[s])
                    ext = &nxt[n_next]
                    for j in range(w.m_mstart[m], w.m_mstart[m] + w.m_mlen[m]):
                        _set(&nxt_used[n_next * words], j)
                    for j in range(w.m_start[m], w.m_start[m] + w.m_len[m]):
                        _set(&nxt_used[n_next * words + words_h], j)
                    _take(w, ext, <int>m, weights[w.m_module[m]])
                    path.distance += abs(w.m_start[m] - w.m_mstart[m])
                    n_next += 1
                if path.last_end != -1:
                    path.chunks += 1
                    path.last_end = -1
                path.idx += 1
                _copy_path(w, nxt, nxt_used, n_next, cur, cur_used, w.order[s])
                n_next += 1
        if n_next == 0:  # the jar warns and carries the best path on
            _copy_path(w, nxt, nxt_used, 0, cur, cur_used, w.order[0])
            n_next = 1
        swap_paths = cur
        cur = nxt
        nxt = swap_paths
        swap_used = cur_used
        cur_used = nxt_used
        nxt_used = swap_used
        n_cur = n_next
    best = 0
    for s in range(1, n_cur):
        if _better(&cur[s], &cur[best]):
            best = s
    count = 0
    node = cur[best].chosen
    while node != -1:
        count += 1
        node = w.node_prev[node]
    w.n_chosen = count
    node = cur[best].chosen
    while node != -1:
        count -= 1
        w.chosen[count] = w.node_match[node]
        node = w.node_prev[node]
    return 0


cdef void _write_row(Work* w, double[:, ::1] out, i64 p, const signed char[::1] hyp_function,
                     i64 h0, i64 nh, const signed char[::1] ref_function, i64 r0, i64 nr,
                     int n_modules) noexcept nogil:
    """aligner.counted_alignment and scorer.statistics_row for the chosen matches."""
    cdef i64 c, q, m, base
    cdef i64 chunks = 0, last_end = -1, next_reference = 0
    cdef i64 hyp_fn = 0, ref_fn = 0, matched_h = 0, matched_r = 0
    for q in range(out.shape[1]):
        out[p, q] = 0.0
    for q in range(nh):
        hyp_fn += hyp_function[h0 + q]
    for q in range(nr):
        ref_fn += ref_function[r0 + q]
    for c in range(w.n_chosen):
        m = w.chosen[c]
        base = N_FIXED + PER_MODULE * w.m_module[m]
        for q in range(w.m_mstart[m], w.m_mstart[m] + w.m_mlen[m]):
            out[p, base + (2 if hyp_function[h0 + q] else 0)] += 1.0
        for q in range(w.m_start[m], w.m_start[m] + w.m_len[m]):
            out[p, base + (3 if ref_function[r0 + q] else 1)] += 1.0
        matched_h += w.m_mlen[m]
        matched_r += w.m_len[m]
        if last_end != -1 and (w.m_start[m] != next_reference or w.m_mstart[m] != last_end):
            chunks += 1
        next_reference = w.m_start[m] + w.m_len[m]
        last_end = w.m_mstart[m] + w.m_mlen[m]
    if last_end != -1:
        chunks += 1
    out[p, 0] = <double>nh
    out[p, 1] = <double>nr
    out[p, 2] = <double>hyp_fn
    out[p, 3] = <double>ref_fn
    if matched_h == nh and matched_r == nr and chunks == 1:
        chunks = 0  # a whole match in one chunk adds nothing to a sum (scorer.statistics_row)
    out[p, N_FIXED + PER_MODULE * n_modules] = <double>chunks


def pair_statistics(  # long: one loop over pairs calling the steps above
    const int[::1] hyp_keys,
    const int[::1] hyp_stems,
    const signed char[::1] hyp_function,
    const i64[::1] hyp_offsets,
    const int[::1] ref_keys,
    const int[::1] ref_stems,
    const signed char[::1] ref_function,
    const i64[::1] ref_offsets,
    const int[::1] hyp_rows,
    const int[::1] ref_rows,
    const i64[::1] synset_offsets,
    const int[::1] synset_ids,
    const int[::1] module_kinds,
    const i64[::1] given_offsets,
    const int[:, ::1] given,
    const double[::1] search_weights,
    int beam_size,
    i64 max_matches,
    i64 max_words,
    signed char[::1] left_out,
):
    """(n_pairs, n_stats) float64 statistics rows, each as scorer.statistics_row gives it for
    aligner.align's alignment of the pair; NaN rows for the pairs left out (``left_out``, which
    this sets for the pairs over ``max_words`` or ``max_matches``). ``hyp_rows``, ``ref_rows``
    and the synset arrays are read by a SYNONYM module only (rows within ``synset_offsets``)."""
    cdef i64 n_pairs = hyp_offsets.shape[0] - 1, p, h0, nh, r0, nr, c, total = 0, k, first
    cdef int n_modules = module_kinds.shape[0]
    out_array = np.zeros((n_pairs, N_FIXED + PER_MODULE * n_modules + 1), dtype=np.float64)
    cdef double[:, ::1] out = out_array
    cdef Work w
    cdef Synsets synsets
    check_synsets(hyp_rows, ref_rows, hyp_keys.shape[0], ref_keys.shape[0], synset_offsets,
                  synset_ids, module_kinds)
    synsets.hyp_rows = &hyp_rows[0] if hyp_rows.shape[0] else NULL
    synsets.ref_rows = &ref_rows[0] if ref_rows.shape[0] else NULL
    synsets.offsets = &synset_offsets[0] if synset_offsets.shape[0] else NULL
    synsets.ids = &synset_ids[0] if synset_ids.shape[0] else NULL
    memset(&w, 0, sizeof(Work))
    w.max_matches = max_matches
    try:
        for first in range(0, n_pairs, 1024):
            PyErr_CheckSignals()  # Ctrl+C between chunks; the pairs run without the lock
            with nogil:
                for p in range(first, min(first + 1024, n_pairs)):
                    h0, r0 = hyp_offsets[p], ref_offsets[p]
                    nh, nr = hyp_offsets[p + 1] - h0, ref_offsets[p + 1] - r0
                    if left_out[p] or nh > max_words or nr > max_words:
                        left_out[p] = 1
                    else:
                        _reserve_words(&w, max(nh, nr) + 1)
                        left_out[p] = _generate(&w, p, hyp_keys, hyp_stems, h0, nh, ref_keys,
                                                ref_stems, r0, nr, module_kinds, given_offsets,
                                                given, &synsets)
                    if left_out[p]:
                        for k in range(out.shape[1]):
                            out[p, k] = NAN
                        continue
                    _index_matches(&w, nh, nr)
                    total = 0
                    for k in range(nr):
                        total += w.fixed_at[k] >= 0
                    if total == w.n_matches:  # nothing left to search: the fixed matches by start
                        w.n_chosen = 0
                        for k in range(nr):
                            if w.fixed_at[k] >= 0:
                                w.chosen[w.n_chosen] = w.fixed_at[k]
                                w.n_chosen += 1
                    else:
                        _beam_search(&w, nh, nr, search_weights, beam_size)
                    _write_row(&w, out, p, hyp_function, h0, nh, ref_function, r0, nr, n_modules)
    finally:
        _free_all(&w)
    return out_array


cdef int check_synsets(const int[::1] hyp_rows, const int[::1] ref_rows, i64 n_hyp, i64 n_ref,
                       const i64[::1] offsets, const int[::1] ids,
                       const int[::1] module_kinds) except -1:
    """With a SYNONYM module, a row for every token, each within the offsets, and offsets that
    never decrease within the ids (ValueError if not): the loops read them unchecked."""
    cdef i64 k
    cdef i64 n_rows = offsets.shape[0] - 1
    cdef bint used = False
    for k in range(module_kinds.shape[0]):
        used = used or module_kinds[k] == _SYNONYM
    if not used:
        return 0
    if hyp_rows.shape[0] != n_hyp or ref_rows.shape[0] != n_ref or n_rows < 0:
        raise ValueError("a synonym module needs a word row for every token")
    if offsets[0] != 0 or offsets[n_rows] != ids.shape[0]:
        raise ValueError("synset offsets do not span the synset ids")
    for k in range(n_rows):
        if offsets[k + 1] < offsets[k]:
            raise ValueError("synset offsets decrease")
    for k in range(n_hyp):
        if not 0 <= hyp_rows[k] < n_rows:
            raise ValueError("a hypothesis word row is outside the synset table")
    for k in range(n_ref):
        if not 0 <= ref_rows[k] < n_rows:
            raise ValueError("a reference word row is outside the synset table")
    return 0


cdef void _free_all(Work* w) noexcept nogil:
    free(w.m_start); free(w.m_len); free(w.m_mstart); free(w.m_mlen); free(w.m_module)
    free(w.by_start); free(w.first); free(w.hyp_cov); free(w.ref_cov); free(w.fixed_at)
    free(w.paths_a); free(w.paths_b); free(w.used_a); free(w.used_b); free(w.order)
    free(w.order_tmp); free(w.node_match); free(w.node_prev); free(w.chosen)
