"""Problems shown as messages, never as tracebacks: what every page wraps its core calls in."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

import streamlit as st

from mteval_core.errors import InputError
from pages.ui.markdown_escape import escape_markdown

log = logging.getLogger("mteval.dashboard")


@contextmanager
def friendly_errors(stop: bool = True) -> Iterator[None]:
    """Show a problem as a message, never as a traceback, and stop the page there (or, with
    ``stop=False``, go on after the block, e.g. to keep showing what is still loaded).

    An InputError says which file and line and what to do; anything else is our fault, so the
    message says so and gives the exception's type and a short reference for a bug report. The
    traceback goes to the server's log under that reference, never to the browser: it names the
    server's paths and code, which are nobody's business but the operator's.
    """
    try:
        yield
    except InputError as error:
        where = escape_markdown(error.where() or "Your input")
        st.error(f"{where}: {escape_markdown(error.problem)}")
        with st.expander("What to do", expanded=True):
            st.markdown(
                escape_markdown(error.hint or "Check the file named above, then upload it again.")
            )
        if stop:
            st.stop()
    except Exception as error:
        reference = secrets.token_hex(4)
        log.exception("error reference %s: a dashboard view failed", reference)
        st.error(
            "Something went wrong while computing this view. Your data is still loaded; "
            "try other options, or report the details below."
        )
        with st.expander("Details"):
            st.markdown(
                f"{escape_markdown(type(error).__name__)}, error reference `{reference}` "
                "(the server's log has the rest under this reference)."
            )
        if stop:
            st.stop()
