"""Guard rails of the package's shape: the core never needs the dashboard, folders do not import
each other in a loop, and the command line loads only what a command uses."""

from __future__ import annotations

import ast
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "mteval_core"
SAMPLE = ROOT / "sample_data"


def imported_modules(path: Path) -> set[str]:
    """Every module a file imports, at the top or inside a function."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def folder_of(module: str) -> str | None:
    """'mteval_core.io.human' -> 'io'; None for top-level modules and other packages."""
    parts = module.split(".")
    if parts[0] != "mteval_core" or len(parts) < 2:
        return None
    return parts[1] if (PACKAGE / parts[1]).is_dir() else None


def test_the_core_never_imports_streamlit():
    offenders = [
        str(path.relative_to(ROOT))
        for path in PACKAGE.rglob("*.py")
        if any(name.split(".")[0] == "streamlit" for name in imported_modules(path))
    ]
    assert offenders == []


def test_no_two_package_folders_import_each_other():
    folders = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists())
    uses: dict[str, set[str]] = {folder: set() for folder in folders}
    for folder in folders:
        for path in (PACKAGE / folder).rglob("*.py"):
            for module in imported_modules(path):
                other = folder_of(module)
                if other is not None and other != folder:
                    uses[folder].add(other)
    loops = [(a, b) for a, b in combinations(folders, 2) if b in uses[a] and a in uses[b]]
    assert loops == []


def loaded_after(code: str) -> set[str]:
    done = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys\nprint(' '.join(sys.modules))"],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return {name.split(".")[0] for name in done.stdout.split()}


@pytest.mark.parametrize(
    "code",
    [
        "import mteval_core.cli",
        "import contextlib, io\nfrom mteval_core.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main(['score', '--refs', '{SAMPLE}/ref/ref-A.en', "
        f"'--hyps', '{SAMPLE}/sys/neural-large.en', '--metrics', 'bleu,gtm'])",
    ],
    ids=["import", "score"],
)
def test_the_command_line_loads_no_dashboard_library(code):
    assert loaded_after(code).isdisjoint({"streamlit", "plotly", "pandas"})


def test_scores_and_bootstrap_do_not_import_scipy():
    """scipy.stats costs about a second and 70 MB to import: only correlations need it."""
    code = (
        "import contextlib, io\nfrom mteval_core.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main(['score', '--refs', '{SAMPLE}/ref/ref-A.en', '--hyps', "
        f"'{SAMPLE}/sys/neural-large.en', '{SAMPLE}/sys/phrase-based.en', "
        "'--metrics', 'bleu,nist,precision,recall,f1,fmean,gtm', '--bootstrap', '100'])"
    )
    assert "scipy" not in loaded_after(code)


LONG_FUNCTION_LINES = 60


def test_long_functions_say_why():
    """A function over 60 lines is split, or says on its signature why it is one piece
    (``# long: ...``); ruff's complexity checks (C90, PLR0913, PLR0915) cover the rest."""
    unexplained = []
    paths = [*PACKAGE.rglob("*.py"), *(ROOT / "pages").rglob("*.py"), ROOT / "app.py"]
    for path in paths:
        lines = path.read_text(encoding="utf-8").splitlines()
        for node in ast.walk(ast.parse("\n".join(lines))):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            if node.end_lineno - node.lineno + 1 <= LONG_FUNCTION_LINES:
                continue
            signature = lines[node.lineno - 1 : node.body[0].lineno - 1]
            if not any("# long:" in line for line in signature):
                unexplained.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}")
    assert not unexplained, f"over {LONG_FUNCTION_LINES} lines without '# long:': {unexplained}"
