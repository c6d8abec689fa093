"""The commands the README and the documentation show are the commands the program takes.

Every `mteval ...` line of a shell code block (```bash, ```sh, ```console) in README.md and
docs/*.md is parsed by `mteval_core.cli.build_parser()`, so a flag renamed or removed in the
parser fails here until the page says the new name. The README's five common tasks are run for
real on sample_data/ (in a temporary folder, since some write files) and their printed output
must equal the ```text block that follows them, numbers and all; only the package version in a
signature is normalised, so that a release does not rewrite the README.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from itertools import pairwise
from pathlib import Path

import pytest

from mteval_core.cli import build_parser
from mteval_core.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
SHELL_LANGUAGES = ("bash", "sh", "console", "shell")
FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n", re.M | re.S)
VERSION = re.compile(r"version:\S+")


def code_blocks(text: str) -> list[tuple[str, str]]:
    """(language, body) of every fenced block, in the page's order."""
    return [(match[1], match[2]) for match in FENCE.finditer(text)]


def shell_lines(body: str) -> list[str]:
    """The block's commands, continuation lines joined and comments dropped."""
    joined = body.replace("\\\n", " ")
    lines = []
    for line in joined.splitlines():
        line = line.removeprefix("$ ").strip()
        if line and not line.startswith("#"):
            lines.append(line)
    return lines


def mteval_arguments(line: str) -> list[str] | None:
    """The arguments after `mteval` on one shell line (redirection and pipes cut off)."""
    words = shlex.split(line, comments=True)
    if not words or words[0] != "mteval":
        return None
    for index, word in enumerate(words):
        if word in ("|", ">", ">>", "2>", "&&", ";"):
            return words[1:index]
    return words[1:]


def documented_commands() -> list[tuple[str, str]]:
    """(where, command line) of every `mteval` command in a shell block of the pages."""
    commands = []
    for page in PAGES:
        for language, body in code_blocks(page.read_text(encoding="utf-8")):
            if language not in SHELL_LANGUAGES:
                continue
            for line in shell_lines(body):
                if mteval_arguments(line) is not None:
                    commands.append((page.relative_to(ROOT).as_posix(), line))
    return commands


def test_the_pages_show_commands():
    """The collection below is not empty by accident: the README alone shows the five tasks."""
    pages = {where for where, _ in documented_commands()}
    assert {"README.md", "docs/tutorial.md"} <= pages


@pytest.mark.parametrize(("where", "line"), documented_commands())
def test_every_documented_command_parses(where: str, line: str, capsys):
    arguments = mteval_arguments(line)
    try:
        build_parser().parse_args(arguments)
    except SystemExit as stop:  # argparse's own refusal, printed on stderr
        message = capsys.readouterr().err.strip().splitlines()[-1:]
        pytest.fail(f"{where}: `{line}` does not parse (exit {stop.code}): {message}")
    except InputError as refusal:  # the parser's refusal of a value, as `mteval` says it
        pytest.fail(f"{where}: `{line}` does not parse: {refusal}")


def readme_tasks() -> list[tuple[str, str]]:
    """(commands, shown output): each ```bash block that a ```text block follows."""
    blocks = code_blocks((ROOT / "README.md").read_text(encoding="utf-8"))
    return [
        (body, following)
        for (language, body), (next_language, following) in pairwise(blocks)
        if language == "bash" and next_language == "text"
    ]


def test_the_readme_shows_the_five_tasks_with_output():
    tasks = readme_tasks()
    assert len(tasks) == 4  # the dashboard's task opens a browser, not output
    assert any("--tokenize zh" in commands for commands, _ in tasks)


@pytest.mark.parametrize(("commands", "shown"), readme_tasks())
def test_a_readme_task_prints_what_the_readme_shows(commands: str, shown: str, tmp_path: Path):
    (tmp_path / "sample_data").symlink_to(ROOT / "sample_data")
    environment = dict(
        os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    )
    run = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", commands],
        cwd=tmp_path,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    printed = VERSION.sub("version:V", run.stdout).rstrip("\n")  # a final blank line is not shown
    assert printed == VERSION.sub("version:V", shown).rstrip("\n")
