"""`mteval loss`: Tate & Voss's average loss and ranking per system, overall or per category.

    mteval loss --input FILE [--costs C1,C2,C3] [--by COLUMN] [--format text|json]

JSON: {"costs": [c1, c2, c3], "loss": {group: {system: number}}, "ranking": {group: [systems, best
first]}}; the group is "all" without --by, else each value of the --by column.
"""

from __future__ import annotations

import argparse
import json

from mteval_core.errors import InputError
from mteval_core.loss.average import PAPER_COSTS, Costs, check_costs, losses, ranking
from mteval_core.report.writers import render_loss

DEFAULT_COSTS = ",".join(f"{cost:g}" for cost in PAPER_COSTS)


def add_command(subparsers: argparse._SubParsersAction) -> None:
    loss = subparsers.add_parser(
        "loss",
        help="rank systems by average loss under user costs (Tate & Voss 2006)",
        description="AverageLoss = (-c1 CRR + c2 NRR) E(RTtot) + c3 IRR E(SubjMtot), lower is "
        "better. The input (CSV or TSV) gives counts (system, correct, non_response, incorrect, "
        "rt_total, marked_total, cases), rates (system, crr, nrr, irr, e_rt_total, "
        "e_marked_total) or one row per case (system, case, and the counts); any other column "
        "is a category for --by.",
    )
    loss.add_argument("--input", required=True, metavar="FILE", help="the counts, rates or cases")
    loss.add_argument(
        "--costs",
        default=DEFAULT_COSTS,
        metavar="C1,C2,C3",
        help="value of a correct response, costs of a non-response and of an incorrect response "
        "(default: %(default)s, the paper's)",
    )
    loss.add_argument("--by", metavar="COLUMN", help="one loss and ranking per value of COLUMN")
    loss.add_argument("--format", choices=("text", "json"), default="text")
    loss.set_defaults(run=run)


def parse_costs(text: str) -> Costs:
    """'5,2,1' -> (5.0, 2.0, 1.0), or an InputError that says what to write."""
    try:
        values = [float(part) for part in text.split(",")]
    except ValueError:
        raise InputError(
            f"--costs {text!r} is not three numbers", hint="Write them as C1,C2,C3, e.g. 5,2,1."
        ) from None
    return check_costs(values)


def run(args: argparse.Namespace) -> str:
    from mteval_core.io.decoding import read_bytes
    from mteval_core.io.loss_csv import read_loss_table
    from mteval_core.loss.inputs import grouped_rates

    costs = parse_costs(args.costs)
    data = read_loss_table(read_bytes(args.input), args.input)
    if args.by is None and data.shape == "rates" and data.category_columns:
        raise InputError(
            f"the rates are given per {data.category_columns[0]}, and rates cannot be pooled "
            "into one overall loss without the counts behind them",
            origin=args.input,
            hint=f"Add --by {data.category_columns[0]}.",
        )
    loss = {
        group: losses(rates_by_system, costs)
        for group, rates_by_system in grouped_rates(data, args.by).items()
    }
    rankings = {group: ranking(values) for group, values in loss.items()}
    if args.format == "json":
        return (
            json.dumps(
                {"costs": list(costs), "loss": loss, "ranking": rankings}, indent=2, allow_nan=False
            )
            + "\n"
        )
    return render_loss(costs, loss, rankings, args.by)
