"""Every metric's own output reaches every view that takes external metrics, on the command line
and through the API: Scores with bootstrap intervals and paired significance (`mteval score
--bootstrap`), the correlation with human scores (`mteval score --human`, the Correlation
page's numbers), AutoRank (`mteval rank --autorank wmt25 --refs --hyps --metric-scores`) and
the HTML report, each showing the metric's direction and scale.

comet-score's JSON, MetricX's and pymarian-eval's files are the fixtures of
tests/io/fixtures/neural_outputs (sample_data scored in each tool's layout); gemba's score lines,
GEMBA-MQM's error lists and our CSV are written here for the four systems, in the layout each is
printed in (GEMBA-MQM's line is the repr of the defaultdict gemba prints)."""

from __future__ import annotations

import json
import warnings
from collections import defaultdict
from pathlib import Path

import pytest

import mteval_core as mt
from mteval_core.cli import main
from mteval_core.errors import Note

ROOT = Path(__file__).resolve().parents[2]
OUTPUTS = ROOT / "tests/io/fixtures/neural_outputs"
SYSTEMS = ["neural-large", "neural-small", "phrase-based", "word-by-word"]
REFERENCE = str(ROOT / "sample_data/ref/ref-A.en")
HYPS = [str(ROOT / f"sample_data/sys/{system}.en") for system in SYSTEMS]
HUMAN = str(ROOT / "sample_data/human/judgments.tsv")


def lines(path: str) -> list[str]:
    return Path(path).read_text(encoding="utf-8").splitlines()


def missing_words(system: int) -> list[list[str]]:
    """Per segment, the system's words that ref-A lacks (what the stand-in judges count)."""
    pairs = zip(lines(HYPS[system]), lines(REFERENCE), strict=True)
    return [[w for w in hyp.split() if w not in set(ref.split())] for hyp, ref in pairs]


def written(tmp_path: Path, fmt: str) -> tuple[str, bool, list[str]]:
    """(metric name, higher is better, its files) of one format."""
    if fmt == "comet":
        return "comet", True, [str(OUTPUTS / "comet.json")]
    if fmt in ("metricx", "pymarian"):
        suffix = {"metricx": "metricx.jsonl", "pymarian": "pymarian.txt"}[fmt]
        return fmt, fmt == "pymarian", [str(OUTPUTS / f"{s}.{suffix}") for s in SYSTEMS]
    files = []
    for index, system in enumerate(SYSTEMS):
        words = missing_words(index)
        if fmt == "gemba":
            text = "".join(f"{-min(25, 5 * len(w))}\n" for w in words)
        elif fmt == "gemba-mqm":
            answers = [defaultdict(list, {"major": [f'fluency - "{x}"' for x in w]}) for w in words]
            text = "".join(f"{answer!r}\n" for answer in answers)
        else:  # our CSV
            rows = [f"{system},{n},{len(w)}" for n, w in enumerate(words, start=1)]
            text = "system,segment_id,score\n" + "\n".join(rows) + "\n"
        files.append(tmp_path / f"{system}.{fmt}.{'csv' if fmt == 'csv' else 'txt'}")
        files[-1].write_text(text, encoding="utf-8")
    return fmt, fmt != "csv", [str(path) for path in files]


FORMATS = ["comet", "metricx", "pymarian", "gemba", "gemba-mqm", "csv"]


def specs(name: str, higher: bool, files: list[str]) -> list[str]:
    direction = (
        "" if name in ("comet", "metricx", "gemba-mqm") else (":higher" if higher else ":lower")
    )
    return [f"--metric-scores={name}{direction}={path}" for path in files]


def run(capsys, *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_reaches_every_view(fmt: str, tmp_path: Path, capsys) -> None:
    name, higher, files = written(tmp_path, fmt)
    given = specs(name, higher, files)
    test_set = ["--refs", REFERENCE, "--hyps", *HYPS]
    scored = json.loads(
        run(
            capsys,
            "score",
            *test_set,
            "--metrics",
            "bleu",
            *given,
            "--bootstrap",
            "1000",
            "--seed",
            "3",
            "--human",
            HUMAN,
            "--format",
            "json",
        )
    )
    assert scored["external"][name]["higher_is_better"] is higher
    for system in SYSTEMS:
        low, high = scored["ci"][system][name]
        assert low <= scored["scores"][system][name] <= high
    pairs = [pair for pair in scored["pairs"] if pair["metric"] == name]
    assert len(pairs) == 6 and all(0 < pair["p"] <= 1 for pair in pairs)
    assert isinstance(scored["correlations"][name]["pearson"], float)

    ranked = json.loads(
        run(capsys, "rank", "--autorank", "wmt25", *test_set, *given, "--format", "json")
    )
    rows = ranked["language_pairs"]["test set"]["systems"]
    assert sorted(row["system"] for row in rows) == SYSTEMS
    means = {row["system"]: row["extra"]["metrics"][name] for row in rows}
    sign = 1 if higher else -1  # AutoRank enters a lower-is-better metric negated
    for system in SYSTEMS:
        assert means[system] == pytest.approx(sign * scored["scores"][system][name], abs=1e-12)

    html = run(capsys, "report", *test_set, *given)
    reading = "higher is better" if higher else "lower is better"
    assert f"<td>{name}</td><td>{reading}, scale" in html.replace("\n", "")

    api_set = mt.read_test_set([REFERENCE], HYPS)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Note)
        metric = mt.read_metric_scores(
            api_set, files, name, None if fmt in ("comet", "metricx", "gemba-mqm") else higher
        )
        scores = mt.score(api_set, ["bleu"], external=[metric])
        report = mt.bootstrap(api_set, scores, resamples=1000, seed=3).to_dict()
        ranking = mt.rank(api_set, scores, name, resamples=1000, seed=3)
        correlations = mt.correlate(mt.with_human(api_set, HUMAN), scores).to_dict()
    assert scores.corpus() == scored["scores"]
    assert report["ci"] == scored["ci"] and report["pairs"] == scored["pairs"]
    assert ranking[0].system == max(SYSTEMS, key=lambda s: sign * scored["scores"][s][name])
    assert correlations["correlations"][name]["pearson"] == pytest.approx(
        scored["correlations"][name]["pearson"], abs=1e-12
    )


def test_the_text_layout_says_the_direction_and_scale(capsys) -> None:
    files = [f"--metric-scores=mx={OUTPUTS / f'{s}.metricx.jsonl'}" for s in SYSTEMS]
    out = run(capsys, "score", "--refs", REFERENCE, "--hyps", *HYPS, "--metrics", "bleu", *files)
    assert out.endswith("\nmx: computed elsewhere, lower is better, scale 0-25\n")
