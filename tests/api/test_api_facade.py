"""The public Python API (mteval_core.api, re-exported by mteval_core): every number equals the
command line's on the same files, and bad input is the same InputError naming the file."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import mteval_core as mt
from mteval_core.cli import main
from mteval_core.errors import Note
from tests.helpers import SAMPLE_DATA

REFERENCE = str(SAMPLE_DATA / "ref" / "ref-A.en")
SYSTEMS = [str(SAMPLE_DATA / "sys" / f"{name}.en") for name in ("neural-large", "phrase-based")]
ALL_SAMPLE_SYSTEMS = [str(path) for path in sorted((SAMPLE_DATA / "sys").glob("*.en"))]


def cli_json(capsys, *args: str) -> dict:
    assert main(["score", "--format", "json", *args]) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def test_scores_equal_the_command_line(capsys):
    metrics = ["bleu", "chrf", "ter", "nist", "gtm"]
    scores = mt.score(mt.read_test_set([REFERENCE], SYSTEMS), metrics=metrics)
    expected = cli_json(
        capsys, "--refs", REFERENCE, "--hyps", *SYSTEMS, "--metrics", ",".join(metrics)
    )
    assert scores.corpus() == expected["scores"]
    assert scores.signature == expected["signature"]


def test_named_systems_and_default_metrics(capsys):
    test_set = mt.read_test_set([REFERENCE], {"large": SYSTEMS[0], "pbmt": SYSTEMS[1]})
    scores = mt.score(test_set)
    assert scores.systems == ["large", "pbmt"]
    assert scores.metric_names == list(mt.DEFAULT_METRICS)
    expected = cli_json(
        capsys, "--refs", REFERENCE, "--hyps", f"large={SYSTEMS[0]}", f"pbmt={SYSTEMS[1]}"
    )
    assert scores.corpus() == expected["scores"]


def test_options_change_the_numbers_as_the_flags_do(capsys):
    options = mt.Options(lowercase=True)
    scores = mt.score(mt.read_test_set([REFERENCE], SYSTEMS), ["bleu"], options)
    expected = cli_json(
        capsys, "--refs", REFERENCE, "--hyps", *SYSTEMS, "--metrics", "bleu", "--lowercase"
    )
    assert scores.corpus() == expected["scores"]
    assert scores.signature == expected["signature"]


def test_bootstrap_equals_the_command_line(capsys):
    test_set = mt.read_test_set([REFERENCE], SYSTEMS)
    scores = mt.score(test_set, ["bleu", "chrf"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Note)  # 200 resamples: too few for intervals, it says
        report = mt.bootstrap(test_set, scores, resamples=200, seed=7).to_dict()
    expected = cli_json(
        capsys,
        "--refs",
        REFERENCE,
        "--hyps",
        *SYSTEMS,
        "--metrics",
        "bleu,chrf",
        "--bootstrap",
        "200",
        "--seed",
        "7",
    )
    for key in ("ci", "pairs", "bootstrap"):
        assert report[key] == expected[key]


def test_a_missing_file_is_an_input_error_naming_it(tmp_path):
    missing = tmp_path / "nowhere.en"
    with pytest.raises(mt.InputError, match=r"nowhere\.en"):
        mt.read_test_set([REFERENCE], [str(missing)])


def test_a_system_of_another_length_is_refused_with_both_files(tmp_path):
    short = tmp_path / "short.en"
    short.write_text("one line\n", encoding="utf-8")
    with pytest.raises(mt.InputError) as raised:
        mt.read_test_set([REFERENCE], [str(short)])
    assert "short.en" in str(raised.value)


def test_one_path_instead_of_a_list_is_refused():
    with pytest.raises(mt.InputError, match="lists of paths"):
        mt.read_test_set(REFERENCE, SYSTEMS)


def test_an_unknown_metric_is_an_input_error():
    with pytest.raises(mt.InputError, match="blue"):
        mt.score(mt.read_test_set([REFERENCE], SYSTEMS), ["blue"])


def test_importing_the_package_loads_no_metric_and_scoring_no_pandas_or_scipy():
    """The lazy root: ``import mteval_core`` loads the package alone; scoring through the API
    imports neither pandas nor scipy (correlations alone need scipy)."""
    code = (
        "import sys, mteval_core as mt\n"
        "before = sorted(m for m in sys.modules if m.startswith(('mteval_core', 'numpy')))\n"
        f"t = mt.read_test_set([{REFERENCE!r}], {SYSTEMS!r})\n"
        "mt.score(t, ['bleu', 'chrf'])\n"
        "print(before, 'pandas' in sys.modules, 'scipy' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "['mteval_core'] False False"


def test_the_package_exports_exactly_the_apis_names():
    """mteval_core lists the names itself (importing it stays light: api is loaded on first use),
    so the two lists are kept equal here."""
    import mteval_core.api as api

    assert sorted(mt.__all__) == sorted([*api.__all__, "__version__"])


def test_every_public_name_resolves_and_unknown_ones_do_not():
    for name in mt.__all__:
        assert getattr(mt, name) is not None
    with pytest.raises(AttributeError, match="no_such_name"):
        mt.no_such_name  # noqa: B018


HUMAN = str(SAMPLE_DATA / "human" / "judgments.tsv")
ALL_SYSTEMS = sorted(str(path) for path in (SAMPLE_DATA / "sys").glob("*.en"))


def test_correlations_equal_the_command_line(capsys):
    test_set = mt.read_test_set([REFERENCE], ALL_SYSTEMS)
    scores = mt.score(test_set, ["bleu", "chrf", "ter"])
    report = mt.correlate(mt.with_human(test_set, HUMAN), scores, criterion="adequacy").to_dict()
    expected = cli_json(
        capsys,
        "--refs",
        REFERENCE,
        "--hyps",
        *ALL_SYSTEMS,
        "--metrics",
        "bleu,chrf,ter",
        "--human",
        HUMAN,
        "--criterion",
        "adequacy",
    )
    assert report["human"] == expected["human"]
    # the command adds two accuracies from the segment judgments
    # (cli.score_human.segment_level_report), which the API does not compute yet: every other
    # number is the command's
    segment_only = {"spa", "pairwise_accuracy_with_ties"}
    assert report["correlations"] == {
        metric: {key: value for key, value in found.items() if key not in segment_only}
        for metric, found in expected["correlations"].items()
    }


def test_correlating_without_judgments_says_how_to_add_them():
    test_set = mt.read_test_set([REFERENCE], SYSTEMS)
    with pytest.raises(mt.InputError, match="no human judgments") as raised:
        mt.correlate(test_set, mt.score(test_set, ["bleu"]))
    assert "with_human" in raised.value.hint


def test_judgments_of_systems_not_scored_are_set_aside_with_a_note():
    test_set = mt.read_test_set([REFERENCE], SYSTEMS)
    with pytest.warns(Note, match=r"judgments\.tsv: .* set aside"):
        judged = mt.with_human(test_set, HUMAN)
    assert judged.human is not None


@pytest.mark.parametrize("compare_mt", [False, True], ids=["tokenized", "compare-mt"])
def test_compare_equals_the_command_line(capsys, compare_mt):
    from mteval_core.report.comparison_text import comparison_json

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Note)
        comparison = mt.compare_systems(
            mt.read_test_set([REFERENCE], SYSTEMS), compare_mt=compare_mt, resamples=100, seed=3
        )
    reading = ["--reading", "compare-mt"] if compare_mt else []
    argv = ["compare", "--refs", REFERENCE, "--hyps", *SYSTEMS, "--bootstrap", "100"]
    assert main([*argv, "--seed", "3", "--format", "json", *reading]) == 0
    assert json.loads(comparison_json(comparison)) == json.loads(capsys.readouterr().out)


def test_compare_takes_two_systems():
    with pytest.raises(mt.InputError, match="takes two systems; this test set holds 4"):
        mt.compare_systems(mt.read_test_set([REFERENCE], ALL_SYSTEMS))


def test_rank_follows_the_command_lines_paired_tests(capsys):
    """The ranking's order is the scores', and each rank range is [1 + significantly better,
    N - significantly worse] by the command line's Holm-corrected pairs."""
    refs = [str(SAMPLE_DATA / "ref" / "ref-A.en")]
    hyps = sorted(str(p) for p in (SAMPLE_DATA / "sys").glob("*.en"))
    test_set = mt.read_test_set(refs, hyps)
    scores = mt.score(test_set, ["bleu"])
    ranking = mt.rank(test_set, scores, "bleu", resamples=1000, seed=7)
    argv = ["score", "--refs", *refs, "--hyps", *hyps, "--metrics", "bleu"]
    assert main([*argv, "--bootstrap", "1000", "--seed", "7", "--format", "json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    bleu = {s: v["bleu"] for s, v in cli["scores"].items()}
    assert [r.system for r in ranking] == sorted(bleu, key=lambda s: -bleu[s])
    for entry in ranking:
        won = [p for p in cli["pairs"] if p["p_holm"] < 0.05 and entry.system in (p["a"], p["b"])]
        better = sum(
            1
            for p in won
            if bleu[p["a"] if p["b"] == entry.system else p["b"]] > bleu[entry.system]
        )
        worse = len(won) - better
        assert entry.rank_range == (1 + better, len(bleu) - worse)
        assert list(entry.interval) == cli["ci"][entry.system]["bleu"]
    with pytest.raises(mt.InputError, match="no scores of 'chrf'"):
        mt.rank(test_set, scores, "chrf")


def test_read_mtme_scores_as_the_command_line_does(capsys, tmp_path):
    from tests.helpers import mtme_from_shared

    root = mtme_from_shared(tmp_path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        read = mt.read_mtme(str(root), "wmt21.news", "en-de")
    assert any("reference refC" in str(w.message) for w in caught)  # the choice is said
    scores = mt.score(read.test_set, ["bleu"], external=read.external)
    expected = cli_json(
        capsys, "--mtme", str(root), "--test-set", "wmt21.news", "--lp", "en-de", "--metrics",
        "bleu",
    )  # fmt: skip
    assert scores.corpus() == expected["scores"]
    assert read.criterion == "mqm"


def test_metric_scores_join_the_built_in_metrics(capsys, tmp_path):
    systems = {"large": SYSTEMS[0], "pbmt": SYSTEMS[1]}
    test_set = mt.read_test_set([REFERENCE], systems)
    n = test_set.n_segments
    rows = [f"{s},{i},{0.5 + 0.01 * i}" for s in systems for i in range(1, n + 1)]
    path = tmp_path / "comet.csv"
    path.write_text("system,segment,score\n" + "\n".join(rows) + "\n", encoding="utf-8")
    comet = mt.read_metric_scores(test_set, str(path), "COMET", higher_is_better=True)
    scores = mt.score(test_set, ["bleu"], external=[comet])
    assert scores.metric_names == ["bleu", "COMET"]
    expected = cli_json(
        capsys, "--refs", REFERENCE, "--hyps", *(f"{k}={v}" for k, v in systems.items()),
        "--metrics", "bleu", "--metric-scores", f"COMET:higher={path}",
    )  # fmt: skip
    assert scores.corpus() == expected["scores"]


def test_a_metric_without_a_direction_is_refused_saying_why(tmp_path):
    test_set = mt.read_test_set([REFERENCE], SYSTEMS)
    path = tmp_path / "m.csv"
    path.write_text("system,score\nneural-large,1\nphrase-based,2\n", encoding="utf-8")
    with pytest.raises(mt.InputError, match="the direction of metric 'M' was not given"):
        mt.read_metric_scores(test_set, str(path), "M")


def test_a_tools_own_output_says_its_direction_and_signature(capsys):
    """comet-score's JSON (as COMET 2.2.7 writes it, for the sample's systems) needs no
    direction; the signature given joins the file's, as `--metric-signature` does."""
    comet = Path(__file__).parents[1] / "io" / "fixtures" / "neural_outputs" / "comet.json"
    test_set = mt.read_test_set([str(SAMPLE_DATA / "ref" / "ref-A.en")], ALL_SAMPLE_SYSTEMS)
    metric = mt.read_metric_scores(
        test_set, str(comet), "comet", signature=mt.MetricSignature(model="Unbabel/XCOMET-XL")
    )
    scores = mt.score(test_set, ["bleu"], external=[metric])
    expected = cli_json(
        capsys, "--refs", str(SAMPLE_DATA / "ref" / "ref-A.en"), "--hyps", *ALL_SAMPLE_SYSTEMS,
        "--metrics", "bleu", "--metric-scores", f"comet={comet}", "--metric-signature",
        "comet:model=Unbabel/XCOMET-XL",
    )  # fmt: skip
    assert scores.corpus() == expected["scores"]
    assert scores.signature == expected["signature"]
    assert "comet-model:Unbabel/XCOMET-XL" in scores.signature


def test_read_mqm_reads_googles_wmt23_release_as_shipped(tmp_path):
    import tarfile

    from tests.helpers import shared_dataset

    archive = next(shared_dataset("wmt23-zhen-mqm").glob("*.tsv.tar.gz"))
    with tarfile.open(archive) as tar:
        member = tar.getmembers()[0]
        (tmp_path / "mqm.tsv").write_bytes(tar.extractfile(member).read())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Note)
        annotations = mt.read_mqm(str(tmp_path / "mqm.tsv"))
    assert annotations.layout == "2022-2024"
    assert len({system for system, _, _ in annotations.ratings}) == 10  # the systems rated
    assert len({rater for _, _, rater in annotations.ratings}) == 8
    # every Minor and Major row is one error (No-error and HOTW-test rows are none), counted
    # here from the file's severity column directly
    lines = (tmp_path / "mqm.tsv").read_text(encoding="utf-8").splitlines()[1:]
    severities = [line.split("\t")[8] for line in lines]
    assert annotations.counts.sum() == severities.count("Minor") + severities.count("Major")
    assert len(annotations.error_rows) == 21226
