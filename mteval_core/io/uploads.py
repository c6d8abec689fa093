"""A test set from uploaded files (name and bytes), as the dashboard's Data page receives them:
separate files, or an archive of mt-metrics-eval's folders (:func:`archive_pairs`, then
:func:`test_set_from_archive`).

The dashboard's server is shared, so an upload is bounded before the work that grows with it:
each file's size (:data:`MAX_UPLOAD_MB`; .streamlit/config.toml makes the browser refuse larger
files with the same number), then, as each file is read, the segments, the texts (segments x
(systems + references)) and the systems of the test set (its pairs of systems are what the
significance tests and correlations compare). The command line has no such limits.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from mteval_core.errors import InputError
from mteval_core.io.alignment import align_by_ids
from mteval_core.io.archives import ARCHIVE_HINT, ARCHIVE_SUFFIXES, ArchiveTree, open_archive
from mteval_core.io.detect import ColumnsRead, name_systems_after_files, read_columns
from mteval_core.io.directory import parse_segment_ids
from mteval_core.io.human_judgments import read_human_for
from mteval_core.io.metric_scores import parse_direction, read_metric_files
from mteval_core.io.mtme import (
    HowToChoose,
    language_pairs,
    read_mtme_tree,
    reference_names,
    standard_reference,
)
from mteval_core.io.system_names import name_notes
from mteval_core.metrics.external import ExternalMetric
from mteval_core.model.metric_signature import parse_signature_fields
from mteval_core.model.testset import HumanScores, TestSet
from mteval_core.settings.limits import (
    MAX_ARCHIVE_PAIRS,
    MAX_METRIC_FILES,
    MAX_SYSTEM_PAIRS,
    MAX_UPLOAD_MB,
    MAX_UPLOAD_SEGMENTS,
    MAX_UPLOAD_SYSTEMS,
    MAX_UPLOAD_TEXTS,
)

Upload = tuple[str, bytes]  # file name, content


@dataclass(frozen=True)
class TextChoices:
    """How to read what tools read differently, as the user chose on the Data page: a carriage
    return without a line feed (``decoding.CARRIAGE_RETURNS``) and a byte order mark at the start
    of a plain-text file (``plain.BYTE_ORDER_MARKS``)."""

    carriage_returns: str = "refuse"
    byte_order_mark: str = "keep"


COMMAND_LINE_HINT = (
    "Score larger test sets with the command line (mteval score), which has no such limit, or "
    "upload a part of the test set."
)


def check_upload_sizes(uploads: Sequence[Upload], limit_mb: int = MAX_UPLOAD_MB) -> None:
    """Refuse a file over the limit by name, with the way round it (the command line)."""
    for name, data in uploads:
        if len(data) > limit_mb * 2**20:
            raise InputError(
                f"the file is {len(data) / 2**20:.1f} MB; the dashboard takes files of up to "
                f"{limit_mb} MB",
                origin=name,
                hint=COMMAND_LINE_HINT,
            )


def test_set_from_uploads(  # long: every kind of upload, read and checked in one place
    references: Sequence[Upload],
    systems: Sequence[Upload],
    source: Upload | None = None,
    human: Upload | None = None,
    human_lower_is_better: bool = False,
    segment_ids: Upload | None = None,
    notes: list[str] | None = None,
    reading: TextChoices | None = None,
) -> TestSet:
    """Validate and combine the uploads; any problem is an InputError naming the file.

    SGML and WMT XML segments are matched across files by document and segment id
    (:func:`mteval_core.io.alignment.align_by_ids`), plain text by position. ``segment_ids`` is
    a segment-id map (line, segment_id, doc), needed when the human scores use a data set's own
    segment ids rather than line numbers (as the WMT21 TED sets do). Human rows of systems
    without text are set aside. ``notes`` (when given) receives a line for each, and the notes
    of the text files (which reading a file that could be read two ways was given, skipped
    test-suite documents) as soon as they are read, so that they are there to show even when the
    files turn out not to fit together. ``reading`` says what a lone CR in a reference,
    system or source file means and what a byte order mark at the start of a plain-text one
    becomes (:func:`mteval_core.io.detect.read_columns`); by default, the CR is refused and the
    mark kept.
    """
    uploads = [*references, *systems, *(u for u in (source, human, segment_ids) if u)]
    check_upload_sizes(uploads)
    if not references or not systems:
        raise InputError(
            "a test set needs at least one reference and one system output",
            hint="Upload the reference file(s) and the system output file(s).",
        )
    counter = _TextCounter(reading or TextChoices())
    reference_reads = [counter.read(data, name, "ref") for name, data in references]
    system_reads, naming = name_systems_after_files(
        [counter.read(data, name, "sys") for name, data in systems]
    )
    source_read = counter.read_source(*source) if source else None
    if notes is not None:
        reads = [*reference_reads, *system_reads, *([source_read] if source_read else [])]
        notes.extend(note for read in reads for note in read.notes)
        notes.extend([naming] if naming else [])
    aligned = align_by_ids(reference_reads, system_reads, source_read)
    n_segments = len(aligned.references[0])
    id_map = parse_segment_ids(segment_ids[1], segment_ids[0], n_segments) if segment_ids else None
    test_set = TestSet(
        references=aligned.references,
        systems=aligned.systems,
        source=aligned.source,
        documents=aligned.documents or (id_map.documents if id_map else None),
        name="uploaded test set",
    )
    if notes is not None:
        notes.extend(name_notes(test_set))
    if human is None:
        return test_set
    name, data = human
    read = read_human_for(
        test_set,
        data,
        name,
        lower_is_better=human_lower_is_better,
        segment_ids=id_map.lines if id_map else None,
    )
    if notes is not None:
        notes.extend(read.notes)
    return test_set.with_human(read.scores)


test_set_from_uploads.__test__ = False  # a function, not a pytest test, despite its name


def check_set_size(
    n_segments: int, n_texts: int, origin: str, hint: str = COMMAND_LINE_HINT
) -> None:
    """Refuse a test set over the dashboard's limits of segments and texts, naming ``origin``."""
    if n_segments > MAX_UPLOAD_SEGMENTS:
        raise InputError(
            f"the file has {n_segments:,} segments; the dashboard takes test sets of up to "
            f"{MAX_UPLOAD_SEGMENTS:,} segments",
            origin=origin,
            hint=hint,
        )
    if n_texts > MAX_UPLOAD_TEXTS:
        raise InputError(
            f"with this file the test set has {n_texts:,} texts (segments x (systems + "
            f"references)) so far; the dashboard takes up to {MAX_UPLOAD_TEXTS:,}",
            origin=origin,
            hint=hint,
        )


def check_system_count(
    n_systems: int, origin: str, counted: str, hint: str = COMMAND_LINE_HINT
) -> None:
    """Refuse a test set of more systems than the dashboard takes, naming ``origin``;
    ``counted`` says where they were counted ("with this file the test set has")."""
    if n_systems > MAX_UPLOAD_SYSTEMS:
        raise InputError(
            f"{counted} {n_systems:,} systems ({system_pairs(n_systems):,} pairs of systems); "
            f"the dashboard takes test sets of up to {MAX_UPLOAD_SYSTEMS:,} systems "
            f"({MAX_SYSTEM_PAIRS:,} pairs, each compared under every metric)",
            origin=origin,
            hint=hint,
        )


def system_pairs(n_systems: int) -> int:
    """How many pairs of systems the significance tests and correlations compare."""
    return n_systems * (n_systems - 1) // 2


class _TextCounter:
    """Reads reference and system files, refusing a test set over the limits as soon as the
    file that crosses one has been read, before the others are read and the set is checked."""

    def __init__(self, reading: TextChoices) -> None:
        self.texts = 0
        self.systems = 0
        self.carriage_returns = reading.carriage_returns
        self.byte_order_mark = reading.byte_order_mark

    def read(self, data: bytes, name: str, role: str) -> ColumnsRead:
        read = read_columns(data, name, role, None, self.carriage_returns, self.byte_order_mark)
        n_segments = len(read.columns[0])
        check_set_size(n_segments, 0, name)
        self.texts += n_segments * len(read.columns)
        check_set_size(n_segments, self.texts, name)
        if role == "sys":
            self.systems += len(read.columns)
            check_system_count(self.systems, name, "with this file the test set has")
        return read

    def read_source(self, name: str, data: bytes) -> ColumnsRead:
        """The source, outside the limits: they count the texts that are scored."""
        return read_columns(data, name, "src", None, self.carriage_returns, self.byte_order_mark)


def read_uploaded_metric(
    uploads: Upload | Sequence[Upload] | None,
    name: str,
    direction: str | None,
    test_set: TestSet,
    loaded: Mapping[str, ExternalMetric],
    signature: str = "",
) -> dict[str, ExternalMetric]:
    """Uploaded metric score files (one, or several of one metric: one per system) as
    ``{key: metric}``: the key is a hash of the bytes, the name, the direction and the
    signature (what cached results are keyed by). Without a direction the files' tool must say
    it (comet-score's JSON, MetricX's predictions). Refused with a clear message: no file, no
    name, a name already loaded or built in, a signature or a file that does not fit."""
    if isinstance(uploads, tuple):
        uploads = [uploads]
    if not uploads:
        raise InputError("no metric score file was given", hint="Choose the file with the scores.")
    if len(uploads) > MAX_METRIC_FILES:
        raise InputError(
            f"{len(uploads):,} files were given for one metric; the dashboard takes up to "
            f"MAX_METRIC_FILES ({MAX_METRIC_FILES:,}), one per system at most",
            hint="Give one file of every system's scores, or the scores of several systems in "
            "one file. " + COMMAND_LINE_HINT,
        )
    check_upload_sizes(uploads)
    origin = uploads[0][0]
    name = name.strip()
    if not name:
        raise InputError(
            "the metric has no name", origin=origin, hint="Type the name it should show as."
        )
    if name in {metric.name for metric in loaded.values()}:
        raise InputError(
            f"a metric named {name!r} is already loaded",
            origin=origin,
            hint="Choose another name, or remove the metrics from files first.",
        )
    higher_is_better = parse_direction(direction, name) if direction else None
    metric = read_metric_files(
        [(data, file_name) for file_name, data in uploads],
        test_set,
        name=name,
        higher_is_better=higher_is_better,
        signature=parse_signature_fields(signature, "the signature"),
    )
    digest = hashlib.sha256()
    for file_name, data in uploads:
        digest.update(f"{len(data)}\0{file_name}\0".encode() + data)
    digest.update(f"\0{name}\0{metric.higher_is_better}\0{signature}".encode())
    return {digest.hexdigest(): metric}


# ------------------------------------------------------------------------ mt-metrics-eval archives
MTME_COMMAND_HINT = (
    "Score larger test sets with the command line (mteval score), which reads mt-metrics-eval's "
    "folders from disk and has no such limit."
)


# how read_mtme's notes say to choose otherwise, in the Data page's words
DATA_PAGE_CHOICES = HowToChoose(
    reference="choose another under 'Reference of the archive'", human_outputs=None
)


@dataclass(frozen=True)
class ArchivePair:
    """One language pair of one test set in an uploaded archive, as the Data page offers it."""

    folder: str  # the test set's folder in the archive ('' when the archive's top is one)
    test_set: str  # its name: the folder's, else the archive's without its extension
    lp: str
    references: tuple[str, ...]
    standard: str  # the reference taken when none is chosen (mt-metrics-eval's standard one)

    @property
    def label(self) -> str:
        return f"{self.test_set} {self.lp}"


@dataclass(frozen=True)
class ArchiveLoad:
    """What the Data page keeps of a language pair read from an archive: the test set (with
    its human scores), its metric scores keyed as uploaded metric files are (so that every page
    and cache treats them alike), the reference used, and the notes to show."""

    test_set: TestSet
    external: dict[str, ExternalMetric]
    reference: str
    criterion: str | None
    notes: tuple[str, ...]


def archive_pairs(archive: Upload) -> list[ArchivePair]:
    """Every (test set, language pair) an uploaded archive holds, in the archive's order of
    folders; refused by name when the archive holds none (or is not one, or is unsafe)."""
    name = archive[0]
    tree = _archive_tree(archive)
    found = [
        (folder, lp) for folder in tree.test_set_folders() for lp in language_pairs(tree.at(folder))
    ]
    if len(found) > MAX_ARCHIVE_PAIRS:
        raise InputError(
            f"the archive holds {len(found):,} language pairs of test sets; the dashboard lists "
            f"up to {MAX_ARCHIVE_PAIRS:,} to choose from",
            origin=name,
            hint="Put the test sets you want to look at in the archive (one test set's folder, "
            "or one language pair's files). " + MTME_COMMAND_HINT,
        )
    pairs = [
        ArchivePair(
            folder,
            _test_set_name(folder, name),
            lp,
            tuple(references := reference_names(tree.at(folder), lp)),
            standard_reference(_test_set_name(folder, name), lp, references) if references else "",
        )
        for folder, lp in found
    ]
    if not pairs:
        folders = tree.test_set_folders()
        raise InputError(
            "the archive holds no system-outputs folder"
            if not folders
            else "the archive's test set folders hold no sources/LP.txt",
            origin=name,
            hint="An mt-metrics-eval archive holds a test set's folders: sources/LP.txt, "
            "references/LP.REF.txt, system-outputs/LP/SYSTEM.txt, ... " + ARCHIVE_HINT,
        )
    return pairs


def test_set_from_archive(
    archive: Upload,
    pair: ArchivePair | None,
    reference: str | None = None,
    human: Upload | None = None,
    human_lower_is_better: bool = False,
    text_files: Sequence[str] = (),
) -> ArchiveLoad:
    """Language pair ``pair`` of the archive (``None``: its first) with one reference
    (``None``: the standard one), under the dashboard's limits, with the archive's human scores
    and metric scores.

    ``human`` (judgments or Google's MQM file uploaded beside the archive) adds its criteria to
    the archive's. ``text_files`` names reference, system or source files uploaded too: they
    are refused, since the archive brings its own and mixing them would be ambiguous.
    """
    if text_files:
        raise InputError(
            f"an mt-metrics-eval archive and text files ({', '.join(text_files)}) were both given",
            origin=archive[0],
            hint="The archive brings the references, systems and source: remove the other "
            "files, or the archive.",
        )
    check_upload_sizes([archive, *([human] if human else [])])
    if pair is None:
        pair = archive_pairs(archive)[0]
    tree = _archive_tree(archive).at(pair.folder)

    def check_size(n_segments: int, n_texts: int, n_systems: int, origin: str) -> None:
        check_set_size(n_segments, n_texts, origin, MTME_COMMAND_HINT)
        outputs = tree.origin(f"system-outputs/{pair.lp}")
        check_system_count(n_systems, outputs, "the folder has", MTME_COMMAND_HINT)

    read = read_mtme_tree(
        tree,
        pair.test_set,
        pair.lp,
        reference,
        check_size=check_size,
        how_to_choose=DATA_PAGE_CHOICES,
    )
    notes = [*tree.notes, *read.notes]
    test_set = read.test_set
    if human is not None:
        test_set = _with_uploaded_human(test_set, human, human_lower_is_better, notes)
    digest = hashlib.sha256(archive[1]).hexdigest()
    external = {
        hashlib.sha256(
            f"{digest}\0{pair.folder}\0{pair.lp}\0{read.reference}\0{metric.name}".encode()
        ).hexdigest(): metric
        for metric in read.external
    }
    return ArchiveLoad(test_set, external, read.reference, read.criterion, tuple(notes))


test_set_from_archive.__test__ = False  # a function, not a pytest test, despite its name


def _archive_tree(archive: Upload) -> ArchiveTree:
    name, data = archive
    check_upload_sizes([archive])
    return open_archive(data, name)


def _test_set_name(folder: str, archive_name: str) -> str:
    """The folder's name; for the archive's top, the archive's name without its extension."""
    if folder:
        return folder.rsplit("/", 1)[-1]
    base = archive_name.replace("\\", "/").rsplit("/", 1)[-1]
    for suffix in ARCHIVE_SUFFIXES:
        if base.lower().endswith(suffix):
            return base[: -len(suffix)] or base
    return base


def _with_uploaded_human(
    test_set: TestSet, human: Upload, lower_is_better: bool, notes: list[str]
) -> TestSet:
    """The archive's judgments and those of a file uploaded beside it, as criteria side by
    side; a criterion both have is refused, since one name would then mean two things."""
    name, data = human
    read = read_human_for(test_set, data, name, lower_is_better=lower_is_better)
    notes.extend(read.notes)
    if test_set.human is None:
        return test_set.with_human(read.scores)
    both = sorted(set(test_set.human.criteria) & set(read.scores.criteria))
    if both:
        raise InputError(
            f"the archive has human scores named {', '.join(both)} too",
            origin=name,
            hint="Name the file's criterion otherwise (a criterion column), or leave the file "
            "out and use the archive's scores.",
        )
    return test_set.with_human(HumanScores.concat([test_set.human, read.scores]))


def single_file(upload: Upload | None) -> Upload | None:
    """An uploaded file, or the one file of an uploaded .zip, .tar.gz or .tar, named ``FILE in
    ARCHIVE``: Google ships some MQM ratings as a .tar.gz of one TSV, and so they read as
    released. The archive is read within the dashboard's limits (:func:`open_archive`); an
    archive of several files is refused, since which one is meant would be a guess."""
    if upload is None:
        return None
    name, data = upload
    check_upload_sizes([upload])
    if not name.lower().endswith(ARCHIVE_SUFFIXES):
        return upload
    tree = open_archive(data, name)
    files = tree.file_paths
    if len(files) != 1:
        raise InputError(
            f"the archive holds {len(files):,} files; a judgments file may come as an archive "
            "of one file",
            origin=name,
            hint="Upload the one file you mean (unpacked), or an archive that holds only it.",
        )
    return tree.origin(files[0]), tree.read(files[0])
