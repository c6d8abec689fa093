"""The metrics' own outputs read as shipped (comet-score --to_json, MetricX's predictions,
pymarian-eval and gemba's score lines), their signatures, and every refusal with its file and
line. The fixtures are sample_data scored in each tool's layout by
scripts/neural_output_fixtures.py (no model can be downloaded here; see its docstring)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from mteval_core.errors import InputError
from mteval_core.io.metric_scores import read_metric_files, read_metric_scores
from mteval_core.metrics.scoring import score_test_set
from mteval_core.model.metric_signature import MetricSignature, parse_signature_fields
from mteval_core.model.spans import ErrorSpan
from mteval_core.settings.options import Options
from tests.helpers import load_sample, make_test_set

FIXTURES = Path(__file__).parent / "fixtures" / "neural_outputs"
SYSTEMS = ["neural-large", "neural-small", "phrase-based", "word-by-word"]


def sample():
    return load_sample().test_set


def comet_json() -> dict:
    return json.loads((FIXTURES / "comet.json").read_text(encoding="utf-8"))


def read(data: bytes, origin: str, **options):
    options.setdefault("higher_is_better", None)
    return read_metric_scores(data, origin, sample(), name="neural", **options)


def many(pattern: str) -> list[tuple[bytes, str]]:
    return [
        ((FIXTURES / pattern.format(s)).read_bytes(), str(FIXTURES / pattern.format(s)))
        for s in SYSTEMS
    ]


# ---------------------------------------------------------------------- comet-score --to_json
def test_comet_json_gives_every_segment_score_its_spans_and_what_the_file_says() -> None:
    data = comet_json()
    metric = read((FIXTURES / "comet.json").read_bytes(), "comet.json")
    assert metric.higher_is_better  # COMET's direction, from the format
    assert metric.systems == SYSTEMS
    for key, entries in data.items():
        system = Path(key).stem
        expected = [entry["COMET"] for entry in entries]
        np.testing.assert_array_equal(metric.statistics_of(system)[:, 0], expected)
        assert metric.system_score(system) == pytest.approx(np.mean(expected), abs=1e-15)
    assert metric.signature == MetricSignature(
        package="unbabel-comet", reference_based=True, direction="higher"
    )
    first = data["sample_data/sys/neural-large.en"][0]
    [span] = metric.spans["neural-large", 1]
    error = first["errors"][0]
    assert span == ErrorSpan(
        error["start"],
        error["end"],
        "minor",
        None,
        source="comet-score JSON (comet.json)",
        text=error["text"],
        confidence=error["confidence"],
    )
    assert first["mt"][span.start : span.end] == span.text
    n_spans = sum(len(e.get("errors", [])) for entries in data.values() for e in entries)
    assert sum(len(spans) for spans in metric.spans.values()) == n_spans


def test_comet_json_without_references_is_reference_free() -> None:
    data = comet_json()
    for entries in data.values():
        for entry in entries:
            del entry["ref"]
    metric = read(json.dumps(data, indent=4).encode(), "kiwi.json")
    assert metric.signature.reference_based is False


def test_options_fill_what_the_file_does_not_say_and_appear_in_the_signature() -> None:
    given = parse_signature_fields("model=Unbabel/XCOMET-XL,version=2.2.6,precision=fp16")
    metric = read((FIXTURES / "comet.json").read_bytes(), "comet.json", signature=given)
    assert metric.signature.describe() == (
        "model:Unbabel/XCOMET-XL|package:unbabel-comet|version:2.2.6|precision:fp16|"
        "reference_based:yes|direction:higher"
    )
    scores = score_test_set(sample(), ["bleu"], Options(), external=[metric])
    assert (
        "|neural:external|neural-model:Unbabel/XCOMET-XL|neural-package:unbabel-comet|"
        "neural-version:2.2.6|neural-precision:fp16|neural-reference_based:yes|"
    ) in scores.signature


def test_a_direction_against_the_tools_is_refused() -> None:
    with pytest.raises(InputError) as caught:
        read((FIXTURES / "comet.json").read_bytes(), "comet.json", higher_is_better=False)
    assert caught.value.problem == (
        "lower scores of metric 'neural' were said to be better, but this file's tool gives "
        "scores where higher is better"
    )
    assert caught.value.origin == "comet.json"


SMALL, LARGE = "sample_data/sys/neural-small.en", "sample_data/sys/neural-large.en"


@pytest.mark.parametrize(
    ("edit", "problem"),
    [
        (lambda d: d[SMALL].pop(), f"{SMALL!r} has 39 scores, but the test set has 40 segments"),
        (
            lambda d: d[SMALL][4].update(COMET="0.5"),
            f"entry 5 of {SMALL!r}: its COMET score is '0.5', not a finite number",
        ),
        (lambda d: d[SMALL][2].pop("COMET"), f"entry 3 of {SMALL!r} has no COMET score"),
        (
            lambda d: d[SMALL][2].update(mt="something else"),
            f"entry 3 of {SMALL!r}: the translation scored is not segment 3 of system "
            "'neural-small'",
        ),
        (
            lambda d: d[LARGE][0]["errors"][0].update(end=10_000),
            f"entry 1 of {LARGE!r}: error 1 spans 0 to 10000, which is not within its translation",
        ),
    ],
)
def test_a_malformed_comet_json_is_refused_with_its_entry(edit, problem: str) -> None:
    data = comet_json()
    edit(data)
    with pytest.raises(InputError) as caught:
        read(json.dumps(data, indent=4).encode(), "comet.json")
    assert caught.value.problem.startswith(problem)
    assert caught.value.origin == "comet.json"


def test_broken_comet_json_is_refused_with_its_line() -> None:
    text = (FIXTURES / "comet.json").read_text(encoding="utf-8")
    lines = text.splitlines()
    lines[5] = lines[5].replace('",', '"')  # a missing comma after a value
    with pytest.raises(InputError) as caught:
        read("\n".join(lines).encode(), "comet.json")
    assert caught.value.problem.startswith("this is not valid JSON: Expecting ','")
    assert caught.value.line == 7


def test_a_translation_file_the_test_set_lacks_is_set_aside_with_a_note() -> None:
    data = comet_json()
    data["sample_data/sys/online-b.en"] = data["sample_data/sys/neural-large.en"]
    metric = read(json.dumps(data, indent=4).encode(), "comet.json")
    assert metric.systems == SYSTEMS
    assert any("online-b" in note and "set aside" in note for note in metric.notes)


# ---------------------------------------------------------------------- MetricX predictions
def test_metricx_files_one_per_system_make_one_metric() -> None:
    metric = read_metric_files(
        many("{}.metricx.jsonl"), sample(), name="metricx", higher_is_better=None
    )
    assert not metric.higher_is_better  # MetricX's errors: lower is better
    for system in SYSTEMS:
        rows = (FIXTURES / f"{system}.metricx.jsonl").read_text().splitlines()
        expected = [json.loads(row)["prediction"] for row in rows]
        np.testing.assert_array_equal(metric.statistics_of(system)[:, 0], expected)
    assert metric.signature == MetricSignature(
        package="metricx", reference_based=None, direction="lower", scale="0-25"
    )


def test_metricx_names_its_system_by_a_field_or_by_its_hypotheses() -> None:
    only = replace(sample(), human=None)
    only = only.with_systems([c for c in only.systems if c.name == "neural-small"])
    rows = (FIXTURES / "neural-small.metricx.jsonl").read_text().splitlines()
    expected = [json.loads(row)["prediction"] for row in rows]
    with_field = [json.dumps({**json.loads(row), "system_id": "neural-small"}) for row in rows]
    for lines in (rows, with_field):  # predictions.jsonl names no system: its hypotheses do
        metric = read_metric_scores(
            "\n".join(lines).encode(), "predictions.jsonl", only, name="mx", higher_is_better=None
        )
        np.testing.assert_array_equal(metric.statistics_of("neural-small")[:, 0], expected)
    other = [json.dumps({**json.loads(row), "hypothesis": "x"}) for row in rows]
    with pytest.raises(InputError) as caught:
        read_metric_scores(
            "\n".join(other).encode(), "predictions.jsonl", only, name="mx", higher_is_better=None
        )
    assert caught.value.problem.startswith("the file does not say which system it scores")


def test_a_second_file_for_the_same_segments_is_refused() -> None:
    read_twice = [*many("{}.metricx.jsonl"), many("{}.metricx.jsonl")[0]]
    with pytest.raises(InputError) as caught:
        read_metric_files(read_twice, sample(), name="metricx", higher_is_better=None)
    assert caught.value.problem == (
        "segment 1 of 'neural-large' is scored here and in " + many("{}.metricx.jsonl")[0][1]
    )


def test_a_metricx_line_that_is_not_json_is_refused_with_its_line() -> None:
    rows = (FIXTURES / "neural-small.metricx.jsonl").read_text().splitlines()
    rows[11] = rows[11][:-1]
    with pytest.raises(InputError) as caught:
        read("\n".join(rows).encode(), "neural-small.metricx.jsonl")
    assert caught.value.line == 12
    assert caught.value.problem.startswith("this line is not valid JSON")


# ---------------------------------------------------------------------- one score per line
def test_pymarian_files_are_each_systems_scores_and_need_a_direction() -> None:
    with pytest.raises(InputError, match="direction of metric 'neural' was not given"):
        read_metric_files(many("{}.pymarian.txt"), sample(), name="neural", higher_is_better=None)
    metric = read_metric_files(
        many("{}.pymarian.txt"), sample(), name="neural", higher_is_better=True
    )
    for system in SYSTEMS:
        expected = [float(line) for line in (FIXTURES / f"{system}.pymarian.txt").open()]
        np.testing.assert_array_equal(metric.statistics_of(system)[:, 0], expected)


def test_pymarian_append_drops_the_mean_and_a_wrong_mean_is_refused() -> None:
    data = (FIXTURES / "neural-large.pymarian-append.txt").read_bytes()
    single = [(data, "neural-large.pymarian-append.txt"), *many("{}.pymarian.txt")[1:]]
    metric = read_metric_files(single, sample(), name="neural", higher_is_better=True)
    assert metric.statistics_of("neural-large").shape == (40, 2)
    assert any("last line is the mean" in note for note in metric.notes)
    lines = data.decode().splitlines()
    lines[-1] = "0.1234"
    with pytest.raises(InputError) as caught:
        read_metric_files(
            [("\n".join(lines).encode(), "neural-large.txt")],
            sample(),
            name="neural",
            higher_is_better=True,
        )
    assert caught.value.line == 41
    assert "is not their mean" in caught.value.problem


def test_gemba_nan_leaves_a_segment_unscored() -> None:
    gemba = [((FIXTURES / "phrase-based.gemba.txt").read_bytes(), "phrase-based.gemba.txt")]
    others = [pair for pair in many("{}.pymarian.txt") if "phrase-based" not in pair[1]]
    metric = read_metric_files([*gemba, *others], sample(), name="gemba", higher_is_better=True)
    stats = metric.statistics_of("phrase-based")
    assert stats[6].tolist() == [0.0, 0.0]  # its nan
    assert stats[:, 1].sum() == 39
    assert any("None or nan" in note for note in metric.notes)
    as_none = gemba[0][0].replace(b"nan", b"None")  # gemba's column of objects prints None
    again = read_metric_files(
        [(as_none, gemba[0][1]), *others], sample(), name="gemba", higher_is_better=True
    )
    np.testing.assert_array_equal(again.statistics_of("phrase-based"), stats)


# ---------------------------------------------------------------------- signatures
def test_files_of_one_metric_produced_otherwise_are_warned_about(tmp_path: Path) -> None:
    data = comet_json()
    halves = []
    for index, (key, entries) in enumerate(data.items()):
        name = f"run-{'2.2.4' if index < 2 else '2.2.6'}-{index}.json"
        halves.append((json.dumps({key: entries}, indent=4).encode(), name))
    metric = read_metric_files(halves, sample(), name="comet", higher_is_better=True)
    assert not [note for note in metric.notes if note.startswith("warning")]  # nothing said
    kiwi = json.loads(halves[3][0])
    for entry in next(iter(kiwi.values())):
        del entry["ref"]
    halves[3] = (json.dumps(kiwi, indent=4).encode(), "kiwi.json")
    metric = read_metric_files(halves, sample(), name="comet", higher_is_better=True)
    assert (
        "warning: the files of metric comet were not produced alike, so their scores may not "
        "be comparable: run-2.2.4-0.json vs kiwi.json: reference_based yes vs no"
    ) in metric.notes


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("model=a b", "model='a b' cannot be part of a signature"),
        ("colour=red", "'colour=red' is not a signature field"),
        ("reference_based=maybe", "reference_based='maybe': say yes or no"),
        ("version=1,version=2", "version is given twice"),
        ("model=x|y", "model='x|y' cannot be part of a signature"),
    ],
)
def test_bad_signature_fields_are_refused(text: str, problem: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_signature_fields(text, "--metric-signature comet")
    assert caught.value.problem == problem


def test_comet_json_on_one_line_is_read_and_other_json_lines_are_refused() -> None:
    compact = json.dumps(comet_json())  # as json.dumps without indent writes it
    metric = read(compact.encode(), "comet.json")
    indented = read((FIXTURES / "comet.json").read_bytes(), "comet.json")
    for system in SYSTEMS:
        assert metric.system_score(system) == indented.system_score(system)
    with pytest.raises(InputError) as caught:
        read(b'{"system": "a", "score": 1}\n{"system": "b", "score": 2}\n', "scores.jsonl")
    assert caught.value.problem.startswith("this line has no prediction")
    assert caught.value.line == 1


def test_pymarian_average_only_is_the_system_score() -> None:
    means = []
    for system in SYSTEMS:
        values = [float(v) for v in (FIXTURES / f"{system}.pymarian.txt").read_text().split()]
        means.append((f"{np.mean(values):.4f}\n".encode(), f"{system}.pymarian-only.txt"))
    metric = read_metric_files(means, sample(), name="neural", higher_is_better=True)
    assert not metric.segment_level
    assert [metric.system_score(s) for s in SYSTEMS] == [float(data) for data, _ in means]


def test_an_upload_of_more_files_than_systems_is_refused_before_reading() -> None:
    from mteval_core.io.uploads import read_uploaded_metric
    from mteval_core.settings.limits import MAX_METRIC_FILES

    uploads = [(f"s{n}.txt", b"0.5\n") for n in range(MAX_METRIC_FILES + 1)]
    with pytest.raises(InputError) as caught:
        read_uploaded_metric(uploads, "m", "higher", sample(), {})
    assert caught.value.problem == (
        f"{MAX_METRIC_FILES + 1:,} files were given for one metric; the dashboard takes up to "
        f"MAX_METRIC_FILES ({MAX_METRIC_FILES:,}), one per system at most"
    )


def test_a_metricx_file_of_one_segment_is_metricx_not_comet() -> None:
    line = (FIXTURES / "neural-small.metricx.jsonl").read_text().splitlines()[0]
    row = json.loads(line)
    one = make_test_set([row["reference"]], {"neural-small": [row["hypothesis"]]})
    metric = read_metric_scores(line.encode(), "x.jsonl", one, name="mx", higher_is_better=None)
    assert not metric.higher_is_better
    assert metric.statistics_of("neural-small")[:, 0].tolist() == [row["prediction"]]


def test_an_empty_line_among_score_lines_is_refused_with_its_line() -> None:
    lines = (FIXTURES / "neural-large.pymarian.txt").read_text().splitlines()
    gapped = [*lines[:5], "", "", *lines[5:38]]  # 40 lines, two of them empty
    with pytest.raises(InputError) as caught:
        read_metric_files(
            [("\n".join(gapped).encode(), "neural-large.txt")],
            sample(),
            name="neural",
            higher_is_better=True,
        )
    assert (caught.value.line, caught.value.problem) == (
        6,
        "the line is empty, and the n-th line scores the n-th segment",
    )


def test_metricx_refusals_name_the_files_own_line_past_empty_lines() -> None:
    rows = (FIXTURES / "neural-small.metricx.jsonl").read_text().splitlines()
    rows[20] = rows[20].replace('"prediction"', '"score"')
    with pytest.raises(InputError) as caught:
        read("\n\n".join(rows).encode(), "neural-small.metricx.jsonl")  # a blank line between
    assert caught.value.line == 41


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ('{"prediction": 1' + "0" * 5000 + "}", "a number on this line has too many digits"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
    ],
)
def test_a_metricx_line_beyond_pythons_json_limits_is_refused_with_its_line(line, problem):
    """Python's own limits were a traceback (ValueError, RecursionError) for MetricX's lines;
    they are the one JSON Lines parser's refusals (io.jsonl.parse_json_line) now."""
    good = json.dumps({"system_id": sample().system_names[0], "prediction": 1.0})
    with pytest.raises(InputError, match=problem) as refused:
        read(f"{good}\n{line}\n".encode(), "mx.jsonl", higher_is_better=False)
    assert refused.value.line == 2
