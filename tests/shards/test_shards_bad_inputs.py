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


# ------------------------------------------------------------ segment ids (issue 26, item 1)
# Every reader refuses a segment id that is not a whole number from 1 up, with the file, line (or
# row) and column; ids of more than 18 digits too, which are no segment of any test set and would
# not fit the int64 arrays of a shard's index (a JSON or Parquet number has no length of its own).
# A large id below that is read, and the check across shards says which segment is missing,
# without allocating anything that grows with the id.
def jsonl_row(segment: str, system: str = "A") -> str:
    """One JSON Lines row; ``segment`` as written in the JSON (a number, or a quoted string)."""
    return (
        f'{{"system": "{system}", "segment": {segment}, "hypothesis": "a dog", '
        '"reference": "the dog"}\n'
    )


BIG = "18 digits"
SEGMENT_ID_CASES = {  # id -> (file name, content or Parquet segment column, message after "FILE, ")
    "jsonl-2**63": (
        "a.jsonl",
        jsonl_row("1") + jsonl_row(str(2**63)),
        "a.jsonl, line 2, column segment: segment 9223372036854775808 is not a segment number "
        f"(more than {BIG}). Segments are numbered 1, 2, 3, ...",
    ),
    "jsonl-2**64": (
        "a.jsonl",
        jsonl_row("1") + jsonl_row(str(2**64)),
        "a.jsonl, line 2, column segment: segment 18446744073709551616 is not a segment number",
    ),
    "jsonl-19-digits-below-2**63": (
        "a.jsonl",
        jsonl_row("1") + jsonl_row(str(10**18)),
        "a.jsonl, line 2, column segment: segment 1000000000000000000 is not a segment number",
    ),
    "jsonl-negative": ("a.jsonl", jsonl_row("-1"), "a.jsonl, line 1, column segment: segment -1 "),
    "jsonl-zero": ("a.jsonl", jsonl_row("0"), "a.jsonl, line 1, column segment: segment 0 is not"),
    "jsonl-float": ("a.jsonl", jsonl_row("1.0"), "a.jsonl, line 1, column segment: segment 1.0 is"),
    "jsonl-exponent": (
        "a.jsonl",
        jsonl_row("1e3"),
        "a.jsonl, line 1, column segment: segment 1000.0",
    ),
    "tsv-2**63": (
        "a.tsv",
        FIRST + f"A\t{2**63}\ta dog\tthe dog\n",
        "a.tsv, line 4, column segment: segment '9223372036854775808' is not a segment number",
    ),
    "tsv-negative": ("a.tsv", GOOD.replace("A\t2\t", "A\t-2\t"), "a.tsv, line 3, column segment"),
    "tsv-zero": ("a.tsv", GOOD.replace("A\t2\t", "A\t0\t"), "a.tsv, line 3, column segment: segm"),
    "tsv-float": ("a.tsv", GOOD.replace("A\t2\t", "A\t2.0\t"), "a.tsv, line 3, column segment: se"),
    "tsv-exponent": ("a.tsv", GOOD.replace("A\t2\t", "A\t1e3\t"), "a.tsv, line 3, column segment"),
    "parquet-uint64-2**63": (
        "a.parquet",
        ("uint64", [1, 2**63]),
        "a.parquet, column segment: row 2: segment 9223372036854775808 is not a segment number "
        f"(more than {BIG})",
    ),
    "parquet-int64-max": (
        "a.parquet",
        ("int64", [1, 2**63 - 1]),
        "a.parquet, column segment: row 2: segment 9223372036854775807 is not a segment number",
    ),
    "parquet-negative": ("a.parquet", ("int64", [1, -2]), "a.parquet, column segment: row 2: se"),
    "parquet-float": ("a.parquet", ("float64", [1.0, 2.0]), "a.parquet, column segment: row 1: "),
    "huge-id-below-the-limit-jsonl": (
        "a.jsonl",
        jsonl_row("1") + jsonl_row("2") + jsonl_row(str(10**18 - 1)),
        "no shard has segment 3, but segments go up to 999999999999999999. Is a shard missing?",
    ),
    "huge-id-below-the-limit-tsv": (
        "a.tsv",
        GOOD + f"A\t{10**15}\tx\ty\nB\t{10**15}\tx\ty\n",
        "no shard has segment 3, but segments go up to 1000000000000000. Is a shard missing?",
    ),
}


def write_parquet_ids(path: Path, kind: str, ids: list) -> None:
    """A Parquet shard whose segment column has the type ``kind`` (int64, uint64, float64)."""
    pytest.importorskip("pyarrow")
    import pyarrow
    import pyarrow.parquet

    rows = len(ids)
    table = pyarrow.table(
        {
            "system": ["A"] * rows,
            "segment": pyarrow.array(ids, getattr(pyarrow, kind)()),
            "hypothesis": ["a dog"] * rows,
            "reference": [f"the dog {k}" for k in range(rows)],
        }
    )
    pyarrow.parquet.write_table(table, path)


@pytest.mark.parametrize("case", SEGMENT_ID_CASES)
def test_bad_segment_ids_are_refused_where_the_shard_is_read(tmp_path, capsys, case):
    """With --bootstrap and --segment-scores-out, which use the ids too (weights, output rows)."""
    name, content, message = SEGMENT_ID_CASES[case]
    folder = tmp_path / "shards"
    if isinstance(content, tuple):
        folder.mkdir()
        write_parquet_ids(folder / name, *content)
    else:
        write(folder, {name: content})
    out = tmp_path / "scores"
    code, err = score(capsys, "--shards", str(folder), "--workers", "0", "--bootstrap", "10",
                      "--segment-scores-out", str(out))  # fmt: skip
    assert code == 2
    expected = message if message.startswith("no shard") else f"{folder}/{message}"
    assert expected in err
    assert not out.exists()  # made by the run, removed with it


def test_a_padded_segment_number_is_read_as_in_memory(tmp_path, capsys):
    """' 2' is segment 2 in a text shard and in a JSON string, as the in-memory long format
    reads it: the scores equal those of the same shards written with 2 and 3."""
    plain = write(
        tmp_path / "plain", {"a.tsv": GOOD, "b.jsonl": jsonl_row("3") + jsonl_row("3", "B")}
    )
    padded = write(
        tmp_path / "padded",
        {
            "a.tsv": GOOD.replace("A\t2\t", "A\t 2\t"),
            "b.jsonl": jsonl_row('" 3"') + jsonl_row('"3"', "B"),
        },
    )
    outputs = []
    for folder in (plain, padded):
        code = main(["score", "--metrics", "bleu", "--shards", str(folder), "--workers", "0"])
        outputs.append((code, capsys.readouterr()))
    assert outputs[0][0] == 0, outputs[0][1].err
    assert outputs[1] == outputs[0]
