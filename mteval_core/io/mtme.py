"""A test set as google-research/mt-metrics-eval shares WMT19-WMT25: one folder per test set.

    TESTSET/sources/LP.txt                      the source, one segment per line
    TESTSET/references/LP.REF.txt               one file per reference (refA, refB, ...)
    TESTSET/system-outputs/LP/NAME.txt          one file per system; a reference's text is here
                                                too, named as the reference ("human outputs")
    TESTSET/documents/LP.docs                   'DOMAIN DOCNAME' per segment
    TESTSET/human-scores/LP.NAME.LEVEL.score    'SYSTEM SCORE' lines; LEVEL seg (a block of one
                                                line per segment for every system) or sys;
                                                'None' where a segment was not rated
    TESTSET/metric-scores/LP/METRIC-REF.LEVEL.score   the same, for metrics; REF is the
                                                reference(s) used, 'src' for none, 'all' for all

Only the files of the chosen language pair are read. The test set gets one reference: the one
asked for, else mt-metrics-eval's standard reference of that set (``STANDARD_REFERENCES``; refA
where it names none). Human outputs are kept apart: by default none of them is a system (their
human and metric scores are set aside with a note), and with ``human_outputs`` the references
other than the chosen one are scored as systems, as mt-metrics-eval's ``include_human`` does.
Human scores become criteria named as the files name them (mqm, wmt-z, esa, ...), at segment and
system level; metric scores become external metrics named ``METRIC-REF`` (the segment file when
there is one, else the system file), read only when they use the chosen reference or none, as
mt-metrics-eval's GetCorrelations keeps them. mt-metrics-eval stores every score so that higher
is better (MQM as negative error points), and so they are read. Document- and domain-level files
and ratings are not read; the notes say what was left out.

The files are read through a small tree interface, so the same code reads a folder on disk and
an uploaded archive (:mod:`mteval_core.io.archives`) without unpacking it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from mteval_core.errors import InputError, listed_names
from mteval_core.io.decoding import decode, read_bytes, split_lines
from mteval_core.io.human_read import keep_known_systems
from mteval_core.io.metric_scores import read_metric_scores, read_score_lines
from mteval_core.io.plain import read_plain
from mteval_core.io.system_names import name_notes, refuse_undecodable_name
from mteval_core.metrics.external import METRIC_NAME, ExternalMetric
from mteval_core.model.testset import HumanScores, TestSet, TextColumn

LAYOUT_HINT = (
    "An mt-metrics-eval folder holds TESTSET/sources/LP.txt, TESTSET/references/LP.REF.txt, "
    "TESTSET/system-outputs/LP/SYSTEM.txt, and optionally documents/LP.docs, "
    "human-scores/LP.NAME.seg.score (or .sys.score) and metric-scores/LP/METRIC-REF.seg.score "
    "(and .sys.score)."
)
# mt-metrics-eval's standard reference where it is not refA (its meta_info.py); a test set's
# default first, then its language pairs.
STANDARD_REFERENCES: dict[str, dict[str, str]] = {
    "wmt19": {"*": "ref"},
    "wmt20": {"*": "ref"},
    "wmt21.news": {"en-de": "refC", "zh-en": "refB"},
    "wmt21.tedtalks": {"zh-en": "refB"},
    "wmt22": {"cs-en": "refB", "en-cs": "refB"},
    "wmt23": {"he-en": "refB", "en-he": "refB"},
    "wmt24": {"en-de": "refB"},
    "wmt24pp": {"*": "posteditA", "en-de_DE": "posteditB", "en-is_IS": "refA"},
}
# The human scores taken when none is asked for: mt-metrics-eval's standard gold of the newer sets
# first (MQM, ESA, DA+SQM, Appraise), then WMT19-21's segment-level raw DA and system z-scores.
CRITERION_PREFERENCE = (
    "mqm",
    "esa",
    "esa-human1",
    "da-sqm",
    "wmt-appraise",
    "wmt",
    "wmt-raw",
    "wmt-z",
)
SCORE_LEVELS = {"seg": "segment", "sys": "system"}
# (segments, texts, systems, the source's origin) -> raise if too many
SizeCheck = Callable[[int, int, int, str], None]


@dataclass(frozen=True)
class HowToChoose:
    """How the notes tell the user to choose what was chosen for them: neutral words by
    default, the command line's flags (cli/arguments.py) or a page's own words in their place."""

    reference: str = "choose another reference"
    # how to score the other references as systems; None where there is no such choice
    human_outputs: str | None = None


class FileTree(Protocol):
    """Where the files come from: a folder, or an archive read in memory."""

    def is_folder(self, path: str) -> bool: ...

    def files(self, folder: str) -> list[str]:
        """The names of the files directly inside ``folder``, sorted."""
        ...

    def read(self, path: str) -> bytes: ...

    def origin(self, path: str) -> str:
        """How a message names the file."""
        ...


class DiskTree:
    """A test set folder on disk."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def is_folder(self, path: str) -> bool:
        return (self.root / path).is_dir()

    def files(self, folder: str) -> list[str]:
        directory = self.root / folder
        if not directory.is_dir():
            return []
        names = sorted(
            entry.name
            for entry in directory.iterdir()
            if entry.is_file() and not entry.name.startswith(".")
        )
        for name in names:
            refuse_undecodable_name(name, str(directory))
        return names

    def read(self, path: str) -> bytes:
        return read_bytes(self.root / path)

    def origin(self, path: str) -> str:
        return str(self.root / path)


@dataclass(frozen=True)
class MtmeRead:
    """The test set (one reference, the systems, documents, human scores), the metric scores
    as external metrics, and what was chosen or left out, for the user to see."""

    test_set: TestSet
    external: tuple[ExternalMetric, ...]
    notes: tuple[str, ...]
    reference: str  # the reference the test set uses
    criterion: str | None  # the human scores to correlate with by default; None without any
    human_outputs: tuple[str, ...]  # references' texts in system-outputs, kept as systems or not


def read_mtme(
    root: str | Path,
    test_set: str,
    lp: str,
    reference: str | None = None,
    *,
    human_outputs: bool = False,
    how_to_choose: HowToChoose = HowToChoose(),
) -> MtmeRead:
    """Read language pair ``lp`` of ``root/test_set`` (or of ``root`` itself when it is the test
    set's folder); see the module docstring for the layout and what is chosen, and
    ``read_mtme_tree`` for ``how_to_choose``."""
    base = Path(root)
    if not base.is_dir():
        problem = "this is not a folder" if base.exists() else "the folder does not exist"
        raise InputError(problem, origin=str(base), hint=LAYOUT_HINT)
    folder = base / test_set
    if not folder.is_dir():
        if not (base / "sources").is_dir():
            found = sorted(p.name for p in base.iterdir() if (p / "sources").is_dir())
            raise InputError(
                f"there is no test set folder {test_set!r} here",
                origin=str(base),
                hint=(f"Test sets here: {listed_names(found)}. " if found else "")
                + "Give the folder that holds the test set folders (e.g. mt-metrics-eval-v2) "
                "and the test set's name.",
            )
        folder = base  # the test set's own folder was given
    return read_mtme_tree(
        DiskTree(folder),
        test_set,
        lp,
        reference,
        human_outputs=human_outputs,
        how_to_choose=how_to_choose,
    )


def language_pairs(tree: FileTree) -> list[str]:
    """The language pairs of a test set: one per source file."""
    return [name[: -len(".txt")] for name in tree.files("sources") if name.endswith(".txt")]


def reference_names(tree: FileTree, lp: str) -> list[str]:
    """The references of a language pair (refA, refB, ...), in name order."""
    return sorted(_text_files(tree, "references", f"{lp}.", ".txt"))


def standard_reference(test_set: str, lp: str, references: Sequence[str]) -> str:
    """mt-metrics-eval's standard reference of the set, when it has that text; else refA, ref,
    or the first reference in name order."""
    known = STANDARD_REFERENCES.get(test_set, {})
    for name in (known.get(lp), known.get("*"), "refA", "ref"):
        if name in references:
            return name
    return sorted(references)[0]


def read_mtme_tree(  # long: one step per folder of the layout, in reading order
    tree: FileTree,
    test_set: str,
    lp: str,
    reference: str | None = None,
    *,
    human_outputs: bool = False,
    check_size: SizeCheck | None = None,
    how_to_choose: HowToChoose = HowToChoose(),
) -> MtmeRead:
    """:func:`read_mtme` of any tree; ``check_size`` refuses a set too large (the dashboard's
    limits) once the source is read, before the references and systems are; the notes say how
    to choose otherwise in ``how_to_choose``'s words."""
    notes: list[str] = []
    source = _read_source(tree, lp)
    n_segments = len(source)
    references = _text_files(tree, "references", f"{lp}.", ".txt")
    if not references:
        raise InputError(
            f"there is no reference for {lp} (references/{lp}.REF.txt)",
            origin=tree.origin("references"),
            hint=LAYOUT_HINT,
        )
    chosen = _choose_reference(test_set, lp, references, reference, tree, notes, how_to_choose)
    outputs = _text_files(tree, f"system-outputs/{lp}", "", ".txt")
    if not outputs:
        raise InputError(
            f"there are no system outputs for {lp} (system-outputs/{lp}/SYSTEM.txt)",
            origin=tree.origin(f"system-outputs/{lp}"),
            hint=LAYOUT_HINT,
        )
    human = [name for name in outputs if name in references]
    kept_human = [name for name in human if human_outputs and name != chosen]
    systems = [name for name in outputs if name not in human or name in kept_human]
    _note_human_outputs(human, kept_human, chosen, notes, how_to_choose)
    if not systems:
        raise InputError(
            f"the system outputs of {lp} are all references' texts ({listed_names(human)})",
            origin=tree.origin(f"system-outputs/{lp}"),
            hint=(
                f"Score the other references as systems ({how_to_choose.human_outputs}), or add "
                "system outputs."
                if how_to_choose.human_outputs
                else "Add system outputs."
            ),
        )
    if check_size is not None:
        origin = tree.origin(f"sources/{lp}.txt")
        check_size(n_segments, n_segments * (len(systems) + 1), len(systems), origin)
    texts = TestSet(
        references=[_read_text(tree, f"references/{lp}.{chosen}.txt", chosen)],
        systems=[_read_text(tree, f"system-outputs/{lp}/{name}.txt", name) for name in systems],
        source=source,
        documents=_read_documents(tree, lp, n_segments, notes),
        name=f"{test_set} {lp}",
    )
    notes.extend(name_notes(texts))
    judgments = _read_human(tree, lp, texts, notes)
    if judgments is not None:
        texts = texts.with_human(judgments)
    external = _read_metrics(tree, lp, chosen, texts, notes)
    return MtmeRead(
        texts, tuple(external), tuple(notes), chosen, _criterion(judgments), tuple(human)
    )


# ------------------------------------------------------------------------------------ text files
def _read_source(tree: FileTree, lp: str) -> TextColumn:
    path = f"sources/{lp}.txt"
    if not tree.is_folder("sources"):
        raise InputError("there is no sources/ folder", origin=tree.origin(""), hint=LAYOUT_HINT)
    pairs = language_pairs(tree)
    if f"{lp}.txt" not in tree.files("sources"):
        raise InputError(
            f"there is no source file for the language pair {lp!r}",
            origin=tree.origin(path),
            hint=f"Language pairs here: {listed_names(pairs) or 'none'}.",
        )
    return _read_text(tree, path, "source")


def _read_text(tree: FileTree, path: str, name: str) -> TextColumn:
    return read_plain(tree.read(path), tree.origin(path), name)


def _text_files(tree: FileTree, folder: str, prefix: str, suffix: str) -> list[str]:
    """The names between ``prefix`` and ``suffix`` of the files in ``folder``."""
    return [
        name[len(prefix) : -len(suffix)]
        for name in tree.files(folder)
        if name.startswith(prefix) and name.endswith(suffix) and len(name) > len(prefix + suffix)
    ]


def _choose_reference(
    test_set: str,
    lp: str,
    references: list[str],
    asked: str | None,
    tree: FileTree,
    notes: list[str],
    how_to_choose: HowToChoose,
) -> str:
    if asked is not None:
        if asked not in references:
            raise InputError(
                f"there is no reference {asked!r} for {lp}",
                origin=tree.origin("references"),
                hint=f"References of {lp}: {listed_names(sorted(references))}.",
            )
        return asked
    chosen = standard_reference(test_set, lp, references)
    if len(references) > 1:
        notes.append(
            f"reference {chosen} of {listed_names(sorted(references))} (mt-metrics-eval's "
            f"standard reference of {test_set} {lp} where it names one); "
            f"{how_to_choose.reference}"
        )
    return chosen


def _note_human_outputs(
    human: list[str], kept: list[str], chosen: str, notes: list[str], how_to_choose: HowToChoose
) -> None:
    left_out = [name for name in human if name not in kept]
    if kept:
        notes.append(f"references scored as systems: {listed_names(kept)}")
    if left_out:
        notes.append(
            f"system outputs that are references' texts ({listed_names(left_out)}) are not "
            "systems here; their human and metric scores are set aside"
            + (
                f" ({how_to_choose.human_outputs} scores the others as systems)"
                if how_to_choose.human_outputs and [name for name in left_out if name != chosen]
                else ""
            )
        )


def _read_documents(
    tree: FileTree, lp: str, n_segments: int, notes: list[str]
) -> tuple[str, ...] | None:
    """Each segment's document, from 'DOMAIN DOCNAME' lines (the domains are not kept)."""
    path = f"documents/{lp}.docs"
    if f"{lp}.docs" not in tree.files("documents"):
        notes.append(f"no documents/{lp}.docs: the segments have no document ids")
        return None
    origin = tree.origin(path)
    lines = [line for line in split_lines(decode(tree.read(path), origin))]
    while lines and not lines[-1].strip():
        lines.pop()
    if len(lines) != n_segments:
        raise InputError(
            f"has {len(lines):,} lines but the source has {n_segments:,} segments",
            origin=origin,
            hint="A .docs file has one 'DOMAIN DOCNAME' line per segment of the source.",
        )
    documents = []
    for number, line in enumerate(lines, start=1):
        fields = line.split()
        if len(fields) != 2:
            raise InputError(
                f"expected a domain and a document name, found {len(fields)} fields",
                origin=origin,
                line=number,
                hint="A .docs file has one 'DOMAIN DOCNAME' line per segment of the source.",
            )
        documents.append(fields[1])
    return tuple(documents)


# ------------------------------------------------------------------------------------ scores
def _score_files(tree: FileTree, folder: str, prefix: str) -> list[tuple[str, str, str]]:
    """(file name, NAME, LEVEL) of the NAME.LEVEL.score files in ``folder`` whose name starts
    with ``prefix`` (the prefix left out of NAME)."""
    found = []
    for file in tree.files(folder):
        if not file.startswith(prefix) or not file.endswith(".score"):
            continue
        name, _, level = file[len(prefix) : -len(".score")].rpartition(".")
        if name:
            found.append((file, name, level))
    return found


def _read_human(tree: FileTree, lp: str, test_set: TestSet, notes: list[str]) -> HumanScores | None:
    """Every seg and sys file as a criterion named as the file names it; rows of systems without
    text in the test set are set aside with a note (as for any WMT judgments file)."""
    import pandas as pd  # judgments need pandas; reading the texts alone does not

    known = [*test_set.system_names, *test_set.reference_names]
    parts, other_levels = [], []
    for file, name, level in _score_files(tree, "human-scores", f"{lp}."):
        if level not in SCORE_LEVELS:
            other_levels.append(file)
            continue
        origin = tree.origin(f"human-scores/{file}")
        text = decode(tree.read(f"human-scores/{file}"), origin)
        lines = [
            line
            for line in read_score_lines(text, origin, test_set.n_segments, unrated=True)
            if line.value is not None
        ]
        if not lines:
            notes.append(f"{origin}: no system was rated")
            continue
        frame = pd.DataFrame(
            {
                "system": [line.system for line in lines],
                "segment": [line.segment or 0 for line in lines],
                "score": [line.value for line in lines],
                "criterion": name,
                "origin": origin,
                "line": [line.line for line in lines],
            }
        )
        scores = HumanScores(frame) if level == "seg" else HumanScores(system_rows=frame)
        read = keep_known_systems(scores, known, origin)
        notes.extend(read.notes)
        parts.append(read.scores)
    if other_levels:
        notes.append(
            f"document- and domain-level human scores are not read: {listed_names(other_levels)}"
        )
    return HumanScores.concat(parts) if parts else None


def _criterion(judgments: HumanScores | None) -> str | None:
    if judgments is None:
        return None
    criteria = judgments.criteria
    for name in CRITERION_PREFERENCE:
        if name in criteria:
            return name
    return criteria[0] if criteria else None


def _read_metrics(
    tree: FileTree, lp: str, reference: str, test_set: TestSet, notes: list[str]
) -> list[ExternalMetric]:
    """One metric per METRIC-REF that uses ``reference`` or none, as mt-metrics-eval's EvalSet
    reads them: its system scores from ``METRIC-REF.sys.score`` where there is one (else the
    means of its segment scores), its segment scores from ``METRIC-REF.seg.score`` where there
    is one. Scores of systems the test set leaves out are set aside with one note; a file that
    lacks a system of the test set is left out with another."""
    folder = f"metric-scores/{lp}"
    found = _metric_files(tree, folder, lp, reference, notes)
    metrics, set_aside, incomplete = [], set(), []
    for name, levels in sorted(found.items()):
        read: dict[str, ExternalMetric] = {}
        metric_name = _metric_name(name, notes)
        for level, file in sorted(levels.items()):
            origin = tree.origin(f"{folder}/{file}")
            kept, outside, missing = _lines_of_known_systems(
                tree.read(f"{folder}/{file}"), origin, test_set
            )
            if missing:
                incomplete.append(f"{file} (no scores for {listed_names(missing, 3)})")
                continue
            set_aside.update(outside)
            read[level] = read_metric_scores(
                kept, origin, test_set, name=metric_name, higher_is_better=True
            )
        if read:
            metrics.append(_one_metric(read))
    _note_metric_levels(metrics, notes)
    if set_aside:
        notes.append(
            f"metric scores of {listed_names(sorted(set_aside))}, which are not systems here, "
            "were set aside"
        )
    if incomplete:
        notes.append(
            f"metric files that do not score every system were not read: {listed_names(incomplete)}"
        )
    return metrics


def _metric_files(
    tree: FileTree, folder: str, lp: str, reference: str, notes: list[str]
) -> dict[str, dict[str, str]]:
    """METRIC-REF -> level ('seg', 'sys') -> file, for the metrics that use ``reference`` or
    none; notes for the files of other references and those that cannot be read."""
    found: dict[str, dict[str, str]] = {}
    other_references, unreadable = [], []
    for file, name, level in _score_files(tree, folder, ""):
        metric, dash, used = name.rpartition("-")
        if level not in SCORE_LEVELS or not dash or not metric:
            unreadable.append(file)
            continue
        if used not in ("src", reference) and not (used == "all" and _one_reference(tree, lp)):
            other_references.append(name)
            continue
        found.setdefault(name, {})[level] = file
    if other_references:
        kinds = len(set(other_references))
        notes.append(
            f"{kinds:,} metric score file(s) that use other references than {reference} were "
            "not read"
        )
    if unreadable:
        notes.append(
            f"metric score files not read (document or domain level, or no -REF): "
            f"{listed_names(unreadable)}"
        )
    return found


def _lines_of_known_systems(
    data: bytes, origin: str, test_set: TestSet
) -> tuple[bytes, set[str], list[str]]:
    """The file with the lines of systems the test set lacks blanked (not removed, so that
    line numbers stay the file's), those systems, and the test set's systems it lacks. Lines
    are split as the reader splits them (:func:`read_score_lines`), so a message about a
    system names what the reader would read."""
    text = decode(data, origin)
    lines = split_lines(text)
    records = read_score_lines(text, origin, test_set.n_segments)
    known = set(test_set.system_names)
    in_file = {record.system for record in records}
    for record in records:
        if record.system not in known:
            lines[record.line - 1] = ""
    missing = sorted(known - in_file)
    return "\n".join(lines).encode("utf-8"), in_file - known, missing


def _one_metric(read: dict[str, ExternalMetric]) -> ExternalMetric:
    """The metric of one METRIC-REF: its segment file's scores, with the system file's system
    scores where both were read."""
    if len(read) == 1:
        return next(iter(read.values()))
    segments, systems = read["seg"], read["sys"]
    return ExternalMetric(
        segments.name,
        higher_is_better=True,
        origin=segments.origin,
        n_segments=segments.n_segments,
        statistics={s: segments.statistics_of(s) for s in segments.systems},
        system_scores={s: systems.system_score(s) for s in segments.systems},
        notes=(*segments.notes, *systems.notes),
        system_origin=systems.origin,
    )


def _note_metric_levels(metrics: list[ExternalMetric], notes: list[str]) -> None:
    """Say which file gave which scores, for the metrics that have both files."""
    both = [metric for metric in metrics if metric.system_origin]
    if not both:
        return
    differ = [metric.name for metric in both if metric.why_not_resampled]
    notes.append(
        f"system scores of {listed_names([m.name for m in both])} from their .sys.score files "
        "and segment scores from their .seg.score files, as mt-metrics-eval reads them"
        + (
            f"; the system scores of {listed_names(differ)} are not the means of their segment "
            "scores (corpus scores beside sentence scores), so their bootstrap intervals and "
            "paired tests are undefined"
            if differ
            else ""
        )
    )


def _one_reference(tree: FileTree, lp: str) -> bool:
    return len(_text_files(tree, "references", f"{lp}.", ".txt")) == 1


def _metric_name(name: str, notes: list[str]) -> str:
    """METRIC-REF as a metric name: characters a table header cannot hold become '_'."""
    if METRIC_NAME.fullmatch(name):
        return name
    fixed = re.sub(r"[^A-Za-z0-9_.+-]", "_", name).lstrip("_.+-") or "metric"
    notes.append(f"metric {name!r} is named {fixed!r} here")
    return fixed
