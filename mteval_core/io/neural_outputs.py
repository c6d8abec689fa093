"""Neural and LLM-judge metric scores as their own tools write them, told apart by content:

* ``comet-score --to_json FILE`` (Unbabel/COMET, ``comet/cli/score.py``): one JSON object, indented
  by four spaces, ``{translation file: [{"src", "mt", "ref", "COMET", "errors"}, ...]}``: one entry
  per segment in the file's order, ``ref`` only when references were given, ``errors`` only
  where xCOMET marked spans (``text``, ``confidence``, ``severity``, ``start``, ``end``).
* MetricX-24's (and -23's) ``predict.py`` output (google-research/metricx): JSON Lines parallel to
  its input, each line the input's object (``source``, ``hypothesis``, ``reference``, and whatever
  else it held) with a ``prediction`` added.
* WMT25's ``data/automatic_scores/SYSTEM.jsonl``, one metric of several per file, joined to the
  test set by its document ids (mteval_core.io.wmt25_automatic_scores.joined_metric).
* GEMBA-MQM's error lists (``gemba --method GEMBA-MQM --list_mqm_errors``, one
  ``defaultdict(<class 'list'>, {...})`` or ``None`` per segment; mteval_core.io.gemba_mqm): each
  segment scored as GEMBA scores it (minus its error points, -25 to 0), its quoted errors placed
  on the system's translation as spans.
* One score per line: ``pymarian-eval`` (marian-nmt, ``pymarian/eval.py``; ``-a append`` adds
  the mean as one more line, ``-a only`` prints the mean alone) and GEMBA's ``gemba`` command
  (MicrosoftTranslator/GEMBA, ``gemba/cli.py``, which prints its answers through a pandas column:
  ``-5``, or ``-5.0`` and ``nan`` once one segment got no answer from the model, or ``None``).

A file scores the systems it names: COMET's keys and a file of one system's scores name a system
by its file name (``sys/neural-large.en``, ``neural-large.metricx.jsonl``), by the name the test
set gives it or by its full file name; a MetricX line may name it in a ``system`` or
``system_id`` field; where nothing names it, MetricX's hypotheses are matched against the
systems' texts. Segments are the file's order, as these tools keep it; the translations the
file holds must be the test set's (stripped of surrounding whitespace, as the tools strip
them), or the file is refused, since its scores would land on other segments.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import PurePath

from mteval_core.errors import InputError
from mteval_core.io import gemba_mqm, wmt25_automatic_scores
from mteval_core.io.decoding import split_lines
from mteval_core.io.jsonl import parse_json_line
from mteval_core.io.numbers import NUMBER
from mteval_core.io.system_names import file_name_aliases
from mteval_core.model.metric_signature import MetricSignature
from mteval_core.model.spans import ErrorSpan
from mteval_core.model.testset import TestSet

COMET = "comet-score JSON"
SYSTEM_FIELDS = ("system", "system_id")
COMET_HINT = (
    "Give the JSON file comet-score wrote (its to_json option), unchanged: an object of "
    "translation files, each "
    "a list of one entry per segment with its COMET score."
)
METRICX_HINT = (
    "Give the file MetricX's predict.py wrote: one JSON object per line with the input's "
    "hypothesis and the prediction."
)
LINES_HINT = (
    "A file of one system's scores has one number per segment, in the test set's order "
    "(pymarian-eval prints them so; with -a append one more line, their mean)."
)

Score = tuple[str, float, int, int | None]  # system, value, line, 1-based segment (None: system)


@dataclass(frozen=True)
class ToolRead:
    """What a tool's file gives: scores as the readers of metric_scores take them, the spans
    it marked per (system, 1-based segment), what the file says produced them, and notes."""

    scores: list[Score]
    signature: MetricSignature
    spans: dict[tuple[str, int], tuple[ErrorSpan, ...]] = field(default_factory=dict)
    notes: tuple[str, ...] = ()


def read_tool_output(
    text: str, origin: str, test_set: TestSet, metric: str = ""
) -> ToolRead | None:
    """The scores of ``text`` when one of the tools above wrote it, else None (the file is then
    one of metric_scores' tables); ``metric`` names the one to read from a file of several
    (WMT25's automatic scores)."""
    numbered = [(n, line) for n, line in enumerate(split_lines(text), start=1) if line.strip()]
    if not numbered:
        return None
    first = numbered[0][1].strip()
    if first.startswith("{") and wmt25_automatic_scores.is_automatic_scores_line(first):
        return _read_wmt25(text, origin, test_set, metric)
    if first == "{" or (first.startswith("{") and _one_json_object(text)):
        return _read_comet(text, origin, test_set)  # json.dump(..., indent=4) opens with '{'
    if first.startswith("{"):
        return _read_metricx(numbered, origin, test_set)
    if gemba_mqm.is_gemba_mqm([line for _, line in numbered]):
        return _read_gemba_mqm(numbered, origin, test_set)
    if all(_is_score_line(line) for _, line in numbered):
        return _read_score_lines(numbered, origin, test_set)
    return None


def _one_json_object(text: str) -> bool:
    """True when the whole text is one JSON object of lists (COMET's JSON written on one line;
    a MetricX file of one segment is one object too, but of strings and a number)."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return False
    return isinstance(value, dict) and all(isinstance(item, list) for item in value.values())


# ---------------------------------------------------------------------- comet-score --to_json
def _read_comet(text: str, origin: str, test_set: TestSet) -> ToolRead:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(
            f"this is not valid JSON: {error.msg}",
            origin=origin,
            line=error.lineno,
            column=error.colno,
            hint=COMET_HINT,
        ) from None
    if (
        not isinstance(data, dict)
        or not data
        or not all(isinstance(v, list) for v in data.values())
    ):
        raise InputError(
            "the JSON is not an object of translation files, each a list of entries",
            origin=origin,
            hint=COMET_HINT,
        )
    scores: list[Score] = []
    spans: dict[tuple[str, int], tuple[ErrorSpan, ...]] = {}
    with_reference = True
    named = _system_names(test_set)
    texts = {column.name: column.segments for column in test_set.systems}
    for key, entries in data.items():
        system = named(key) or key
        _check_count(len(entries), test_set.n_segments, f"{key!r} has", origin)
        for position, entry in enumerate(entries, start=1):
            where = f"entry {position:,} of {key!r}"
            if not isinstance(entry, dict) or "COMET" not in entry:
                raise InputError(f"{where} has no COMET score", origin=origin, hint=COMET_HINT)
            _check_translation(entry.get("mt"), system, position, texts, where, origin)
            value = _number(entry["COMET"], f"{where}: its COMET score", origin)
            scores.append((system, value, position, position))
            with_reference = with_reference and "ref" in entry
            if entry.get("errors"):
                spans[system, position] = _comet_spans(entry, where, origin)
    signature = MetricSignature(
        package="unbabel-comet", reference_based=with_reference, direction="higher"
    )
    return ToolRead(scores, signature, spans)


def _comet_spans(entry: dict, where: str, origin: str) -> tuple[ErrorSpan, ...]:
    """xCOMET's spans of one entry: offsets into its mt, from 0, end exclusive."""
    errors, mt = entry["errors"], entry.get("mt") or ""
    if not isinstance(errors, list):
        raise InputError(f"{where}: errors is not a list", origin=origin, hint=COMET_HINT)
    spans = []
    for number, error in enumerate(errors, start=1):
        if not isinstance(error, dict):
            raise InputError(f"{where}: error {number} is not an object", origin=origin)
        start, end = error.get("start"), error.get("end")
        if not (_whole(start) and _whole(end) and 0 <= start <= end <= len(mt)):
            raise InputError(
                f"{where}: error {number} spans {start!r} to {end!r}, which is not within its "
                f"translation of {len(mt):,} characters",
                origin=origin,
                hint="xCOMET's start and end are character offsets into mt, from 0.",
            )
        confidence = error.get("confidence")
        spans.append(
            ErrorSpan(
                start=start,
                end=end,
                severity=str(error.get("severity", "")),
                category=None,
                source=f"{COMET} ({origin})",
                text=error.get("text") if isinstance(error.get("text"), str) else None,
                confidence=_number(confidence, f"{where}: error {number}'s confidence", origin)
                if confidence is not None
                else None,
            )
        )
    return tuple(spans)


# ---------------------------------------------------------------------- MetricX predict.py
def _read_metricx(numbered: Sequence[tuple[int, str]], origin: str, test_set: TestSet) -> ToolRead:
    records = []
    for number, line in numbered:
        record = parse_json_line(line, number, origin, METRICX_HINT)
        if not isinstance(record, dict) or "prediction" not in record:
            raise InputError(
                "this line has no prediction: the file is neither MetricX's predictions nor "
                "comet-score's JSON",
                origin=origin,
                line=number,
                hint=METRICX_HINT,
            )
        records.append((number, record))
    by_system: dict[str, list[tuple[int, dict]]] = {}
    for system, (number, record) in zip(
        _metricx_systems(records, origin, test_set), records, strict=True
    ):
        by_system.setdefault(system, []).append((number, record))
    scores: list[Score] = []
    texts = {column.name: column.segments for column in test_set.systems}
    for system, rows in by_system.items():
        _check_count(len(rows), test_set.n_segments, f"system {system!r} has", origin)
        for position, (number, record) in enumerate(rows, start=1):
            where = f"line {number:,}"
            _check_translation(record.get("hypothesis"), system, position, texts, where, origin)
            value = _number(record["prediction"], f"{where}: its prediction", origin)
            scores.append((system, value, number, position))
    without_reference = all(not record.get("reference") for _, record in records)
    signature = MetricSignature(
        package="metricx",
        reference_based=False if without_reference else None,
        direction="lower",
        scale="0-25",
    )
    return ToolRead(scores, signature)


def _metricx_systems(
    records: Sequence[tuple[int, dict]], origin: str, test_set: TestSet
) -> list[str]:
    """Each line's system: its system field, else the file's (named by the file's name, else
    the system whose texts the file's hypotheses are, found once)."""
    named = _system_names(test_set)
    of_file: str | None = None
    systems = []
    for _, record in records:
        field = next(
            (record[key].strip() for key in SYSTEM_FIELDS if isinstance(record.get(key), str)),
            "",
        )
        if field:
            systems.append(named(field) or field)
            continue
        if of_file is None:
            of_file = named(origin) or _system_of_texts(records, origin, test_set)
        systems.append(of_file)
    return systems


def _system_of_texts(records: Sequence[tuple[int, dict]], origin: str, test_set: TestSet) -> str:
    hypotheses = [str(row.get("hypothesis", "")).strip() for _, row in records]
    for column in test_set.systems:
        if [text.strip() for text in column.segments] == hypotheses:
            return column.name
    raise InputError(
        "the file does not say which system it scores: no system or system_id field, a file "
        "name that is no system's, and hypotheses that are no system's texts",
        origin=origin,
        hint="Name the file after the system (e.g. SYSTEM.metricx.jsonl), or add a system field.",
    )


# ---------------------------------------------------------------------- WMT25's automatic scores
def _read_wmt25(text: str, origin: str, test_set: TestSet, metric: str) -> ToolRead:
    """One metric of a WMT25 ``SYSTEM.jsonl``, joined to the test set by its document ids."""
    system = _system_names(test_set)(origin) or _full_name(origin)
    joined = wmt25_automatic_scores.joined_metric(text, origin, test_set.documents, system, metric)
    signature = MetricSignature(
        model=joined.metric,
        package="wmt25-general-mt",
        direction="higher",  # as the organisers ship them: MetricX is negated
        scale=wmt25_automatic_scores.SCALES.get(joined.metric),
    )
    return ToolRead(joined.scores, signature, notes=joined.notes)


# ---------------------------------------------------------------------- GEMBA-MQM's error lists
def _read_gemba_mqm(
    numbered: Sequence[tuple[int, str]], origin: str, test_set: TestSet
) -> ToolRead:
    """One system's GEMBA-MQM scores (its name from the file's), and its errors as spans where
    the test set holds its translations."""
    _refuse_empty_line(numbered, origin, gemba_mqm.HINT)
    system = _system_names(test_set)(origin) or _full_name(origin)
    lines = [line for _, line in numbered]
    _check_count(len(lines), test_set.n_segments, f"the file of system {system!r} has", origin)
    answers = gemba_mqm.parse_answers(lines, origin)
    texts = {column.name: column.segments for column in test_set.systems}.get(system)
    scores: list[Score] = []
    spans: dict[tuple[str, int], tuple[ErrorSpan, ...]] = {}
    unplaced: list[int] = []
    for segment, errors in enumerate(answers, start=1):
        if errors is None:
            continue
        points = gemba_mqm.error_points([error.severity for error in errors])
        scores.append((system, -points, segment, segment))
        if texts is not None and errors:
            annotation, missed = gemba_mqm.placed_annotation(
                errors, texts[segment - 1], system, segment, origin
            )
            spans[system, segment] = annotation.spans
            unplaced += missed
    notes = gemba_mqm.unplaced_note(unplaced, origin)
    notes += gemba_mqm.no_answer_note(answers.count(None), origin)
    signature = MetricSignature(
        package="gemba", reference_based=False, direction="higher", scale="-25..0"
    )
    return ToolRead(scores, signature, spans, tuple(notes))


def _refuse_empty_line(numbered: Sequence[tuple[int, str]], origin: str, hint: str) -> None:
    """The n-th line scores the n-th segment, so an empty line before the last is refused."""
    empty = next((index for index, (n, _) in enumerate(numbered, start=1) if n != index), None)
    if empty is not None:
        raise InputError(
            "the line is empty, and the n-th line scores the n-th segment",
            origin=origin,
            line=empty,
            hint=hint,
        )


# ---------------------------------------------------------------------- one score per line
UNSCORED = ("None", "nan")  # gemba's segments without an answer, as pandas prints them


def _is_score_line(line: str) -> bool:
    cell = line.strip()
    return cell in UNSCORED or NUMBER.fullmatch(cell) is not None


def _read_score_lines(
    numbered: Sequence[tuple[int, str]], origin: str, test_set: TestSet
) -> ToolRead:
    """One system's scores (its name from the file's); an appended mean (pymarian-eval -a
    append) is checked and dropped, a single line is the system score (-a only)."""
    _refuse_empty_line(numbered, origin, LINES_HINT)
    lines = [line for _, line in numbered]
    system = _system_names(test_set)(origin) or _full_name(origin)
    values = [None if line.strip() in UNSCORED else float(line) for line in lines]
    n = test_set.n_segments
    notes: list[str] = []
    if len(values) == 1 and n > 1 and values[0] is not None:
        return ToolRead([(system, values[0], numbered[0][0], None)], MetricSignature())
    if len(values) == n + 1 and None not in values:
        _check_appended_mean(lines, values, origin)
        notes.append(
            f"{origin}: its last line is the mean of the others (pymarian-eval -a append), left out"
        )
        values = values[:n]
    _check_count(len(values), n, f"the file of system {system!r} has", origin)
    unscored = values.count(None)
    if unscored:
        notes.append(
            f"{origin}: {unscored:,} segments have no score (None or nan: gemba got no answer "
            "for them) and are unscored"
        )
    scores: list[Score] = [
        (system, value, line, line)
        for line, value in enumerate(values, start=1)
        if value is not None
    ]
    if not scores:
        raise InputError("every score is None or nan", origin=origin, hint=LINES_HINT)
    return ToolRead(scores, MetricSignature(), notes=tuple(notes))


def _check_appended_mean(lines: Sequence[str], values: Sequence[float | None], origin: str) -> None:
    """The last line must be the mean of the others as printed: each line and the mean are
    rounded to the printed decimals, so they may differ by one unit of the last decimal."""
    segment_values = [value for value in values[:-1] if value is not None]
    mean, last = math.fsum(segment_values) / len(segment_values), values[-1]
    assert last is not None
    decimals = len(lines[-1].strip().partition(".")[2])
    if abs(mean - last) > 10.0**-decimals + 1e-12:
        raise InputError(
            f"there is one line more than the test set's {len(segment_values):,} segments, and it "
            f"is not their mean ({last} where the mean is {mean:.{decimals + 2}f})",
            origin=origin,
            line=len(lines),
            hint=LINES_HINT,
        )


# ---------------------------------------------------------------------- shared checks
def _system_names(test_set: TestSet) -> Callable[[str], str | None]:
    """The test set's system that a label (a system's name, a file's path or name) names: its
    name, its full file name, or the label's file name without one dot-separated part after
    another from the end (``neural-large.en.json`` -> ``neural-large.en`` -> ``neural-large``);
    None when it names none."""
    names = {name: name for name in test_set.system_names}
    names.update(file_name_aliases(test_set.systems))

    def named(label: str) -> str | None:
        if label in names:
            return names[label]
        parts = PurePath(label).name.split(".")
        for end in range(len(parts), 0, -1):
            candidate = ".".join(parts[:end])
            if candidate in names:
                return names[candidate]
        return None

    return named


def _full_name(origin: str) -> str:
    return PurePath(origin).name.rsplit(".", 1)[0] or PurePath(origin).name


def _check_count(count: int, n_segments: int, what: str, origin: str) -> None:
    if count != n_segments:
        raise InputError(
            f"{what} {count:,} scores, but the test set has {n_segments:,} segments",
            origin=origin,
            hint="These tools score every segment once, in order: check that the file was "
            "written for this test set.",
        )


def _check_translation(
    text: object,
    system: str,
    position: int,
    texts: Mapping[str, tuple[str, ...]],
    where: str,
    origin: str,
) -> None:
    """The translation the tool scored must be the test set's (both stripped, as they strip)."""
    segments = texts.get(system)
    if segments is None or text is None:
        return
    expected = segments[position - 1]
    if not isinstance(text, str) or text.strip() != expected.strip():
        raise InputError(
            f"{where}: the translation scored is not segment {position:,} of system {system!r} "
            f"(the file has {str(text)[:60]!r}, the test set {expected[:60]!r})",
            origin=origin,
            hint="The scores belong to other texts or another order: score this test set's "
            "files again, or give the system's file as it was scored.",
        )


def _number(value: object, what: str, origin: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InputError(
            f"{what} is {value!r}, not a finite number", origin=origin, hint=COMET_HINT
        )
    return float(value)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
