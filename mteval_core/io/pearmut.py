"""Pearmut's annotation logs (zouharvi/pearmut, ``data/outputs/<campaign_id>.jsonl``), read as
ESA-like human annotations: one score and error spans per model and item.

Pearmut's server appends one JSON object per submission (``server/app.py`` ``_log_response``:
the page's payload plus ``user_id`` and ``item_i``). Two layouts are read:

    {"user_id": "alice", "item_i": 0,                                 # one item per entry
     "annotation": {"GPT-4": {"score": 85, "error_spans": [
        {"start_i": 11, "end_i": 16, "category": null, "severity": "minor"}]},
                    "Claude": {"score": 92, "error_spans": []}}, "comment": ..., "time": 45}

    {"user_id": "...", "item_i": 13,                                  # a document per entry
     "item": [{"item_id": "cs-de_DE_#_edu_#_edu02178_#_0", "src": ..., "tgt": {...}}, ...],
     "annotation": [{"DLUT_GTCOM": {"score": 87, "error_spans": [], "textfield": null}}, ...],
     "actions": [...]}

(``data/outputs/annotation_demo_esa.jsonl`` @ f97a5c3 and
``examples/annotated_cache/data/outputs/example_singlestream.jsonl`` @ fb9ad41.) An item is named
by its ``item_id``, else as Pearmut's ``server/results_export.py`` (@ 13e7a1f) names it (the
item's JSON without ``tgt``), else (the first layout) by ``item_i``. An ``item_id`` of WMT25's
form ``pair_#_domain_#_...`` gives the language pair and domain; otherwise the pair is the file's
name (Pearmut names the file after the campaign) and the domain ``all``. Spans keep
``start_i``/``end_i`` as written (Pearmut's README: character indices, both inclusive).

The filters, as Pearmut's own results export applies them and counted in one note per file:
welcome (tutorial), random (attention check) and goodbye items (``item_i`` ``welcome_*``,
``random_*``, ``goodbye_*``) are dropped, and so are skipped items and scores that are null;
entries without an annotation (forms) are passed over; a ``__RESET__`` entry drops its user's
earlier annotations of that item; where one model's item is rated again, the later rating is the
one kept (Pearmut's export keeps the last too), the earlier ones counted. Every rating is wave 1:
the WMT25 procedure then tests on the items both systems have.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

from mteval_core.errors import InputError
from mteval_core.io.wmt25_humeval import (
    DOC_ID_SEPARATOR,
    HumanAnnotation,
    HumanAnnotations,
    error_spans,
    json_lines,
)

RESET_MARKER = "__RESET__"  # Pearmut's server/utils.py
NOT_RANKED_ITEMS = ("welcome_", "random_", "goodbye_")
LAYOUT_HINT = (
    "Give Pearmut's data/outputs/<campaign>.jsonl as its server writes it: one object per line "
    'with "user_id", "item_i" and "annotation" ({model: {"score": ..., "error_spans": [...]}}, '
    'or one such object per item of "item").'
)


def is_pearmut_log(path: Path) -> bool:
    """Whether the first object of ``path`` is a Pearmut log entry (``user_id`` and
    ``item_i``, no WMT ``doc_id``); a file that is not JSON Lines is left to the other reader."""
    with path.open("rb") as file:
        return _is_pearmut_lines(file)


def is_pearmut_bytes(data: bytes) -> bool:
    """The same test on a file's bytes, as the Rankings page holds its uploads."""
    return _is_pearmut_lines(data.splitlines())


def _is_pearmut_lines(lines: Iterable[bytes]) -> bool:
    for line in lines:
        if line.strip():
            try:
                first = json.loads(line.removeprefix(b"\xef\xbb\xbf"))  # a UTF-8 BOM
            except ValueError:
                return False
            return isinstance(first, dict) and {"user_id", "item_i"} <= set(first)
    return False


def read_pearmut_logs(paths: list[Path]) -> HumanAnnotations:
    """Every kept rating of ``paths`` (Pearmut logs), in file order."""
    return pearmut_of_bytes([(path.read_bytes(), str(path)) for path in paths])


def pearmut_of_bytes(files: Sequence[tuple[bytes, str]]) -> HumanAnnotations:
    """The same from (data, origin) pairs; the campaign is the origin's file name without its
    suffix, as it is of a path."""
    annotations: list[HumanAnnotation] = []
    notes = []
    for data, origin in files:
        kept, dropped = _read_log(data, origin, Path(origin).stem)
        annotations += kept
        if dropped:
            said = ", ".join(f"{count:,} {why}" for why, count in dropped.items())
            notes.append(f"{Path(origin).name}: the reader dropped {said}")
    return HumanAnnotations(tuple(annotations), tuple(notes))


def _read_log(data: bytes, origin: str, campaign: str) -> tuple[list[HumanAnnotation], Counter]:
    dropped: Counter = Counter()
    # (model, item) -> the latest rating and the (user, item_i) of its entry, a reset's scope
    latest: dict[tuple[str, str], tuple[HumanAnnotation, tuple[object, object]]] = {}
    for number, entry in json_lines(data, origin, LAYOUT_HINT):
        scope = (entry.get("user_id"), entry.get("item_i"))
        if entry.get("annotation") == RESET_MARKER:
            undone = [key for key, (_, of) in latest.items() if of == scope]
            dropped["ratings undone by a task reset"] += len(undone)
            for key in undone:
                del latest[key]
            continue
        if entry.get("annotation") is None:
            continue  # a form or a progress entry: no rating
        if isinstance(scope[1], str) and scope[1].startswith(NOT_RANKED_ITEMS):
            dropped["tutorial, attention-check and goodbye entries"] += 1
            continue
        for item, ratings in _items(entry, origin, number):
            if ratings is None:
                dropped["skipped items"] += 1
                continue
            for rating in _ratings(ratings, item, campaign, entry, origin, number):
                if rating is None:
                    dropped["ratings without a score"] += 1
                    continue
                key = (rating.system, rating.item)
                if key in latest:
                    dropped["earlier ratings of an item rated again"] += 1
                    del latest[key]  # the later one goes last, in file order
                latest[key] = (rating, scope)
    return [rating for rating, _ in latest.values()], dropped


def _items(entry: dict, origin: str, line: int) -> list[tuple[str, object]]:
    """(item name, {model: rating} or None) of one entry, in either layout."""
    annotation = entry["annotation"]
    if isinstance(annotation, dict):
        return [(str(entry.get("item_i")), annotation)]
    items = entry.get("item")
    if (
        not isinstance(annotation, list)
        or not isinstance(items, list)
        or len(items) != len(annotation)
    ):
        raise InputError(
            'the "annotation" is neither one object per model nor a list as long as "item"',
            origin=origin,
            line=line,
            hint=LAYOUT_HINT,
        )
    named = []
    for item, ratings in zip(items, annotation):
        if not isinstance(item, dict):
            raise InputError(
                f"the item {item!r} is not an object", origin=origin, line=line, hint=LAYOUT_HINT
            )
        name = item.get("item_id")
        if name is None:  # as Pearmut's results export names an item without an id
            name = json.dumps(item | {"tgt": None})
        named.append((str(name), ratings))
    return named


def _ratings(
    ratings: object, item: str, campaign: str, entry: dict, origin: str, line: int
) -> list[HumanAnnotation | None]:
    """One annotation per model of one item (None where the score is null)."""
    if not isinstance(ratings, dict):
        raise InputError(
            f"the annotation of item {item!r} is not an object of models",
            origin=origin,
            line=line,
            hint=LAYOUT_HINT,
        )
    parts = item.split(DOC_ID_SEPARATOR)
    pair, domain = (
        (parts[0], parts[1])
        if len(parts) >= 2 and parts[0] and parts[1]
        else (
            campaign,
            "all",
        )
    )
    user = entry.get("user_id")
    kept: list[HumanAnnotation | None] = []
    for model, rating in ratings.items():
        score = rating.get("score") if isinstance(rating, dict) else rating
        if score is None:
            kept.append(None)
            continue
        if isinstance(score, bool) or not isinstance(score, (int, float)) or score != score:
            raise InputError(
                f"the score of {model!r} on item {item!r} is {score!r}, not a number",
                origin=origin,
                line=line,
                column="annotation",
                hint="Pearmut's ESA and DA scores are numbers from 0 to 100 (null if skipped).",
            )
        kept.append(
            HumanAnnotation(
                pair,
                domain,
                item,
                model,
                1,
                float(score),
                str(user),
                error_spans(
                    rating.get("error_spans") if isinstance(rating, dict) else None, origin, line
                ),
                origin,
                line,
            )
        )
    return kept
