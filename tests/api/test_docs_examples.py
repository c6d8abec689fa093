"""docs/api.md's walk-through is true: every python block, run in order from the repository's
root, prints exactly the text block shown under it."""

from __future__ import annotations

import contextlib
import io
import re
import warnings

from tests.helpers import ROOT

BLOCK = re.compile(r"```python\n(.*?)```\n\n```text\n(.*?)```", re.DOTALL)


def test_every_python_block_prints_what_the_page_shows(monkeypatch):
    page = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    blocks = BLOCK.findall(page)
    assert len(blocks) == page.count("```python")  # each block shows its output
    assert len(blocks) >= 5
    monkeypatch.chdir(ROOT)
    namespace: dict = {}
    for code, shown in blocks:
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the notes are warnings; the page shows prints
            exec(compile(code, "docs/api.md", "exec"), namespace)
        assert printed.getvalue() == shown, code
