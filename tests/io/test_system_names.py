"""Systems named by the part of their file names that differs (issue 22, part 3)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from mteval_core.cli import main
from mteval_core.io import read_directory
from mteval_core.io.detect import read_columns
from mteval_core.io.metric_scores import read_metric_scores
from mteval_core.io.system_names import (
    distinguishing_names,
    file_name_aliases,
    name_notes,
    shortest_distinct,
)
from mteval_core.io.uploads import test_set_from_uploads
from mteval_core.model.testset import TextColumn
from tests.helpers import make_test_set

WMT23 = [
    "wmt23/generaltest2023.en-ru.hyp.PROMT.ru",
    "wmt23/generaltest2023.en-ru.hyp.Online-A.ru",
    "wmt23/generaltest2023.en-ru.hyp.Lan-BridgeMT.v2.ru",
]


def test_wmt_file_names_become_system_names():
    names, note = distinguishing_names(WMT23)
    assert names == ["PROMT", "Online-A", "Lan-BridgeMT.v2"]
    assert note is not None and "PROMT from wmt23/generaltest2023.en-ru.hyp.PROMT.ru" in note


def test_what_stays_as_today():
    assert distinguishing_names(["sys/online-A.0.de"]) == (["online-A.0"], None)  # one file
    wmt17 = ["sys/online-A.0.de", "sys/FBK.4870.de", "sys/online-B.0.de"]
    assert distinguishing_names(wmt17) == (["online-A.0", "FBK.4870", "online-B.0"], None)
    # only whole components go, and at least one stays
    assert distinguishing_names(["x.a.de", "x.a.b.de"])[0] == ["a", "a.b"]
    assert shortest_distinct(["sys1.detok", "sys2.detok"]) == ["sys1", "sys2"]


def test_an_empty_name_falls_back_to_the_full_names_with_a_note():
    names, note = distinguishing_names(["a..c.de", "a.b.c.de"])
    assert names == ["a..c", "a.b.c"]
    assert note is not None and "keep their full file names" in note


COMPONENT = st.text(alphabet="ab-_", max_size=2)
NAME = st.lists(COMPONENT, min_size=1, max_size=4).map(".".join)


@given(st.lists(NAME, min_size=1, max_size=5, unique=True))
def test_no_empty_name_uniqueness_kept_and_idempotent(names):
    short = shortest_distinct(names)
    assert len(short) == len(names)
    assert len(set(short)) == len(names)  # distinct stays distinct
    assert all(short) or short == names  # never an empty name made by dropping
    assert shortest_distinct(short) == short
    for name, full in zip(short, names, strict=True):  # a part of the name, at dot boundaries
        assert f".{name}." in f".{full}."


def test_aliases_give_the_full_name_of_every_renamed_system():
    columns = [
        TextColumn("PROMT", ("x",), WMT23[0]),
        TextColumn("Online-A", ("x",), WMT23[1]),
        TextColumn("same", ("x",), "same.ru"),  # named as its file: no alias
    ]
    assert file_name_aliases(columns) == {
        "generaltest2023.en-ru.hyp.PROMT": "PROMT",
        "generaltest2023.en-ru.hyp.Online-A": "Online-A",
    }
    # several columns of one file (XML): their file name names none of them
    xml = [TextColumn("a", ("x",), "set.xml"), TextColumn("b", ("x",), "set.xml")]
    assert file_name_aliases(xml) == {}


def test_uploads_are_named_and_judgments_match_either_name():
    systems = [(path.split("/")[-1], b"a b\nc d\n") for path in WMT23]
    human = (
        b"system,segment_id,score\n"
        b"generaltest2023.en-ru.hyp.PROMT,1,80\n"
        b"generaltest2023.en-ru.hyp.PROMT,2,70\n"
        b"Online-A,1,60\nOnline-A,2,65\n"
    )
    notes: list[str] = []
    test_set = test_set_from_uploads(
        [("ref.ru", b"a b\nc d\n")], systems, human=("human.csv", human), notes=notes
    )
    assert test_set.system_names == ["PROMT", "Online-A", "Lan-BridgeMT.v2"]
    assert set(test_set.human.segment_rows["system"]) == {"PROMT", "Online-A"}
    assert any("named by the part of their file names that differs" in note for note in notes)
    metric = "system,segment_id,score\n" + "".join(
        f"{name},{k},0.5\n"
        for name in ("generaltest2023.en-ru.hyp.PROMT", "Online-A", "Lan-BridgeMT.v2")
        for k in (1, 2)
    )
    read = read_metric_scores(
        metric.encode(), "comet.csv", test_set, name="comet", higher_is_better=True
    )
    assert read.system_score("PROMT") == 0.5


def test_a_folder_names_its_systems_so(tmp_path):
    (tmp_path / "ref").mkdir()
    (tmp_path / "sys").mkdir()
    (tmp_path / "ref" / "ref-A.ru").write_text("a b\n")
    for path in WMT23[:2]:
        (tmp_path / "sys" / path.split("/")[-1]).write_text("a b\n")
    read = read_directory(tmp_path)
    assert read.test_set.system_names == ["Online-A", "PROMT"]  # file name order
    assert any(note.startswith("sys/: the systems are named") for note in read.notes)


def test_command_line_names_and_name_equals_path(tmp_path, capsys):
    ref = tmp_path / "generaltest2023.en-ru.ref.refA.ru"
    ref.write_text("a b c\n")
    paths = []
    for path in WMT23:
        paths.append(tmp_path / path.split("/")[-1])
        paths[-1].write_text("a b c\n")
    hyps = [str(paths[0]), f"mine={paths[1]}", str(paths[2])]
    assert main(["score", "--refs", str(ref), "--hyps", *hyps, "--format", "csv"]) == 0
    out, err = capsys.readouterr()
    assert [line.split(",")[0] for line in out.splitlines()[1:]] == [
        "PROMT",
        "mine",
        "Lan-BridgeMT.v2",
    ]
    assert "mteval: note: the systems are named by the part" in err and "NAME=PATH" in err


def test_a_system_named_in_its_file_keeps_its_name():
    found = read_columns(b"a\n", "generaltest2023.en-ru.hyp.PROMT.ru", "sys", name="P")
    assert not found.named_after_file and found.columns[0].name == "P"


# ------------------------------------------- issue 42: names that look alike, or hide characters
def notes_for(*names: str) -> list[str]:
    return name_notes(make_test_set(["a", "b"], {name: ["a", "b"] for name in names}))


def test_names_that_differ_only_by_look_alike_letters_are_noted_with_code_points() -> None:
    (note,) = notes_for("Online-A", "\u041enline-A", "UEdin")  # a Cyrillic capital O
    assert note == (
        "the names 'Online-A', '\\u041enline-A' look alike: they differ only by U+004F LATIN "
        "CAPITAL LETTER O, U+041E CYRILLIC CAPITAL LETTER O"
    )
    (note,) = notes_for("sys-\uff21", "sys-A")  # fullwidth A, folded by NFKC
    assert "U+FF21 FULLWIDTH LATIN CAPITAL LETTER A" in note
    (note,) = notes_for("ref", "r\u0435f")  # a reference and a system with a Cyrillic e
    assert "'r\\u0435f'" in note and "U+0435 CYRILLIC SMALL LETTER IE" in note


def test_names_with_bidi_controls_or_zero_width_characters_are_noted() -> None:
    notes = notes_for("evil\u202egpj.exe", "a\u200bb", "plain")
    assert notes == [
        "these names hold invisible or direction-changing characters, shown here as escapes: "
        "'evil\\u202egpj.exe' (U+202E RIGHT-TO-LEFT OVERRIDE), 'a\\u200bb' (U+200B ZERO WIDTH "
        "SPACE); tables and figures show them as the characters would, reordered or not at all"
    ]
    both = notes_for("sys1", "sys1\u2066")  # hidden, and alike once it is dropped
    assert len(both) == 2 and "U+2066 LEFT-TO-RIGHT ISOLATE" in both[1]


def test_real_wmt_system_names_raise_no_note() -> None:
    """No false alarm on WMT's names (Latin, with digits, dots and case that differ)."""
    names = [
        "Online-A", "ONLINE-A", "ONLINE-B", "Online-B", "Lan-BridgeMT", "NLLB_MBR_BLEU",
        "NLLB_Greedy", "GPT4-5shot", "HW-TSC", "IOL_Research", "ZengHuiMT", "Yishu", "UEdin",
        "VolcTrans-AT", "VolcTrans-GLAT", "eTranslation", "nuclear_trans", "metricsystem1",
        "refA", "refB", "Lan-BridgeMT.v2", "CUNI-DocTransformer", "CUNI-Transformer",
    ]  # fmt: skip
    assert notes_for(*names) == []


def test_every_loader_notes_look_alike_names(tmp_path, capsys) -> None:
    from mteval_core.io.mtme import read_mtme
    from tests.helpers import tiny

    tiny(tmp_path / "mtme")
    outputs = tmp_path / "mtme/wmt22/system-outputs/de-en"
    (outputs / "s2.txt").rename(outputs / "\u04551.txt")  # Cyrillic dze, like s
    assert any(
        "look alike" in note for note in read_mtme(tmp_path / "mtme", "wmt22", "de-en").notes
    )
    folder = tmp_path / "dir"
    for path, text in {"ref/r.en": "a\n", "sys/s1.en": "a\n", "sys/\u04551.en": "b\n"}.items():
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text(text)
    assert any("look alike" in note for note in read_directory(folder).notes)
    notes: list[str] = []
    test_set_from_uploads(
        [("r.en", b"a\n")], [("s1.en", b"a\n"), ("\u04551.en", b"b\n")], notes=notes
    )
    assert any("look alike" in note for note in notes)
    hyps = [str(folder / "sys/s1.en"), str(folder / "sys/\u04551.en")]
    assert main(["score", "--refs", str(folder / "ref/r.en"), "--hyps", *hyps]) == 0
    assert "mteval: note: the names 's1', '\\u04551' look alike" in capsys.readouterr().err
