"""What the Data page's last upload leaves for every page: whether it was refused, and the
criterion an mt-metrics-eval archive names as its standard one.

A refused upload leaves the test set that was loaded before it (the sample, or an earlier
upload) in place, so that no page breaks; but a user who sent a file and moved on to the
Correlation page would then read the old test set's numbers as the new file's. So the refusal
is kept in the session, and every page says that the last upload was refused and which test set
it shows, until a load succeeds or the user goes back to the sample: each page calls
:func:`show_refused_upload` at its top (the Data page below its form, after the upload's
outcome is known).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import streamlit as st

from mteval_core.errors import InputError
from mteval_core.model.testset import TestSet
from mteval_core.report.frames import files_summary
from pages.ui.markdown_escape import escape_markdown
from pages.ui.sample import current_test_set, load_sample

REFUSED = "refused_upload"  # session state: the RefusedUpload of the last upload, if refused
ARCHIVE_CRITERION = "archive_criterion"  # session state: the loaded archive's standard criterion
SHOWN_FILES = 3  # file names in the notice; the rest are counted


@dataclass(frozen=True)
class RefusedUpload:
    files: tuple[str, ...]  # the names of the files sent, as the user named them
    problem: str  # where and what, as the page's error message said it


@contextmanager
def upload_outcome(files: Sequence[str]) -> Iterator[None]:
    """Around the reading of an upload: a refusal (any exception, which goes on to the page's
    ``friendly_errors``) is kept for :func:`show_refused_upload`; a load that gets to the end
    of the block forgets an earlier one."""
    try:
        yield
    except InputError as error:
        where = error.where()
        problem = f"{where}: {error.problem}" if where else error.problem
        st.session_state[REFUSED] = RefusedUpload(tuple(files), problem)
        raise
    except Exception:
        st.session_state[REFUSED] = RefusedUpload(tuple(files), "it could not be read")
        raise
    st.session_state.pop(REFUSED, None)


def forget_upload() -> None:
    """Back to the sample: no refusal to tell of, no archive's criterion."""
    st.session_state.pop(REFUSED, None)
    st.session_state.pop(ARCHIVE_CRITERION, None)


def upload_was_refused() -> bool:
    return REFUSED in st.session_state


def archive_criterion() -> str | None:
    """The human criterion the loaded mt-metrics-eval archive names as its standard one (its
    MQM where it has one), which the report uses unless the user chooses another."""
    return st.session_state.get(ARCHIVE_CRITERION)


def show_refused_upload() -> None:
    """A warning that the last upload was refused and which test set the pages show instead,
    every name shown as written; nothing when the last upload loaded."""
    refused: RefusedUpload | None = st.session_state.get(REFUSED)
    if refused is None:
        return
    st.warning(
        f"**The last upload was refused** ({escape_markdown(_named(refused.files))}): "
        f"{escape_markdown(refused.problem)}. Every page shows "
        f"{escape_markdown(_shown(current_test_set(st.session_state)))} until a test set "
        "loads on the Data page, or you go back to the sample there."
    )


def _named(files: tuple[str, ...]) -> str:
    if not files:
        return "no files"
    shown = ", ".join(files[:SHOWN_FILES])
    rest = len(files) - SHOWN_FILES
    return f"{shown} and {rest:,} more" if rest > 0 else shown


def _shown(test_set: TestSet) -> str:
    if test_set is load_sample().test_set:
        return "the sample test set"
    return f"the test set loaded before it ({files_summary(test_set)})"
