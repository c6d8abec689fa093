"""scripts/install.sh installs once and then only when what the install is made from changes:
every `bash scripts/app.sh` and `bash scripts/test.sh` runs it, and a second start that rebuilt
the package when nothing had changed took 41-71 s.

The script runs in a copy of what it reads (pyproject.toml, setup.py, the scripts, a .pyx file)
against a .venv whose python records each pip call and otherwise runs this interpreter, so that
no test installs anything.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COMPILED = "mteval_core/text/_scan.cpython-311-x86_64-linux-gnu.so"

# pip's installs are recorded, and the editable one "builds" the compiled module; anything else
# runs this interpreter (without -I, so that the copy's mteval_core is found in its folder)
FAKE_PYTHON = f"""#!/usr/bin/env bash
if [ "$1 $2" = "-m pip" ]; then
  echo "$*" >>pip-calls.log
  case "$*" in *"-e ."*) touch {COMPILED} ;; esac
  exit 0
fi
[ "$1" = -I ] && shift
exec {sys.executable} "$@"
"""


def checkout(tmp_path: Path) -> Path:
    for name in ("pyproject.toml", "setup.py", "scripts/install.sh", "scripts/venv.sh"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / name, tmp_path / name)
    shutil.copy(ROOT / "scripts/requirements.py", tmp_path / "scripts/requirements.py")
    (tmp_path / "mteval_core/text").mkdir(parents=True)
    (tmp_path / "mteval_core/__init__.py").write_text("")
    (tmp_path / "mteval_core/text/_scan.pyx").write_text("# the loops\n")
    python = tmp_path / ".venv/bin/python"
    python.parent.mkdir(parents=True)
    python.write_text(FAKE_PYTHON)
    python.chmod(0o755)
    return tmp_path


def pip_calls(root: Path, extra: str) -> list[str]:
    """The pip calls one `bash scripts/install.sh EXTRA` made."""
    log = root / "pip-calls.log"
    log.unlink(missing_ok=True)
    subprocess.run(["bash", "scripts/install.sh", extra], cwd=root, check=True, timeout=60)
    return log.read_text().splitlines() if log.exists() else []


def test_a_second_install_with_nothing_changed_does_nothing(tmp_path: Path) -> None:
    root = checkout(tmp_path)
    first = pip_calls(root, "test")
    assert len(first) == 2  # the package, and the extra's requirements beside it
    assert any("--no-deps -e ." in call for call in first)
    assert any("pytest>=8" in call for call in first)
    assert pip_calls(root, "test") == []
    assert pip_calls(root, "dashboard") == []  # the test extra's requirements cover it


def test_a_changed_input_or_a_lost_module_installs_again(tmp_path: Path) -> None:
    root = checkout(tmp_path)
    pip_calls(root, "dashboard")
    assert len(pip_calls(root, "test")) == 2  # an extra the stamp does not cover
    assert pip_calls(root, "test") == []
    (root / "mteval_core/text/_scan.pyx").write_text("# the loops, edited\n")
    assert len(pip_calls(root, "test")) == 2
    (root / COMPILED).unlink()  # e.g. git clean -X
    assert len(pip_calls(root, "test")) == 2
    with (root / "pyproject.toml").open("a") as pyproject:
        pyproject.write("\n")
    assert len(pip_calls(root, "test")) == 2
    assert pip_calls(root, "test") == []
