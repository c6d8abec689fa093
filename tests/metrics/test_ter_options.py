"""TER with sacreBLEU's options normalized, no_punct and asian_support: sacreBLEU's numbers on
WMT23's Chinese and Japanese outputs, its signature fields, the command line's flags, and the
note where TER is scored on Chinese or Japanese without them.

Issue 42: TER on Chinese and Japanese read 99-259 with no word of asian_support. With sacreBLEU's
defaults Tercom splits on whitespace only; with normalized and asian_support every CJK character
is a word (WMT23 en-zh ANVITA: 99.42 -> 48.92, en-ja AIRC: 129.51 -> 70.91).
"""

from __future__ import annotations

import itertools
import json
import warnings

import pytest
import sacrebleu

from mteval_core.cli import main
from mteval_core.errors import Note
from mteval_core.metrics import ter_statistics
from mteval_core.metrics.scoring import score_test_set
from mteval_core.model.testset import TestSet, TextColumn
from mteval_core.settings.options import Options
from tests.helpers import wmt23_pair

pytestmark = pytest.mark.filterwarnings("ignore::mteval_core.errors.Note")  # asserted as notes
OPTIONS = ("normalized", "no_punct", "asian_support")
# every combination but normalized with asian_support, whose sacreBLEU takes 50 s a system
QUICK = [
    dict(zip(OPTIONS, values))
    for values in itertools.product([False, True], repeat=3)
    if not (values[0] and values[2])
]


def wmt23_set(pair: str, systems: int, every: int = 1) -> TestSet:
    """refA and the first ``systems`` systems of a WMT23 pair, named by its files (so that
    their language is known), every ``every``-th segment."""
    texts = dict(wmt23_pair(pair))
    target = pair[-2:]
    reference = texts.pop("refA")[::every]
    names = sorted(texts)[:systems]
    return TestSet(
        references=[TextColumn("refA", reference, f"generaltest2023.{pair}.ref.refA.{target}")],
        systems=[
            TextColumn(name, texts[name][::every], f"generaltest2023.{pair}.hyp.{name}.{target}")
            for name in names
        ],
    )


def ter_options(flags: dict[str, bool]) -> Options:
    return Options.from_flags(**{f"ter_{name}": value for name, value in flags.items()})


def sacrebleu_ter(test_set: TestSet, system: str, flags: dict[str, bool]) -> float:
    references = [reference.segments for reference in test_set.references]
    return sacrebleu.metrics.TER(**flags).corpus_score(test_set.system(system), references).score


@pytest.mark.parametrize("pair", ["en-zh", "en-ja"])
def test_every_quick_combination_equals_sacrebleu_on_wmt23(pair):
    data = wmt23_set(pair, systems=4)
    for flags in QUICK:
        scores = score_test_set(data, ["ter"], ter_options(flags)).corpus()
        for system in data.system_names:
            expected = sacrebleu_ter(data, system, flags)
            assert scores[system]["ter"] == pytest.approx(expected, abs=1e-9), (flags, system)


@pytest.mark.parametrize("pair", ["en-zh", "en-ja"])
def test_normalized_with_asian_support_equals_sacrebleu_on_wmt23(pair):
    """Every tenth segment of two systems (sacreBLEU's Python takes 3-6 s for those)."""
    data = wmt23_set(pair, systems=2, every=10)
    flags = {"normalized": True, "no_punct": False, "asian_support": True}
    scores = score_test_set(data, ["ter"], ter_options(flags))
    for system in data.system_names:
        expected = sacrebleu_ter(data, system, flags)
        assert scores.corpus()[system]["ter"] == pytest.approx(expected, abs=1e-9), system
        default = sacrebleu_ter(data, system, {})
        assert expected < default - 20  # what the option is for: characters are words
    assert not any("asian_support" in note for note in scores.notes)


def test_the_fallback_without_the_compiled_module_takes_the_options(monkeypatch):
    data = wmt23_set("en-ja", systems=1, every=20)
    flags = {"normalized": True, "no_punct": True, "asian_support": True}
    compiled = score_test_set(data, ["ter"], ter_options(flags)).corpus()
    monkeypatch.setattr(ter_statistics, "compiled_edits", None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Note)
        fallback = score_test_set(data, ["ter"], ter_options(flags)).corpus()
    for system in data.system_names:
        assert fallback[system]["ter"] == pytest.approx(compiled[system]["ter"], abs=1e-9)


@pytest.mark.parametrize("flags", [{}, *QUICK, dict.fromkeys(OPTIONS, True)])
def test_the_signature_has_sacrebleus_fields(flags):
    data = wmt23_set("en-ja", systems=1, every=50)
    ours = score_test_set(data, ["ter"], ter_options(flags)).signatures["ter"]
    theirs = sacrebleu.metrics.TER(**flags)
    theirs.corpus_score(data.systems[0].segments, [data.references[0].segments])
    expected = str(theirs.get_signature()).replace("tok:tercom", "ter-tok:tercom")
    assert ours.rsplit("|version:", 1)[0] == expected.rsplit("|version:", 1)[0]


@pytest.mark.parametrize(("pair", "language"), [("en-zh", "Chinese"), ("en-ja", "Japanese")])
def test_a_note_says_when_chinese_or_japanese_ter_splits_on_spaces(pair, language):
    data = wmt23_set(pair, systems=1, every=50)
    for flags in ({}, {"asian_support": True}, {"normalized": True}, {"no_punct": True}):
        notes = score_test_set(data, ["ter"], ter_options(flags)).notes
        said = [note for note in notes if note.startswith(f"TER on {language} output")]
        assert len(said) == 1 and "normalized and asian_support" in said[0], flags
    both = {"normalized": True, "asian_support": True}
    assert not score_test_set(data, ["ter"], ter_options(both)).notes
    german = wmt23_set("en-de", systems=1, every=50)
    assert not score_test_set(german, ["ter"], Options()).notes


def command_line(arguments: list[str], capsys) -> tuple[dict, str]:
    """JSON and stderr of a run, with its notes printed as the command prints them."""
    with warnings.catch_warnings():  # main() shows them as "mteval: warning: ..." lines
        warnings.simplefilter("always", Note)
        assert main([*arguments, "--format", "json"]) == 0
    out, err = capsys.readouterr()
    return json.loads(out), err


def test_the_command_line_flags(tmp_path, capsys):
    data = wmt23_set("en-zh", systems=1, every=20)
    reference = tmp_path / "ref.zh"
    reference.write_text("".join(f"{line}\n" for line in data.references[0].segments), "utf-8")
    system = data.systems[0]
    hypothesis = tmp_path / f"{system.name}.zh"
    hypothesis.write_text("".join(f"{line}\n" for line in system.segments), "utf-8")
    arguments = ["score", "--refs", str(reference), "--hyps", str(hypothesis), "--metrics", "ter"]
    result, err = command_line(arguments, capsys)
    assert "mteval: warning: TER on Chinese output" in err and "asian_support" in err
    assert "|norm:no|punct:yes|asian:no|" in result["signatures"]["ter"]
    given = ["--ter-normalized", "--ter-no-punct", "--ter-asian-support"]
    result, err = command_line([*arguments, *given], capsys)
    expected = sacrebleu_ter(data, system.name, dict.fromkeys(OPTIONS, True))
    assert result["scores"][system.name]["ter"] == pytest.approx(expected, abs=1e-9)
    assert "|norm:yes|punct:no|asian:yes|" in result["signatures"]["ter"]
    assert "TER on Chinese" not in err
