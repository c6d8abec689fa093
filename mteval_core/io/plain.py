"""Plain text: one segment per line, the format of sacreBLEU and most MT toolkits."""

from __future__ import annotations

from pathlib import PurePath

from mteval_core.errors import InputError
from mteval_core.io.decoding import read_text, split_lines
from mteval_core.model.testset import TextColumn


def read_plain(data: bytes, origin: str, name: str) -> TextColumn:
    """The lines of ``data`` as one column; empty lines in the middle are empty segments.

    A file of one blank line is one empty segment: what a system writes when it translates a
    one-segment test set with nothing. A file of nothing, or only of several blank lines, has
    most likely lost its content, so it is refused rather than scored as empty segments.
    """
    lines = split_lines(read_text(data, origin))
    if not lines or (len(lines) > 1 and not any(line.strip() for line in lines)):
        raise InputError(
            "the file is empty", origin=origin, hint="Give one segment per line, in test set order."
        )
    return TextColumn(name=name, segments=tuple(lines), origin=origin)


def system_name_from_path(path: str) -> str:
    """The file name without its last extension: ``sys/online-A.0.de`` -> ``online-A.0``.

    Only the last extension goes, because system names often contain dots themselves.
    """
    return PurePath(path).stem
