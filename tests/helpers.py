"""Helpers shared by the tests: where ../shared/data lives, small test sets built in memory, and
mt-metrics-eval folders (and archives of them) built in a temporary folder.

Imported as ``from tests.helpers import ...``; the fixtures built on them live in conftest.py.
"""

from __future__ import annotations

import csv
import io
import tarfile
import zipfile
from collections.abc import Sequence
from functools import cache
from pathlib import Path

import numpy as np
import pytest

from mteval_core.io import DirectoryRead, read_directory
from mteval_core.model.testset import TestSet, TextColumn

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = ROOT.parent / "shared" / "data"
SAMPLE_DATA = ROOT / "sample_data"


def shared_dataset(name: str) -> Path:
    """A folder of ../shared/data, or a clean skip where it is absent (e.g. outside CI)."""
    path = SHARED_DATA / name
    if not path.is_dir():
        pytest.skip(f"{path} is not available")
    return path


@cache
def wmt23_pair(pair: str) -> dict[str, tuple[str, ...]]:
    """One language pair of the WMT23 general task as released (wmt23-general-txt.tar.xz, read
    in memory): "refA" and every system by name ("ONLINE-B"), each its segments. Its README
    says what reproduces the official BLEU (char for Japanese, zh for Chinese, refA)."""
    archive = shared_dataset("wmt23-general-task") / "wmt23-general-txt.tar.xz"
    texts: dict[str, tuple[str, ...]] = {}
    with tarfile.open(archive) as tar:
        for member in tar:
            name = Path(member.name).name
            if not member.isfile() or not name.startswith(f"generaltest2023.{pair}."):
                continue
            kind, _, rest = name.removeprefix(f"generaltest2023.{pair}.").partition(".")
            label = rest.rsplit(".", 1)[0]  # "ref.refA.ja" -> "refA", "hyp.ONLINE-B.ja" -> ...
            if kind in ("ref", "hyp"):
                data = tar.extractfile(member).read().decode("utf-8")
                texts[label] = tuple(data.split("\n")[:-1])
    return texts


@cache
def wmt23_official_bleu(pair: str) -> dict[str, float]:
    """The organisers' BLEU against refA ("bleu-refA" of scores/automatic-scores.tsv) by system."""
    archive = shared_dataset("wmt23-general-task") / "wmt23-general-txt.tar.xz"
    with tarfile.open(archive) as tar:
        table = tar.extractfile("scores/automatic-scores.tsv").read().decode("utf-8")
    rows = csv.DictReader(io.StringIO(table), delimiter="\t")
    return {
        row["system"]: float(row["score"])
        for row in rows
        if row["pair"] == pair and row["metric"] == "bleu-refA"
    }


def read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


@cache
def wmt23_general(pair: str, systems: tuple[str, ...]) -> TestSet:
    """The WMT23 general task's ``pair`` (e.g. "zh-en"): reference refA and ``systems`` (named as
    in the file names), read from the shared archive in memory (skips where it is absent)."""
    archive = shared_dataset("wmt23-general-task") / "wmt23-general-txt.tar.xz"
    target = pair.split("-")[1]
    wanted = {f"txt/references/generaltest2023.{pair}.ref.refA.{target}": "refA"}
    wanted |= {f"txt/system-outputs/generaltest2023.{pair}.hyp.{s}.{target}": s for s in systems}
    texts: dict[str, tuple[str, ...]] = {}
    with tarfile.open(archive) as members:
        for member in members:
            if member.name in wanted:
                data = members.extractfile(member).read().decode("utf-8")  # type: ignore[union-attr]
                texts[wanted[member.name]] = tuple(data.split("\n")[:-1])
    missing = set(wanted.values()) - set(texts)
    assert not missing, f"not in {archive}: {sorted(missing)}"
    return TestSet(
        references=[TextColumn("refA", texts["refA"], f"{pair}.refA")],
        systems=[TextColumn(s, texts[s], f"{pair}.{s}") for s in systems],
    )


def make_test_set(
    references: Sequence[Sequence[str]] | Sequence[str],
    systems: dict[str, Sequence[str]],
) -> TestSet:
    """references: one list of segments per reference (or a single list for one reference)."""
    if references and isinstance(references[0], str):
        references = [references]  # type: ignore[list-item]
    return TestSet(
        references=[
            TextColumn(f"ref{i + 1}", tuple(r), f"ref{i + 1}.txt") for i, r in enumerate(references)
        ],
        systems=[TextColumn(name, tuple(s), f"{name}.txt") for name, s in systems.items()],
    )


@cache
def load_sample() -> DirectoryRead:
    """The dashboard's sample test set (sample_data/), read once per test run."""
    return read_directory(SAMPLE_DATA)


def cell_pixels(figure) -> tuple[float, float]:
    """The room per cell of a bitext grid figure, across and down (a short grid may get more
    across: its figure keeps a minimum width)."""
    layout, (cells,) = figure.layout, figure.data
    rows, columns = len(cells.z), len(cells.z[0])
    width = (layout.width - layout.margin.l - layout.margin.r) / columns
    height = (layout.height - layout.margin.t - layout.margin.b) / rows
    return width, height


# ----------------------------------------------------------------- mt-metrics-eval folders
N_DOC = 10  # segments per made-up document: the shared copy has no document ids


def mtme_from_shared(root: Path) -> Path:
    """wmt21.news en-de in mt-metrics-eval's layout under ``root``, from ../shared/data: the
    references refA, refC, refD (also as human outputs), the 20 systems, MQM at segment level
    ('None' where unrated, as mt-metrics-eval writes it) and system level, made-up documents
    and two metric files: sentence chrF with refC (read) and with refA (another reference)."""
    data = shared_dataset("wmt21-newstest2021-ende")
    folder = root / "wmt21.news"
    for sub in ("sources", "references", "system-outputs/en-de", "documents", "human-scores"):
        (folder / sub).mkdir(parents=True)
    (folder / "metric-scores/en-de").mkdir(parents=True)
    (folder / "sources/en-de.txt").write_bytes((data / "src.en").read_bytes())
    for ref in sorted((data / "ref").iterdir()):
        name = "ref" + ref.stem.split("-")[1]  # ref-C.de -> refC
        (folder / f"references/en-de.{name}.txt").write_bytes(ref.read_bytes())
        (folder / f"system-outputs/en-de/{name}.txt").write_bytes(ref.read_bytes())
    for system in sorted((data / "sys").iterdir()):
        (folder / f"system-outputs/en-de/{system.stem}.txt").write_bytes(system.read_bytes())
    n = len((data / "src.en").read_text(encoding="utf-8").splitlines())
    docs = "".join(f"news doc{i // N_DOC}\n" for i in range(n))
    (folder / "documents/en-de.docs").write_text(docs, encoding="utf-8")
    rated: dict[str, dict[int, str]] = {}
    with open(data / "human/mqm_seg.tsv", encoding="utf-8") as file:
        for row in csv.DictReader(file, delimiter="\t"):
            rated.setdefault(mtme_name(row["system"]), {})[int(row["segment_id"])] = row["score"]
    lines = [
        f"{system}\t{scores.get(i, 'None')}\n"
        for system, scores in rated.items()
        for i in range(1, n + 1)
    ]
    (folder / "human-scores/en-de.mqm.seg.score").write_text("".join(lines), encoding="utf-8")
    with open(data / "human/mqm_sys.tsv", encoding="utf-8") as file:
        rows = list(csv.DictReader(file, delimiter="\t"))
    sys_lines = "".join(f"{mtme_name(row['system'])}\t{row['score']}\n" for row in rows)
    (folder / "human-scores/en-de.mqm.sys.score").write_text(sys_lines, encoding="utf-8")
    return root


def mtme_name(system: str) -> str:
    return "ref" + system.split("-")[1] if system.startswith("ref-") else system


def write_metric(root: Path, name: str, scores: dict[str, np.ndarray]) -> None:
    lines = [f"{s}\t{value!r}\n" for s, values in scores.items() for value in values.tolist()]
    path = root / "wmt21.news/metric-scores/en-de" / f"{name}.seg.score"
    path.write_text("".join(lines), encoding="utf-8")


WMT23_ZHEN_SYSTEMS = 15  # MT systems of WMT23 zh-en in the shared copy (no human outputs)


def mtme_wmt23_zhen(root: Path) -> Path:
    """wmt23 zh-en in mt-metrics-eval's layout under ``root``, from ../shared/data: the source,
    refA and the 15 systems of wmt23-general-task, made-up documents of 10 segments; MQM of the
    10 systems rated in wmt23-zhen-mqm (Google's side-by-side file, placed by our reader, as
    points with the sign that makes higher better) at segment and system level; and BLEU-refA
    and chrF-refA as mt-metrics-eval ships them: .sys.score the organisers' official corpus
    scores (scores/automatic-scores.tsv), .seg.score sentence scores, computed here with our
    BLEU and chrF (sentence BLEU and sentence chrF, as in its seg files)."""
    from mteval_core.io.mtme import read_mtme

    folder = root / "wmt23"
    for sub in ("sources", "references", "system-outputs/zh-en", "human-scores", "documents"):
        (folder / sub).mkdir(parents=True)
    (folder / "metric-scores/zh-en").mkdir(parents=True)
    official = _wmt23_zhen_texts(folder)
    n = len((folder / "sources/zh-en.txt").read_text(encoding="utf-8").splitlines())
    docs = "".join(f"news doc{i // N_DOC}\n" for i in range(n))  # made up, as for WMT21
    (folder / "documents/zh-en.docs").write_text(docs, encoding="utf-8")
    test_set = read_mtme(root, "wmt23", "zh-en").test_set
    assert len(test_set.system_names) == WMT23_ZHEN_SYSTEMS
    _wmt23_zhen_mqm(folder, test_set)
    _wmt23_zhen_metrics(folder, test_set, official)
    return root


def _wmt23_zhen_texts(folder: Path) -> dict[str, dict[str, str]]:
    """The texts of zh-en written in the layout; the official bleu-refA and chrf-refA of each
    system, as the file writes them."""
    official: dict[str, dict[str, str]] = {"bleu-refA": {}, "chrf-refA": {}}
    txt = shared_dataset("wmt23-general-task") / "wmt23-general-txt.tar.xz"
    with tarfile.open(txt) as archive:
        for member in archive.getmembers():
            name = member.name.rsplit("/", 1)[-1]
            if member.name == "scores/automatic-scores.tsv":
                rows = archive.extractfile(member).read().decode("utf-8").splitlines()[1:]
                for row in (r.split("\t") for r in rows if r.startswith("zh-en\t")):
                    if row[4] in official:
                        official[row[4]][row[1]] = row[5]
            elif name.startswith("generaltest2023.zh-en."):
                data = archive.extractfile(member).read()
                part = name.split(".")
                if part[2] == "src":
                    (folder / "sources/zh-en.txt").write_bytes(data)
                elif part[2] == "ref":
                    (folder / f"references/zh-en.{part[3]}.txt").write_bytes(data)
                else:
                    system = ".".join(part[3:-1])
                    (folder / f"system-outputs/zh-en/{system}.txt").write_bytes(data)
    return official


def _wmt23_zhen_mqm(folder: Path, test_set: TestSet) -> None:
    from mteval_core.io.human_judgments import read_human_for

    mqm = shared_dataset("wmt23-zhen-mqm")
    with tarfile.open(next(mqm.glob("*.tsv.tar.gz"))) as archive:
        member = archive.getmembers()[0]
        data = archive.extractfile(member).read()
    # the header's 11th column is a comment ('# Documentation: URL') that no row fills
    header, rest = data.split(b"\n", 1)
    header = b"\t".join(cell for cell in header.split(b"\t") if not cell.startswith(b"#"))
    rows = read_human_for(test_set, header + b"\n" + rest, member.name).scores.segment_rows
    sign = 1.0 if rows["score"].min() < 0 else -1.0  # mt-metrics-eval: higher is better
    seg_lines, sys_lines = [], []
    for system, rated in rows.groupby("system", sort=True):
        by_segment = dict(zip(rated["segment"], sign * rated["score"], strict=True))
        segments = range(1, 1 + test_set.n_segments)
        seg_lines += [f"{system}\t{by_segment.get(i, 'None')}\n" for i in segments]
        sys_lines.append(f"{system}\t{float(np.mean(list(by_segment.values())))!r}\n")
    (folder / "human-scores/zh-en.mqm.seg.score").write_text("".join(seg_lines), encoding="utf-8")
    (folder / "human-scores/zh-en.mqm.sys.score").write_text("".join(sys_lines), encoding="utf-8")


def _wmt23_zhen_metrics(
    folder: Path, test_set: TestSet, official: dict[str, dict[str, str]]
) -> None:
    from mteval_core.metrics.scoring import score_test_set
    from mteval_core.settings.options import Options

    segments = score_test_set(test_set, ["bleu", "chrf"], Options()).segments()
    for metric, ours in (("BLEU", "bleu"), ("chrF", "chrf")):
        scores = official[f"{ours}-refA"]
        path = folder / f"metric-scores/zh-en/{metric}-refA"
        systems = test_set.system_names
        sys_lines = [f"{s}\t{scores[s]}\n" for s in systems]
        seg_lines = [f"{s}\t{value!r}\n" for s in systems for value in segments[s][ours].tolist()]
        path.with_suffix(".sys.score").write_text("".join(sys_lines), encoding="utf-8")
        path.with_suffix(".seg.score").write_text("".join(seg_lines), encoding="utf-8")


def tiny(root: Path, *, seg_score: str | None = None, docs: str | None = None) -> Path:
    """A small wmt22 de-en folder under ``root``: 3 segments, references refA and refB (refB
    also a human output), systems s1 and s2, documents and MQM segment scores."""
    folder = root / "wmt22"
    for sub in ("sources", "references", "system-outputs/de-en", "documents", "human-scores"):
        (folder / sub).mkdir(parents=True)
    (folder / "metric-scores/de-en").mkdir(parents=True)
    (folder / "sources/de-en.txt").write_text("a\nb\nc\n", encoding="utf-8")
    (folder / "references/de-en.refA.txt").write_text("x y\nz\nw\n", encoding="utf-8")
    (folder / "references/de-en.refB.txt").write_text("x\nz z\nw\n", encoding="utf-8")
    (folder / "system-outputs/de-en/refB.txt").write_text("x\nz z\nw\n", encoding="utf-8")
    (folder / "system-outputs/de-en/s1.txt").write_text("x y\nz\nq\n", encoding="utf-8")
    (folder / "system-outputs/de-en/s2.txt").write_text("x\nq\nq\n", encoding="utf-8")
    (folder / "documents/de-en.docs").write_text(
        docs if docs is not None else "news d1\nnews d1\nsocial d2\n", encoding="utf-8"
    )
    default = "s1\t-1\ns1\tNone\ns1\t0\ns2\t-5\ns2\t-2\ns2\tNone\nrefB\t0\nrefB\t0\nrefB\t-1\n"
    score = seg_score if seg_score is not None else default
    (folder / "human-scores/de-en.mqm.seg.score").write_text(score, encoding="utf-8")
    return root


def archive_of(root: Path, kind: str = "zip", members: Sequence[Path] | None = None) -> bytes:
    """The files under ``root`` (or only ``members``, paths under it) as a .zip or .tar.gz in
    memory, named by their paths relative to ``root``, as `zip -r` or `tar czf` run in ``root``
    would write them."""
    paths = sorted(members if members is not None else (p for p in root.rglob("*") if p.is_file()))
    buffer = io.BytesIO()
    if kind == "zip":
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for path in paths:
                archive.write(path, path.relative_to(root).as_posix())
    else:
        with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
            for path in paths:
                archive.add(path, path.relative_to(root).as_posix())
    return buffer.getvalue()
