"""What every resamples widget shares: the counts offered (none above the server's limit), where
the widget starts, its help and the warning over intervals from too few resamples."""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from mteval_core.settings.limits import MAX_RESAMPLES
from mteval_core.stats.bootstrap import BootstrapOptions
from pages.ui.markdown_escape import escape_markdown

RESAMPLES_HELP = (  # said beside every resamples widget
    f"At most {MAX_RESAMPLES:,} on this shared server, the same limit as the command line's."
)


def starting_resamples(offered: Sequence[int], usual: int, needed: int) -> int:
    """Where a resamples widget starts: the first ``offered`` count that is at least the
    ``usual`` one and ``needed`` (the count from which a system pair can reach significance,
    ``stats.significance.resamples_needed``), so that a page opens on a significance map that
    can show a difference; the most offered when even that is too few (the page then says what
    it would take)."""
    wanted = max(usual, needed)
    return next((n for n in offered if n >= wanted), offered[-1])


def warn_of_few_resamples(bootstrap: BootstrapOptions | None) -> None:
    """Above intervals drawn with ``bootstrap``: that they are from too few resamples, when they
    are (``BootstrapOptions.too_few_for_intervals``), as the command line and the downloads
    say it."""
    note = bootstrap.too_few_for_intervals if bootstrap is not None else None
    if note:
        st.warning(escape_markdown(f"{note[0].upper()}{note[1:]}."))


def resample_choices(choices: Sequence[int]) -> list[int]:
    """The resample counts a page offers, none above the server's limit."""
    return [n for n in choices if n <= MAX_RESAMPLES]
