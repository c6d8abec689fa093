"""MQM as a loss: Google's weights reproduce the stored per-segment scores of both TED sets."""

from __future__ import annotations

import numpy as np
import pytest

from mteval_core.errors import InputError
from mteval_core.io.mqm_tsv import read_mqm
from mteval_core.loss.mqm_loss import (
    GOOGLE_WEIGHTS,
    errors_per_segment,
    mqm_segment_scores,
    segment_error_points,
    starting_weights,
    system_error_points,
    weight_box,
    weight_plane_losses,
)
from mteval_core.loss.reversal import ranking_regions
from tests.helpers import shared_dataset

# The annotations call the human translations "ref" and "refB"; the stored scores "ref-A", "ref-B".
STORED_NAMES = {"ref-A": "ref", "ref-B": "refB"}
HEADER = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"


def stored_scores(path) -> dict[tuple[str, str], float]:
    """Google's avg_seg_scores.tsv (space or tab separated); 'None' marks an unrated segment."""
    scores = {}
    for line in path.read_text(encoding="utf-8").splitlines()[1:]:
        system, score, segment = line.split()
        if score != "None":
            scores[(STORED_NAMES.get(system, system), segment)] = float(score)
    return scores


@pytest.mark.parametrize("pair", ["ende", "zhen"])
def test_google_weights_reproduce_the_stored_segment_scores(pair):
    folder = shared_dataset(f"wmt21-ted-mqm-{pair}") / "human" / "original"
    annotations_path = folder / f"mqm_ted_{pair}.tsv"
    annotations = read_mqm(annotations_path.read_bytes(), str(annotations_path))
    points = segment_error_points(annotations)
    stored = stored_scores(folder / f"mqm_ted_{pair}.avg_seg_scores.tsv")
    assert set(points) == set(stored)
    assert len(stored) == {"ende": 7406, "zhen": 7935}[pair]
    assert max(abs(-points[key] - stored[key]) for key in stored) < 5e-7  # stored to 6 decimals


def test_ted_ende_rankings_and_weight_map():
    folder = shared_dataset("wmt21-ted-mqm-ende") / "human" / "original"
    annotations = read_mqm((folder / "mqm_ted_ende.tsv").read_bytes(), "mqm_ted_ende.tsv")
    per_system = system_error_points(annotations)
    assert min(per_system, key=per_system.__getitem__) == "ref"  # the human translation is best
    losses = weight_plane_losses(annotations, GOOGLE_WEIGHTS, "Major", "Minor")
    assert losses.at((5.0, 1.0)) == pytest.approx([per_system[s] for s in losses.systems])
    regions = ranking_regions(losses, weight_box(10.0, 3.0))
    assert sum(region.area for region in regions) == pytest.approx(30.0, abs=1e-9)


def test_counts_per_rater_are_averaged_and_most_specific_weight_applies():
    text = HEADER + (
        "A\td\t1\t1\tr1\ts\tt\tFluency/Punctuation\tMinor\n"
        "A\td\t1\t1\tr1\ts\tt\tAccuracy/Mistranslation\tMajor\n"
        "A\td\t1\t1\tr2\ts\tt\tNo-error\tNo-error\n"
        "A\td\t2\t2\tr1\ts\tt\tNon-translation!\tMajor\n"
        "B\td\t1\t1\tr1\ts\tt\tStyle/Awkward\tMinor\n"
        "B\td\t2\t2\tr1\ts\tt\tOther\tNeutral\n"
    )
    annotations = read_mqm(text.encode(), "mqm.tsv")
    assert segment_error_points(annotations) == {
        ("A", "1"): pytest.approx((0.1 + 5) / 2),
        ("A", "2"): 25.0,
        ("B", "1"): 1.0,
        ("B", "2"): 0.0,
    }
    heavier_minor = {**GOOGLE_WEIGHTS, "Minor": 3.0}
    assert system_error_points(annotations, heavier_minor)["B"] == pytest.approx(1.5)
    plane = weight_plane_losses(annotations, GOOGLE_WEIGHTS, "Major", "Minor")
    # A: Major counts 0.5 per segment on average over raters and segments; the 25 stays fixed.
    assert plane.coefficients[0] == pytest.approx([(0.05 + 25) / 2, 0.25, 0.0])
    assert np.allclose(plane.at((5, 1)), [(2.55 + 25) / 2, 0.5])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("system\tseg_id\trater\tcategory\nA\t1\tr1\tOther\n", "no column 'severity'"),
        (HEADER, "there are no ratings"),
        (
            HEADER + "A\td\t1\t1\tr1\ts\tt\tOther\tSevere\n",
            "line 2, column severity: unknown severity 'Severe'",
        ),
        (
            HEADER + "A\td\t1\t\tr1\ts\tt\tOther\tMajor\n",
            "line 2, column seg_id: the seg_id is empty",
        ),
    ],
)
def test_bad_mqm_files(text, expected):
    with pytest.raises(InputError, match=expected):
        read_mqm(text.encode(), "mqm.tsv")


def test_an_error_without_a_weight_is_an_error():
    annotations = read_mqm((HEADER + "A\td\t1\t1\tr1\ts\tt\tOther\tCritical\n").encode(), "m.tsv")
    with pytest.raises(InputError, match="no weight applies to Critical errors"):
        segment_error_points(annotations)
    assert segment_error_points(annotations, {**GOOGLE_WEIGHTS, "Critical": 10}) == {("A", "1"): 10}


SMALL = HEADER + (
    "A\td\t1\t1\tr1\ts\tt\tFluency/Punctuation\tMinor\n"
    "A\td\t1\t1\tr1\ts\tt\tAccuracy/Mistranslation\tMajor\n"
    "A\td\t1\t1\tr2\ts\tt\tNo-error\tNo-error\n"
    "A\td\t2\t2\tr1\ts\tt\tNon-translation!\tMajor\n"
    "B\td\t1\t1\tr1\ts\tt\tStyle/Awkward\tMinor\n"
    "B\td\t2\t2\tr1\ts\tt\tAccuracy/Omission\tCritical\n"
    "C\td\t1\t1\tr1\ts\tt\tOther\tNeutral\n"
    "C\td\t2\t2\tr1\ts\tt\tStyle/Awkward\tMinor\n"
)


def test_starting_weights_add_critical_only_when_it_occurs():
    """At 0, the weight mt-metrics-eval gives it: the Loss page's first ranking is the MQM
    judgments' (issue 42: Critical weighed 0 in the judgments but 25 on the Loss page)."""
    annotations = read_mqm(SMALL.encode(), "m.tsv")
    assert starting_weights(annotations) == {**GOOGLE_WEIGHTS, "Critical": 0.0}
    points = system_error_points(annotations, starting_weights(annotations))
    scores = mqm_segment_scores(annotations)
    for system in "ABC":
        judged = [-score for (name, _segment), score in scores.items() if name == system]
        assert points[system] == pytest.approx(sum(judged) / len(judged))
    without = read_mqm((HEADER + "A\td\t1\t1\tr1\ts\tt\tOther\tMajor\n").encode(), "m.tsv")
    assert starting_weights(without) == GOOGLE_WEIGHTS


@pytest.mark.parametrize(
    "changes", [{}, {"Minor": 3.0}, {"Critical": 7.0, "Major": 2.0, "Neutral": 0.5}]
)
def test_errors_per_segment_give_the_same_points_as_rescoring(changes):
    annotations = read_mqm(SMALL.encode(), "m.tsv")
    weights = {**starting_weights(annotations), **changes}
    errors = errors_per_segment(annotations, starting_weights(annotations))
    assert errors.points(weights) == pytest.approx(system_error_points(annotations, weights))


def test_errors_per_segment_by_hand():
    errors = errors_per_segment(
        read_mqm(SMALL.encode(), "m.tsv"), {**GOOGLE_WEIGHTS, "Critical": 1}
    )
    per_key = dict(zip(errors.keys, errors.counts[errors.systems.index("A")]))
    # A, segment 1: rater r1 marked a Major and a Minor punctuation error, r2 none: half each;
    # segment 2: one non-translation. Averaged over the two segments:
    assert per_key == pytest.approx(
        {
            "Major": 0.25,
            "Minor": 0.0,
            "Neutral": 0.0,
            "Major/Non-translation!": 0.5,
            "Minor/Fluency/Punctuation": 0.25,
            "Critical": 0.0,
        }
    )
    assert errors.points({**GOOGLE_WEIGHTS, "Critical": 25.0}) == pytest.approx(
        {"A": 0.25 * 5 + 0.5 * 25 + 0.25 * 0.1, "B": (1 + 25) / 2, "C": 0.5}
    )


def test_a_plane_over_chosen_systems():
    annotations = read_mqm(SMALL.encode(), "m.tsv")
    weights = starting_weights(annotations)
    errors = errors_per_segment(annotations, weights)
    plane = errors.plane(weights, "Critical", "Minor", ["C", "B"])
    assert plane.systems == ("C", "B")
    assert plane.coefficients == pytest.approx(np.array([[0.0, 0.0, 0.5], [0.0, 0.5, 0.5]]))
    moved = {**weights, "Critical": 4.0, "Minor": 2.0}
    points = system_error_points(annotations, moved)
    assert plane.at((4.0, 2.0)) == pytest.approx([points["C"], points["B"]])
    with pytest.raises(InputError, match="two different weights"):
        errors.plane(weights, "Minor", "Minor")
    with pytest.raises(InputError, match="no weight 'Severe'"):
        errors.plane(weights, "Severe", "Minor")


def test_ted_ende_system_means_from_errors_per_segment():
    folder = shared_dataset("wmt21-ted-mqm-ende") / "human" / "original"
    annotations = read_mqm((folder / "mqm_ted_ende.tsv").read_bytes(), "mqm_ted_ende.tsv")
    errors = errors_per_segment(annotations, starting_weights(annotations))
    for weights in (GOOGLE_WEIGHTS, {**GOOGLE_WEIGHTS, "Major": 10.0, "Minor": 0.5}):
        expected = system_error_points(annotations, weights)
        assert errors.points(weights) == pytest.approx(expected, abs=1e-12)
    assert round(errors.points(GOOGLE_WEIGHTS)["ref"], 4) == 0.9115
