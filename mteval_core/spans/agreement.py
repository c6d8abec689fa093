"""One annotation's spans scored against another's: predicted against gold (a metric against
people, WMT25 task 2) or one person against another (human1 against human2).

The two sides meet on (system, segment). Where a side has several annotations of one item (an
MQM file with three raters per segment), a choice picks one: an annotator's name, or ``#k``,
the item's k-th annotation in file order (``#1`` and ``#2`` of one MQM file are WMT's human1
and human2). Items that only one side has are left out and counted in a note; none in common
is an error. Both sides' targets, where both give one, must be the same text.

Every pair is scored per character (character_scores, WMT25's credit) and per span (exact and
partial overlap, span_matching); each is pooled over segments (micro) and averaged over
segments (macro), per language pair and over all, and WMT25's figure is the plain mean of the
language pairs' micro scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

from mteval_core.errors import InputError
from mteval_core.model.spans import SpanAnnotation, SpanAnnotations
from mteval_core.spans import character_scores, span_matching
from mteval_core.spans.character_scores import PARTIAL_CREDIT, CharacterTally, PrecisionRecall
from mteval_core.spans.span_matching import EXACT, OVERLAP, SpanTally

FIRST = "#1"
ALL_PAIRS = "all"


@dataclass(frozen=True)
class Pair:
    gold: SpanAnnotation
    predicted: SpanAnnotation
    length: int  # characters of the target (the largest offset where no side gives it)

    @property
    def language_pair(self) -> str:
        return self.gold.language_pair or self.predicted.language_pair

    def characters(self) -> CharacterTally:
        return character_scores.character_tally(self.gold.spans, self.predicted.spans, self.length)

    def spans(self, matching: str, severity: bool = False) -> SpanTally:
        return span_matching.span_tally(self.gold.spans, self.predicted.spans, matching, severity)


def chosen(annotations: Sequence[SpanAnnotation], choice: str) -> SpanAnnotation | None:
    """The annotation ``choice`` names among one item's (``#k`` or an annotator), or None."""
    if choice.startswith("#") and choice[1:].isdigit():
        position = int(choice[1:]) - 1
        return annotations[position] if 0 <= position < len(annotations) else None
    return next((a for a in annotations if a.annotator == choice), None)


def paired(
    gold: SpanAnnotations,
    predicted: SpanAnnotations,
    gold_choice: str = FIRST,
    predicted_choice: str = FIRST,
) -> tuple[list[Pair], list[str]]:
    """The pairs of the items both sides have, in the gold's order, and notes on the rest."""
    gold_items, predicted_items = gold.by_item(), predicted.by_item()
    pairs = []
    for item, of_item in gold_items.items():
        first = chosen(of_item, gold_choice)
        second = chosen(predicted_items.get(item, []), predicted_choice)
        if first is not None and second is not None and first is not second:
            pairs.append(Pair(first, second, _length(first, second)))
    if not pairs and predicted is gold and max(map(len, gold_items.values()), default=0) < 2:
        raise InputError(
            f"every translation of {gold.origin} has one annotation, so there is no second "
            "one to compare it with",
            hint="Compare it with another file of spans on the same translations.",
        )
    if not pairs:
        raise InputError(
            f"no translation has both {gold_choice} of {gold.origin} and {predicted_choice} of "
            f"{predicted.origin}",
            hint="Both files must rate the same systems' segments (system and segment ids); "
            "choose the annotators by name or as #1, #2 (an item's first and second).",
        )
    notes = []
    spaced = sum(
        p.gold.target != p.predicted.target for p in pairs if p.predicted.target is not None
    )
    if spaced and gold.annotations[0].target is not None:
        notes.append(
            f"{spaced:,} translations have their target with other white space around it on the "
            "two sides; the gold's is the text scored, and predicted spans past it are cut there"
        )
    for side, items, choice in (
        (gold, gold_items, gold_choice),
        (predicted, predicted_items, predicted_choice),
    ):
        left = sum(chosen(a, choice) is not None for a in items.values()) - len(pairs)
        if left:
            notes.append(
                f"{side.origin}: left out {left:,} of its translations ({choice}), which the other "
                "side does not have"
            )
    return pairs, notes


def _length(gold: SpanAnnotation, predicted: SpanAnnotation) -> int:
    """The gold's target length, as WMT25's len_hyp (a predicted span past it is cut there);
    two targets may differ in the white space around them (Google's raters mark a trailing
    space inside <v>...</v>), in nothing else."""
    if (
        gold.target is not None
        and predicted.target is not None
        and gold.target.strip() != predicted.target.strip()
    ):
        raise InputError(
            f"the two files give different targets for system {gold.system!r}, segment "
            f"{gold.segment!r}",
            origin=predicted.origin,
            line=predicted.line,
            hint=f"Compare with {gold.origin}, line {gold.line}: spans index the same text.",
        )
    target = gold.target if gold.target is not None else predicted.target
    if target is not None:
        return len(target)
    return max((s.end for s in (*gold.spans, *predicted.spans) if s.in_target), default=0)


@dataclass(frozen=True)
class GroupScores:
    """One language pair's (or all pairs') scores."""

    name: str
    items: int
    characters: PrecisionRecall  # micro: WMT25's score of a language pair
    characters_macro: PrecisionRecall
    exact: PrecisionRecall  # spans matched exactly, micro
    exact_macro: PrecisionRecall
    overlap: PrecisionRecall  # spans matched by one shared character, micro
    overlap_macro: PrecisionRecall


@dataclass(frozen=True)
class SpanAgreement:
    gold: str
    predicted: str
    partial_credit: float
    groups: tuple[GroupScores, ...]  # per language pair, sorted by name
    pooled: GroupScores  # every pair's segments together
    wmt25_average: PrecisionRecall  # the plain mean of the groups' character scores
    notes: tuple[str, ...]

    def as_dict(self) -> dict:
        return asdict(self)


def group_scores(name: str, pairs: Sequence[Pair], partial_credit: float) -> GroupScores:
    tallies = [pair.characters() for pair in pairs]
    exact = [pair.spans(EXACT) for pair in pairs]
    overlap = [pair.spans(OVERLAP) for pair in pairs]
    return GroupScores(
        name,
        len(pairs),
        character_scores.micro(tallies, partial_credit),
        character_scores.macro(tallies, partial_credit),
        span_matching.micro(exact),
        span_matching.macro(exact),
        span_matching.micro(overlap),
        span_matching.macro(overlap),
    )


def agreement(
    pairs: Sequence[Pair],
    gold: str,
    predicted: str,
    partial_credit: float = PARTIAL_CREDIT,
    notes: Sequence[str] = (),
) -> SpanAgreement:
    """Every score of ``pairs``, per language pair (as WMT25 reports them) and over all."""
    by_group: dict[str, list[Pair]] = {}
    for pair in pairs:
        by_group.setdefault(pair.language_pair or ALL_PAIRS, []).append(pair)
    groups = tuple(group_scores(name, by_group[name], partial_credit) for name in sorted(by_group))
    return SpanAgreement(
        gold,
        predicted,
        partial_credit,
        groups,
        group_scores(ALL_PAIRS, pairs, partial_credit),
        PrecisionRecall.mean([group.characters for group in groups]),
        tuple(notes),
    )
