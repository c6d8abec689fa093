"""System names that people recognise, from the names of the files that hold the systems.

WMT ships one file per system with the test set's name around the system's:
``generaltest2023.en-ru.hyp.PROMT.ru``. Named after the whole file (without its last extension)
every system would be ``generaltest2023.en-ru.hyp.<name>``, and tables, figures and legends would
repeat that part for every system. So, when several system files are read together (one run of a
command, one folder, one upload), each system is named by the part of its file name that differs:
the file name without its last extension, split at dots, without the components that every file
shares at the start and at the end (``PROMT``, ``Online-A``). Only whole dot-separated components
are dropped, never part of one, and at least one component stays, so names with dots of their own
(``Lan-BridgeMT.v2``) survive and no name is empty. A single file keeps today's name (the file name
without its last extension): with nothing to compare, nothing says which part is the system's.
If dropping the shared parts made two names equal, every system keeps its full name, with a note.

Judgments and metric scores written for the full names still match: :func:`file_name_aliases`
gives every system's full name, and the readers of such files accept either
(:func:`mteval_core.io.human_read.keep_known_systems`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from mteval_core.errors import InputError, listed_names
from mteval_core.io.plain import system_name_from_path as full_name
from mteval_core.model.testset import TestSet, TextColumn

EXAMPLES = 2  # how many renamed systems a note shows


def distinguishing_names(paths: Sequence[str]) -> tuple[list[str], str | None]:
    """A name for the system in each file of ``paths`` (see the module docstring), and a note
    that says what was dropped, or why nothing was; None when the names are the full ones for
    want of anything to drop (one file, or nothing shared)."""
    full = [full_name(path) for path in paths]
    short = _without_shared_parts(full)
    if short == full:
        return full, None
    if not _distinct(short, full):
        return full, (
            f"the systems keep their full file names ({listed_names(full)}): without the parts "
            "that every system file's name shares, a name would be empty or two would be equal"
        )
    shown = ", ".join(f"{name} from {path}" for name, path in list(zip(short, paths))[:EXAMPLES])
    return short, (
        "the systems are named by the part of their file names that differs "
        f"({shown}{', ...' if len(paths) > EXAMPLES else ''}); judgments and metric scores may "
        "use either name"
    )


def shortest_distinct(names: Sequence[str]) -> list[str]:
    """``names`` without the dot-separated components that all of them share at the start and
    at the end, keeping at least one component of each; unchanged for fewer than two names, or
    when dropping would leave an empty name or make two names equal."""
    short = _without_shared_parts(names)
    return short if _distinct(short, names) else list(names)


def _distinct(short: Sequence[str], names: Sequence[str]) -> bool:
    """No name empty and as many different names as before."""
    return "" not in short and len(set(short)) == len(set(names))


def _without_shared_parts(names: Sequence[str]) -> list[str]:
    if len(names) < 2:
        return list(names)
    parts = [name.split(".") for name in names]
    room = min(len(p) for p in parts) - 1  # components that may go, so that one stays
    prefix = _shared_length(parts, room)
    suffix = _shared_length([p[::-1] for p in parts], room - prefix)
    return [".".join(p[prefix : len(p) - suffix]) for p in parts]


def _shared_length(parts: Sequence[list[str]], limit: int) -> int:
    """How many leading components every list shares, at most ``limit``."""
    length = 0
    while length < limit and len({p[length] for p in parts}) == 1:
        length += 1
    return length


def file_name_aliases(columns: Sequence[TextColumn]) -> dict[str, str]:
    """full name -> name, for every column named otherwise than its file (see the module
    docstring): the only column its file gave, whose full name no other column has taken."""
    per_origin: dict[str, int] = {}
    for column in columns:
        per_origin[column.origin] = per_origin.get(column.origin, 0) + 1
    taken = {column.name for column in columns}
    aliases: dict[str, str] = {}
    for column in columns:
        full = full_name(column.origin) if column.origin else ""
        if per_origin[column.origin] == 1 and full and full != column.name and full not in taken:
            aliases[full] = column.name
    return aliases


# ------------------------------------------------------------------------ names that are not text
def refuse_undecodable_name(name: str, origin: str, what: str = "file") -> None:
    """Refuse a file name that is not UTF-8. Python hands such a name over (from a folder, or
    a tar's member) with each byte it could not decode as a lone surrogate, which no system
    name, table, page or download can hold: it would fail later, far from its cause."""
    undecodable = [char for char in name if "\udc80" <= char <= "\udcff"]
    if not undecodable:
        return
    raw = name.encode("utf-8", "surrogateescape")
    shown = raw if len(raw) <= 80 else raw[:80] + b"..."
    raise InputError(
        f"the {what} name {shown!r} is not UTF-8 (byte 0x{ord(undecodable[0]) - 0xDC00:02X} "
        "is not UTF-8 text there)",
        origin=origin,
        hint="It was named where file names are in another encoding (Latin-1, say): rename it "
        "with a UTF-8 name, or leave it out.",
    )


# --------------------------------------------------------------- names that look alike or hide
# Letters of other scripts that look like a Latin letter in the fonts tables and figures use (a
# subset of Unicode's confusables, UTS #39, for the letters a system's name is made of), and
# capital I, which looks like small l in a sans-serif font. Fullwidth and other compatibility
# forms are folded by NFKC first.
LOOK_ALIKES = str.maketrans(
    {
        **dict(zip("АВЕКМНОРСТУХЅІЈҮ", "ABEKMHOPCTYXSIJY", strict=True)),  # Cyrillic capitals
        **dict(zip("аеорсухѕіјһԁӏ", "aeopcyxsijhdl", strict=True)),  # Cyrillic small
        **dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "ABEZHIKMNOPTYX", strict=True)),  # Greek capitals
        **dict(zip("οντ", "ovt", strict=True)),  # Greek small
        "ı": "i",
        "ɑ": "a",
        "I": "l",
    }
)


def name_notes(test_set: TestSet) -> list[str]:
    """Notes on the test set's system and reference names that a reader cannot tell apart or
    see whole: names that hold invisible or direction-changing characters (bidi controls,
    zero-width characters: a table would show them reordered or not at all), and names that
    differ only by characters that look alike (a Cyrillic О for a Latin O). Each note gives
    the code points, and shows the names with those characters as \\u escapes."""
    names = list(dict.fromkeys([*test_set.reference_names, *test_set.system_names]))
    notes = []
    hidden = [
        f"{_visible(name)} ({_code_points(_hidden(name))})" for name in names if _hidden(name)
    ]
    if hidden:
        notes.append(
            "these names hold invisible or direction-changing characters, shown here as "
            f"escapes: {listed_names(hidden)}; tables and figures show them as the characters "
            "would, reordered or not at all"
        )
    groups: dict[str, list[str]] = {}
    for name in names:
        groups.setdefault(_skeleton(name), []).append(name)
    for alike in (group for group in groups.values() if len(group) > 1):
        sets = [set(name) for name in alike]
        differing = sorted(set.union(*sets) - set.intersection(*sets))
        notes.append(
            f"the names {listed_names([_visible(name) for name in alike])} look alike: they "
            f"differ only by {_code_points(differing)}"
        )
    return notes


def _is_hidden(char: str) -> bool:
    """A format character (bidi controls, zero-width joiners and spaces, soft hyphen, byte
    order mark) or a space other than U+0020."""
    category = unicodedata.category(char)
    return category == "Cf" or (category == "Zs" and char != " ")


def _hidden(name: str) -> list[str]:
    return sorted(set(filter(_is_hidden, name)))


def _skeleton(name: str) -> str:
    """What the name looks like: compatibility forms folded, hidden characters dropped, look-
    alike letters as the Latin letter they look like."""
    folded = unicodedata.normalize("NFKC", name)
    return "".join(c for c in folded if not _is_hidden(c)).translate(LOOK_ALIKES)


def _visible(name: str) -> str:
    """The name quoted, with every character that is not printable ASCII as a \\u escape."""
    shown = "".join(c if " " <= c <= "~" else f"\\u{ord(c):04x}" for c in name)
    return f"'{shown}'"


def _code_points(chars: Sequence[str]) -> str:
    return ", ".join(f"U+{ord(c):04X} {unicodedata.name(c, 'unnamed')}" for c in chars)
