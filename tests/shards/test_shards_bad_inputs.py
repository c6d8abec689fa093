"""Every bad sharded input is one line on stderr, exit status 2, naming the file (and line or
row, and column where there is one) and what to do; none is a traceback or a wrong score."""

from __future__ import annotations

from pathlib import Path

import pytest

from mteval_core.cli import main
from tests.shards.conftest import write_shard

HEADER = "system\tsegment\thypothesis\treference\n"
GOOD = (
    HEADER
    + "A\t1\tthe cat\tthe cat\nA\t2\ta dog\tthe dog\nB\t1\tcat\tthe cat\nB\t2\tdog\tthe dog\n"
)
FIRST = HEADER + "A\t1\tthe cat\tthe cat\nB\t1\tcat\tthe cat\n"
SECOND = HEADER + "A\t2\ta dog\tthe dog\nB\t2\tdog\tthe dog\n"


def score(capsys, *args: str) -> tuple[int, str]:
    code = main(["score", "--metrics", "bleu", *args])
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith("mteval: error: "), err
    return code, err


def write(folder: Path, files: dict[str, str | bytes]) -> Path:
    folder.mkdir(exist_ok=True)
    for name, content in files.items():
        data = content.encode("utf-8") if isinstance(content, str) else content
        (folder / name).write_bytes(data)
    return folder


CASES = {  # id -> (files of the shard folder, message after "FILE, ")
    "missing-hypothesis-column": (
        {"a.tsv": GOOD.replace("hypothesis", "hypo", 1)},
        "a.tsv, line 1: there is no 'hypothesis' column",
    ),
    "missing-segment-column": (
        {"a.tsv": "system\thypothesis\treference\nA\tx\ty\n"},
        "a.tsv, line 1: there is no 'segment' column. A shard numbers its segments",
    ),
    "missing-reference-column": (
        {"a.tsv": "system\tsegment\thypothesis\nA\t1\tx\n"},
        "a.tsv, line 1: there is no reference column",
    ),
    "empty-shard-header-only": ({"a.tsv": FIRST, "b.tsv": HEADER}, "b.tsv: the shard has no rows"),
    "empty-shard-no-bytes": ({"a.tsv": FIRST, "b.tsv": ""}, "b.tsv: the file is empty"),
    "empty-jsonl-shard": ({"a.tsv": FIRST, "b.jsonl": "\n"}, "b.jsonl: the shard has no rows"),
    "segment-twice-in-a-shard": (
        {"a.tsv": GOOD + "A\t2\tdog\tthe dog\n"},
        "a.tsv, line 6: system 'A' has segment 2 twice (first on line 3)",
    ),
    "segment-twice-across-shards": (
        {"a.tsv": FIRST, "b.tsv": SECOND + "A\t1\tcat\tthe cat\n"},
        "b.tsv, line 4: system 'A' has segment 1 twice (first in ",
    ),
    "references-disagree-in-a-shard": (
        {"a.tsv": GOOD.replace("B\t2\tdog\tthe dog", "B\t2\tdog\tthe dogs")},
        "a.tsv, line 5, column reference: the 'reference' of segment 2 differs from line 3",
    ),
    "references-disagree-across-shards": (
        {
            "a.tsv": HEADER + "A\t1\tthe cat\tthe cat\nA\t2\ta dog\tthe dog\n",
            "b.tsv": HEADER + "B\t1\tcat\tthe cat\nB\t2\tdog\tthe dogs\n",
        },
        "b.tsv, line 3, column reference: the 'reference' of segment 2 differs from ",
    ),
    "segment-not-a-number": (
        {"a.tsv": GOOD.replace("A\t2\t", "A\ttwo\t")},
        "a.tsv, line 3, column segment: segment 'two' is not a segment number",
    ),
    "unknown-file-type": ({"a.tsv": GOOD, "notes.txt": "x"}, "notes.txt: .txt is no shard type"),
    "compressed-shard": ({"a.tsv.gz": b"\x1f\x8b"}, "a.tsv.gz: .gz is no shard type"),
    "a-shard-missing": (
        {"a.tsv": FIRST, "c.tsv": SECOND.replace("\t2\t", "\t3\t")},
        "no shard has segment 2, but segments go up to 3. Is a shard missing?",
    ),
    "system-missing-a-segment": (
        {"a.tsv": FIRST, "b.tsv": HEADER + "A\t2\ta dog\tthe dog\n"},
        "b.tsv, line 2: system 'B' has no row for segment 2",
    ),
    "shards-with-other-reference-columns": (
        {"a.tsv": FIRST, "b.tsv": SECOND.replace("reference", "ref-A")},
        "b.tsv: the source, reference and document columns are ['ref-A']",
    ),
    "parquet-row-not-line": (
        {"a.tsv": FIRST},
        "b.parquet, column reference: row 2: the 'reference' of segment 2 differs from row 1",
    ),
    "parquet-null-hypothesis": (
        {"a.tsv": FIRST},
        "b.parquet, column hypothesis: row 1: the value of 'hypothesis' is null, not a string",
    ),
    "broken-parquet": ({"a.parquet": b"PAR1 not really"}, "a.parquet: this Parquet file cannot"),
    "jsonl-lone-surrogate": (  # JSON's escape; once read, the output failed to encode it
        {
            "a.tsv": FIRST,
            "b.jsonl": '{"system": "A", "segment": 2, "hypothesis": "a dog", "reference": "the '
            'dog"}\n{"system": "B", "segment": 2, "hypothesis": "do\\ud800g", "reference": "the '
            'dog"}\n',
        },
        "b.jsonl, line 2, column hypothesis: \\ud800 is half of a UTF-16 surrogate pair, not a "
        "character",
    ),
}
PARQUET_ROWS = {
    "parquet-row-not-line": [
        {"system": "A", "segment": 2, "hypothesis": "a dog", "reference": "the dog"},
        {"system": "B", "segment": 2, "hypothesis": "dog", "reference": "the dogs"},
    ],
    "parquet-null-hypothesis": [
        {"system": "A", "segment": 2, "hypothesis": None, "reference": "the dog"},
    ],
}


@pytest.mark.parametrize("case", CASES)
def test_bad_shards_are_one_line_naming_the_file(tmp_path, capsys, case):
    files, message = CASES[case]
    folder = write(tmp_path / "shards", files)
    if case in PARQUET_ROWS:
        pytest.importorskip("pyarrow")
        write_shard(folder / "b.parquet", PARQUET_ROWS[case])
    code, err = score(capsys, "--shards", str(folder), "--workers", "0")
    assert code == 2
    origin = message.split(":")[0].split(",")[0]
    expected = (
        message if origin.startswith("no shard") else f"{folder / origin}{message[len(origin) :]}"
    )
    assert expected in err


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--shards", "{d}/empty"], "{d}/empty: no shards found: the folder has no files"),
        (["--shards", "{d}/*.jsonl"], "{d}/*.jsonl: no file matches this pattern"),
        (["--shards", "{d}/missing.tsv"], "{d}/missing.tsv: the file does not exist"),
        (["--shards", "{d}/a", "{d}/a/a.tsv"], "{d}/a/a.tsv: this shard is given twice"),
        (["--shards", "{d}/a", "--metrics", "bleu,nist"], "nist does not work with --shards"),
        (["--shards", "{d}/a", "--human", "h.tsv"], "--human does not work with --shards"),
        (["--shards", "{d}/a", "--segments"], "--segments does not work with --shards. Write "),
        (["--shards", "{d}/a", "--refs", "r.txt"], "--refs does not work with --shards"),
        (["--shards", "{d}/a", "--bootstrap", "9", "--format", "csv"], "--bootstrap works with"),
        (["--shards", "{d}/a", "--workers", "2", "--scheduler", "x"], "do not go together"),
        (["--shards", "{d}/a", "--workers", "-1"], "argument --workers: -1 is negative"),
        (["--shards", "{d}/a", "--segment-scores-out", "{d}/a"], "a folder of input shards"),
        (["--hyps", "x.txt"], "the following arguments are required: --refs (or give the"),
        (["--refs", "r", "--hyps", "h", "--workers", "2"], "--workers works with --shards"),
    ],
)
def test_bad_options_are_one_line(tmp_path, capsys, arguments, message):
    write(tmp_path / "a", {"a.tsv": GOOD})
    (tmp_path / "empty").mkdir()
    d = str(tmp_path)
    code, err = score(capsys, *(a.format(d=d) for a in arguments))
    assert code == 2
    assert message.format(d=d) in err
