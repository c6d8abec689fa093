"""Damaged METEOR data (issue 42, point 3): a truncated or random jar, a truncated or non-gzip
paraphrase table and a truncated cache file ended in internal errors, and the cache was not
rebuilt; a hostile table (2 GB of newlines in 2 MB) exhausted memory; two sessions building a
cold cache at once both parsed the table (3.1 GB). Now each damage is one message naming the
file, a damaged cache is built again, the table's unpacked size and lines are bounded before it
is parsed, and one thread and one process at a time build a cache."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import textwrap
import threading
import time
import zipfile
from pathlib import Path

import numpy as np
import pytest

from mteval_core.errors import InputError
from mteval_core.metrics.choices import meteor_cannot_run, metrics_that_cannot_run
from mteval_core.metrics.meteor import availability, paraphrases
from mteval_core.metrics.meteor.paraphrases import ParaphraseTable, cache_folder, shared_table
from mteval_core.metrics.meteor.resources import INSTALL, MeteorData, find_meteor_data
from mteval_core.settings.limits import METEOR_PARAPHRASE_MAX_LINES, METEOR_PARAPHRASE_MAX_MB

ROOT = Path(__file__).resolve().parents[3]
SMALL_TABLE = Path(__file__).with_name("fixtures") / "paraphrase-small.gz"


def small_jar(path: Path) -> Path:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("function/english.words", "the\nof\n" * 200)
        archive.writestr("synonym/english.synsets", "car\n1\n")
        archive.writestr("synonym/english.exceptions", "")
    return path


def installed_like(folder: Path, jar_bytes: bytes, table: bytes | None = None) -> MeteorData:
    """A pycocoevalcap install's layout (pycocoevalcap/meteor/meteor-1.5.jar, data/) holding
    the given bytes, as find_meteor_data makes it for an installed pycocoevalcap."""
    meteor = folder / "pycocoevalcap" / "meteor"
    (meteor / "data").mkdir(parents=True)
    (meteor / "meteor-1.5.jar").write_bytes(jar_bytes)
    if table is not None:
        (meteor / "data" / "paraphrase-en.gz").write_bytes(table)
    return MeteorData(meteor / "meteor-1.5.jar", None, meteor / "data")


# ------------------------------------------------------------------------------------- the jar
@pytest.mark.parametrize("damage", ["truncated", "random", "bad member"])
def test_a_damaged_jar_is_one_message_naming_it(tmp_path, damage):
    good = small_jar(tmp_path / "good.jar").read_bytes()
    if damage == "truncated":
        broken = good[: len(good) // 2]
    elif damage == "random":
        broken = np.random.default_rng(1).bytes(len(good))
    else:  # a member's bytes changed: its CRC no longer fits
        broken = bytearray(good)
        broken[60] ^= 0xFF
        broken = bytes(broken)
    data = installed_like(tmp_path, broken)
    with pytest.raises(InputError) as raised:
        data.function_words("en")
    message = str(raised.value)
    assert message.startswith(f"{data.jar}: is not a readable jar")
    assert "pip install --no-deps --force-reinstall pycocoevalcap==1.2" in message
    assert "\n" not in message


def test_a_given_file_that_is_no_jar_is_said_so(tmp_path):
    (tmp_path / "meteor-1.5.jar").write_bytes(b"PK\x03\x04 but nothing after")
    with pytest.raises(InputError, match="is not a jar"):
        find_meteor_data(tmp_path / "meteor-1.5.jar")


def test_a_jar_installed_again_is_read_without_a_restart(tmp_path):
    data = installed_like(tmp_path, b"not a zip at all")
    with pytest.raises(InputError, match="is not a readable jar"):
        data.function_words("en")
    small_jar(data.jar)  # pip install --force-reinstall
    assert data.function_words("en") == {"the", "of"}


def test_the_dashboard_hears_of_a_damaged_jar_as_of_a_missing_one(tmp_path, monkeypatch):
    data = installed_like(tmp_path, b"random bytes")
    monkeypatch.setattr(availability, "meteor_data", lambda path: data)
    availability.function_words.cache_clear()
    try:
        reason = meteor_cannot_run(None)
        assert reason.startswith("METEOR cannot run here: ") and str(data.jar) in reason
        assert metrics_that_cannot_run(None) == {"meteor": reason}
    finally:
        availability.function_words.cache_clear()


# --------------------------------------------------------------------------- the paraphrase table
def gzip_of_many(unit: bytes, size: int) -> bytes:
    """``unit`` repeated to ``size`` bytes, as a gzip file of one 16 MB member repeated (gzip
    readers read members one after another): 2 GB of newlines in about 2 MB."""
    block = unit * ((1 << 24) // len(unit))
    return gzip.compress(block, compresslevel=9, mtime=0) * (size // len(block))


@pytest.fixture(scope="module")
def two_gigabytes_of_newlines() -> bytes:
    return gzip_of_many(b"\n", 2 << 30)


@pytest.mark.parametrize(
    ("damage", "said"),
    [
        ("truncated", "is truncated: it ends before its gzip stream does"),
        ("not gzip", "is not a readable gzip file"),
        ("crc", "is not a readable gzip file (CRC check failed"),
        ("empty", "is not a readable gzip file"),
        ("no records", "holds no paraphrase"),
    ],
)
def test_a_damaged_table_is_one_message_naming_it(tmp_path, damage, said):
    good = SMALL_TABLE.read_bytes()
    broken = {
        "truncated": good[: len(good) // 2],
        "not gzip": b"0.5\nthe house\nthe home\n",
        "crc": good[:-8] + bytes(8),  # the trailer's CRC-32 and length zeroed
        "empty": b"\x1f",
        "no records": gzip.compress(b"0.5\n"),
    }[damage]
    data = installed_like(tmp_path, small_jar(tmp_path / "jar").read_bytes(), broken)
    with pytest.raises(InputError) as raised:
        data.paraphrases("en", cache_folder=tmp_path / "cache")
    message = str(raised.value)
    assert message.startswith(f"{data.paraphrase_folder / 'paraphrase-en.gz'}: {said}")
    assert "pip install --no-deps --force-reinstall pycocoevalcap==1.2" in message
    assert not list((tmp_path / "cache").glob("paraphrase-*/meta.json"))  # nothing cached


def test_a_hostile_table_is_refused_after_its_first_lines(tmp_path, two_gigabytes_of_newlines):
    """2 GB of newlines in 2 MB: refused once METEOR_PARAPHRASE_MAX_LINES are unpacked (24 MB),
    in about a second, never split into two billion lines."""
    assert len(two_gigabytes_of_newlines) < 3 << 20
    table = tmp_path / "paraphrase-en.gz"
    table.write_bytes(two_gigabytes_of_newlines)
    started = time.perf_counter()
    with pytest.raises(InputError, match=f"has more than {METEOR_PARAPHRASE_MAX_LINES:,} lines"):
        ParaphraseTable.load(table, tmp_path / "cache")
    assert time.perf_counter() - started < 20


def test_a_table_that_unpacks_too_large_is_refused(tmp_path):
    table = tmp_path / "paraphrase-en.gz"
    table.write_bytes(gzip_of_many(b"x", (METEOR_PARAPHRASE_MAX_MB + 16) << 20))
    with pytest.raises(InputError, match=f"unpacks to more than {METEOR_PARAPHRASE_MAX_MB:,} MB"):
        ParaphraseTable.load(table, tmp_path / "cache")
    with pytest.raises(InputError, match="more than"):
        ParaphraseTable.from_bytes(b"\n" * (METEOR_PARAPHRASE_MAX_LINES + 1))


# ---------------------------------------------------------------------------------- the cache
def built_cache(tmp_path: Path) -> tuple[ParaphraseTable, Path]:
    """The small table parsed in memory (not mapped from the files a test then damages), and
    its cache folder, built."""
    ParaphraseTable.load(SMALL_TABLE, tmp_path)
    parsed = ParaphraseTable.from_bytes(gzip.decompress(SMALL_TABLE.read_bytes()))
    return parsed, cache_folder(SMALL_TABLE, tmp_path)


def same_table(a: ParaphraseTable, b: ParaphraseTable) -> bool:
    return a.vocabulary == b.vocabulary and all(
        np.array_equal(getattr(a, name), getattr(b, name)) for name in paraphrases._ARRAYS
    )


@pytest.mark.parametrize(
    "damage", ["truncated array", "short vocabulary", "meta.json", "missing file", "old format"]
)
def test_a_damaged_cache_is_built_again(tmp_path, damage):
    table, folder = built_cache(tmp_path)
    if damage == "truncated array":
        words = folder / "phrase_words.npy"
        words.write_bytes(words.read_bytes()[:-40])
    elif damage == "short vocabulary":
        vocabulary = folder / "vocabulary.txt"
        vocabulary.write_text(vocabulary.read_text(encoding="utf-8")[:-30], encoding="utf-8")
    elif damage == "meta.json":
        (folder / "meta.json").write_text('{"format": 2, "fi', encoding="utf-8")
    elif damage == "missing file":
        (folder / "targets.npy").unlink()
    else:
        meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))
        (folder / "meta.json").write_text(json.dumps({**meta, "format": 1}), encoding="utf-8")
    again = ParaphraseTable.load(SMALL_TABLE, tmp_path)
    assert same_table(again, table)
    meta = json.loads((folder / "meta.json").read_text(encoding="utf-8"))  # whole again
    assert {name: (folder / name).stat().st_size for name in meta["files"]} == meta["files"]
    assert not list(tmp_path.glob(".damaged-*")) and not list(tmp_path.glob(".building-*"))


def test_caches_of_an_older_format_are_removed_once_a_new_one_is_written(tmp_path):
    old = tmp_path / "paraphrase-0123456789abcdef01234567"
    old.mkdir()
    (old / "meta.json").write_text('{"format": 1}', encoding="utf-8")
    (old / "phrase_words.npy").write_bytes(b"\0" * 1000)
    built_cache(tmp_path)
    assert not old.exists()


def test_threads_building_one_cold_cache_parse_the_table_once(tmp_path, monkeypatch):
    parsed = []
    build = paraphrases._build_arrays

    def slow_build(read):
        parsed.append(threading.get_ident())
        time.sleep(0.5)  # long enough for every thread to ask meanwhile
        return build(read)

    monkeypatch.setattr(paraphrases, "_build_arrays", slow_build)
    monkeypatch.setattr(paraphrases, "_TABLES", {})
    tables = []
    threads = [
        threading.Thread(target=lambda: tables.append(shared_table(SMALL_TABLE, tmp_path)))
        for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(parsed) == 1 and len(tables) == 4
    assert all(table is tables[0] for table in tables)  # one table for the process


def test_processes_building_one_cold_cache_parse_the_table_once(tmp_path):
    """Two processes at once: the second waits on the lock file beside the cache folder, then
    maps what the first wrote."""
    script = textwrap.dedent(
        f"""
        import os, sys, time
        from pathlib import Path
        from mteval_core.metrics.meteor import paraphrases
        build = paraphrases._build_arrays
        def logged(read):
            with open({str(tmp_path / "parsed.log")!r}, "a") as log:
                log.write(f"{{os.getpid()}}\\n")
            time.sleep(1.0)
            return build(read)
        paraphrases._build_arrays = logged
        table = paraphrases.ParaphraseTable.load(Path({str(SMALL_TABLE)!r}), Path(sys.argv[1]))
        print(len(table.vocabulary))
        """
    )
    cache = tmp_path / "cache"
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(cache)], cwd=ROOT, stdout=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    outputs = [process.communicate(timeout=120)[0] for process in processes]
    assert [process.returncode for process in processes] == [0, 0]
    assert len((tmp_path / "parsed.log").read_text().split()) == 1
    expected = len(ParaphraseTable.load(SMALL_TABLE, cache).vocabulary)
    assert [int(out) for out in outputs] == [expected, expected]


def test_an_unwritable_cache_folder_still_gives_the_table(tmp_path):
    blocked = tmp_path / "a file, not a folder"
    blocked.write_text("")
    table = ParaphraseTable.load(SMALL_TABLE, blocked / "cache")
    assert same_table(table, ParaphraseTable.load(SMALL_TABLE, tmp_path / "cache"))


def test_install_is_the_readme_command():
    assert INSTALL == "pip install --no-deps pycocoevalcap==1.2"
    assert INSTALL in (ROOT / "README.md").read_text(encoding="utf-8")
