"""The Rankings page's uploads: WMT25's score files as a .tar.xz (as shipped), bounded as the
Data page's archives are, and refused with the file, the limit and what to do."""

from __future__ import annotations

import io
import json
import lzma
import tarfile

import pytest

from mteval_core.errors import InputError
from mteval_core.io.archives import open_archive
from mteval_core.io.ranking_uploads import automatic_scores_of_uploads, esa_of_uploads
from mteval_core.settings.limits import MAX_RANKING_FILES, MAX_XZ_DECODER_MB


def score_line(pair: str, scores: list[float]) -> bytes:
    record = {
        "language_pair": pair,
        "domain": "news",
        "document_id": "d1",
        "metric_scores": {"chrF++": scores},
    }
    return (json.dumps(record) + "\n").encode()


def tar_xz(members: dict[str, bytes], **xz) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return lzma.compress(buffer.getvalue(), format=lzma.FORMAT_XZ, **xz)


def test_a_tar_xz_of_score_files_reads_as_the_files_do() -> None:
    members = {
        "data/automatic_scores/A.jsonl": score_line("en-de_DE", [50.0, 60.0]),
        "data/automatic_scores/B.jsonl": score_line("en-de_DE", [40.0, 70.0]),
        "data/README.md": b"scores",
    }
    scores, notes = automatic_scores_of_uploads([("scores.tar.xz", tar_xz(members))])
    loose, _ = automatic_scores_of_uploads(
        [(name.rpartition("/")[2], data) for name, data in members.items() if name.endswith("l")]
    )
    assert scores["en-de_DE"].systems == ("A", "B") == loose["en-de_DE"].systems
    assert (scores["en-de_DE"].scores["chrF++"] == loose["en-de_DE"].scores["chrF++"]).all()
    assert notes == ("scores.tar.xz: 1 file(s) that are not .jsonl left out",)


def test_the_data_pages_archives_stay_without_xz() -> None:
    with pytest.raises(InputError, match=r"this is an xz file \(.xz, .tar.xz\), not a .zip"):
        open_archive(tar_xz({"a.txt": b"x"}), "upload.tar.xz")


def test_an_xz_bomb_stops_as_it_unpacks() -> None:
    zeros = b"\0" * (30 * 2**20)
    bomb = tar_xz({"A.jsonl": zeros, "B.jsonl": zeros}, preset=0)
    assert len(bomb) < 100_000
    with pytest.raises(InputError, match="times its size") as refused:
        automatic_scores_of_uploads([("bomb.tar.xz", bomb)])
    assert refused.value.origin == "bomb.tar.xz"
    assert "automatic_scores.tar.xz" in refused.value.hint  # this page's hint, not the Data page's


def test_an_xz_stream_that_asks_for_too_much_memory_is_refused_before_decoding() -> None:
    huge = tar_xz({"A.jsonl": b"x"}, filters=[{"id": lzma.FILTER_LZMA2, "dict_size": 2**30}])
    with pytest.raises(InputError, match=f"more than {MAX_XZ_DECODER_MB} MB of memory"):
        automatic_scores_of_uploads([("huge.tar.xz", huge)])


def test_too_many_score_files_are_refused_naming_the_limit() -> None:
    files = [(f"S{k}.jsonl", score_line("en-de_DE", [1.0])) for k in range(MAX_RANKING_FILES + 1)]
    with pytest.raises(InputError, match=f"the Rankings page takes up to {MAX_RANKING_FILES}"):
        automatic_scores_of_uploads(files)


def test_a_score_file_not_named_after_its_system_is_refused() -> None:
    with pytest.raises(InputError, match=r"is not named SYSTEM\.jsonl"):
        automatic_scores_of_uploads([("scores.txt", score_line("en-de_DE", [1.0]))])


def test_a_documents_file_not_named_after_its_pair_is_refused() -> None:
    with pytest.raises(InputError, match=r"is not named <LP>.docs") as refused:
        esa_of_uploads([("wave.csv", b"")], [("domains.txt", b"news\tdoc\n")])
    assert refused.value.origin == "domains.txt"
