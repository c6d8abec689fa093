"""What reading human judgments for a test set gives (:class:`HumanRead`), and the step every
reader ends with: keeping the rows of the test set's systems (:func:`keep_known_systems`).

Its own module because both the plain tables (mteval_core.io.human_judgments) and Google's MQM
annotations (mteval_core.io.mqm_placement) end with it, and human_judgments hands MQM files to
mqm_placement: with these two in human_judgments, the two modules imported each other.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

from mteval_core.errors import InputError, listed_names
from mteval_core.model.testset import HumanScores


@dataclass(frozen=True)
class HumanRead:
    """Judgments ready for ``TestSet.with_human``, and what was set aside (one line each), for
    the command line to print on stderr and a page to show beside the results."""

    scores: HumanScores
    notes: tuple[str, ...] = ()


def keep_known_systems(scores: HumanScores, known: Collection[str], origin: str) -> HumanRead:
    """The rows of ``known`` systems, and a note counting the systems whose rows were set aside
    (naming the first few: a WMT file can rate hundreds of thousands).

    Refuses judgments that rate none of the known systems: then the names do not match at all
    (another test set, or another spelling), and continuing would correlate nothing.
    """
    frames = (scores.segment_rows, scores.system_rows)
    known = set(known)
    keep = [frame["system"].isin(known) for frame in frames]
    names = [name for frame in frames for name in frame["system"].drop_duplicates().tolist()]
    rated = list(dict.fromkeys(names))
    if rated and not any(mask.any() for mask in keep):
        first_line = min(int(frame["line"].min()) for frame in frames if len(frame))
        raise InputError(
            f"none of the {len(rated):,} systems rated here ({listed_names(rated)}) is in the "
            "test set",
            origin=origin,
            line=first_line,  # the first row: its system name is one that does not match
            hint=f"The test set has {listed_names(sorted(known))}. Check that the judgments "
            "belong to this test set and that the system names are spelled as the system files "
            "are named, or load those systems' output too.",
        )
    set_aside = [name for name in rated if name not in known]
    notes: tuple[str, ...] = ()
    if set_aside:
        n_rows = sum(int((~mask).sum()) for mask in keep)
        verb = "was" if n_rows == 1 else "were"
        notes = (
            f"{origin}: {_count(n_rows, 'row')} for {_count(len(set_aside), 'system')} without "
            f"text in the test set ({listed_names(set_aside)}) {verb} set aside",
        )
    return HumanRead(HumanScores(frames[0][keep[0]], frames[1][keep[1]]), notes)


def _count(n: int, word: str) -> str:
    return f"{n:,} {word}" if n == 1 else f"{n:,} {word}s"
