"""mt-metrics-eval's ``.rating`` files: error-span ratings of every segment of every system
(google-research/mt-metrics-eval @ 68a481a, ``mt_metrics_eval/ratings.py`` ``ReadRatingFile``;
README, "human MQM ratings").

A file is named ``SRC-TGT.RATING_NAME.seg.rating`` (in a test set's ``human-scores/``;
``RATING_NAME`` is one rater, e.g. ``mqm.rater3``, or a merged set such as ``mqm.merged``). Each
line is tab-separated ``SYSNAME RATING [RATER_ID]``: ``RATING`` is ``None`` when the segment has
no rating, else a JSON-serialised ``ratings.Rating``, ``{"errors": [{"start", "end",
"category", "severity", "score", "is_source_error"}, ...]}`` (character offsets into the
translation, or into the source when ``is_source_error``); ``RATER_ID`` defaults to
``RATING_NAME``. A system's lines are its segments in order: its k-th line is segment k (from
0), the line k of the test set's ``documents/<LP>.docs``.

A rating's score is mt-metrics-eval's MQM score of its errors (``converters/score_mqm.py``, the
weights the MQM judgments use: ``loss.mqm_loss.GOOGLE_WEIGHTS``, the most specific of
severity/category, case aside, else 0), negated so that higher is better; the errors' own
``score`` field, which ``ratings.py`` leaves to whoever made the rating, is not used. Lines that
are not two or three columns, JSON that is not a rating and an error without whole-number
``start`` and ``end`` are refused with the file and line; the segments without a rating are
counted in a note.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from mteval_core.errors import InputError
from mteval_core.io.decoding import read_text
from mteval_core.loss.mqm_loss import GOOGLE_WEIGHTS, weight_key

SUFFIX = ".seg.rating"
_LOWERED = {key.lower(): weight for key, weight in GOOGLE_WEIGHTS.items()}


@dataclass(frozen=True)
class MtmeRating:
    """One rated segment of one system."""

    system: str
    segment: int  # from 0: the system's line count in the file before this line
    rater: str
    score: float  # minus the weighted errors (higher is better)
    errors: int
    line: int


@dataclass(frozen=True)
class MtmeRatings:
    language_pair: str
    name: str  # RATING_NAME
    ratings: tuple[MtmeRating, ...]
    notes: tuple[str, ...]


def read_rating_file(path: Path) -> MtmeRatings:
    """Every rating of one ``.rating`` file, its language pair and name from the file name."""
    pair, name = rating_file_name(path)
    kept: list[MtmeRating] = []
    lines_of: Counter = Counter()
    unrated = 0
    text = read_text(path.read_bytes(), str(path))
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        columns = line.strip().split("\t")  # as ReadRatingFile splits them
        if len(columns) not in (2, 3):
            raise InputError(
                f"this line has {len(columns)} tab-separated columns, a .rating line has 2 or 3",
                origin=str(path),
                line=number,
                hint="Each line is SYSNAME<TAB>RATING[<TAB>RATER_ID]; RATING is JSON or None.",
            )
        system, rating = columns[0], columns[1]
        rater = columns[2] if len(columns) == 3 else name
        segment = lines_of[system]
        lines_of[system] += 1
        if rating == "None":
            unrated += 1
            continue
        errors = _errors(rating, str(path), number)
        score = -sum(_weight(error) for error in errors)
        kept.append(MtmeRating(system, segment, rater, score, len(errors), number))
    return MtmeRatings(pair, name, tuple(kept), _notes(path, unrated, lines_of))


def rating_file_name(path: Path) -> tuple[str, str]:
    """(language pair, rating name) of ``SRC-TGT.RATING_NAME.seg.rating``; anything else is
    refused, as mt-metrics-eval's ``ParseHumanScoreFilename`` refuses it."""
    parts = path.name.split(".")
    if len(parts) < 4 or parts[-1] != "rating" or parts[-2] != "seg" or "-" not in parts[0]:
        raise InputError(
            "this is not a .rating file name of mt-metrics-eval",
            origin=str(path),
            hint="Name it SRC-TGT.RATING_NAME.seg.rating, e.g. en-de.mqm.merged.seg.rating.",
        )
    return parts[0], ".".join(parts[1:-2])


def _errors(rating: str, origin: str, line: int) -> list[dict]:
    try:
        value = json.loads(rating)
    except json.JSONDecodeError as error:
        raise InputError(
            f"the rating is not JSON ({error.msg} at character {error.pos + 1})",
            origin=origin,
            line=line,
            column="RATING (2nd column)",
            hint='Write {"errors": [...]} or None, as mt-metrics-eval does.',
        ) from None
    errors = value.get("errors") if isinstance(value, dict) else None
    if not isinstance(errors, list) or not all(isinstance(e, dict) for e in errors):
        raise InputError(
            'the rating is not an object with a list "errors" of error objects',
            origin=origin,
            line=line,
            column="RATING (2nd column)",
            hint='e.g. {"errors": [{"start": 0, "end": 4, "severity": "Minor"}]}',
        )
    for error in errors:
        if not all(type(error.get(key)) is int for key in ("start", "end")):
            raise InputError(
                f"an error without whole-number start and end: {json.dumps(error)[:80]}",
                origin=origin,
                line=line,
                column="RATING (2nd column)",
                hint="Each error gives its character span as start and end (end + 1).",
            )
    return errors


def _weight(error: dict) -> float:
    """score_mqm.py's weight of one error: the most specific severity/category key, else 0."""
    severity = str(error.get("severity") or "").lower()
    category = str(error.get("category") or "").lower()
    key = weight_key((severity, category), _LOWERED)
    return _LOWERED[key] if key is not None else 0.0


def _notes(path: Path, unrated: int, lines_of: Counter) -> tuple[str, ...]:
    notes = []
    if unrated:
        notes.append(f"{path.name}: {unrated:,} segments without a rating (None)")
    if len(set(lines_of.values())) > 1:
        counts = ", ".join(f"{s} {n:,}" for s, n in sorted(lines_of.items()))
        notes.append(f"{path.name}: the systems have different numbers of lines ({counts})")
    return tuple(notes)


def read_rating_files(paths: Sequence[Path]) -> list[MtmeRatings]:
    return [read_rating_file(path) for path in paths]
