"""The pages' shared cache: computed once per key, least recently used dropped first, bounded by
the estimated memory of its entries."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

import pages.ui.background_imports as background_imports
import pages.ui.caching as caching
from mteval_core.settings.options import SHARED_FIELDS, Options, SentencePieceModel
from mteval_core.settings.parameters import FAMILIES
from pages.ui.cache import CacheKey, ContentCache
from pages.ui.session import DASHBOARD_METRICS


def key(name: str) -> CacheKey:
    return CacheKey(name, "content", Options(), (), (), ())


def test_a_key_is_computed_once_and_the_oldest_is_dropped():
    cache = ContentCache(entries=2)
    calls = []

    def compute(value):
        return lambda _progress: calls.append(value) or value

    assert cache.get_or_compute(key("a"), compute(1)) == 1
    assert cache.get_or_compute(key("a"), compute(99)) == 1  # cached: not computed again
    cache.get_or_compute(key("b"), compute(2))
    cache.get_or_compute(key("a"), compute(99))  # "a" is now the most recently used
    cache.get_or_compute(key("c"), compute(3))  # drops "b"
    assert cache.get_or_compute(key("b"), compute(4)) == 4
    assert calls == [1, 2, 3, 4]


MB = 2**20


def megabytes(n: float) -> np.ndarray:
    return np.zeros(int(n * MB), dtype=np.uint8)


def test_the_cache_is_bounded_by_the_bytes_of_its_entries():
    cache = ContentCache(max_bytes=3 * MB)
    cache.get_or_compute(key("a"), lambda _: megabytes(1))
    cache.get_or_compute(key("b"), lambda _: megabytes(1))
    assert 2 * MB <= cache.bytes < 2.1 * MB
    cache.get_or_compute(key("a"), lambda _: None)  # "a" is now the most recently used
    cache.get_or_compute(key("c"), lambda _: megabytes(1.5))  # over 3 MB: drops "b", the oldest
    assert key("a") in cache and key("b") not in cache and key("c") in cache
    assert 2.5 * MB <= cache.bytes < 2.6 * MB
    big = cache.get_or_compute(key("d"), lambda _: megabytes(4))  # larger than the whole budget
    assert len(big) == 4 * MB and key("d") not in cache  # returned, not kept...
    assert key("a") in cache and key("c") in cache  # ...and nothing else dropped for it


def test_estimated_bytes_follow_arrays_frames_containers_and_dataclasses():
    from pages.ui.cache import estimate_bytes

    array = megabytes(1)
    assert MB <= estimate_bytes(array) < MB + 1000
    assert estimate_bytes([array, array, array[10:]]) < MB + 1000  # shared and views count once
    assert estimate_bytes({"x": (array,)}) >= MB

    @dataclass(frozen=True)
    class Result:
        values: np.ndarray
        table: pd.DataFrame
        names: list[str]

    frame = pd.DataFrame({"x": np.zeros(MB // 8)})  # 1 MB of float64
    result = Result(array, frame, ["a" * 1000] * 2)
    assert 2 * MB <= estimate_bytes(result) < 2 * MB + 5000
    assert estimate_bytes(np.array(["x" * MB], dtype=object)) >= MB  # objects in an array


def test_a_key_not_made_by_cache_key_is_refused():
    with pytest.raises(TypeError, match="cache_key"):
        ContentCache().get_or_compute(("scores", "hash"), lambda _: 1)


# A value of every field of Options other than its default: a field added to Options without a
# value here fails the test below, so every option is shown to reach the key.
OTHER_OPTIONS = {
    "tokenize": "intl",
    "lowercase": True,
    "stem": "porter",
    "stem_language": "german",
    "fmean_alpha": 0.5,
    "bleu_bp": "shortest",
    "gtm_exponent": 2.0,
    "gtm_matching": "exact",
    "ter_case_sensitive": True,
    "ter_normalized": True,
    "ter_no_punct": True,
    "ter_asian_support": True,
    # against another model (only the SentencePiece tokenizers take one): its bytes' digest
    "spm_model": SentencePieceModel.of_bytes("flores200.model", b"one model"),
    "meteor_language": "de",
    "meteor_task": "adq",
    "meteor_modules": ("exact",),
    "meteor_weights": (1.0,),
    "meteor_parameters": (0.85, 0.2, 0.6, 0.75),
    "meteor_normalize": True,
    "meteor_data": "/data/meteor-1.5.jar",
    "meteor_alignment": "exact",
}


SPM_START = Options(
    tokenize="spm", spm_model=SentencePieceModel.of_bytes("renamed.model", b"another model")
)


def test_every_part_that_changes_a_number_changes_the_key(monkeypatch):
    session = {
        "content": "sha-1",
        "options": Options(),
        "metrics": DASHBOARD_METRICS,
        "external": {},
    }
    monkeypatch.setattr(
        caching, "session_test_set", lambda: SimpleNamespace(content_hash=session["content"])
    )
    monkeypatch.setattr(caching, "session_options", lambda: session["options"])
    monkeypatch.setattr(caching, "session_metrics", lambda: session["metrics"])
    monkeypatch.setattr(caching, "session_external_metrics", lambda: session["external"])
    base = caching.cache_key("scores", "bleu", 1000)
    assert caching.cache_key("scores", "bleu", 1000) == base  # equal parts, equal keys
    keys = {
        "view": caching.cache_key("bootstrap", "bleu", 1000),
        "choice": caching.cache_key("scores", "bleu", 2000),
        "content given": caching.cache_key("scores", "bleu", 1000, content="sha-2"),
    }
    flat_names = [
        *SHARED_FIELDS,
        *(f"{family.prefix}_{name}" for family in FAMILIES.values() for name in family.names()),
    ]
    assert sorted(OTHER_OPTIONS) == sorted(flat_names)
    for name, value in OTHER_OPTIONS.items():
        start = SPM_START if name == "spm_model" else Options()
        unchanged = caching.cache_key("scores", "bleu", 1000, options=start)
        given = caching.cache_key("scores", "bleu", 1000, options=start.updated(**{name: value}))
        keys[f"options given: {name}"] = base if given == unchanged else given
        session["options"] = start.updated(**{name: value})
        changed = caching.cache_key("scores", "bleu", 1000)
        keys[f"session options: {name}"] = base if changed == unchanged else changed
    session["options"] = Options()
    session["content"] = "sha-2"
    keys["session test set"] = caching.cache_key("scores", "bleu", 1000)
    session["content"] = "sha-1"
    session["metrics"] = ("chrf", "ter", "meteor")  # chosen on the Data page
    keys["session metrics"] = caching.cache_key("scores", "bleu", 1000)
    session["metrics"] = (*DASHBOARD_METRICS, "ter")
    keys["one more metric"] = caching.cache_key("scores", "bleu", 1000)
    session["metrics"] = DASHBOARD_METRICS
    session["external"] = {"comet-key": object()}
    keys["external metrics"] = caching.cache_key("scores", "bleu", 1000)
    assert [part for part, changed in keys.items() if changed == base] == []


def test_the_stemmers_are_imported_ahead_once_per_server_process(monkeypatch):
    """After each page, ``import_ahead`` (app.py); only its first call starts an import."""
    started = []

    class RecordedThread:
        def __init__(self, target, name, daemon):
            self.target = target
            started.append((name, daemon))

        def start(self):
            self.target()

    monkeypatch.setattr(background_imports, "_imports_ahead", background_imports.threading.Lock())
    monkeypatch.setattr(background_imports.threading, "Thread", RecordedThread)
    for _ in range(3):
        background_imports.import_ahead()
    assert started == [("mteval-import-ahead", True)]
    assert "nltk.stem" in sys.modules


def test_a_failed_import_ahead_is_logged_and_leaves_the_page_to_report_it(monkeypatch, caplog):
    def broken():
        raise ImportError("no module named nltk")

    monkeypatch.setattr(background_imports, "import_stemmers", broken)
    background_imports._import_quietly()
    assert "importing NLTK's stemmers ahead failed" in caplog.text
