"""The Data page's widgets of every metric's parameters, made from their declarations
(``mteval_core.settings.parameters``): a parameter declared with a label is offered here, with
its help, choices and bounds, without a line of this module naming it.

A choice is a select box (with "the default for the language and task" where None means that),
a switch a checkbox, a number a number input within its bounds. Each family gets a column under
its title; what the widgets say comes back as flat names (``gtm_exponent``), which
``Options.updated`` takes.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from mteval_core.settings.options import Options
from mteval_core.settings.parameters import FAMILIES, Declared, MetricParameters

UNSET = "the default for the language and task"  # a choice left None


def parameter_widgets(current: Options, families: tuple[str, ...] = tuple(FAMILIES)) -> dict:
    """One widget per parameter with a label, of each of ``families`` (Options' field names),
    starting at ``current``'s values; the values chosen, by flat name."""
    shown = [name for name in families if _offered(FAMILIES[name])]
    chosen: dict[str, Any] = {}
    for column, name in zip(st.columns(len(shown)), shown):
        family = FAMILIES[name]
        column.markdown(f"**{family.title}**")
        for declared in _offered(family):
            value = getattr(getattr(current, name), declared.name)
            chosen[f"{family.prefix}_{declared.name}"] = _widget(column, declared, value)
    return chosen


def _offered(family: type[MetricParameters]) -> list[Declared]:
    return [declared for declared in family.declared() if declared.spec.label is not None]


def _widget(column: Any, declared: Declared, value: Any) -> Any:
    spec = declared.spec
    help_text = f"{spec.help[0].upper()}{spec.help[1:]}."
    if declared.kind is bool:
        return column.checkbox(spec.label, value, help=help_text)
    if spec.choices is not None:
        offered = [*([None] if declared.default is None else []), *spec.choices]
        return column.selectbox(
            spec.label,
            offered,
            offered.index(value),
            format_func=lambda choice: UNSET if choice is None else choice,
            help=help_text,
        )
    return column.number_input(
        spec.label, spec.low, spec.high, float(value), spec.step, help=help_text
    )
