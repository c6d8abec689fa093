"""The one exception type users see.

Every problem with user input is raised as an :class:`InputError` that names the file (and the line
or column when there is one), says what is wrong and what to do about it. The command line prints it
as one line and exits with status 2; the dashboard shows it as a friendly message.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar


class InputError(ValueError):
    """Bad user input, described so that a person can fix it."""

    def __init__(
        self,
        problem: str,
        *,
        origin: str | None = None,
        line: int | None = None,
        column: int | str | None = None,
        hint: str | None = None,
    ) -> None:
        self.problem = problem
        self.origin = origin
        self.line = line
        self.column = column
        self.hint = hint
        super().__init__(str(self))

    def where(self) -> str:
        """'file, line 3, column score' style location, or '' when unknown."""
        parts = []
        if self.origin:
            parts.append(self.origin)
        if self.line is not None:
            parts.append(f"line {self.line}")
        if self.column is not None:
            parts.append(f"column {self.column}")
        return ", ".join(parts)

    def __str__(self) -> str:
        where = self.where()
        text = f"{where}: {self.problem}" if where else self.problem
        if self.hint:
            text = f"{text.rstrip('.')}. {self.hint}"
        return text


class Note(UserWarning):
    """Something a user must know about a result that is still given, e.g. GTM leaving out a
    segment too large for its grid. Said with :func:`say` by the code that knows it; ``scoring``
    collects the notes into ``Scores.notes`` so the command line prints each as a line on stderr
    and the dashboard as a caption beside the scores."""


# The notes of the scoring run this code belongs to. A context variable, not
# warnings.catch_warnings: that swaps the warnings module's global state, so two runs at once
# (two users of the dashboard, or Home's quick metrics beside the slow ones scored in the
# background) took each other's notes or lost them.
_COLLECTED: ContextVar[list[str] | None] = ContextVar("mteval_notes", default=None)


def say(note: str, category: type[Note] = Note, stacklevel: int = 1) -> None:
    """Say ``note``: into the notes of the run that collects them (:func:`collected_notes`, in
    this context: threads started by ``engine.threads`` share it), else as a warning of
    ``category`` (what a caller of a metric's own functions sees)."""
    collected = _COLLECTED.get()
    if collected is None:
        warnings.warn(note, category, stacklevel=stacklevel + 1)
    else:
        collected.append(note)


@contextmanager
def collected_notes() -> Iterator[list[str]]:
    """The list that every :func:`say` in this context appends to, until the block ends."""
    notes: list[str] = []
    token = _COLLECTED.set(notes)
    try:
        yield notes
    finally:
        _COLLECTED.reset(token)


LISTED = 10  # names a note or a message gives; the others are counted


def listed_names(names: Sequence[str], shown: int = LISTED) -> str:
    """'a, b, c', or the first ``shown`` names and 'and 299,990 more': a message or a note names
    a handful and counts the rest, whatever a file holds."""
    listed = ", ".join(names[:shown])
    return f"{listed} and {len(names) - shown:,} more" if len(names) > shown else listed
