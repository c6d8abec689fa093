"""`mteval spans`: predicted error spans scored against gold spans as WMT25 task 2 scores them.

    mteval spans --gold FILE [--gold-annotator #1|NAME] [--predicted FILE]
                 [--predicted-annotator #k|NAME] [--partial-credit 0.5]
                 [--error-free-threshold 85] [--format text|json]
                 [--translations FILE [--system NAME]]

Files: Google's MQM TSV, WMT25 task 2's TSV, Appraise ESA exports, and GEMBA-MQM's error lists
placed on --translations (mteval_core.spans.span_files).
Without --predicted the gold file is compared with itself, its #1 annotation of every
translation against its #2 (WMT's human1 against human2). JSON: SpanEvaluation.as_dict().
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from mteval_core.errors import InputError
from mteval_core.spans.agreement import FIRST, GroupScores
from mteval_core.spans.character_scores import PARTIAL_CREDIT, PrecisionRecall
from mteval_core.spans.error_free import GOLD_THRESHOLD

if TYPE_CHECKING:  # the scoring's modules load when the command runs
    from mteval_core.spans.span_evaluation import SpanEvaluation

SECOND = "#2"


def add_command(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "spans",
        help="score predicted error spans against gold spans (WMT25 task 2), or two raters",
        description="Character-level precision, recall and F1 with partial credit for the "
        "wrong severity, equal to WMT25 task 2's scoring_esa.py (whose last two lines print "
        "precision as avg_rec and recall as avg_prec; here each has its own name), per "
        "language pair and their mean; exact and partial-overlap span matches, micro and "
        "macro; each side's MQM score from its spans (Google's and GEMBA-MQM's weights); "
        "error-free detection (WMT26 task 3) and critical-error detection (WMT25) where the "
        "gold has ESA scores.",
    )
    parser.add_argument("--gold", required=True, metavar="FILE", help="the gold (human) spans")
    parser.add_argument(
        "--gold-annotator",
        default=FIRST,
        metavar="#k|NAME",
        help="which annotation of a translation is gold: #1 its first in the file (default), "
        "#2 its second, or an annotator's name",
    )
    parser.add_argument(
        "--predicted", metavar="FILE", help="the predicted spans (default: the gold file)"
    )
    parser.add_argument(
        "--predicted-annotator",
        metavar="#k|NAME",
        help="which annotation is predicted (default: #1 of --predicted, #2 without it)",
    )
    parser.add_argument(
        "--partial-credit",
        type=float,
        default=PARTIAL_CREDIT,
        metavar="C",
        help="credit for an error found at the wrong severity (default: %(default)s, WMT25's)",
    )
    parser.add_argument(
        "--error-free-threshold",
        type=float,
        default=GOLD_THRESHOLD,
        metavar="SCORE",
        help="the ESA score from which a translation without spans is error-free "
        "(default: %(default)g, WMT26's)",
    )
    parser.add_argument(
        "--translations",
        metavar="FILE",
        help="the translations a GEMBA-MQM file (gold or predicted) judged, one per line: its "
        "quoted errors are placed on them",
    )
    parser.add_argument(
        "--system",
        metavar="NAME",
        help="the system of --translations (default: its file name without the extension)",
    )
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.set_defaults(run=run)


def _translations(args: argparse.Namespace) -> tuple[list[str] | None, str | None]:
    """--translations as one text per line, and their system's name."""
    from pathlib import PurePath

    from mteval_core.io.decoding import decode, read_bytes, split_lines

    if args.translations is None:
        if args.system is not None:
            raise InputError("--system names the system of --translations, which is not given")
        return None, None
    lines = split_lines(decode(read_bytes(args.translations), args.translations))
    return lines, args.system or PurePath(args.translations).stem


def run(args: argparse.Namespace) -> str:
    from mteval_core.io.decoding import read_bytes
    from mteval_core.spans.span_evaluation import evaluate_spans
    from mteval_core.spans.span_files import read_span_file

    if not 0.0 <= args.partial_credit <= 1.0:
        raise InputError(
            f"--partial-credit {args.partial_credit:g} is not between 0 and 1",
            hint="WMT25 gives 0.5.",
        )
    translations, system = _translations(args)
    gold = read_span_file(read_bytes(args.gold), args.gold, translations, system)
    predicted = (
        gold
        if args.predicted is None
        else read_span_file(read_bytes(args.predicted), args.predicted, translations, system)
    )
    choice = args.predicted_annotator or (FIRST if args.predicted else SECOND)
    evaluation = evaluate_spans(
        gold, predicted, args.gold_annotator, choice, args.partial_credit, args.error_free_threshold
    )
    for note in evaluation.spans.notes:
        print(f"mteval: note: {note}", file=sys.stderr)
    if args.format == "json":
        return json.dumps(evaluation.as_dict(), indent=2, allow_nan=False) + "\n"
    return evaluation_text(evaluation)


def _row(name: str, scores: PrecisionRecall) -> str:
    return f"  {name:<30} {scores.precision:>9.4f} {scores.recall:>9.4f} {scores.f1:>9.4f}"


def _group_lines(group: GroupScores) -> list[str]:
    return [
        f"{group.name} ({group.items:,} translations)",
        f"  {'':<30} {'precision':>9} {'recall':>9} {'F1':>9}",
        _row("characters, micro (WMT25)", group.characters),
        _row("characters, macro", group.characters_macro),
        _row("spans exact, micro", group.exact),
        _row("spans exact, macro", group.exact_macro),
        _row("spans overlapping, micro", group.overlap),
        _row("spans overlapping, macro", group.overlap_macro),
    ]


def evaluation_text(evaluation: SpanEvaluation) -> str:
    spans = evaluation.spans
    lines = [
        f"gold: {spans.gold}",
        f"predicted: {spans.predicted}",
        f"partial credit for the wrong severity: {spans.partial_credit:g}",
    ]
    for group in spans.groups:
        lines += ["", *_group_lines(group)]
    if len(spans.groups) > 1:
        lines += ["", *_group_lines(spans.pooled)]
    average = spans.wmt25_average
    lines += [
        "",
        "WMT25 task 2's figure, the mean over language pairs of the character scores: "
        f"precision {average.precision:.4f}, recall {average.recall:.4f}, F1 {average.f1:.4f}",
        "(scoring_esa.py prints this precision as avg_rec and this recall as avg_prec)",
        "",
        "MQM score from the spans (minus the error points, mean over the translations):",
        f"  {'':<10} {'Google':>9} {'GEMBA-MQM':>9}",
    ]
    for side, mqm in evaluation.mqm.items():
        lines.append(f"  {side:<10} {mqm.google:>9.4f} {mqm.gemba:>9.4f}")
    if evaluation.error_free is not None:
        found = evaluation.error_free
        lines += [
            "",
            "error-free detection (WMT26 task 3; predicted error-free: no span): "
            f"precision {found.precision:.4f}, recall {found.recall:.4f}, F1 {found.f1:.4f}, "
            f"MCC {found.mcc:.4f} (TP {found.true_positives:,}, FP {found.false_positives:,}, "
            f"FN {found.false_negatives:,}, TN {found.true_negatives:,})",
        ]
    if evaluation.critical_f1 is not None:
        critical = evaluation.critical_f1.items()
        said = ", ".join(f"{name} {value:.4f}" for name, value in critical)
        lines += [
            "",
            f"critical-error F1 (WMT25, human < 10) of {evaluation.critical_from}: {said}",
        ]
    return "\n".join(lines) + "\n"
