# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Tokenization and token ids in one compiled pass; ``mteval_core/text/__init__.py`` is the
reference it must equal, token for token, and the fallback without a C compiler.

The 13a, intl and zh tokenizers are a few regular-expression substitutions run one after
another. Each substitution here is one scan over a buffer of code points that makes the same
decisions as the regular expression engine: a pattern of two characters, tried left to right,
where a match consumes both characters (so ``a.,b`` matches ``a.`` and never ``.,``). Which
characters are punctuation, digits or symbols comes from a table built by the caller
(``character_classes``). char makes every character that is not whitespace a token; MeCab's and
SentencePiece's output (spaced out in Python) is only split here, to get its ids.

Splitting is str.split()'s (Unicode whitespace, Py_UNICODE_ISSPACE) or GTM's (five ASCII
separators after trimming characters <= U+0020). With a ``TokenIds`` table each token becomes its
id without becoming a Python string; a token seen for the first time is handed to the table's
``add`` function, in first-seen order, so the ids are those the Python path gives.
"""

import os

import numpy as np

from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcmp, memcpy

cdef extern from "Python.h":
    object PyUnicode_FromKindAndData(int kind, const void *buffer, Py_ssize_t size)
    bint Py_UNICODE_ISSPACE(Py_UCS4 ch)

ctypedef long long i64
ctypedef unsigned long long u64
ctypedef int i32  # a token id: the vocabulary stays far below 2^31 words

# Scheme of a call (which rules run, in which order) and the bits of the class table
# (character_classes.py builds the tables with the same bits).
cdef enum:
    WHITESPACE = 0  # GTM 1.4 / METEOR: split only
    RULES_13A = 1  # space out the punctuation set, then A, B and the digit-dash rule
    RULES_INTL = 2  # A and B over Unicode punctuation and numbers, then space out symbols
    RULES_ZH = 3  # 13a's rules without its padding, Chinese characters spaced out with the rest
    CHARACTERS = 4  # every character that is not whitespace is a token (sacreBLEU's char)
    SPLIT = 5  # str.split() only: lines a tokenizer outside this module has already spaced out
    SPACED = 1  # put spaces around: 13a's punctuation set, intl's \p{S}
    SEPARATOR = 2  # split off unless next to a number: 13a's "." and ",", intl's \p{P}
    NUMBER = 4  # 13a's [0-9], intl's \p{N}


cdef struct Buffer:
    Py_UCS4 *data
    Py_ssize_t size
    Py_ssize_t capacity


cdef int reserve(Buffer *buffer, Py_ssize_t size) except -1:
    cdef Py_UCS4 *grown
    if size > buffer.capacity:
        grown = <Py_UCS4 *> realloc(buffer.data, size * sizeof(Py_UCS4))
        if grown == NULL:
            raise MemoryError("no memory to tokenize a segment")
        buffer.data = grown
        buffer.capacity = size
    return 0


cdef class _Classes:
    """The class table as a pointer and a length; code points past the end have no class."""
    cdef const unsigned char[::1] table
    cdef Py_ssize_t length

    def __init__(self, const unsigned char[::1] table):
        self.table = table
        self.length = table.shape[0]

    cdef inline bint has(self, Py_UCS4 c, unsigned char bit) noexcept:
        return c < self.length and (self.table[c] & bit) != 0


cdef int space_out(Buffer *source, Buffer *target, _Classes classes) except -1:
    """(c) -> " c " for every SPACED character."""
    cdef Py_ssize_t i, j = 0
    cdef Py_UCS4 c
    reserve(target, 3 * source.size)
    for i in range(source.size):
        c = source.data[i]
        if classes.has(c, SPACED):
            target.data[j] = 32
            target.data[j + 1] = c
            target.data[j + 2] = 32
            j += 3
        else:
            target.data[j] = c
            j += 1
    target.size = j
    return 0


cdef int rule_a(Buffer *source, Buffer *target, _Classes classes) except -1:
    """([^NUMBER])([SEPARATOR]) -> "\\1 \\2 "."""
    cdef Py_ssize_t i = 0, j = 0, n = source.size
    cdef Py_UCS4 c, d
    reserve(target, 2 * n)
    while i < n:
        c = source.data[i]
        if i + 1 < n and not classes.has(c, NUMBER) and classes.has(source.data[i + 1], SEPARATOR):
            d = source.data[i + 1]
            target.data[j] = c
            target.data[j + 1] = 32
            target.data[j + 2] = d
            target.data[j + 3] = 32
            j += 4
            i += 2
        else:
            target.data[j] = c
            j += 1
            i += 1
    target.size = j
    return 0


cdef int rule_b(Buffer *source, Buffer *target, _Classes classes) except -1:
    """([SEPARATOR])([^NUMBER]) -> " \\1 \\2"."""
    cdef Py_ssize_t i = 0, j = 0, n = source.size
    cdef Py_UCS4 c, d
    reserve(target, 2 * n)
    while i < n:
        c = source.data[i]
        if i + 1 < n and classes.has(c, SEPARATOR) and not classes.has(source.data[i + 1], NUMBER):
            d = source.data[i + 1]
            target.data[j] = 32
            target.data[j + 1] = c
            target.data[j + 2] = 32
            target.data[j + 3] = d
            j += 4
            i += 2
        else:
            target.data[j] = c
            j += 1
            i += 1
    target.size = j
    return 0


cdef int digit_dash(Buffer *source, Buffer *target) except -1:
    """([0-9])(-) -> "\\1 \\2 " (13a only)."""
    cdef Py_ssize_t i = 0, j = 0, n = source.size
    cdef Py_UCS4 c
    reserve(target, 2 * n)
    while i < n:
        c = source.data[i]
        if i + 1 < n and 48 <= c <= 57 and source.data[i + 1] == 45:
            target.data[j] = c
            target.data[j + 1] = 32
            target.data[j + 2] = 45
            target.data[j + 3] = 32
            j += 4
            i += 2
        else:
            target.data[j] = c
            j += 1
            i += 1
    target.size = j
    return 0


cdef int load(str line, Buffer *buffer, bint pad) except -1:
    """The line's code points, with a space on each side when ``pad`` (13a's f" {line} ")."""
    cdef Py_ssize_t j = 1 if pad else 0
    cdef Py_UCS4 c
    reserve(buffer, len(line) + 2)
    if pad:
        buffer.data[0] = 32
    for c in line:
        buffer.data[j] = c
        j += 1
    if pad:
        buffer.data[j] = 32
        j += 1
    buffer.size = j
    return 0


cdef inline bint is_gtm_separator(Py_UCS4 c) noexcept:
    return c == 32 or c == 9 or c == 10 or c == 13 or c == 12


cdef struct Slot:
    u64 hash
    Py_ssize_t start  # of the token's code points in the arena
    Py_ssize_t length
    i64 id  # -1: an empty slot


# ---------------------------------------------------------------- SipHash-1-3, keyed per table
# The table's hash must be keyed with a secret: with a hash anyone can compute (FNV-1a, before
# issue 26), one upload of tokens crafted to share a slot made every lookup walk one long probe
# chain, quadratic time with the interpreter lock held. SipHash-1-3 is CPython's hash of str and
# bytes; here it runs over the token's code points as UTF-32-LE, two code points a 64-bit word.
cdef inline u64 rotl(u64 x, int b) noexcept nogil:
    return (x << b) | (x >> (64 - b))


cdef struct Sip:
    u64 v0, v1, v2, v3


cdef inline void sip_round(Sip *s) noexcept nogil:
    s.v0 += s.v1
    s.v1 = rotl(s.v1, 13) ^ s.v0
    s.v0 = rotl(s.v0, 32)
    s.v2 += s.v3
    s.v3 = rotl(s.v3, 16) ^ s.v2
    s.v0 += s.v3
    s.v3 = rotl(s.v3, 21) ^ s.v0
    s.v2 += s.v1
    s.v1 = rotl(s.v1, 17) ^ s.v2
    s.v2 = rotl(s.v2, 32)


cdef inline void sip_word(Sip *s, u64 word) noexcept nogil:
    s.v3 ^= word
    sip_round(s)  # one compression round: SipHash-1-3
    s.v0 ^= word


cdef inline u64 siphash13(u64 k0, u64 k1, const Py_UCS4 *chars, Py_ssize_t n) noexcept nogil:
    """SipHash-1-3 of the n code points' UTF-32-LE bytes under the key (k0, k1)."""
    cdef Sip s
    cdef Py_ssize_t i
    cdef u64 last = (<u64> (4 * n)) << 56  # the length in bytes, modulo 256, in the top byte
    s.v0 = k0 ^ 0x736F6D6570736575ULL
    s.v1 = k1 ^ 0x646F72616E646F6DULL
    s.v2 = k0 ^ 0x6C7967656E657261ULL
    s.v3 = k1 ^ 0x7465646279746573ULL
    for i in range(0, n - 1, 2):
        sip_word(&s, <u64> chars[i] | (<u64> chars[i + 1]) << 32)
    if n & 1:
        last |= <u64> chars[n - 1]
    sip_word(&s, last)
    s.v2 ^= 0xFF
    sip_round(&s)  # three finalization rounds
    sip_round(&s)
    sip_round(&s)
    return s.v0 ^ s.v1 ^ s.v2 ^ s.v3


# With a random key, chains at load <= 1/2 stay a few dozen slots even for millions of tokens; a
# lookup that walks past this many means the key is no longer secret (or was given, in tests):
# the table then draws a fresh key and rehashes, once per such lookup, never a quadratic walk.
PROBE_LIMIT = 128
cdef Py_ssize_t _PROBE_LIMIT = PROBE_LIMIT


cdef class TokenIds:
    """Token -> id without making a Python string per token: an open-addressing table over the
    code points of the tokens seen so far. A token it has not seen goes, as a string, to ``add``,
    which decides its id (``Vocabulary`` stems it); the table then remembers the answer.

    The hash is keyed with 128 random bits per table (``key`` fixes them, for tests only);
    ``longest_probe`` (the most slots one lookup has examined) and ``rekeys`` (fresh keys drawn
    after a lookup walked past PROBE_LIMIT slots) show how well it resists flooding."""
    cdef Slot *slots
    cdef Py_ssize_t n_slots, n_used
    cdef Py_UCS4 *arena
    cdef Py_ssize_t arena_size, arena_capacity
    cdef object add
    cdef u64 k0, k1
    cdef readonly Py_ssize_t longest_probe, rekeys

    def __cinit__(self, add, bytes key=None):
        self.add = add
        self.n_slots = 0
        self.n_used = 0
        self.slots = NULL
        self.arena = NULL
        self.arena_size = 0
        self.arena_capacity = 0
        self.longest_probe = 0
        self.rekeys = 0
        self.set_key(os.urandom(16) if key is None else key)
        self.rebuild(1 << 12)

    def __dealloc__(self):
        free(self.slots)
        free(self.arena)

    def __len__(self):
        return self.n_used

    def hash_of(self, str token):
        """The table's hash of a token under its current key (for tests)."""
        cdef Buffer buffer
        buffer.data = NULL
        buffer.capacity = 0
        try:
            load(token, &buffer, False)
            return siphash13(self.k0, self.k1, buffer.data, buffer.size)
        finally:
            free(buffer.data)

    cdef int set_key(self, bytes key) except -1:
        if len(key) != 16:
            raise ValueError("the token table's key is 16 bytes")
        self.k0 = int.from_bytes(key[:8], "little")
        self.k1 = int.from_bytes(key[8:], "little")
        return 0

    cdef i64 id_of(self, const Py_UCS4 *chars, Py_ssize_t n) except -2:
        cdef u64 h = siphash13(self.k0, self.k1, chars, n)
        cdef Py_ssize_t mask = self.n_slots - 1, i = <Py_ssize_t> (h & <u64> mask), probes = 1
        cdef Slot *slot
        cdef i64 id
        while self.slots[i].id != -1:
            slot = &self.slots[i]
            if (slot.hash == h and slot.length == n
                    and memcmp(self.arena + slot.start, chars, n * sizeof(Py_UCS4)) == 0):
                self.longest_probe = max(self.longest_probe, probes)
                return slot.id
            i = (i + 1) & mask
            probes += 1
        self.longest_probe = max(self.longest_probe, probes)
        id = <i64> self.add(PyUnicode_FromKindAndData(4, chars, n))
        if probes > _PROBE_LIMIT:
            self.set_key(os.urandom(16))
            self.rekeys += 1
            self.rebuild(self.n_slots)
        return self.remember(chars, n, id)

    cdef i64 remember(self, const Py_UCS4 *chars, Py_ssize_t n, i64 id) except -2:
        cdef Py_UCS4 *grown
        if id < 0:
            raise ValueError("token ids must be >= 0")
        if self.arena_size + n > self.arena_capacity:
            self.arena_capacity = 2 * (self.arena_capacity + n) + 4096
            grown = <Py_UCS4 *> realloc(self.arena, self.arena_capacity * sizeof(Py_UCS4))
            if grown == NULL:
                raise MemoryError("no memory for the token table")
            self.arena = grown
        memcpy(self.arena + self.arena_size, chars, n * sizeof(Py_UCS4))
        if 2 * (self.n_used + 1) > self.n_slots:
            self.rebuild(2 * self.n_slots)
        self.place(siphash13(self.k0, self.k1, chars, n), self.arena_size, n, id)
        self.arena_size += n
        self.n_used += 1
        return id

    cdef void place(self, u64 h, Py_ssize_t start, Py_ssize_t length, i64 id) noexcept:
        """Put a token in the first empty slot from its hash's (the table has room)."""
        cdef Py_ssize_t mask = self.n_slots - 1, i = <Py_ssize_t> (h & <u64> mask)
        while self.slots[i].id != -1:
            i = (i + 1) & mask
        self.slots[i].hash = h
        self.slots[i].start = start
        self.slots[i].length = length
        self.slots[i].id = id

    cdef int rebuild(self, Py_ssize_t n_slots) except -1:
        """``n_slots`` empty slots, then every token back in, hashed under the current key."""
        cdef Slot *old = self.slots
        cdef Py_ssize_t old_n = self.n_slots, k
        cdef Slot *fresh = <Slot *> malloc(n_slots * sizeof(Slot))
        if fresh == NULL:
            raise MemoryError("no memory for the token table")
        self.slots = fresh
        self.n_slots = n_slots
        for k in range(n_slots):
            fresh[k].id = -1
        for k in range(old_n):
            if old[k].id != -1:
                self.place(
                    siphash13(self.k0, self.k1, self.arena + old[k].start, old[k].length),
                    old[k].start, old[k].length, old[k].id,
                )
        free(old)
        return 0


cdef class _Output:
    """Where the tokens of a line go: ids appended to a growing array, or strings to a list."""
    cdef TokenIds table  # None: strings
    cdef list strings  # tokens of the current line
    cdef i32 *ids
    cdef Py_ssize_t n_ids, capacity

    def __cinit__(self):
        self.ids = NULL
        self.n_ids = 0
        self.capacity = 0

    def __dealloc__(self):
        free(self.ids)

    cdef int token(self, Buffer *buffer, Py_ssize_t start, Py_ssize_t stop) except -1:
        cdef i32 *grown
        cdef i64 id
        if self.table is None:
            self.strings.append(PyUnicode_FromKindAndData(4, buffer.data + start, stop - start))
            return 0
        if self.n_ids == self.capacity:
            self.capacity = 2 * self.capacity + 1024
            grown = <i32 *> realloc(self.ids, self.capacity * sizeof(i32))
            if grown == NULL:
                raise MemoryError("no memory for token ids")
            self.ids = grown
        id = self.table.id_of(buffer.data + start, stop - start)
        if id > 2147483647:
            raise OverflowError("more than 2^31 distinct tokens")
        self.ids[self.n_ids] = <i32> id
        self.n_ids += 1
        return 0

    def ids_array(self):
        out = np.empty(self.n_ids, dtype=np.int32)
        cdef i32[::1] view = out
        if self.n_ids:
            memcpy(&view[0], self.ids, self.n_ids * sizeof(i32))
        return out


cdef Py_ssize_t split_unicode(Buffer *buffer, _Output output) except -1:
    """str.split(): maximal runs of characters that are not Unicode whitespace."""
    cdef Py_ssize_t i = 0, start, count = 0, n = buffer.size
    while i < n:
        while i < n and Py_UNICODE_ISSPACE(buffer.data[i]):
            i += 1
        start = i
        while i < n and not Py_UNICODE_ISSPACE(buffer.data[i]):
            i += 1
        if i > start:
            output.token(buffer, start, i)
            count += 1
    return count


cdef Py_ssize_t split_gtm(Buffer *buffer, _Output output) except -1:
    """GTM 1.4: trim characters <= U+0020 from both ends, then split on its five separators."""
    cdef Py_ssize_t i = 0, start, count = 0, n = buffer.size
    while n > 0 and buffer.data[n - 1] <= 32:
        n -= 1
    while i < n and buffer.data[i] <= 32:
        i += 1
    while i < n:
        while i < n and is_gtm_separator(buffer.data[i]):
            i += 1
        start = i
        while i < n and not is_gtm_separator(buffer.data[i]):
            i += 1
        if i > start:
            output.token(buffer, start, i)
            count += 1
    return count


cdef Py_ssize_t split_characters(Buffer *buffer, _Output output) except -1:
    """Each code point that is not Unicode whitespace, one token each: sacreBLEU's char joins
    the characters with spaces and BLEU splits that on whitespace again."""
    cdef Py_ssize_t i, count = 0
    for i in range(buffer.size):
        if not Py_UNICODE_ISSPACE(buffer.data[i]):
            output.token(buffer, i, i + 1)
            count += 1
    return count


cdef Py_ssize_t scan_line(
    str line, int scheme, _Classes classes, Buffer *first, Buffer *second, _Output output
) except -1:
    """Tokens of one prepared line, handed to ``output``; returns how many."""
    if scheme == WHITESPACE:
        load(line, first, False)
        return split_gtm(first, output)
    if scheme == RULES_13A:
        load(line, first, True)
        space_out(first, second, classes)
        rule_a(second, first, classes)
        rule_b(first, second, classes)
        digit_dash(second, first)
        return split_unicode(first, output)
    if scheme == RULES_ZH:  # as 13a, without the space on each side (sacreBLEU's zh has none)
        load(line, first, False)
        space_out(first, second, classes)
        rule_a(second, first, classes)
        rule_b(first, second, classes)
        digit_dash(second, first)
        return split_unicode(first, output)
    if scheme == CHARACTERS:
        load(line, first, False)
        return split_characters(first, output)
    if scheme == SPLIT:
        load(line, first, False)
        return split_unicode(first, output)
    load(line, first, False)  # intl
    rule_a(first, second, classes)
    rule_b(second, first, classes)
    space_out(first, second, classes)
    return split_unicode(second, output)


def scan(list lines, int scheme, const unsigned char[::1] table, TokenIds ids=None):
    """Tokenize prepared lines. With ``ids``: (int32 ids of all tokens end to end, int64 token
    count per line). Without: a list of tokens per line."""
    cdef Buffer first, second
    cdef _Classes classes = _Classes(table)
    cdef _Output output = _Output()
    cdef Py_ssize_t k, n = len(lines)
    cdef list token_lists = []
    lengths = np.empty(n, dtype=np.int64)
    cdef i64[::1] counts = lengths
    output.table = ids
    first.data = NULL
    first.capacity = 0
    second.data = NULL
    second.capacity = 0
    try:
        for k in range(n):
            if ids is None:
                output.strings = []
                scan_line(lines[k], scheme, classes, &first, &second, output)
                token_lists.append(output.strings)
            else:
                counts[k] = scan_line(lines[k], scheme, classes, &first, &second, output)
    finally:
        free(first.data)
        free(second.data)
    if ids is None:
        return token_lists
    return output.ids_array(), lengths


def ascii_lower(str line):
    """mteval-v13a's tr/A-Z/a-z/ (other letters keep their case): the same object when there is
    nothing to change."""
    cdef Buffer buffer
    cdef Py_ssize_t i
    cdef Py_UCS4 c
    cdef bint changed = False
    buffer.data = NULL
    buffer.capacity = 0
    try:
        load(line, &buffer, False)
        for i in range(buffer.size):
            c = buffer.data[i]
            if 65 <= c <= 90:
                buffer.data[i] = <Py_UCS4> (<unsigned int> c + 32)
                changed = True
        if not changed:
            return line
        return PyUnicode_FromKindAndData(4, buffer.data, buffer.size)
    finally:
        free(buffer.data)
