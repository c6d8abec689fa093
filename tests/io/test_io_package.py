"""mteval_core.io loads its readers on first use: every name it lists comes from the module its
table names, and the list and the table agree (a name added to one only would fail here)."""

from __future__ import annotations

import importlib

import mteval_core.io as io


def test_every_public_name_is_in_the_table_and_resolves_to_its_module() -> None:
    assert sorted(io.__all__) == sorted(io._HOME)
    for name, module in io._HOME.items():
        assert getattr(io, name) is getattr(importlib.import_module(module), name)
