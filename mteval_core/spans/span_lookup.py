"""Every span annotation of a session placed on its test set's lines, so that a page that
shows one system's translation of one line can ask for its annotations.

Span files key their segments their own way (MQM's seg_id or doc::docSegId, task 2's
doc::segment, a metric's position in its file), and name systems as they were scored. Here an
annotation is placed on a line of the test set, first way that applies:

1. by the lines its file's own placement gives (Google's MQM: ``io.mqm_placement``, the way
   the Data page places the same file's scores);
2. by its segment key where that is a line number of the test set (a metric's spans);
3. by its target: the line where the system's translation is the annotation's target text.

Its system is the test set's system of that name (or of that file name). An annotation placed
nowhere, and a span whose offsets lie outside its target, are left out with a note that counts
them, never drawn at a made-up place. The text drawn is the annotation's own target (the text
its offsets index), or the test set's translation where its file gives none.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from mteval_core.io.long_format import is_segment_number
from mteval_core.io.mqm_placement import segment_lines
from mteval_core.io.mqm_tsv import read_mqm
from mteval_core.io.system_names import file_name_aliases
from mteval_core.model.spans import ErrorSpan, SpanAnnotation, SpanAnnotations
from mteval_core.model.testset import TestSet

Item = tuple[str, int]  # (system, 1-based line of the test set)


@dataclass(frozen=True)
class PlacedAnnotation:
    """One annotation where a page draws it: ``label`` names its file (or metric) and
    annotator, as the pages offer it for choice."""

    label: str
    annotation: SpanAnnotation


@dataclass(frozen=True)
class SegmentSpans:
    """(system, line) -> its annotations, in the order of the files given; notes on what was
    left out."""

    placed: Mapping[Item, tuple[PlacedAnnotation, ...]]
    notes: tuple[str, ...] = ()

    def of(self, system: str, line: int) -> tuple[PlacedAnnotation, ...]:
        """The annotations of ``system``'s translation of ``line`` (1-based); () for none."""
        return self.placed.get((system, line), ())

    def labels(self, systems: Sequence[str]) -> list[str]:
        """Every annotation label of ``systems``' translations, in first-placed order."""
        wanted = set(systems)
        seen = (p.label for (s, _), found in self.placed.items() if s in wanted for p in found)
        return list(dict.fromkeys(seen))

    def lines_with_spans(self, systems: Sequence[str], lines: Sequence[int]) -> int:
        """How many of ``lines`` have an annotation of at least one of ``systems``."""
        return sum(any((system, line) in self.placed for system in systems) for line in lines)


def label_of(origin: str, annotator: str) -> str:
    return annotator if origin == annotator else f"{origin}: {annotator}"


def mqm_lines(test_set: TestSet, data: bytes, origin: str) -> dict[str, int]:
    """Segment key -> line of a Google MQM file, placed as its scores are placed."""
    return segment_lines(test_set, read_mqm(data, origin))


def metric_annotations(
    name: str, spans: Mapping[tuple[str, int], Sequence[ErrorSpan]], test_set: TestSet
) -> SpanAnnotations:
    """A metric's spans (system, 1-based line -> spans, as ExternalMetric keeps xCOMET's) as
    annotations of the test set's translations, annotator ``name``, keyed by line."""
    annotations = tuple(
        SpanAnnotation(
            system=system,
            segment=str(line),
            annotator=name,
            target=_translation(test_set, system, line),
            spans=tuple(found),
            origin=name,
        )
        for (system, line), found in spans.items()
    )
    return SpanAnnotations(name, annotations)


def _translation(test_set: TestSet, system: str, line: int) -> str | None:
    if system not in test_set.system_names or not 1 <= line <= test_set.n_segments:
        return None
    return test_set.system(system)[line - 1]


def segment_spans(
    test_set: TestSet,
    files: Mapping[str, SpanAnnotations],
    file_lines: Mapping[str, Mapping[str, int]] | None = None,
) -> SegmentSpans:
    """Every annotation of ``files`` (name -> its annotations) on the test set's lines;
    ``file_lines`` gives a file's own placement (segment key -> line) where it has one."""
    placer = _Placer(test_set)
    placed: dict[Item, list[PlacedAnnotation]] = {}
    notes: list[str] = []
    for name, read in files.items():
        own = (file_lines or {}).get(name, {})
        left_out = spans_out = other_text = 0
        for annotation in read.annotations:
            item = placer.item(annotation, own)
            if item is None:
                left_out += 1
                continue
            drawn, dropped = placer.drawable(annotation, item)
            spans_out += dropped
            other_text += drawn.target.strip() != test_set.system(item[0])[item[1] - 1].strip()
            label = label_of(name, annotation.annotator)
            placed.setdefault(item, []).append(PlacedAnnotation(label, drawn))
        notes += _notes(name, left_out, spans_out, other_text)
    return SegmentSpans({item: tuple(found) for item, found in placed.items()}, tuple(notes))


def _notes(name: str, left_out: int, spans_out: int, other_text: int) -> list[str]:
    notes = []
    if other_text:
        notes.append(
            f"{name}: {other_text:,} annotation(s) mark a text other than the test set's "
            "translation of their line; their own text is drawn, which its offsets index"
        )
    if left_out:
        notes.append(
            f"{name}: {left_out:,} annotation(s) name a system or segment that is not a line "
            "of this test set (by the file's ids, a line number or the translation's text); "
            "they are not drawn beside the test set's sentences"
        )
    if spans_out:
        notes.append(
            f"{name}: {spans_out:,} span(s) lie outside their translation's characters and "
            "are not drawn"
        )
    return notes


class _Placer:
    """The test set's systems by name and file name, and each system's lines by text."""

    def __init__(self, test_set: TestSet) -> None:
        self.test_set = test_set
        self.names = {name: name for name in test_set.system_names}
        self.names.update(file_name_aliases(test_set.systems))
        self.by_text: dict[str, dict[str, int]] = {}

    def item(self, annotation: SpanAnnotation, own: Mapping[str, int]) -> Item | None:
        system = self.names.get(annotation.system)
        if system is None:
            return None
        line = own.get(annotation.segment)
        if line is None and is_segment_number(annotation.segment):
            line = int(annotation.segment)
        if line is None and annotation.target is not None:
            line = self._lines_by_text(system).get(annotation.target.strip())
        if line is None or not 1 <= line <= self.test_set.n_segments:
            return None
        return system, line

    def _lines_by_text(self, system: str) -> dict[str, int]:
        if system not in self.by_text:
            texts = self.test_set.system(system)
            self.by_text[system] = {}
            for line in range(len(texts), 0, -1):  # the first line of a repeated text wins
                self.by_text[system][texts[line - 1].strip()] = line
        return self.by_text[system]

    def drawable(self, annotation: SpanAnnotation, item: Item) -> tuple[SpanAnnotation, int]:
        """The annotation with a target to draw and only the spans within it; how many left."""
        system, line = item
        target = annotation.target
        if target is None:
            target = self.test_set.system(system)[line - 1]
        kept = tuple(span for span in annotation.spans if _within(span, len(target)))
        dropped = len(annotation.spans) - len(kept)
        return replace(annotation, system=system, target=target, spans=kept), dropped


def _within(span: ErrorSpan, length: int) -> bool:
    if not span.in_target:
        return True
    return 0 <= span.start <= span.end <= length
