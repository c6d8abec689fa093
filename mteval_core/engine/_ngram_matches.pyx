# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""A system's clipped n-gram matches, segment by segment, in one compiled pass.

The same statistics as ``EncodedCorpus._block_matches`` in ``engine/ngrams.py`` (its fallback),
from the same reference index, with the same numbers bit for bit: per segment and order, the
matches clipped by the references' largest counts, the sum of their NIST information, and
per reference the unigram matches. numpy's pass builds arrays of every n-gram of a block (keys,
lookups, sorts); here each segment's n-grams stay in two small buffers, and the loop runs
without the interpreter lock, so ranges of segments run on every core at once.

How a float sum is kept equal: numpy adds a segment's (matches x weight) terms in the order of
the n-gram ids (its keys are sorted); here a segment's n-gram ids are sorted and added in that
order too, one product and one addition at a time (compiled with -ffp-contract=off).
"""

from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc, qsort

import numpy as np

cdef int64_t KEY_BASE = 1LL << 32  # as ngrams._KEY_BASE: (prefix + 1) * base + token


cdef int _ascending(const void* a, const void* b) noexcept nogil:
    cdef int32_t x = (<const int32_t*>a)[0]
    cdef int32_t y = (<const int32_t*>b)[0]
    return (x > y) - (x < y)


cdef inline void _sort(int32_t* values, Py_ssize_t n) noexcept nogil:
    """Ascending; insertion sort for a segment's usual few dozen n-grams, qsort beyond."""
    cdef Py_ssize_t i, j
    cdef int32_t value
    if n > 32:
        qsort(values, n, sizeof(int32_t), _ascending)
        return
    for i in range(1, n):
        value = values[i]
        j = i - 1
        while j >= 0 and values[j] > value:
            values[j + 1] = values[j]
            j -= 1
        values[j + 1] = value


cdef struct Dictionary:
    # One order's reference n-grams as an open-addressing hash table (linear probing, at most
    # half full): slot h holds a key and its id (its index in the sorted dictionary), -1 when
    # empty. Hashed with a salt drawn per corpus, so that no text can be written to make its
    # n-grams collide (each lookup would then walk the whole table).
    const int64_t* keys
    const int32_t* ids
    uint64_t mask
    uint64_t salt


cdef inline uint64_t _slot(uint64_t key, uint64_t salt, uint64_t mask) noexcept nogil:
    """Multiplicative hashing of the salted key; the high bits are the best mixed."""
    cdef uint64_t mixed = (key ^ salt) * 0x9E3779B97F4A7C15ULL
    return (mixed ^ (mixed >> 29)) & mask


cdef inline int32_t _find(Dictionary dictionary, int64_t key) noexcept nogil:
    """The id of ``key``, -1 if it is not a reference n-gram."""
    cdef uint64_t slot = _slot(<uint64_t>key, dictionary.salt, dictionary.mask)
    while dictionary.ids[slot] >= 0:
        if dictionary.keys[slot] == key:
            return dictionary.ids[slot]
        slot = (slot + 1) & dictionary.mask
    return -1


def hash_table(const int64_t[::1] keys, uint64_t salt) -> tuple:
    """The (keys, ids) slots of ``keys``' hash table (see ``Dictionary``): a power of two at
    least twice as many slots as keys."""
    cdef Py_ssize_t size = 2, i
    while size < 2 * keys.shape[0]:
        size *= 2
    slot_keys = np.zeros(size, np.int64)
    slot_ids = np.full(size, -1, np.int32)
    cdef int64_t[::1] key_view = slot_keys
    cdef int32_t[::1] id_view = slot_ids
    cdef uint64_t mask = size - 1, slot
    with nogil:
        for i in range(keys.shape[0]):
            slot = _slot(<uint64_t>keys[i], salt, mask)
            while id_view[slot] >= 0:
                slot = (slot + 1) & mask
            key_view[slot] = keys[i]
            id_view[slot] = <int32_t>i
    return slot_keys, slot_ids


cdef struct Table:
    # One reference table of one order (ngrams._ReferenceCounts): segment s has the ids
    # ids[offsets[s]:offsets[s + 1]] (sorted) with their counts, one byte each (small_counts)
    # unless a segment repeats an n-gram 256 times (counts, int32; the other one is NULL).
    const int32_t* ids
    const uint8_t* small_counts
    const int32_t* counts
    const int64_t* offsets


cdef inline int32_t _count_in(Table table, Py_ssize_t segment, int32_t gid,
                              Py_ssize_t* cursor) noexcept nogil:
    """The table's count of ``gid`` in ``segment`` (0 if absent). The gids a segment asks for
    come in ascending order, so ``cursor`` walks the segment's sorted ids once."""
    cdef Py_ssize_t end = table.offsets[segment + 1]
    while cursor[0] < end and table.ids[cursor[0]] < gid:
        cursor[0] += 1
    if cursor[0] < end and table.ids[cursor[0]] == gid:
        return table.small_counts[cursor[0]] if table.small_counts else table.counts[cursor[0]]
    return 0


cdef Table _table(tuple arrays) except *:
    """An (ids, counts, offsets) table as pointers (counts uint8 or int32); the caller keeps the
    arrays alive."""
    cdef const int32_t[::1] id_view = arrays[0]
    cdef const int64_t[::1] offset_view = arrays[2]
    cdef const uint8_t[::1] small_view
    cdef const int32_t[::1] count_view
    cdef Table table
    table.ids = &id_view[0] if id_view.shape[0] else NULL
    table.offsets = &offset_view[0]
    table.small_counts = NULL
    table.counts = NULL
    if arrays[1].dtype.itemsize == 1:
        small_view = arrays[1]
        table.small_counts = &small_view[0] if small_view.shape[0] else NULL
    else:
        count_view = arrays[1]
        table.counts = &count_view[0] if count_view.shape[0] else NULL
    return table


def segment_matches(
    const int32_t[::1] ids,
    const int64_t[::1] offsets,
    Py_ssize_t first,
    Py_ssize_t last,
    list dictionaries,
    uint64_t salt,
    list largest,
    list weights,
    list unigram_tables,
    double[:, ::1] clipped,
    double[:, ::1] information,
    double[:, ::1] unigrams,
) -> None:
    """Fill columns [first, last) of ``clipped``, ``information`` (max order x segments) and
    ``unigrams`` (references x segments) for a system's segments first .. last - 1.

    ``ids`` and ``offsets`` are the system's token stream (``TokenStream``); per order n (index
    n - 1): ``dictionaries`` the ``hash_table`` of the reference n-grams (hashed with ``salt``),
    ``largest`` the (ids, counts, offsets) of the references' largest counts per segment,
    ``weights`` the NIST weight of each dictionary n-gram; ``unigram_tables`` the (ids, counts,
    offsets) of each reference's own unigram counts. Ids are int32, counts uint8 or int32,
    offsets int64."""
    cdef Py_ssize_t max_order = len(dictionaries)
    cdef Py_ssize_t n_references = len(unigram_tables)
    cdef Py_ssize_t longest = 0, segment, k
    for segment in range(first, last):
        longest = max(longest, offsets[segment + 1] - offsets[segment])

    cdef Dictionary* keys = <Dictionary*>malloc(max_order * sizeof(Dictionary))
    cdef const double** weight = <const double**>malloc(max_order * sizeof(double*))
    cdef Table* tables = <Table*>malloc(max_order * sizeof(Table))
    cdef Table* unigram = <Table*>malloc((n_references + 1) * sizeof(Table))
    cdef Py_ssize_t* cursors = <Py_ssize_t*>malloc((n_references + 1) * sizeof(Py_ssize_t))
    cdef int32_t* prefix = <int32_t*>malloc((longest + 1) * sizeof(int32_t))
    cdef int32_t* known = <int32_t*>malloc((longest + 1) * sizeof(int32_t))
    cdef const int64_t[::1] key_view
    cdef const int32_t[::1] id_view
    cdef const double[::1] weight_view
    try:
        if not (keys and weight and tables and unigram and cursors and prefix
                and known):
            raise MemoryError()
        for k in range(max_order):
            key_view = dictionaries[k][0]
            id_view = dictionaries[k][1]
            keys[k].keys = &key_view[0]
            keys[k].ids = &id_view[0]
            keys[k].mask = key_view.shape[0] - 1
            keys[k].salt = salt
            weight_view = weights[k]
            weight[k] = &weight_view[0] if weight_view.shape[0] else NULL
            tables[k] = _table(largest[k])
        for k in range(n_references):
            unigram[k] = _table(unigram_tables[k])
        with nogil:
            for segment in range(first, last):
                _segment(&ids[0] if ids.shape[0] else NULL, offsets[segment],
                         offsets[segment + 1] - offsets[segment], segment, max_order, keys,
                         weight, tables, unigram, n_references, cursors, prefix, known,
                         clipped, information, unigrams)
    finally:
        free(keys)
        free(weight)
        free(tables)
        free(unigram)
        free(cursors)
        free(prefix)
        free(known)


cdef void _segment(
    const int32_t* ids, int64_t start, int64_t length, Py_ssize_t segment,
    Py_ssize_t max_order, Dictionary* keys, const double** weight,
    Table* tables, Table* unigram, Py_ssize_t n_references, Py_ssize_t* cursors,
    int32_t* prefix, int32_t* known,
    double[:, ::1] clipped, double[:, ::1] information, double[:, ::1] unigrams,
) noexcept nogil:
    """One segment, every order: each n-gram's id from its prefix's (ngrams.py's keying), the
    known ids sorted, then each distinct id's count clipped by the references'."""
    cdef Py_ssize_t n, t, i, j, r, n_known
    cdef int32_t gid, count, reference_count, matched
    cdef double clipped_sum, information_sum, product
    cdef int64_t key
    for n in range(1, max_order + 1):
        n_known = 0
        for t in range(length - n + 1):  # the n-gram starting at token t
            if n == 1:
                gid = _find(keys[0], ids[start + t])
            elif prefix[t] < 0:  # an unknown prefix: not in the references either
                gid = -1
            else:
                key = (<int64_t>prefix[t] + 1) * KEY_BASE + ids[start + t + n - 1]
                gid = _find(keys[n - 1], key)
            prefix[t] = gid  # the order n + 1 n-gram at t reads it; nothing reads it again
            if gid >= 0:
                known[n_known] = gid
                n_known += 1
        _sort(known, n_known)
        clipped_sum = 0.0
        information_sum = 0.0
        cursors[0] = tables[n - 1].offsets[segment]
        for r in range(n_references):
            cursors[r + 1] = unigram[r].offsets[segment]
        i = 0
        while i < n_known:
            gid = known[i]
            j = i
            while j < n_known and known[j] == gid:
                j += 1
            count = <int32_t>(j - i)
            reference_count = _count_in(tables[n - 1], segment, gid, &cursors[0])
            matched = count if count < reference_count else reference_count
            clipped_sum += matched
            product = matched * weight[n - 1][gid]
            information_sum += product
            if n == 1:
                for r in range(n_references):
                    reference_count = _count_in(unigram[r], segment, gid, &cursors[r + 1])
                    unigrams[r, segment] += count if count < reference_count else reference_count
            i = j
        clipped[n - 1, segment] = clipped_sum
        information[n - 1, segment] = information_sum
