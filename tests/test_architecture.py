"""Guard rails of the package's shape: the core never needs the dashboard, folders do not import
each other in a loop, and the command line loads only what a command uses."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
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
    """'mteval_core.io.human_judgments' -> 'io'; None for top-level modules and other packages."""
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


def folder_imports() -> dict[str, set[str]]:
    """Package folder -> the other package folders its modules import."""
    folders = sorted(p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists())
    uses: dict[str, set[str]] = {folder: set() for folder in folders}
    for folder in folders:
        for path in (PACKAGE / folder).rglob("*.py"):
            for module in imported_modules(path):
                other = folder_of(module)
                if other is not None and other != folder:
                    uses[folder].add(other)
    return uses


def test_package_folders_import_one_way():
    """The folders form layers (model, settings, text, engine, gtm, metrics, io, stats, loss,
    shards, report, cli): no chain of imports leads from a folder back to itself."""
    uses = folder_imports()

    def cycle_from(start: str) -> list[str] | None:
        stack = [(start, [start])]
        while stack:
            folder, path = stack.pop()
            for other in sorted(uses[folder]):
                if other == start:
                    return [*path, start]
                if other not in path:
                    stack.append((other, [*path, other]))
        return None

    cycles = [" -> ".join(c) for folder in uses if (c := cycle_from(folder))]
    assert cycles == []


def test_the_package_root_holds_only_the_error_type_and_the_api():
    """Modules live in the folder of their kind; at the root sit only InputError, which every
    folder raises, and the public API facade (api.py), which __init__ re-exports lazily: the
    root imports nothing of the package when it loads."""
    assert sorted(p.name for p in PACKAGE.glob("*.py")) == ["__init__.py", "api.py", "errors.py"]
    root_imports = {
        m for m in imported_modules(PACKAGE / "__init__.py") if m.startswith("mteval_core")
    }
    assert root_imports == {"mteval_core.api"}  # under TYPE_CHECKING, or inside __getattr__
    probe = (  # an editable install adds its own finder module, which is not the package's
        "import sys, mteval_core; print(sorted(m for m in sys.modules "
        "if m.split('.')[0] == 'mteval_core'))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    assert loaded.strip() == "['mteval_core']"


def module_imports() -> dict[str, set[str]]:
    """Each core module's name -> the core modules it imports (at the top or in a function)."""
    graph: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        if path.name == "__init__.py":
            continue  # a package's __init__ re-exports its modules
        name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        graph[name] = {m for m in imported_modules(path) if m.startswith("mteval_core.")}
    return graph


def test_modules_of_one_folder_import_one_way():
    """The folder test sees folders only: inside io/, human_judgments and mqm_placement imported
    each other (one inside a function) until their shared HumanRead moved to human_read. A
    package's __init__ re-exports its modules, so it is left out."""
    graph = module_imports()
    folder = {name: name.rsplit(".", 1)[0] for name in graph}
    circles = []
    for start in graph:
        reached, todo = set(), [start]
        while todo:
            for other in graph.get(todo.pop(), set()) & graph.keys():
                if (
                    folder[other] == folder[start]
                    and other not in reached
                    and other != folder[start]
                ):
                    reached.add(other)
                    todo.append(other)
        if start in reached:
            circles.append(start)
    assert circles == []


def test_statistics_read_no_files_and_name_no_flags():
    """stats/ takes arrays and records of the data model: reading files (io/) and saying things
    in a command's terms (cli/) or a reader's (report/) happen above it."""
    offenders = {
        str(path.relative_to(ROOT)): sorted(
            m for m in imported_modules(path) if folder_of(m) in ("io", "cli", "report")
        )
        for path in (PACKAGE / "stats").rglob("*.py")
    }
    assert {path: found for path, found in offenders.items() if found} == {}
    flags = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for path in (PACKAGE / "stats").rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and node.value.lstrip().startswith("--")
        and len(node.value.lstrip()) > 2
        and node.value.lstrip()[2].isalpha()
    ]
    assert flags == []


FLAG_WORD = re.compile(r"(?<![\w-])--[a-z][a-z0-9_-]*")
# Strings of the core outside cli/ that may name a command-line flag, by file and definition
# ("<module>" for a module-level constant), each because only the command line says it
CLI_FACING_STRINGS = {
    # mteval score --shards' own engine: its cluster's refusals are about its flags
    "mteval_core/shards/cluster.py": {"*"},
    "mteval_core/shards/segment_scores.py": {"<module>"},  # OPTION: the flag whose files it writes
    "mteval_core/settings/parameters.py": {"BLEUParameters"},  # --bp, the flag's declared alias
    "mteval_core/metrics/meteor/resources.py": {"<module>"},  # pip's own --no-deps
    # the text output of mteval score and mteval compare, which only the command line prints
    "mteval_core/report/writers.py": {
        "_bootstrap_lines",
        "render_randomization_text",
        "render_segment_level_text",
    },
    "mteval_core/report/comparison_text.py": {"comparison_text"},
}


def flag_words_in_strings(path: Path) -> list[tuple[str, int, str]]:
    """(definition, line, flag) of every ``--flag`` word in a string of ``path``, docstrings
    left out (they may say which flag a function serves); the definition is the outermost
    function or class around the string, "<module>" at the top level."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
    }
    found = []
    for owner in tree.body:
        name = getattr(owner, "name", "<module>")
        for node in ast.walk(owner):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and id(node) not in docstrings
            ):
                found += [(name, node.lineno, flag) for flag in FLAG_WORD.findall(node.value)]
    return found


def test_the_core_says_what_to_give_without_command_line_flags():
    """Readers and core errors say what is missing in neutral words (the file, the column, what
    to give): readers shared by the dashboard said "Pass it with --refs" and "--source FILE"
    until the command line (cli/) put its flags in where it builds or catches a message, and the
    pages their own words. Only the strings of CLI_FACING_STRINGS, which only the command line
    shows, name one."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = str(path.relative_to(ROOT))
        if PACKAGE / "cli" in path.parents:
            continue
        allowed = CLI_FACING_STRINGS.get(relative, set())
        found += [
            f"{relative}:{line} {flag} (in {owner})"
            for owner, line, flag in flag_words_in_strings(path)
            if "*" not in allowed and owner not in allowed
        ]
    assert found == []


# The same subject in different layers may share a module name (the gtm command and the GTM
# metric; a figure, a page's logic and the statistics of the segment level; the spans' data
# model and their page's logic); nothing else does.
SAME_SUBJECT_IN_LAYERS = {
    "bitext",
    "compare",
    "correlation",
    "gtm",
    "loss",
    "rankings",
    "scores",
    "segment_level",
    "spans",
}


def test_one_module_name_per_idea():
    paths = [*PACKAGE.rglob("*.py"), *(ROOT / "pages").rglob("*.py")]
    names: dict[str, list[str]] = {}
    for path in paths:
        if path.name not in ("__init__.py", "__main__.py"):
            names.setdefault(path.stem, []).append(str(path.relative_to(ROOT)))
    repeated = {n: where for n, where in names.items() if len(where) > 1}
    assert set(repeated) <= SAME_SUBJECT_IN_LAYERS, repeated


def test_the_development_page_tree_names_every_folder_and_module():
    """The Development page's tree is how a newcomer finds things: it names every package
    folder and every module of the core."""
    tree = (ROOT / "docs" / "development.md").read_text(encoding="utf-8")
    folders = [f"{p.name}/" for p in PACKAGE.iterdir() if (p / "__init__.py").exists()]
    modules = [
        p.stem
        for p in PACKAGE.rglob("*.py")
        if p.name not in ("__init__.py", "__main__.py") and not p.stem.startswith("_")
    ]
    missing = [name for name in [*folders, *modules] if name not in tree]
    assert missing == []


def page_files() -> list[Path]:
    return [ROOT / "app.py", *(ROOT / "pages").rglob("*.py")]


def test_no_page_builds_a_cache_key_by_hand():
    """Every cached result is keyed by ``pages.ui.caching.cache_key``, which always adds the content
    hash, the options and the external metrics; a key written out by hand could leave one out
    and hand one session's result to another."""
    by_hand = []
    for path in page_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            key = node.args[0] if node.args else None
            if node.func.id == "cached" and not (
                isinstance(key, ast.Name)
                or (isinstance(key, ast.Call) and getattr(key.func, "id", "") == "cache_key")
            ):
                by_hand.append(f"{path.relative_to(ROOT)}:{node.lineno}")
            if node.func.id == "CacheKey" and path != ROOT / "pages" / "ui" / "caching.py":
                by_hand.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert by_hand == []


# The shape of a page (app.py, pages/N_Name.py): layout read top to bottom, the logic in
# pages/ui/<page>.py. The Loss page has it (175 lines, its longest function 31); the Scores page
# before it had one top-level block of 190 lines in a file of 285.
PAGE_LINES = 200
PAGE_FUNCTION_LINES = 40  # a page's own function (a fragment, a callback) stays short
PAGE_STATEMENT_LINES = 15  # a top-level statement other than an import or a definition


def page_layout_files() -> list[Path]:
    return [ROOT / "app.py", *sorted((ROOT / "pages").glob("[0-9]*_*.py"))]


def page_shape_problems(path: Path) -> list[str]:
    """What makes ``path`` more than a page's layout: too many lines, a long function of its
    own, or a long top-level statement (a block of logic that belongs in pages/ui/)."""
    text = path.read_text(encoding="utf-8")
    tree = ast.parse(text)
    problems = []
    if len(text.splitlines()) > PAGE_LINES:
        problems.append(f"{len(text.splitlines())} lines")
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = node.end_lineno - node.lineno + 1
            if length > PAGE_FUNCTION_LINES:
                problems.append(f"function {node.name} of {length} lines")
    for node in tree.body:
        if isinstance(node, ast.Import | ast.ImportFrom | ast.FunctionDef | ast.ClassDef):
            continue
        length = node.end_lineno - node.lineno + 1
        if length > PAGE_STATEMENT_LINES:
            problems.append(f"a top-level statement of {length} lines at line {node.lineno}")
    return problems


def test_every_page_is_layout_and_its_logic_lives_in_pages_ui():
    """One shape for every page: the page file reads top to bottom (widgets, one call into
    pages/ui, one figure, display); what it computes or decides is in pages/ui/<page>.py. A
    page is at most PAGE_LINES lines, its own functions at most PAGE_FUNCTION_LINES, and each
    top-level statement but imports and definitions at most PAGE_STATEMENT_LINES (the old
    Scores page broke the first and the last: 285 lines, one block of 190)."""
    problems = {
        str(path.relative_to(ROOT)): found
        for path in page_layout_files()
        if (found := page_shape_problems(path))
    }
    assert problems == {}


def test_facts_about_a_metric_live_on_the_metric():
    """Decimals, direction and whether statistics add across shards are attributes of the
    metric class; no module outside metrics/ decides by comparing a metric's name."""
    from mteval_core.metrics import REGISTRY

    found = []
    for path in [*PACKAGE.rglob("*.py"), *page_files()]:
        if PACKAGE / "metrics" in path.parents:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            literals = []
            if isinstance(node, ast.Compare):
                literals = [node.left, *node.comparators]
            elif isinstance(node, ast.Dict):
                literals = [k for k in node.keys if k is not None]
            if any(isinstance(x, ast.Constant) and x.value in REGISTRY for x in literals):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []


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
