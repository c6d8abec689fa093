"""Which data the Loss page shows, in one line: the paper's tables, the user's loss table or the
user's MQM annotations; and, when a user's own test set has no loss data, what to upload for one.

Plain text: the page escapes it (file and system names are the user's). The readers' own hints
(which columns a loss table or an MQM file needs) come in as arguments, because mteval_core.io
imports this package and not the other way round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from mteval_core.errors import listed_names

PAPER = "Tate & Voss 2006"
PAPER_SYSTEMS = ("MT1", "MT2", "MT3")
SHOWN_SYSTEMS = 5  # an uploaded test set's systems named in the message; the rest are counted


@dataclass(frozen=True)
class LossSources:
    """What the page has: the loss table shown, the MQM annotations and the test set."""

    table: str | None  # file name of the loss table shown; None: an upload is chosen, not yet made
    table_uploaded: bool  # the user's table (or its upload, while ``table`` is None)
    mqm: str | None = None  # file name of the MQM annotations from the Data page, if any
    test_set_systems: tuple[str, ...] | None = None  # an uploaded test set's; None: the sample


@dataclass(frozen=True)
class SourceNote:
    text: str
    missing_loss_data: bool  # the user's test set is loaded but nothing here is about it


def describe_sources(
    sources: LossSources, *, table_hint: str, mqm_columns: Sequence[str]
) -> SourceNote:
    """One line naming what each section of the page shows, by file name.

    ``table_hint`` says which columns a loss table may have and ``mqm_columns`` which ones an MQM
    file needs: the message for an uploaded test set without loss data tells what to upload."""
    if sources.table is None:
        table = "no loss table yet (upload one below)"
    elif sources.table_uploaded:
        table = f"your loss table {sources.table}"
    else:
        table = f"the paper's tables ({PAPER}, systems {', '.join(PAPER_SYSTEMS)}; {sources.table})"
    if sources.mqm is not None:
        return SourceNote(
            f"Data shown: MQM weights: your annotations {sources.mqm} (Data page); costs: {table}.",
            missing_loss_data=False,
        )
    if sources.test_set_systems is None or sources.table_uploaded:
        return SourceNote(f"Data shown: {table}.", missing_loss_data=False)
    return SourceNote(
        f"Your test set ({_systems(sources.test_set_systems)}) has no loss data, so this page "
        f"shows the paper's example: {PAPER}'s systems {', '.join(PAPER_SYSTEMS)} "
        f"({sources.table}), not yours. For a loss analysis of your systems, upload either MQM "
        f"error annotations on the Data page (the file 'MQM error annotations': Google's TSV, one "
        f"row per error, with the columns {', '.join(mqm_columns)}) or a loss table here (Data: "
        f"'Your own loss table'). {table_hint}",
        missing_loss_data=True,
    )


def _systems(names: Sequence[str]) -> str:
    count = f"{len(names)} system{'s' if len(names) != 1 else ''}"
    return f"{count}: {listed_names(names, SHOWN_SYSTEMS)}"
