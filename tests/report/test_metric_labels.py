"""One label per metric: what people read on every page and in the dashboard's downloads, while
the command line's CSV and JSON keep the registry names, their contract with programs."""

from __future__ import annotations

import csv
import io
import json
from types import SimpleNamespace

from mteval_core.metrics.scoring import score_test_set
from mteval_core.report.frames import scores_frame
from mteval_core.report.writers import metric_labels, to_csv, to_json, to_latex, to_text
from mteval_core.settings.options import Options
from tests.helpers import make_test_set


def scores():
    test_set = make_test_set(["a b c d", "e f"], {"mt": ["a b c", "e f"], "other": ["a", "f"]})
    return score_test_set(test_set, ["bleu", "f1", "gtm"], Options())


def test_every_metric_gets_its_label():
    assert metric_labels(scores().metrics) == {"bleu": "BLEU", "f1": "F1", "gtm": "GTM"}


def test_a_shared_label_is_followed_by_each_metrics_name():
    """An uploaded metric named "P" beside unigram precision: two columns, two headers."""
    metrics = [
        SimpleNamespace(name="precision", label="P"),
        SimpleNamespace(name="P", label="P"),
        SimpleNamespace(name="bleu", label="BLEU"),
    ]
    assert metric_labels(metrics) == {"precision": "P (precision)", "P": "P (P)", "bleu": "BLEU"}


def test_the_dashboards_csv_is_headed_as_its_table():
    result = scores()
    ci = {system: {m: [0.1, 0.9] for m in result.metric_names} for system in result.systems}
    header = next(csv.reader(io.StringIO(to_csv(result, ci=ci, labelled=True))))
    bounds = ["BLEU low", "BLEU high", "F1 low", "F1 high", "GTM low", "GTM high"]
    assert header == ["system", "BLEU", "F1", "GTM", *bounds, "signature"]
    assert set(header[1:-1]) == set(scores_frame(result, ci).columns)  # every column, same name


def test_the_command_lines_csv_and_json_keep_the_names():
    result = scores()
    header = next(csv.reader(io.StringIO(to_csv(result))))
    assert header == ["system", "bleu", "f1", "gtm", "signature"]
    segments = next(csv.reader(io.StringIO(to_csv(result, segments=True, labelled=True))))
    assert segments == ["system", "segment", "BLEU", "F1", "GTM", "signature"]
    document = json.loads(to_json(result))
    assert "metric_labels" not in document
    assert set(document["scores"]["mt"]) == {"bleu", "f1", "gtm"}


def test_the_dashboards_json_keeps_the_names_as_keys_and_gives_the_labels():
    document = json.loads(to_json(scores(), labelled=True))
    assert set(document["scores"]["mt"]) == {"bleu", "f1", "gtm"}
    assert document["metric_labels"] == {"bleu": "BLEU", "f1": "F1", "gtm": "GTM"}


def test_text_and_latex_tables_are_headed_by_the_labels():
    result = scores()
    assert to_text(result).splitlines()[0].split() == ["system", "BLEU", "F1", "GTM"]
    assert "System & BLEU & F1 & GTM" in to_latex(result)
