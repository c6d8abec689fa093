"""Streamlit's file watcher sees no change of the app when nothing was edited: bytecode written
under pages/ while the server runs (the first import of a view's module, in the first session
after a fresh start) showed "File change. Rerun" on the pages of that session."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Run in a process of its own: the watcher's threads and sys.modules stay out of the tests'.
WATCH = textwrap.dedent(
    """
    import os, pkgutil, sys, time
    sys.path.insert(0, os.getcwd())
    from importlib import import_module
    from streamlit.runtime.pages_manager import PagesManager
    from streamlit import config
    from streamlit.watcher.folder_black_list import FolderBlackList
    from streamlit.watcher.local_sources_watcher import LocalSourcesWatcher
    import pages.ui
    for module in pkgutil.iter_modules(pages.ui.__path__, "pages.ui."):
        import_module(module.name)
    ignored = FolderBlackList(config.get_option("server.folderWatchBlacklist"))
    namespaces = [  # the folders Streamlit would watch as a whole (.venv is not watched)
        name for name, module in sys.modules.items()
        if getattr(module, "__file__", "") is None and hasattr(module, "__path__")
        and any(
            path.startswith(os.getcwd()) and not ignored.is_blacklisted(path)
            for path in module.__path__
        )
    ]
    print("namespace packages:", namespaces)
    watcher = LocalSourcesWatcher(PagesManager(os.path.abspath("app.py")))
    changed = []
    watcher.register_file_change_callback(changed.append)
    watcher.update_watched_modules()
    time.sleep(0.5)
    probe = os.path.join("pages", "ui", "__pycache__", f"probe-{os.getpid()}.cpython-311.pyc")
    os.makedirs(os.path.dirname(probe), exist_ok=True)
    try:
        with open(probe, "wb") as written:  # as Python writes a module's bytecode
            written.write(os.urandom(64))
        time.sleep(1)  # the watcher's events arrive within a fraction of that
    finally:
        os.remove(probe)
        watcher.close()
    print("changed:", changed)
    """
)


def test_bytecode_written_under_pages_is_no_change_of_the_app():
    environment = {
        key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"
    }
    done = subprocess.run(
        [sys.executable, "-c", WATCH],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    lines = done.stdout.splitlines()
    assert "namespace packages: []" in lines, lines
    assert "changed: []" in lines, lines
