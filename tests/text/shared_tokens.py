"""A tokenizer of ours against sacreBLEU's on every line of every shared file, with pins.

sacreBLEU's tokenization of the shared files is pinned as one digest per file
(tests/oracle_pins.py): the test tokenizes each file with our code and compares digests; a
file whose digest differs is then compared line by line with the live oracle to name the line.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import sacrebleu

from tests.helpers import SHARED_DATA
from tests.oracle_pins import inputs_key, oracle_values, text_digest

Tokenizer = Callable[[list[str]], list[list[str]]]


def shared_files() -> list[Path]:
    files = sorted(SHARED_DATA.glob("*/sys/*")) + sorted(SHARED_DATA.glob("*/ref/*"))
    if not files:
        pytest.skip("../shared/data is not available")
    return files


def assert_tokens_equal_sacrebleu(pin: str, ours: Tokenizer, oracle: Callable[[str], str]) -> None:
    """``ours`` tokenizes a file's lines; ``oracle`` is a sacreBLEU tokenizer (one line, a
    string of space-separated tokens, applied to the line without trailing whitespace)."""
    files = shared_files()
    contents = [path.read_text(encoding="utf-8").split("\n") for path in files]

    def sacrebleu_tokens(lines: list[str]) -> list[list[str]]:
        return [oracle(line.rstrip()).split() for line in lines]

    expected = oracle_values(
        pin,
        inputs_key(f"sacrebleu {sacrebleu.__version__} {pin}", (t for c in contents for t in c)),
        len(files),
        lambda indices: [text_digest(sacrebleu_tokens(contents[i])) for i in indices],
        spot_checks=2,
    )
    for path, lines, digest in zip(files, contents, expected, strict=True):
        if text_digest(ours(lines)) != digest:
            for line, got, want in zip(lines, ours(lines), sacrebleu_tokens(lines), strict=True):
                assert got == want, (path, line)
            raise AssertionError(f"{path}: the pinned digest differs, no line does: refresh pins")
