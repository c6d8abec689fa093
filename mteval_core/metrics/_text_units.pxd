# The pieces chrF's and TER's compiled statistics share (_chrf_counts.pyx, _ter_edits.pyx):
# Python's whitespace, the 64-bit finaliser, a word's hash and its first slot, and the full
# comparison of two words on equal hashes. Inline functions in a .pxd are compiled into each
# module that cimports them: one definition, no call across modules, no module of its own.

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
