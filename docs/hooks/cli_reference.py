"""MkDocs hook: the command-line reference, generated from the `mteval` parser itself.

A page that holds the line ``<!-- cli-reference -->`` gets, in its place, one section per
command: its description, its usage as argparse prints it, and a table of its options (flags,
value, default, help) grouped as the parser groups them. The reference therefore cannot drift
from the program: a flag added, renamed or removed in `mteval_core/cli/` changes this page on the
next build.
"""

from __future__ import annotations

import argparse
import html

from mteval_core.cli import build_parser

MARKER = "<!-- cli-reference -->"


def on_page_markdown(markdown: str, **_: object) -> str:
    """MkDocs calls this for every page; only the marked one changes."""
    if MARKER not in markdown:
        return markdown
    return markdown.replace(MARKER, cli_reference(build_parser()))


def cli_reference(parser: argparse.ArgumentParser) -> str:
    """Markdown for every command of ``parser``, in the order `mteval --help` lists them."""
    sections = []
    for name, command in _commands(parser).items():
        sections.append(_command_section(name, command))
    return "\n\n".join(sections) + "\n"


def _commands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _command_section(name: str, command: argparse.ArgumentParser) -> str:
    lines = [f"## `mteval {name}`", ""]
    if command.description:
        lines += [command.description, ""]
    usage = command.format_usage().removeprefix("usage: ").strip()
    lines += ["```text", usage, "```", ""]
    for group in command._action_groups:
        rows = [_row(action) for action in group._group_actions if _shown(action)]
        if not rows:
            continue
        title = group.title or "options"
        lines += [f"**{title[0].upper()}{title[1:]}**", ""]
        if group.description:
            lines += [group.description, ""]
        lines += ["| option | value | default | what it does |", "| --- | --- | --- | --- |"]
        lines += rows
        lines.append("")
    return "\n".join(lines)


def _shown(action: argparse.Action) -> bool:
    return action.help is not argparse.SUPPRESS and not isinstance(action, argparse._HelpAction)


def _row(action: argparse.Action) -> str:
    flags = ", ".join(f"`{flag}`" for flag in action.option_strings) or f"`{action.dest}`"
    value = ""
    if action.choices is not None and not isinstance(action, argparse._SubParsersAction):
        value = " \\| ".join(f"`{choice}`" for choice in action.choices)
    elif action.nargs != 0:
        value = f"`{action.metavar or action.dest.upper()}`"
    default = ""
    if action.default not in (None, False, argparse.SUPPRESS) and action.nargs != 0:
        default = f"`{action.default}`"
    return f"| {flags} | {value} | {default} | {_cell(action.help or '')} |"


def _cell(text: str) -> str:
    """Help text as a table cell: escaped, pipes kept, argparse's %(default)s filled."""
    text = text.replace("%%", "%")
    return html.escape(" ".join(text.split())).replace("|", "\\|")
