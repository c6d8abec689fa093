"""The `mteval` command: a stable interface that scripts and CI pipelines depend on.

Each command is a module of this package with all of its options: ``score``, ``compare``,
``correlate``, ``loss``, ``gtm``, ``report``, ``rank`` and ``spans``. Here the parser is built
from them, and every user error becomes one line on stderr and exit status 2, never a traceback.
A run imports only the module of the command it names (``mteval compare ...`` never imports
``rank``'s readers or ``correlate``'s tables): the modules' imports are a third of a short
run's time. ``mteval --help`` and a command we do not know build the whole parser.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import warnings
from collections.abc import Sequence

from mteval_core import __version__
from mteval_core.cli.arguments import Parser, in_command_words
from mteval_core.errors import InputError

EXIT_USER_ERROR = 2
# Each command's module, in the order `mteval --help` lists them
COMMANDS = ("score", "compare", "correlate", "loss", "gtm", "report", "rank", "spans")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or with ``only``, of that one command alone."""
    parser = Parser(prog="mteval", description="Machine translation evaluation.")
    parser.add_argument("--version", action="version", version=f"mteval {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    commands.required = True
    for name in (only,) if only else COMMANDS:
        importlib.import_module(f"mteval_core.cli.{name}").add_command(commands)
    return parser


def _named_command(argv: Sequence[str]) -> str | None:
    """The command that ``argv`` names first, when it is one of ours."""
    return argv[0] if argv and argv[0] in COMMANDS else None


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """Warnings (e.g. an exact matching that fell back to greedy) as one line each on stderr."""
    print(f"mteval: warning: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    warnings.showwarning = _show_warning
    try:
        argv = sys.argv[1:] if argv is None else list(argv)
        args = build_parser(_named_command(argv)).parse_args(argv)
        output = args.run(args)
        sys.stdout.write(output)
        sys.stdout.flush()
    except InputError as error:
        print(f"mteval: error: {in_command_words(str(error))}", file=sys.stderr)
        return EXIT_USER_ERROR
    except BrokenPipeError:  # e.g. `mteval score ... | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except KeyboardInterrupt:
        return 130
    except Exception as error:  # a bug of ours: still one line, with a way to see more
        if os.environ.get("MTEVAL_DEBUG"):
            raise
        print(
            f"mteval: internal error: {type(error).__name__}: {error} "
            "(please report it; set MTEVAL_DEBUG=1 to see the traceback)",
            file=sys.stderr,
        )
        return 1
    return 0
