"""What the published artifacts hold: the compiled modules' sources in the sdist (so it builds
without Cython), none of them in a wheel (the generated C of METEOR alone is 545 KB), and the
metadata a published package carries. setuptools is asked directly, with the commands that fill
the sdist (egg_info's SOURCES.txt) and the wheel (build_py): seconds, not a build of the C.
scripts/check_package.sh builds and installs the real artifacts."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
COMPILED = PYPROJECT["tool"]["mteval"]["compiled"]
SOURCE_SUFFIXES = (".c", ".pyx", ".pxd")


def _setup(*command: str) -> None:
    """Run one setup.py command in the checkout (the compiled modules are built in place by
    scripts/install.sh, so cythonize finds them current and compiles nothing)."""
    environment = {**os.environ, "CC": "/bin/false"}  # never a compile, should one be asked
    subprocess.run(
        [sys.executable, "setup.py", "-q", *command],
        cwd=ROOT,
        check=True,
        capture_output=True,
        env=environment,
    )


def test_the_wheel_holds_no_c_pyx_or_pxd(tmp_path: Path) -> None:
    _setup("build_py", "--build-lib", str(tmp_path / "lib"))
    shipped = [path.relative_to(tmp_path / "lib") for path in (tmp_path / "lib").rglob("*")]
    sources = [str(path) for path in shipped if path.suffix in SOURCE_SUFFIXES]
    assert sources == [], f"a wheel would ship {sources}"
    assert Path("mteval_core", "py.typed") in shipped
    assert Path("mteval_core", "metrics", "meteor", "aligner.py") in shipped


def test_the_sdist_holds_every_compiled_module_source_and_its_c(tmp_path: Path) -> None:
    _setup("egg_info", "--egg-base", str(tmp_path))
    (listing,) = tmp_path.glob("*.egg-info/SOURCES.txt")
    sdist = set(listing.read_text(encoding="utf-8").split())
    assert "LICENSE" in sdist and "mteval_core/_cython_shared.c" in sdist
    for module in COMPILED:
        path = module.replace(".", "/")
        assert {f"{path}.pyx", f"{path}.c"} <= sdist, module
    shared = {str(path.relative_to(ROOT)) for path in (ROOT / "mteval_core").rglob("*.pxd")}
    assert shared and shared <= sdist  # the helpers the .pyx files cimport


def test_the_one_list_of_compiled_modules_names_every_pyx() -> None:
    on_disk = {
        ".".join(path.relative_to(ROOT).with_suffix("").parts)
        for path in (ROOT / "mteval_core").rglob("*.pyx")
    }
    assert on_disk == set(COMPILED)


def test_the_distribution_name_is_not_pypis_unrelated_mteval() -> None:
    project = PYPROJECT["project"]
    assert project["name"] == "mteval-core"  # "mteval" on PyPI is someone else's package
    assert project["scripts"] == {"mteval": "mteval_core.cli:main"}
    own = [r for extra in project["optional-dependencies"].values() for r in extra if "mteval" in r]
    assert own and all(r.startswith("mteval-core[") for r in own), own
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    assert {"Homepage", "Documentation", "Repository", "Changelog", "Issues"} <= set(
        project["urls"]
    )
