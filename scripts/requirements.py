"""Print what ``pip install ".[EXTRA]"`` would install besides mteval itself, one per line.

scripts/install.sh installs these while the package's compiled modules build: the build takes
two cores for about 20 s and pip's install of the dependencies one core for about 30 s, so side
by side they take the longer of the two instead of the sum. An extra that names another of
mteval's extras ("mteval-core[dashboard]") is expanded.

    python scripts/requirements.py test
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def requirements(extras: list[str], project: dict) -> list[str]:
    """The project's dependencies and those of ``extras``, own extras expanded, each once."""
    name = project["name"]
    found = list(project["dependencies"])
    pending, seen = list(extras), set()
    while pending:
        extra = pending.pop(0)
        if extra in seen:
            continue
        seen.add(extra)
        if extra not in project["optional-dependencies"]:
            raise SystemExit(f"pyproject.toml has no extra {extra!r}")
        for requirement in project["optional-dependencies"][extra]:
            own = re.fullmatch(rf"{re.escape(name)}\[([\w,\s-]+)\]", requirement.strip())
            if own:
                pending += [part.strip() for part in own.group(1).split(",")]
            else:
                found.append(requirement)
    return list(dict.fromkeys(found))


if __name__ == "__main__":
    project = tomllib.loads(PYPROJECT.read_text(encoding="utf-8"))["project"]
    print("\n".join(requirements(sys.argv[1:], project)))
