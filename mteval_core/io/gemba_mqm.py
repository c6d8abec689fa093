"""GEMBA-MQM's error lists as its command prints them, placed on the translations they judge.

``gemba --method GEMBA-MQM --list_mqm_errors`` (MicrosoftTranslator/GEMBA, ``gemba/cli.py`` and
``gemba/gemba_mqm_utils.py``, read at a7a7eff) prints one line per translation: the Python
``repr`` of the ``defaultdict`` that ``parse_mqm_answer`` builds from the model's answer,
``defaultdict(<class 'list'>, {'major': ['accuracy/mistranslation - "involvement"'], ...})``.
Its keys are ``critical``, ``major`` and ``minor`` in that order (only those holding an error);
each error is the answer's line, lower-cased by GEMBA, with a non-translation moved to
critical. A translation the model gave no answer for prints ``None``; one without errors
``defaultdict(<class 'list'>, {})``.

GEMBA gives no offsets: the model quotes each error's text. Each quote (the text between the
first and the last double quote of the error, else the text after its ``" - "``) is placed on
its first occurrence in the translation, without regard to case (GEMBA lower-cases the answer),
that no earlier error quoting the same text took; several errors quoting one text take its
occurrences in turn. A quote found nowhere (an omission quotes the source) is kept as an error
without a place in the target (``in_target=False``), with a note naming the file and its lines,
so that GEMBA's score, which counts it, is unchanged. The category is GEMBA's own class of the
error (``parse_error_class``): ``accuracy-mistranslation``, ``style``, ``unknown``, ...
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass

from mteval_core.errors import InputError
from mteval_core.model.spans import (
    CRITICAL,
    MAJOR,
    MINOR,
    ErrorSpan,
    SpanAnnotation,
    SpanAnnotations,
)
from mteval_core.settings.limits import MAX_SPANS_PER_ANNOTATION

OPENING = "defaultdict(<class 'list'>, "
NO_ANSWER = "None"  # what the command prints for a translation the model never answered
LEVELS = (CRITICAL, MAJOR, MINOR)  # GEMBA's severities, in the order it counts them
ANNOTATOR = "GEMBA-MQM"
# GEMBA's score: Critical 25, Major 5, Minor 1; its first five errors, worst first; at most 25.
WEIGHTS = {CRITICAL: 25, MAJOR: 5, MINOR: 1}
MOST_ERRORS = 5
CAP = 25
# parse_error_class: the first class the error's text names, then the last subclass it names.
CLASSES = (
    ("accuracy", ("addition", "mistranslation", "omission", "untranslated text")),
    (
        "fluency",
        ("character encoding", "grammar", "inconsistency", "punctuation", "register", "spelling"),
    ),
    ("locale convention", ("currency", "date", "name", "telephone", "time")),
    ("style", ()),
    ("terminology", ("inappropriate", "inconsistent")),
    ("non-translation", ()),
    ("other", ()),
)
UNKNOWN = "unknown"
HINT = (
    "Give what gemba printed with the GEMBA-MQM method and its list_mqm_errors flag, unchanged: "
    "one line per translation, each defaultdict(<class 'list'>, {...}) or None."
)


@dataclass(frozen=True)
class GembaError:
    severity: str  # one of LEVELS
    description: str  # the answer's line, as GEMBA lower-cased it
    line: int  # the file's line


def is_gemba_mqm(lines: Sequence[str]) -> bool:
    """True when every line is GEMBA-MQM's error list or None, and one is a list."""
    cells = [line.strip() for line in lines if line.strip()]
    return any(cell.startswith(OPENING) for cell in cells) and all(
        cell.startswith(OPENING) or cell == NO_ANSWER for cell in cells
    )


def parse_answers(lines: Sequence[str], origin: str) -> list[list[GembaError] | None]:
    """Each line's errors in GEMBA's order (None: no answer); line n judges translation n."""
    answers: list[list[GembaError] | None] = []
    for number, raw in enumerate(lines, start=1):
        cell = raw.strip()
        answers.append(None if cell == NO_ANSWER else _errors_of(cell, number, origin))
    return answers


def _errors_of(cell: str, number: int, origin: str) -> list[GembaError]:
    def refuse(what: str) -> InputError:
        return InputError(what, origin=origin, line=number, hint=HINT)

    if not (cell.startswith(OPENING) and cell.endswith(")")):
        raise refuse("the line is not GEMBA-MQM's list of errors")
    try:  # a literal only: nothing in the file is run
        value = ast.literal_eval(cell[len(OPENING) : -1])
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        raise refuse("the list of errors is not a Python literal as gemba prints it") from None
    if not isinstance(value, dict):
        raise refuse("the list of errors is not a dictionary of severities")
    unknown = [key for key in value if key not in LEVELS]
    if unknown:
        raise refuse(f"{unknown[0]!r} is not one of GEMBA's severities (critical, major, minor)")
    errors = []
    for level in LEVELS:
        described = value.get(level, [])
        if not isinstance(described, list) or not all(isinstance(d, str) for d in described):
            raise refuse(f"the {level} errors are not a list of texts")
        errors += [GembaError(level, description, number) for description in described]
    if len(errors) > MAX_SPANS_PER_ANNOTATION:
        raise refuse(
            f"{len(errors):,} errors for one translation; at most {MAX_SPANS_PER_ANNOTATION:,} "
            "are read (MAX_SPANS_PER_ANNOTATION)"
        )
    return errors


def error_class(description: str) -> str:
    """GEMBA's class of an error: ``accuracy-omission``, ``style``, ``unknown``, ..."""
    for name, subclasses in CLASSES:
        if name in description:
            named = [sub for sub in subclasses if sub in description]
            return f"{name}-{named[-1]}" if named else name
    return UNKNOWN


def quoted_text(description: str) -> str:
    """The text the error quotes: between its first and last double quote, else after its
    ``" - "``; empty when it quotes nothing."""
    first, last = description.find('"'), description.rfind('"')
    if first != last:
        return description[first + 1 : last]
    return description.partition(" - ")[2].strip()


def error_points(severities: Sequence[str]) -> float:
    """GEMBA-MQM's error points of one translation (its score is minus these)."""
    counted = sorted((s for s in severities if s in WEIGHTS), key=LEVELS.index)[:MOST_ERRORS]
    return float(min(sum(WEIGHTS[s] for s in counted), CAP))


def placed_annotation(
    errors: Sequence[GembaError], target: str, system: str, segment: int, origin: str
) -> tuple[SpanAnnotation, list[int]]:
    """The annotation of one translation, and the lines of its errors found nowhere in it."""
    folded, position_of = _folded(target)
    taken: set[tuple[int, int]] = set()
    spans, unplaced = [], []
    for error in errors:
        place = _first_free(folded, quoted_text(error.description).lower(), taken)
        if place is None:
            unplaced.append(error.line)
            start = end = 0
        else:
            taken.add(place)
            start, end = position_of[place[0]], position_of[place[1] - 1] + 1
        spans.append(
            ErrorSpan(
                start=start,
                end=end,
                severity=error.severity,
                category=error_class(error.description),
                in_target=place is not None,
                line=error.line,
                source=f"{ANNOTATOR} ({origin})",
                text=quoted_text(error.description),
            )
        )
    annotation = SpanAnnotation(
        system, str(segment), ANNOTATOR, target, tuple(spans), None, origin, segment
    )
    return annotation, unplaced


def _folded(target: str) -> tuple[str, list[int]]:
    """The target lower-cased, and each of its code points' position in the target (lowering
    may turn one code point into two, as İ does)."""
    pieces, position_of = [], []
    for position, character in enumerate(target):
        lowered = character.lower()
        pieces.append(lowered)
        position_of += [position] * len(lowered)
    return "".join(pieces), position_of


def _first_free(folded: str, quote: str, taken: set[tuple[int, int]]) -> tuple[int, int] | None:
    if not quote:
        return None
    start = folded.find(quote)
    while start != -1 and (start, start + len(quote)) in taken:
        start = folded.find(quote, start + 1)
    return None if start == -1 else (start, start + len(quote))


def read_gemba_mqm_spans(
    lines: Sequence[str], origin: str, translations: Sequence[str], system: str
) -> SpanAnnotations:
    """The file's errors placed on ``translations`` (line n on translation n), as one
    annotation per answered translation of ``system``, its segment the line number."""
    if len(lines) != len(translations):
        raise InputError(
            f"the file has {len(lines):,} lines and the translations {len(translations):,}",
            origin=origin,
            hint="GEMBA prints one line per translation it judged: give the translations "
            "it was run on, in their order.",
        )
    annotations, unplaced = [], []
    answers = parse_answers(lines, origin)
    for segment, (errors, target) in enumerate(zip(answers, translations, strict=True), 1):
        if errors is not None:
            annotation, missed = placed_annotation(errors, target, system, segment, origin)
            annotations.append(annotation)
            unplaced += missed
    notes = [f"{origin}: GEMBA-MQM's error lists, placed on the translations of {system!r}"]
    notes += unplaced_note(unplaced, origin) + no_answer_note(answers.count(None), origin)
    return SpanAnnotations(origin, tuple(annotations), tuple(notes))


def unplaced_note(lines: Sequence[int], origin: str) -> list[str]:
    """One note for the errors whose quote is not in their translation."""
    if not lines:
        return []
    distinct = sorted(set(lines))
    shown = ", ".join(f"{line:,}" for line in distinct[:10])
    shown += ", ..." if len(distinct) > 10 else ""
    return [
        f"{origin}: {len(lines):,} GEMBA-MQM errors quote a text their translation does not hold "
        f"(lines {shown}; an omission quotes the source): kept without a place in the target, "
        "and counted in GEMBA's score"
    ]


def no_answer_note(count: int, origin: str) -> list[str]:
    if not count:
        return []
    return [
        f"{origin}: {count:,} translations have no answer (None: the model gave none) and are "
        "unscored"
    ]
