"""Libraries that only some views need and take seconds to import, imported ahead once per
server process in a background thread (``import_ahead``, after every page in app.py)."""

from __future__ import annotations

import logging
import threading

from mteval_core.text.stemming import import_stemmers

log = logging.getLogger("mteval.dashboard")
_imports_ahead = threading.Lock()  # held for good once the imports ahead have started


def import_ahead() -> None:
    """Once per server process, after a page is drawn: import in a background thread what only
    some views need and takes seconds to import, NLTK's stemmers (1-2 s, most of it scipy.stats),
    which the Correlation page's stemmed columns and every stemmed option use. The first user to
    open those views then does not wait for the import; until it is done, the page that needs it
    waits for it (``import_stemmers`` imports in one thread at a time)."""
    if _imports_ahead.acquire(blocking=False):
        threading.Thread(target=_import_quietly, name="mteval-import-ahead", daemon=True).start()


def _import_quietly() -> None:
    try:
        import_stemmers()
    except Exception:  # the page that needs the stemmers imports them again and says what failed
        log.warning("importing NLTK's stemmers ahead failed", exc_info=True)
