"""`mteval compare` as text and JSON: compare-mt's report, each bucket's value followed by its
bootstrap interval, and the JSON layout the README documents."""

from __future__ import annotations

import json

from mteval_core.compare.analysis import BucketResult, Comparison
from mteval_core.stats.bootstrap import fewest_interval_resamples


def comparison_json(comparison: Comparison) -> str:
    return json.dumps(comparison.to_dict(), indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def comparison_text(comparison: Comparison) -> str:
    """Every analysis as an aligned table, then the n-grams and the example sentences."""
    a, b = comparison.systems
    lines = [f"compare: a = {a}, b = {b}; the text {comparison.reading.description()}"]
    lines += [f"note: {note}" for note in comparison.notes]
    too_few = comparison.bootstrap.too_few_for_intervals if comparison.bootstrap else None
    if too_few:
        needed = fewest_interval_resamples(comparison.bootstrap.confidence)
        lines.append(f"note: {too_few} (give --bootstrap {needed} or more)")
    lines.append("")
    for analysis in comparison.analyses:
        lines += [*bucket_table(analysis, comparison.systems), ""]
    lines += [*ngram_lines(comparison), ""]
    lines += example_lines(comparison)
    lines += ["", f"signature: {comparison.signature}"]
    return "\n".join(lines) + "\n"


def value_cell(analysis: BucketResult, system: int, bucket: int, measure: int) -> str:
    value = analysis.values[system, bucket, measure]
    text = f"{value:.0f}" if analysis.measures[measure] == "sentences" else f"{value:.4f}"
    if analysis.intervals is None:
        return text
    low, high = analysis.intervals[system, bucket, measure]
    if analysis.measures[measure] == "sentences":
        return f"{text} [{low:.0f}, {high:.0f}]"
    return f"{text} [{low:.4f}, {high:.4f}]"


def difference_cell(analysis: BucketResult, bucket: int, measure: int) -> str:
    """a's value minus b's, its interval on the same resamples, and "*" when that interval
    leaves out 0 (the two differ in this bucket)."""
    value = analysis.differences[bucket, measure]
    digits = 0 if analysis.measures[measure] == "sentences" else 4
    text = f"{value:+.{digits}f}"
    if analysis.difference_intervals is None:
        return text
    low, high = analysis.difference_intervals[bucket, measure]
    star = " *" if low > 0 or high < 0 else ""
    return f"{text} [{low:+.{digits}f}, {high:+.{digits}f}]{star}"


def bucket_table(analysis: BucketResult, systems: tuple[str, str]) -> list[str]:
    main = analysis.main_measure
    header = ["bucket"]
    for label in analysis.measure_labels:
        header += [f"{label} {system}" for system in systems]
    header.append(f"{analysis.measure_labels[main]} a-b")
    rows = []
    for b, label in enumerate(analysis.labels):
        row = [label]
        for m in range(len(analysis.measures)):
            row += [value_cell(analysis, s, b, m) for s in range(len(systems))]
        row.append(difference_cell(analysis, b, main))
        rows.append(row)
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    table = [
        "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths)))
        for r in [header, *rows]
    ]
    note = (
        "(* the interval of a-b leaves out 0)" if analysis.difference_intervals is not None else ""
    )
    return [f"--- {analysis.title} {note}".rstrip(), *table]


def ngram_lines(comparison: Comparison) -> list[str]:
    a, b = comparison.systems
    lines = []
    for side, (better, worse) in enumerate(((a, b), (b, a))):
        differences = comparison.ngrams[side]
        lines.append(f"--- {len(differences)} n-grams {better} matches more often than {worse}")
        lines += [
            f"{d.ngram}\t{d.salience:.4f} ({a}={d.matches_a}, {b}={d.matches_b})"
            for d in differences
        ]
    return lines


def example_lines(comparison: Comparison) -> list[str]:
    a, b = comparison.systems
    reference, out_a, out_b = comparison.texts
    lines = []
    for side, (better, worse) in enumerate(((a, b), (b, a))):
        examples = comparison.examples[side]
        measure = comparison.reading.sentence_bleu_label
        lines.append(f"--- {len(examples)} sentences where {better} > {worse} at {measure}")
        for e in examples:
            i = e.line - 1
            scores = f"{a}={e.score_a:.4f}, {b}={e.score_b:.4f}"
            lines.append(f"line {e.line}: {a}-{b}={e.difference:.4f}, {scores}")
            if comparison.source is not None:
                lines.append(f"  source: {comparison.source[i]}")
            lines += [f"  reference: {reference[i]}", f"  {a}: {out_a[i]}", f"  {b}: {out_b[i]}"]
    return lines
