"""What a loss analysis starts from: per system (and category) rates and expected totals.

Tate & Voss (2006) need five numbers per system: the correct, non-response and incorrect response
rates (CRR = CR / RTtot, NRR = NR / RTtot, IRR = IR / SubjMtot) and the expected totals per case
(E(RTtot) = RTtot / N, E(SubjMtot) = SubjMtot / N). A file may give them directly, or give the
counts they come from, or one row per case. Counts and cases also allow a bootstrap; rates do
not.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

import numpy as np

from mteval_core.errors import InputError

ALL = "all"  # the group name when rows are not split by a category column
# Rates read from a file may be rounded: crr + nrr may exceed 1 by this much before it is an error
# (two rates printed to three decimals, as in the paper, are each off by at most 0.0005).
RATE_ROUNDING = 1e-3
Shape = Literal["counts", "rates", "cases"]


@dataclass(frozen=True)
class Rates:
    """The inputs of the average loss for one system: three rates and two expected totals."""

    crr: float
    nrr: float
    irr: float
    e_rt_total: float
    e_marked_total: float


@dataclass(frozen=True)
class Counts:
    """Response counts summed over ``cases`` cases (a case is one subject reading one document)."""

    correct: int
    non_response: int
    incorrect: int
    rt_total: int
    marked_total: int
    cases: int

    def rates(self) -> Rates:
        return Rates(
            crr=self.correct / self.rt_total,
            nrr=self.non_response / self.rt_total,
            irr=self.incorrect / self.marked_total,
            e_rt_total=self.rt_total / self.cases,
            e_marked_total=self.marked_total / self.cases,
        )

    def __add__(self, other: Counts) -> Counts:
        return Counts(
            self.correct + other.correct,
            self.non_response + other.non_response,
            self.incorrect + other.incorrect,
            self.rt_total + other.rt_total,
            self.marked_total + other.marked_total,
            self.cases + other.cases,
        )


@dataclass(frozen=True)
class LossRow:
    """One row of a loss file: either rates or counts (a case-level row is counts with cases=1)."""

    line: int
    system: str
    categories: Mapping[str, str]  # category column -> value, e.g. {"wh": "Who"}
    rates: Rates | None
    counts: Counts | None


@dataclass(frozen=True)
class LossInput:
    """A whole loss file, already checked row by row (see mteval_core.io.loss_csv)."""

    origin: str
    shape: Shape
    category_columns: tuple[str, ...]
    rows: tuple[LossRow, ...]

    def systems(self) -> list[str]:
        """Systems in the order of their first row."""
        return list(dict.fromkeys(row.system for row in self.rows))


def _group_key(row: LossRow, by: str | None) -> str:
    return ALL if by is None else row.categories[by]


def _check_by(data: LossInput, by: str | None) -> None:
    if by is not None and by not in data.category_columns:
        known = ", ".join(data.category_columns) or "none"
        raise InputError(
            f"there is no category column {by!r} (category columns: {known})",
            origin=data.origin,
            hint="Break the table down by one of its category columns, or by none.",
        )


def grouped_counts(data: LossInput, by: str | None = None) -> dict[str, dict[str, Counts]]:
    """Counts summed per group (a value of ``by``, or "all") and system."""
    if data.shape == "rates":
        raise InputError(
            "this file gives rates, not counts",
            origin=data.origin,
            hint="A bootstrap needs counts (with a 'cases' column) or one row per case.",
        )
    _check_by(data, by)
    groups: dict[str, dict[str, Counts]] = {}
    for row in data.rows:
        assert row.counts is not None  # counts and cases files always carry counts
        systems = groups.setdefault(_group_key(row, by), {})
        systems[row.system] = (
            systems[row.system] + row.counts if row.system in systems else row.counts
        )
    for group, systems in groups.items():
        for system, counts in systems.items():
            _check_totals(counts, system, group, data.origin)
    return groups


def grouped_rates(data: LossInput, by: str | None = None) -> dict[str, dict[str, Rates]]:
    """Rates and expected totals per group and system; counts and cases are pooled first."""
    if data.shape != "rates":
        return {
            group: {system: counts.rates() for system, counts in systems.items()}
            for group, systems in grouped_counts(data, by).items()
        }
    _check_by(data, by)
    groups: dict[str, dict[str, Rates]] = {}
    for row in data.rows:
        group = _group_key(row, by)
        systems = groups.setdefault(group, {})
        if row.system in systems:
            pooled = [name for name in data.category_columns if name != by]
            raise InputError(
                f"system {row.system!r} has several rows in group {group!r} (they differ in "
                f"{', '.join(pooled)}), and rates cannot be pooled without the counts behind them",
                origin=data.origin,
                line=row.line,
                hint=f"Break the table down by {pooled[0]}, or give counts instead of rates."
                if pooled
                else None,
            )
        assert row.rates is not None  # a rates file always carries rates
        _check_rates_add_up(row.rates, row.line, data.origin)
        systems[row.system] = row.rates
    return groups


def _check_rates_add_up(rates: Rates, line: int, origin: str) -> None:
    """CRR and NRR are shares of the same answer items (CR / RTtot, NR / RTtot), so they add up
    to at most 1. IRR is a share of the marked items (IR / SubjMtot), so crr + nrr + irr may
    exceed 1, and CR, NR and IR are counts of items, not of cases, so they may exceed N."""
    if rates.crr + rates.nrr > 1 + RATE_ROUNDING:
        raise InputError(
            f"crr + nrr is {rates.crr:g} + {rates.nrr:g} = {rates.crr + rates.nrr:g}, but both "
            "are shares of the answer items (rt_total), so they add up to at most 1",
            origin=origin,
            line=line,
            column="nrr",
            hint="An answer item is found correctly, partly or not at all (a non-response); "
            "check the two rates.",
        )


def case_matrix(data: LossInput, by: str | None = None) -> dict[str, dict[str, np.ndarray]]:
    """For case-level files: per group and system, one row per case of
    (correct, non_response, incorrect, rt_total, marked_total), for a bootstrap over cases."""
    if data.shape != "cases":
        raise InputError(
            f"this file gives {data.shape}, not one row per case",
            origin=data.origin,
            hint="A bootstrap over cases needs case-level rows (with a 'case' column).",
        )
    grouped_counts(data, by)  # checks --by and that every pooled total is non-zero
    cases: dict[str, dict[str, list[list[int]]]] = {}
    for row in data.rows:
        assert row.counts is not None
        counts = row.counts
        cases.setdefault(_group_key(row, by), {}).setdefault(row.system, []).append(
            [
                counts.correct,
                counts.non_response,
                counts.incorrect,
                counts.rt_total,
                counts.marked_total,
            ]
        )
    return {
        group: {system: np.array(rows, dtype=float) for system, rows in systems.items()}
        for group, systems in cases.items()
    }


def _check_totals(counts: Counts, system: str, group: str, origin: str) -> None:
    """A zero total makes a rate 0/0: say so instead of computing a NaN."""
    for name, total in (("rt_total", counts.rt_total), ("marked_total", counts.marked_total)):
        if total == 0:
            raise InputError(
                f"system {system!r} in group {group!r} has {name} 0, so its rates are undefined",
                origin=origin,
                column=name,
                hint="Remove the system from the file or give its real totals.",
            )
