# The pieces chrF's and TER's compiled statistics share (_chrf_counts.pyx, _ter_edits.pyx):
# Python's whitespace, the 64-bit finaliser, a word's hash and its first slot, the full
# comparison of two words on equal hashes, the stamped hash table that gives words their ids, and
# the check of the input's offsets. Inline functions in a .pxd are compiled into each module that
# cimports them: one definition, no call across modules, no module of its own.

from libc.stdlib cimport free, malloc
from libc.string cimport memset

ctypedef unsigned int u32
ctypedef unsigned long long u64
ctypedef long long i64


cdef inline bint is_space(u32 c) noexcept nogil:
    """Python's whitespace (``str.isspace``, what ``str.split()`` splits on; a test checks every
    code point)."""
    if c < 128:
        return c == 32 or (9 <= c <= 13) or (28 <= c <= 31)
    return (c == 0x85 or c == 0xA0 or c == 0x1680 or (0x2000 <= c <= 0x200A) or c == 0x2028
            or c == 0x2029 or c == 0x202F or c == 0x205F or c == 0x3000)


cdef inline u64 mix(u64 x) noexcept nogil:
    """A 64-bit finaliser (splitmix64): spreads keys over a table's slots."""
    x ^= x >> 30
    x *= <u64>0xBF58476D1CE4E5B9
    x ^= x >> 27
    x *= <u64>0x94D049BB133111EB
    x ^= x >> 31
    return x


cdef inline u64 word_hash(const u32 *text, i64 start, i64 length, u64 seed) noexcept nogil:
    """A word's (a run of code points') key: FNV-1a over its code points from a per-call random
    seed, then the finaliser with its length. Keys only find slots: equal keys are compared in
    full (same_text), so ids stay exact whatever collides."""
    cdef u64 h = <u64> 1469598103934665603 ^ seed
    cdef i64 k
    for k in range(length):
        h = (h ^ text[start + k]) * <u64> 1099511628211
    return mix(h ^ <u64> length)


cdef inline i64 first_slot(u64 key, u64 seed, int shift) noexcept nogil:
    """A key's first slot in a table of 2^(64 - shift) slots: the key mixed with the table's
    secret seed, then Fibonacci hashing, whose high bits are the well-spread ones (x * 2^64 /
    golden ratio, shifted down). Keyed, so an upload cannot be crafted to pile its words into one
    run of slots (hash flooding)."""
    return <i64> ((mix(key ^ seed) * <u64> 0x9E3779B97F4A7C15) >> shift)


cdef inline bint same_text(const u32 *text, i64 a, i64 a_len, i64 b, i64 b_len) noexcept nogil:
    """Whether the runs of code points at ``a`` and ``b`` are equal."""
    cdef i64 k
    if a_len != b_len:
        return False
    for k in range(a_len):
        if text[a + k] != text[b + k]:
            return False
    return True


cdef struct SlotTable:
    # Dense ids of keys (code points, words): open addressing with linear probing over keyed
    # slots (first_slot). A slot is live when its stamp is the current one, so the table is
    # emptied per segment by bumping the stamp, not by clearing it.
    u64 *keys
    int *ids
    u32 *stamps
    i64 capacity  # slots, a power of two
    int shift  # 64 - log2(capacity): first_slot takes the high bits
    u32 stamp
    int n_ids
    u64 seed  # random per call: slots cannot be predicted from the text


cdef inline void table_free(SlotTable *t) noexcept nogil:
    free(t.keys)
    free(t.ids)
    free(t.stamps)
    t.keys = NULL
    t.ids = NULL
    t.stamps = NULL
    t.capacity = 0


cdef inline int table_reserve(SlotTable *t, i64 entries) noexcept nogil:
    """At least twice as many slots as entries (a power of two); 0 on success, -1 out of memory.
    A table that grows comes back empty."""
    cdef i64 capacity = 64
    cdef int shift = 58
    while capacity < 2 * entries:
        capacity *= 2
        shift -= 1
    if capacity <= t.capacity:
        return 0
    table_free(t)
    t.keys = <u64 *> malloc(capacity * sizeof(u64))
    t.ids = <int *> malloc(capacity * sizeof(int))
    t.stamps = <u32 *> malloc(capacity * sizeof(u32))
    t.capacity = capacity
    t.shift = shift
    if t.keys == NULL or t.ids == NULL or t.stamps == NULL:
        return -1
    memset(t.stamps, 0, capacity * sizeof(u32))
    t.stamp = 0
    return 0


cdef inline void table_clear(SlotTable *t) noexcept nogil:
    t.stamp += 1
    t.n_ids = 0
    if t.stamp == 0:  # wrapped around after 2^32 clears: stale stamps could look live
        memset(t.stamps, 0, t.capacity * sizeof(u32))
        t.stamp = 1


cdef inline int text_id(SlotTable *t, const u32 *text, i64 start, i64 length,
                        i64 *first_start, i64 *first_len, bint insert) noexcept nogil:
    """The dense id of a word (a run of code points), a new one if it is new and ``insert``,
    else -1: equal hashes are compared in full, against the first occurrence of every id
    (``first_start``/``first_len``, filled here), so ids are equal exactly when words are."""
    cdef u64 h = word_hash(text, start, length, t.seed)
    cdef i64 mask = t.capacity - 1, slot = first_slot(h, t.seed, t.shift)
    cdef int found
    while t.stamps[slot] == t.stamp:
        if t.keys[slot] == h:
            found = t.ids[slot]
            if same_text(text, first_start[found], first_len[found], start, length):
                return found
        slot = (slot + 1) & mask
    if not insert:
        return -1
    t.stamps[slot] = t.stamp
    t.keys[slot] = h
    t.ids[slot] = t.n_ids
    first_start[t.n_ids] = start
    first_len[t.n_ids] = length
    t.n_ids += 1
    return t.ids[slot]


cdef inline int check_offsets(const i64[::1] offsets, i64 text_length) except -1:
    """The offsets start at 0, end at the text's end and never decrease (ValueError if not):
    the compiled loops read the text between them unchecked."""
    cdef i64 i
    if offsets[0] != 0 or offsets[offsets.shape[0] - 1] != text_length:
        raise ValueError("offsets do not span the text")
    for i in range(offsets.shape[0] - 1):
        if offsets[i + 1] < offsets[i]:
            raise ValueError("offsets decrease")
    return 0
