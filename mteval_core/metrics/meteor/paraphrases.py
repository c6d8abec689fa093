"""METEOR 1.5's paraphrase table (`paraphrase-<lang>.gz`), parsed once into memory-mapped arrays.

The file holds three-line records: a probability, a phrase, and one paraphrase of it (words
split by Java's `StringTokenizer`). The jar ignores the probability ("these probabilities do not
appear to correlate with actual paraphrase probability": every paraphrase match has prob 1) and
builds a transducer from each phrase to its paraphrases, in file order. Asked for the
paraphrases of a line's words starting at one position, it answers the paraphrases of the
one-word phrase there, then of the two-word phrase, and so on, each phrase's in file order:
`ParaphraseTable.paths` gives that same list.

The English table is 62 MB gzipped (272 MB of text): 5.27 million records over 2.6 million
distinct phrases of at most 7 words and 43,139 distinct words. Parsing it takes about 22 s of
CPU and 1.5 GB of memory at its peak, so the first load writes a cache (a folder of .npy arrays
plus the vocabulary, 108 MB) under `~/.cache/mteval/meteor` (or `$MTEVAL_CACHE_DIR/meteor`),
keyed by the file's content (`source_key`: its size and a hash of 1.1 MB sampled over it, no
modification time, so that every clone or environment with the same file shares it); later
loads map the arrays and read only the vocabulary (0.1 s, a few tens of MB). Phrases are
word-id sequences found by a 64-bit hash (`phrase_hash`), every hash hit checked word by word,
so a collision can never make a match.

A damaged file is said as such: a table that is not gzip, or truncated, or fails its CRC, and one
that unpacks to more than METEOR_PARAPHRASE_MAX_MB or METEOR_PARAPHRASE_MAX_LINES (settings/
limits.py; checked as it is unpacked, before it is parsed). A cache whose files are not those its
meta.json lists (a truncated array, a short vocabulary) is built again. One thread of a process
and one process of a machine build a cache at a time (a lock per folder, and a lock file beside
it): the others wait, then map what the first wrote, instead of parsing the table too (two
sessions building at once took 3.1 GB).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import tempfile
import threading
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from mteval_core.errors import InputError
from mteval_core.metrics.meteor.java_strings import java_tokenize
from mteval_core.settings.limits import METEOR_PARAPHRASE_MAX_LINES, METEOR_PARAPHRASE_MAX_MB

try:
    import fcntl  # the lock file among processes (POSIX)
except ImportError:  # Windows: threads are still built for one at a time
    fcntl = None

# 2: meta.json lists every file's size and the vocabulary's length, which a load checks
CACHE_FORMAT = 2
UNPACK_BLOCK = 1 << 24  # bytes unpacked at a time, each counted against the limits
_MASK = (1 << 64) - 1
_MULTIPLIER = 0x100000001B3  # FNV-1's 64-bit prime: spreads word ids over the 64 bits
_ARRAYS = (
    "phrase_offsets",
    "phrase_words",
    "phrase_hash",
    "source_hash",
    "source_phrase",
    "source_start",
    "source_count",
    "targets",
)
_NPY_FILES = tuple(f"{name}.npy" for name in _ARRAYS)
_SOURCE_ARRAYS = ("source_phrase", "source_start", "source_count")


def extend_hash(value: int, word_id: int) -> int:
    """The 64-bit key of a phrase one word longer (the empty phrase's key is 0).

    The same function as the cache's `phrase_hash`, so keys computed here find its phrases.
    """
    return (value * _MULTIPLIER + word_id + 1) & _MASK


def _hash_phrases(offsets: np.ndarray, words: np.ndarray) -> np.ndarray:
    """`phrase_hash` of every phrase of a CSR (offsets, words) table, vectorised by position."""
    lengths = np.diff(offsets)
    hashes = np.zeros(len(lengths), dtype=np.uint64)
    multiplier = np.uint64(_MULTIPLIER)
    with np.errstate(over="ignore"):
        for position in range(int(lengths.max(initial=0))):
            longer = np.flatnonzero(lengths > position)
            word = words[offsets[longer] + position].astype(np.uint64) + np.uint64(1)
            hashes[longer] = hashes[longer] * multiplier + word
    return hashes


def _records(data: bytes) -> tuple[list[bytes], list[bytes]]:
    """The phrase and paraphrase lines of the file's complete three-line records."""
    if b"\r" in data:  # readLine also ends lines at \r and \r\n
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    lines = data.split(b"\n")
    count = len(lines) // 3
    return lines[1 : 3 * count : 3], lines[2 : 3 * count : 3]


def _canonical(lines: list[bytes]) -> list[bytes]:
    """Lines as single-space-joined UTF-8 words, where the file is not written so already."""
    joined = b"\n".join(lines)
    plain = not any(mark in joined for mark in (b"  ", b"\n ", b" \n", b"\t", b"\x0c"))
    if plain and not joined.startswith(b" ") and not joined.endswith(b" "):
        try:
            joined.decode("utf-8")
            return lines
        except UnicodeDecodeError:
            pass
    return [
        " ".join(java_tokenize(line.decode("utf-8", errors="replace"))).encode("utf-8")
        for line in lines
    ]


def _word_ids(phrases: list[bytes], vocabulary: dict[bytes, int]) -> np.ndarray:
    """The word ids of all phrases, one after another, a million phrases at a time (memory)."""
    chunks = []
    for first in range(0, len(phrases), 1 << 20):
        tokens = b" ".join(phrases[first : first + (1 << 20)]).split(b" ")
        chunks.append(
            np.fromiter(
                (vocabulary.setdefault(token, len(vocabulary)) for token in tokens),
                np.int32,
                len(tokens),
            )
        )
    return np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.int32)


def _build_arrays(read: Callable[[], bytes]) -> tuple[list[str], dict[str, np.ndarray]]:  # long
    """Parse the decompressed file into the vocabulary and the cache's arrays.

    `read` gives the file's bytes, so that they (272 MB for English) are freed once split.
    """
    sources, targets = _records(read())
    sources, targets = _canonical(sources), _canonical(targets)
    if not all(sources) or not all(targets):
        # an empty phrase: the jar never reports one as a source (its paths start one word in)
        # and no shipped table has one; they are dropped
        kept = [pair for pair in zip(sources, targets, strict=True) if all(pair)]
        sources, targets = [pair[0] for pair in kept], [pair[1] for pair in kept]
    phrase_ids: dict[bytes, int] = {}
    source_ids = np.fromiter(
        (phrase_ids.setdefault(line, len(phrase_ids)) for line in sources), np.int32, len(sources)
    )
    target_ids = np.fromiter(
        (phrase_ids.setdefault(line, len(phrase_ids)) for line in targets), np.int32, len(targets)
    )
    del sources, targets
    phrases = list(phrase_ids)
    del phrase_ids
    vocabulary: dict[bytes, int] = {}
    words = _word_ids(phrases, vocabulary)
    lengths = np.fromiter((phrase.count(b" ") + 1 for phrase in phrases), np.int64, len(phrases))
    offsets = np.zeros(len(phrases) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    hashes = _hash_phrases(offsets, words)
    # each source phrase's paraphrases, in file order, as one contiguous run of `targets`
    order = np.argsort(source_ids, kind="stable")
    grouped_sources = source_ids[order]
    distinct, starts, counts = np.unique(grouped_sources, return_index=True, return_counts=True)
    by_hash = np.argsort(hashes[distinct], kind="stable")
    arrays = {
        "phrase_offsets": offsets,
        "phrase_words": words,
        "phrase_hash": hashes,
        "source_hash": hashes[distinct][by_hash],
        "source_phrase": distinct[by_hash].astype(np.int32),
        "source_start": starts[by_hash].astype(np.int64),
        "source_count": counts[by_hash].astype(np.int32),
        "targets": target_ids[order],
    }
    return [word.decode("utf-8") for word in vocabulary], arrays


def cache_root() -> Path:
    """Where parsed METEOR resources are kept: `$MTEVAL_CACHE_DIR/meteor` or ~/.cache/mteval."""
    base = os.environ.get("MTEVAL_CACHE_DIR")
    return (Path(base) if base else Path.home() / ".cache" / "mteval") / "meteor"


def cache_folder(path: Path, cache: Path | None = None) -> Path:
    """The cache folder of one version of a table (under ``cache``, else ``cache_root()``)."""
    return (cache or cache_root()) / f"paraphrase-{source_key(path)}"


REPLACE_HINT = "Replace it with a good copy of the file, or leave the paraphrase module out."


def unpacked(path: Path, replace_hint: str = REPLACE_HINT) -> bytes:
    """The table's text, unpacked a block at a time and counted against the limits before more
    is unpacked; a file that is not gzip, is truncated, fails its check or holds nothing is an
    InputError naming it, with ``replace_hint``."""
    blocks: list[bytes] = []
    size = lines = 0
    try:
        with gzip.open(path, "rb") as handle:
            while block := handle.read(UNPACK_BLOCK):
                size += len(block)
                lines += block.count(b"\n") + block.count(b"\r")
                _check_unpacked(size, lines, str(path))
                blocks.append(block)
    except gzip.BadGzipFile as error:
        problem = f"is not a readable gzip file ({error})"
        raise InputError(problem, origin=str(path), hint=replace_hint) from None
    except EOFError:
        problem = "is truncated: it ends before its gzip stream does"
        raise InputError(problem, origin=str(path), hint=replace_hint) from None
    except zlib.error as error:
        problem = f"is damaged: its gzip stream does not unpack ({error})"
        raise InputError(problem, origin=str(path), hint=replace_hint) from None
    if lines < 3:
        problem = "holds no paraphrase (three lines each: probability, phrase, paraphrase)"
        raise InputError(problem, origin=str(path), hint=replace_hint)
    return b"".join(blocks)


def _check_unpacked(size: int, lines: int, origin: str) -> None:
    """Refuse a table over METEOR_PARAPHRASE_MAX_MB or METEOR_PARAPHRASE_MAX_LINES unpacked."""
    hint = (
        "METEOR 1.5's English table, the largest it ships, is 272 MB and 15.8 million lines "
        "unpacked: give a table of its kind, or leave the paraphrase module out."
    )
    if size > METEOR_PARAPHRASE_MAX_MB << 20:
        problem = f"unpacks to more than {METEOR_PARAPHRASE_MAX_MB:,} MB, the most METEOR reads"
        raise InputError(problem, origin=origin, hint=hint)
    if lines > METEOR_PARAPHRASE_MAX_LINES:
        problem = f"has more than {METEOR_PARAPHRASE_MAX_LINES:,} lines, the most METEOR reads"
        raise InputError(problem, origin=origin, hint=hint)


SAMPLED_BLOCKS = 256  # blocks of the file read by source_key, evenly spread
SAMPLED_BLOCK_SIZE = 1 << 12


def source_key(path: Path) -> str:
    """Identifies one version of a file by its content, cheaply: its size, its first and last
    64 KiB and 256 blocks of 4 KiB spread evenly between (1.1 MB read, a few milliseconds),
    hashed. The modification time is left out, so a fresh install of the same file (a new
    clone, another virtual environment) finds the cache built before; a gzip file that differs
    anywhere differs in its last bytes (its CRC-32 and length) too."""
    size = path.stat().st_size
    digest = hashlib.sha256(f"{CACHE_FORMAT}:{size}".encode())
    with path.open("rb") as handle:
        digest.update(handle.read(1 << 16))
        step = max(size // SAMPLED_BLOCKS, 1)
        for offset in range(0, size, step)[:SAMPLED_BLOCKS]:
            handle.seek(offset)
            digest.update(handle.read(SAMPLED_BLOCK_SIZE))
        handle.seek(max(0, size - (1 << 16)))
        digest.update(handle.read())
    return digest.hexdigest()[:24]


@dataclass
class ParaphraseTable:
    """The paraphrase transducer: phrase -> paraphrases, over interned word ids."""

    vocabulary: dict[str, int]
    phrase_offsets: np.ndarray
    phrase_words: np.ndarray
    phrase_hash: np.ndarray
    source_hash: np.ndarray
    source_phrase: np.ndarray
    source_start: np.ndarray
    source_count: np.ndarray
    targets: np.ndarray

    @classmethod
    def from_bytes(cls, data: bytes, origin: str = "the paraphrase table") -> ParaphraseTable:
        """Parse an uncompressed paraphrase file held in memory (no cache), within the limits."""
        _check_unpacked(len(data), data.count(b"\n") + data.count(b"\r"), origin)
        words, arrays = _build_arrays(lambda: data)
        return cls(_vocabulary_ids(words), **arrays)

    @classmethod
    def load(
        cls, path: Path, cache: Path | None = None, replace_hint: str = REPLACE_HINT
    ) -> ParaphraseTable:
        """The table of a `paraphrase-*.gz` file, from its cache, built first if absent or
        damaged (by one thread and one process at a time; the others wait for it).

        With the cache folder not writable, the table is built in memory on every load.
        ``replace_hint`` says where a good copy of a damaged file comes from.
        """
        folder = cache_folder(path, cache)
        table = _from_cache(folder)
        if table is not None:
            return table
        with _building(folder):
            table = _from_cache(folder, discard=True)  # built meanwhile by another, or damaged
            if table is None:
                words, arrays = _build_arrays(lambda: unpacked(path, replace_hint))
                written = _write_cache(folder, path, words, arrays)
                table = _from_cache(folder) if written else None
                if table is None:
                    table = cls(_vocabulary_ids(words), **arrays)
        return table

    @cached_property
    def longest_phrase(self) -> int:
        """The number of words of the table's longest phrase."""
        return int(np.diff(self.phrase_offsets).max(initial=0))

    def translate(self, words: list[str]) -> list[int]:
        """Word ids as the jar's `translate`: -1 for a word the table does not know."""
        return [self.vocabulary.get(word, -1) for word in words]

    def phrase(self, phrase_id: int) -> np.ndarray:
        """The word ids of one phrase."""
        first, end = self.phrase_offsets[phrase_id], self.phrase_offsets[phrase_id + 1]
        return self.phrase_words[first:end]

    def paths(self, word_ids: list[int], start: int) -> list[tuple[int, np.ndarray]]:
        """(phrase length, paraphrase ids) for the phrases starting at `start`, shortest first.

        The jar's `getReferencePaths`: the paraphrases of `word_ids[start:start+1]`, then of
        `word_ids[start:start+2]`, ..., each phrase's in file order; an unknown word ends it.
        """
        found: list[tuple[int, np.ndarray]] = []
        value = 0
        for end in range(start, len(word_ids)):
            if word_ids[end] < 0:
                break
            value = extend_hash(value, word_ids[end])
            key = np.uint64(value)
            index = int(np.searchsorted(self.source_hash, key))
            while index < len(self.source_hash) and self.source_hash[index] == key:
                source = self.phrase(int(self.source_phrase[index]))
                if np.array_equal(source, word_ids[start : end + 1]):
                    first = int(self.source_start[index])
                    last = first + int(self.source_count[index])
                    found.append((end + 1 - start, self.targets[first:last]))
                index += 1
        return found


def _vocabulary_ids(words: list[str]) -> dict[str, int]:
    """Word -> id (the words are distinct: `_canonical` made bytes and text one-to-one)."""
    return {word: index for index, word in enumerate(words)}


def _write_cache(folder: Path, path: Path, words: list[str], arrays: dict[str, np.ndarray]) -> bool:
    """Write the cache atomically (a temporary folder renamed); False if it cannot be written.
    Its meta.json lists every file's size and the vocabulary's length, which a load checks."""
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".building-", dir=folder.parent))
    except OSError:
        return False
    try:
        (staging / "vocabulary.txt").write_text("\n".join(words), encoding="utf-8")
        for name, array in arrays.items():
            np.save(staging / f"{name}.npy", array)
        files = {item.name: item.stat().st_size for item in staging.iterdir()}
        meta = {
            "format": CACHE_FORMAT,
            "source": str(path),
            "size": path.stat().st_size,
            "words": len(words),
            "files": files,
        }
        (staging / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
        staging.rename(folder)
    except OSError:
        shutil.rmtree(staging, ignore_errors=True)
        return (folder / "meta.json").is_file()  # another process finished it first
    _discard_older_formats(folder.parent)
    return True


def _from_cache(folder: Path, discard: bool = False) -> ParaphraseTable | None:
    """The table a cache folder holds; None where there is none, or where it is damaged (a file
    missing, of another size than written, unreadable, or not fitting the others), which with
    ``discard`` is removed so that it can be built again."""
    if not (folder / "meta.json").is_file():
        return None
    try:
        return _mapped(folder)
    except (OSError, ValueError, KeyError, TypeError, UnicodeDecodeError):
        if discard:
            _discard(folder)
        return None


def _mapped(folder: Path) -> ParaphraseTable:
    """The cache's arrays mapped and its vocabulary read, after checking them against meta.json;
    ValueError (or the reading's own error) where they do not fit."""
    meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
    sizes = meta["files"]
    if meta["format"] != CACHE_FORMAT or set(sizes) != {"vocabulary.txt", *_NPY_FILES}:
        raise ValueError("not a cache of this format")
    if any((folder / name).stat().st_size != size for name, size in sizes.items()):
        raise ValueError("a file is not the size it was written")
    text = (folder / "vocabulary.txt").read_text(encoding="utf-8")
    words = text.split("\n") if text else []
    # plain ndarray views of the maps: numpy's memmap subclass slows every small slice
    arrays = {
        name: np.load(folder / f"{name}.npy", mmap_mode="r").view(np.ndarray) for name in _ARRAYS
    }
    if len(words) != meta["words"] or not _fitting(arrays):
        raise ValueError("the vocabulary or the arrays do not fit one another")
    return ParaphraseTable(_vocabulary_ids(words), **arrays)


def _fitting(arrays: dict[str, np.ndarray]) -> bool:
    """Whether the arrays' lengths fit one another (a few numbers read, not the arrays)."""
    offsets = arrays["phrase_offsets"]
    sources = len(arrays["source_hash"])
    return (
        len(offsets) >= 1
        and int(offsets[-1]) == len(arrays["phrase_words"])
        and len(arrays["phrase_hash"]) == len(offsets) - 1
        and all(len(arrays[name]) == sources for name in _SOURCE_ARRAYS)
    )


def _discard(folder: Path) -> None:
    """Remove a damaged cache folder: renamed out of the way first, so that no reader maps half
    of it while it is deleted."""
    with suppress(OSError):
        away = Path(tempfile.mkdtemp(prefix=".damaged-", dir=folder.parent))
        folder.rename(away / folder.name)
        shutil.rmtree(away, ignore_errors=True)


def _discard_older_formats(root: Path) -> None:
    """Remove caches of earlier formats (their folder names differ: the format is part of the
    key), so that an update leaves no 108 MB behind."""
    for meta_path in root.glob("paraphrase-*/meta.json"):
        with suppress(OSError, ValueError, KeyError, TypeError):
            if json.loads(meta_path.read_text(encoding="utf-8"))["format"] < CACHE_FORMAT:
                _discard(meta_path.parent)


_LOCKS_GUARD = threading.Lock()
_FOLDER_LOCKS: dict[Path, threading.RLock] = {}
_TABLES: dict[Path, ParaphraseTable] = {}  # the tables this process has loaded, by cache folder
KEPT_TABLES = 4  # distinct tables (languages, versions) kept loaded: their arrays are mapped


def _folder_lock(folder: Path) -> threading.RLock:
    with _LOCKS_GUARD:
        return _FOLDER_LOCKS.setdefault(folder, threading.RLock())


@contextmanager
def _building(folder: Path) -> Iterator[None]:
    """One builder of a cache folder at a time: a lock per folder among this process's threads,
    and among processes a lock file beside the folder (``flock``; where the folder's parent
    cannot be written, or without fcntl, threads only)."""
    with _folder_lock(folder):
        handle = None
        if fcntl is not None:
            with suppress(OSError):
                folder.parent.mkdir(parents=True, exist_ok=True)
                handle = (folder.parent / f"{folder.name}.lock").open("a")
        try:
            if handle is not None:
                fcntl.flock(handle, fcntl.LOCK_EX)  # released when the file is closed
            yield
        finally:
            if handle is not None:
                handle.close()


def shared_table(
    path: Path, cache: Path | None = None, replace_hint: str = REPLACE_HINT
) -> ParaphraseTable:
    """The table of ``path``, loaded once per process and content: threads that ask for it at
    once wait for the first (``ParaphraseTable.load`` makes processes wait for one another)."""
    folder = cache_folder(path, cache)
    with _folder_lock(folder):
        with _LOCKS_GUARD:
            table = _TABLES.get(folder)
        if table is None:
            table = ParaphraseTable.load(path, cache, replace_hint)
            with _LOCKS_GUARD:
                while len(_TABLES) >= KEPT_TABLES:
                    _TABLES.pop(next(iter(_TABLES)))
                _TABLES[folder] = table
        return table
