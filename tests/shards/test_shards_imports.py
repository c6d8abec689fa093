"""Dask stays optional: the in-memory `mteval score` never loads it, a sharded run without
workers does not either, and only the cluster module imports it."""

from __future__ import annotations

import pytest

from tests.test_architecture import PACKAGE, SAMPLE, imported_modules, loaded_after

DASK = {"dask", "distributed"}


def test_the_in_memory_command_loads_neither_dask_nor_pyarrow():
    code = (
        "import contextlib, io\nfrom mteval_core.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main(['score', '--refs', '{SAMPLE}/ref/ref-A.en', "
        f"'--hyps', '{SAMPLE}/sys/neural-large.en', '--metrics', 'bleu,chrf', "
        "'--bootstrap', '50'])"
    )
    assert loaded_after(code).isdisjoint(DASK | {"pyarrow"})


def test_a_sharded_run_in_this_process_does_not_load_dask(tmp_path):
    shard = tmp_path / "a.tsv"
    shard.write_text(
        "system\tsegment\thypothesis\treference\nA\t1\tthe cat\tthe cat\n", encoding="utf-8"
    )
    code = (
        "import contextlib, io\nfrom mteval_core.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    assert main(['score', '--shards', '{shard}', '--workers', '0', "
        "'--metrics', 'bleu']) == 0"
    )
    assert loaded_after(code).isdisjoint(DASK)


@pytest.mark.parametrize("path", sorted((PACKAGE / "shards").glob("*.py")), ids=lambda p: p.name)
def test_only_the_cluster_module_imports_dask(path):
    dask_imports = {m for m in imported_modules(path) if m.split(".")[0] in DASK}
    assert bool(dask_imports) == (path.name == "cluster.py")
