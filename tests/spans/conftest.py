"""Google's WMT23 zh-en MQM release, read once for the span tests that use it."""

from __future__ import annotations

import tarfile
from dataclasses import dataclass

import pytest

from mteval_core.model.spans import SpanAnnotations
from mteval_core.spans.mqm_marks import read_mqm_spans
from tests.helpers import shared_dataset


@dataclass(frozen=True)
class Release:
    name: str
    data: bytes
    spans: SpanAnnotations


@pytest.fixture(scope="session")
def wmt23_zhen_mqm() -> Release:
    """The release's one TSV (skips where ../shared/data lacks it), and its spans."""
    with tarfile.open(next(shared_dataset("wmt23-zhen-mqm").glob("*.tar.gz"))) as tar:
        member = next(m for m in tar if m.isfile())
        data = tar.extractfile(member).read()
    return Release(member.name, data, read_mqm_spans(data, member.name))
