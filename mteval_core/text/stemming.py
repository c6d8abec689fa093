"""Stemming: NLTK's Porter and Snowball stemmers, imported only when a metric stems, each word's
stem remembered per process."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import cache, lru_cache
from types import ModuleType

# Words whose stem a process remembers, per stemmer: NLTK's stemmers take 20-80 us a word, and
# the same words come back in every system, every page's stemmed columns, every upload of a server.
STEM_MEMORY = 1 << 18
_STEMMER_IMPORT = threading.Lock()


@cache
def stemmer(kind: str, language: str = "english") -> Callable[[str], str] | None:
    """The stemming function for an option (remembering each word's stem), or None for no
    stemming."""
    if kind == "none":
        return None
    stem_module = import_stemmers()
    if kind == "porter":
        return lru_cache(maxsize=STEM_MEMORY)(stem_module.PorterStemmer().stem)
    return lru_cache(maxsize=STEM_MEMORY)(stem_module.SnowballStemmer(language).stem)


def import_stemmers() -> ModuleType:
    """NLTK's stemmers, imported only when stemming: importing NLTK takes 1-2 s (most of it in
    scipy.stats, which NLTK imports). One thread at a time, so that the dashboard can import them
    ahead in the background (``pages.ui.background_imports.import_ahead``) while a page may ask
    for them: two threads importing one package's modules at once can fail with Python's
    "deadlock detected"."""
    with _STEMMER_IMPORT:
        import nltk.stem

    return nltk.stem
