"""``mteval rank``'s autorank source (being built: its options and procedure land with it)."""

from __future__ import annotations

import argparse

from mteval_core.errors import InputError
from mteval_core.rankings.table import LanguagePairRanking


def add_arguments(group: argparse._ArgumentGroup) -> None:
    """This source's options, in its own argument group."""


def requested(args: argparse.Namespace) -> bool:
    return False


def run(args: argparse.Namespace) -> list[LanguagePairRanking]:
    raise InputError("this ranking source is not built yet")
