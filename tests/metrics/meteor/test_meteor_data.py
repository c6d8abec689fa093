"""Locating METEOR's data, the jar's language names, and the paraphrase cache."""

from __future__ import annotations

import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import numpy as np
import pytest

from mteval_core.errors import InputError
from mteval_core.metrics.meteor import paraphrases
from mteval_core.metrics.meteor.matchers import module_matchers
from mteval_core.metrics.meteor.paraphrases import ParaphraseTable, source_key
from mteval_core.metrics.meteor.resources import (
    DEFAULT_MODULES,
    JAR_CLI_FUNCTION_WORDS_LANGUAGE,
    MeteorData,
    find_meteor_data,
    normalize_language,
)
from mteval_core.metrics.meteor.stage import Stage

SMALL_TABLE = Path(__file__).with_name("fixtures") / "paraphrase-small.gz"


def test_language_names_as_the_jar():
    assert normalize_language("EN") == "english"
    assert normalize_language("cs") == normalize_language("cz") == "czech"
    assert normalize_language("sv") == normalize_language("se") == "swedish"
    assert DEFAULT_MODULES["english"] == ("exact", "stem", "synonym", "paraphrase")
    assert DEFAULT_MODULES["czech"] == ("exact", "paraphrase")
    assert DEFAULT_MODULES["dutch"] == ("exact", "stem")
    with pytest.raises(InputError, match="no language 'klingon'"):
        normalize_language("klingon")


def test_without_data_exact_and_stem_work_and_the_rest_says_where_to_get_it():
    data = MeteorData()
    assert data.stemmer("en")("running") == "run"
    with pytest.raises(
        InputError,
        match=r"synonym module needs synonym/english\.synsets.*pip install --no-deps "
        r"pycocoevalcap==1\.2\.$",
    ):
        data.synonyms("en")
    with pytest.raises(InputError, match=r"paraphrase module needs paraphrase-en\.gz"):
        data.paraphrases("en")
    with pytest.raises(InputError, match=r"function word weighting needs function/german\.words"):
        data.function_words("de")
    with pytest.raises(InputError, match="no stemmer for czech"):
        data.stemmer("cs")
    with pytest.raises(InputError, match="English only"):
        data.synonyms("de")


def test_a_folder_with_a_jar_and_data(tmp_path):
    jar = tmp_path / "meteor-1.5.jar"
    with zipfile.ZipFile(jar, "w") as archive:
        archive.writestr("function/english.words", "the\nof\n")
        archive.writestr("nonbreaking/english.prefixes", "# comment\n\nDr\nNo #NUMERIC_ONLY#\n")
    (tmp_path / "data").mkdir()
    shutil.copy(SMALL_TABLE, tmp_path / "data" / "paraphrase-en.gz")
    for given in (tmp_path, jar):
        data = find_meteor_data(given)
        assert data.function_words("en") == {"the", "of"}
        assert data.nonbreaking_prefixes("english") == {"Dr": False, "No": True}
        assert data.paraphrase_path("en") == tmp_path / "data" / "paraphrase-en.gz"
    with pytest.raises(InputError, match="not a jar"):
        find_meteor_data(tmp_path / "data" / "paraphrase-en.gz")
    with pytest.raises(InputError, match="does not exist"):
        find_meteor_data(tmp_path / "missing.jar")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(InputError, match=r"holds no meteor-1\.5\.jar"):
        find_meteor_data(empty)


def test_the_paraphrase_cache_gives_the_parsed_table_again(tmp_path, monkeypatch):
    built = ParaphraseTable.load(SMALL_TABLE, cache=tmp_path)
    (folder,) = (path for path in tmp_path.glob("paraphrase-*") if path.is_dir())
    assert (folder / "meta.json").is_file()
    monkeypatch.setattr(paraphrases, "unpacked", None)  # a second load must not parse the file
    again = ParaphraseTable.load(SMALL_TABLE, cache=tmp_path)
    assert again.vocabulary == built.vocabulary
    for name in ("phrase_words", "phrase_hash", "source_hash", "targets"):
        assert np.array_equal(getattr(again, name), getattr(built, name))


def test_the_paraphrase_cache_key_follows_the_content_not_the_file_date(tmp_path):
    """A fresh copy of the same table (a new clone, a new venv) finds the cache built before;
    a table that differs anywhere does not."""
    copy = tmp_path / "copy" / SMALL_TABLE.name
    copy.parent.mkdir()
    shutil.copyfile(SMALL_TABLE, copy)
    os.utime(copy, ns=(0, 0))
    assert source_key(copy) == source_key(SMALL_TABLE)
    changed = bytearray(SMALL_TABLE.read_bytes())
    changed[len(changed) // 2] ^= 1
    copy.write_bytes(bytes(changed))
    assert source_key(copy) != source_key(SMALL_TABLE)


def test_paths_are_shortest_first_and_in_file_order():
    text = b"0.5\na b\nx\n0.1\na\ny\n0.2\na b\nz\n0.3\na\nw y\n0.4\nb\nv\n"
    table = ParaphraseTable.from_bytes(text)
    ids = table.translate(["a", "b", "unknown"])
    found = [
        (length, [" ".join(_words(table, p)) for p in targets])
        for length, targets in table.paths(ids, 0)
    ]
    assert found == [(1, ["y", "w y"]), (2, ["x", "z"])]
    assert table.paths(ids, 2) == []


def _words(table: ParaphraseTable, phrase_id: int) -> list[str]:
    names = {index: word for word, index in table.vocabulary.items()}
    return [names[int(word)] for word in table.phrase(int(phrase_id))]


def test_the_jar_command_line_weighs_english_function_words_for_german(tmp_path):
    """`-ssOut`'s third and fourth numbers count the function words of hypothesis and reference."""
    data = find_meteor_data()
    if data.jar is None or shutil.which("java") is None:
        pytest.skip("meteor-1.5.jar or java is not available")
    counts = []
    for line in ("the of haus", "und der haus"):
        (tmp_path / "line.txt").write_text(line + "\n", encoding="utf-8")
        command = [
            "java",
            "-jar",
            str(data.jar),
            str(tmp_path / "line.txt"),
            str(tmp_path / "line.txt"),
        ]
        command += ["-l", "de", "-m", "exact", "-ssOut"]
        output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
        counts.append(float(output.split()[2]))
    assert counts == [2.0, 0.0]
    assert JAR_CLI_FUNCTION_WORDS_LANGUAGE == "english"
    assert {"the", "of"} <= data.function_words(JAR_CLI_FUNCTION_WORDS_LANGUAGE)
    assert {"und", "der"} <= data.function_words("de")


def test_module_matchers_load_what_each_module_needs():
    prepared = module_matchers(["exact", "STEM"], "en", MeteorData())
    stage = Stage(["cats", "sat"], ["cat", "sat"])
    for index, matcher in enumerate(prepared):
        matcher(stage, index)
    assert [(m.start, m.match_start, m.module) for ms in stage.matches for m in ms] == [
        (0, 0, 1),
        (1, 1, 0),
    ]
    with pytest.raises(InputError, match="no module 'wordnet'"):
        module_matchers(["wordnet"], "en", MeteorData())
    with pytest.raises(InputError, match="paraphrase module needs"):
        module_matchers(["exact", "paraphrase"], "de", MeteorData())
