"""The `mteval` command: a stable interface that scripts and CI pipelines depend on.

Each command is a module of this package with all of its options: ``score``, ``compare``,
``correlate``, ``loss``, ``gtm``, ``report``, ``rank`` and ``spans``. Here the parser is built
from them, and every user error becomes one line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import os
import sys
import warnings
from collections.abc import Sequence

from mteval_core import __version__
from mteval_core.cli import compare, correlate, gtm, loss, rank, report, score, spans
from mteval_core.cli.arguments import Parser, in_command_words
from mteval_core.errors import InputError

EXIT_USER_ERROR = 2


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="mteval", description="Machine translation evaluation.")
    parser.add_argument("--version", action="version", version=f"mteval {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    commands.required = True
    for command in (score, compare, correlate, loss, gtm, report, rank, spans):
        command.add_command(commands)
    return parser


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """Warnings (e.g. an exact matching that fell back to greedy) as one line each on stderr."""
    print(f"mteval: warning: {message}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    warnings.showwarning = _show_warning
    try:
        args = build_parser().parse_args(argv)
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
