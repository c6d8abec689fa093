"""Oracle results pinned in the repository, so that parity on whole test sets costs seconds.

The parity tests compare us with sacreBLEU (and other oracles) on every segment of the shared
test sets. Running the oracle on 48,000 segments takes up to a minute per test, most of the test
command's time; its answers never change while its version and its inputs stay the same. So a
test asks `oracle_values(...)` for them:

- the pin in tests/oracle_pins/NAME.npz is used when its key (a SHA-256 of the oracle's version,
  its options and every input string) matches; a sample of its entries is then recomputed by the
  live oracle and must equal the pin exactly, so a pin the oracle would not give fails the test;
- otherwise (no pin, another sacreBLEU version, changed data) the oracle runs on every entry, as
  it did before pins existed, and with MTEVAL_WRITE_ORACLE_PINS=1 the pin is written anew.

Refresh every pin: `MTEVAL_WRITE_ORACLE_PINS=1 .venv/bin/python -m pytest -n 2 tests`.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import numpy as np

PINS = Path(__file__).resolve().parent / "oracle_pins"
WRITE = os.environ.get("MTEVAL_WRITE_ORACLE_PINS") == "1"
SPOT_CHECKS = 48  # entries recomputed live on every run, chosen with a fixed seed


def inputs_key(oracle: str, texts: Iterable[str]) -> str:
    """SHA-256 of the oracle's description (name, version, options) and every input string,
    each followed by a separator that no string holds, so that no two inputs share a key."""
    digest = hashlib.sha256(oracle.encode("utf-8") + b"\x00")
    for text in texts:
        digest.update(text.encode("utf-8", "surrogatepass") + b"\x00\x01")
    return digest.hexdigest()


def text_digest(lines: Iterable[Sequence[str]]) -> str:
    """One digest for a file's tokenized lines: how a pin holds tokens without holding text."""
    digest = hashlib.sha256()
    for tokens in lines:
        digest.update("\x01".join(tokens).encode("utf-8", "surrogatepass") + b"\x00")
    return digest.hexdigest()


def oracle_values(
    name: str,
    key: str,
    count: int,
    compute: Callable[[Sequence[int]], Sequence[object]],
    spot_checks: int = SPOT_CHECKS,
) -> np.ndarray:
    """The oracle's values for entries 0..count-1 (numbers, or digest strings).

    ``compute(indices)`` runs the live oracle on those entries; ``key`` comes from
    `inputs_key`; ``spot_checks`` entries of a pin are recomputed live. Raises AssertionError
    when a pinned entry differs from the live oracle's."""
    path = PINS / f"{name}.npz"
    if path.is_file() and not WRITE:
        with np.load(path, allow_pickle=False) as pin:
            if str(pin["key"]) == key and len(pin["values"]) == count:
                values = pin["values"]
                spot_check(name, values, compute, spot_checks)
                return values
    values = np.asarray(compute(range(count)))
    if WRITE:
        PINS.mkdir(exist_ok=True)
        np.savez_compressed(path, key=np.array(key), values=values)
    return values


def spot_check(
    name: str, pinned: np.ndarray, compute: Callable[[Sequence[int]], Sequence], size: int
) -> None:
    if size == 0:
        return
    rng = np.random.default_rng(20261127)
    indices = sorted(rng.choice(len(pinned), size=min(size, len(pinned)), replace=False))
    live = np.asarray(compute(indices))
    for index, value in zip(indices, live, strict=True):
        assert np.array_equal(pinned[index], value), (
            f"the pin {name}.npz says {pinned[index]!r} for entry {index}, the live oracle "
            f"{value!r}: refresh the pins (see tests/oracle_pins.py)"
        )
