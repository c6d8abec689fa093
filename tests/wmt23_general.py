"""The WMT23 general task as released (../shared/data/wmt23-general-task, one .tar.xz), read in
memory: a language pair's reference refA and system outputs, and the organisers' BLEU against
refA. Its README says what reproduces the official BLEU with sacreBLEU 2.6: the zh tokenizer for
Chinese targets, char for Japanese, 13a otherwise (``TOKENIZERS``).

Imported as ``from tests.wmt23_general import ...``; tests that need it skip where it is absent.
"""

from __future__ import annotations

import csv
import io
import tarfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from mteval_core.model.testset import TestSet, TextColumn
from tests.helpers import shared_dataset

ARCHIVE = "wmt23-general-txt.tar.xz"
TOKENIZERS = {"en-zh": "zh", "en-ja": "char", "zh-en": "13a"}  # as WMT23 scored BLEU
# two systems of each pair the tests compare: the HW-TSC where the pair has it
SYSTEMS = {
    "en-zh": ("HW-TSC", "ONLINE-A"),
    "en-ja": ("ONLINE-B", "ONLINE-Y"),
    "zh-en": ("HW-TSC", "ONLINE-B"),
}


@dataclass(frozen=True)
class Wmt23Pair:
    """One language pair: file name -> lines of refA and of each system, and the organisers'
    BLEU against refA per system."""

    pair: str
    reference: tuple[str, tuple[str, ...]]  # (file name, lines)
    systems: dict[str, tuple[str, tuple[str, ...]]]  # system -> (file name, lines)
    official_bleu: dict[str, float]

    def test_set(self, systems: tuple[str, ...]) -> TestSet:
        """refA and ``systems``, named as the files name them."""
        name, lines = self.reference
        return TestSet(
            references=[TextColumn("refA", lines, name)],
            systems=[TextColumn(s, self.systems[s][1], self.systems[s][0]) for s in systems],
        )

    def write(self, folder: Path, systems: tuple[str, ...]) -> tuple[Path, list[Path]]:
        """refA and ``systems`` as files in ``folder``, under their released names (which give
        the languages)."""
        written = []
        for name, lines in (self.reference, *(self.systems[s] for s in systems)):
            path = folder / name
            path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
            written.append(path)
        return written[0], written[1:]


def wmt23_pair(pair: str) -> Wmt23Pair:
    """``pair`` (one of ``TOKENIZERS``), from the archive read once per test run."""
    return _released()[pair]


@cache
def _released() -> dict[str, Wmt23Pair]:
    """Every pair of ``TOKENIZERS``, in one pass over the archive (xz reads it end to end)."""
    archive = shared_dataset("wmt23-general-task") / ARCHIVE
    files: dict[str, tuple[str, ...]] = {}
    table = ""
    with tarfile.open(archive, "r:xz") as tar:
        for member in tar:
            name = Path(member.name).name
            wanted = any(name.startswith(f"generaltest2023.{pair}.") for pair in TOKENIZERS)
            if not member.isfile() or not (wanted or name == "automatic-scores.tsv"):
                continue
            text = tar.extractfile(member).read().decode("utf-8")
            if name == "automatic-scores.tsv":
                table = text
            else:
                files[name] = tuple(text.split("\n")[:-1])
    return {pair: _pair_of(pair, files, table) for pair in TOKENIZERS}


def _pair_of(pair: str, files: dict[str, tuple[str, ...]], table: str) -> Wmt23Pair:
    prefix = f"generaltest2023.{pair}."
    (reference,) = [(n, lines) for n, lines in files.items() if n.startswith(f"{prefix}ref.refA.")]
    systems = {
        name.split(".hyp.")[1].rsplit(".", 1)[0]: (name, lines)
        for name, lines in files.items()
        if name.startswith(f"{prefix}hyp.")
    }
    return Wmt23Pair(pair, reference, systems, _official_bleu(table, pair))


def _official_bleu(table: str, pair: str) -> dict[str, float]:
    rows = csv.DictReader(io.StringIO(table), delimiter="\t")
    return {
        row["system"]: float(row["score"])
        for row in rows
        if row["pair"] == pair and row["metric"] == "bleu-refA"
    }
