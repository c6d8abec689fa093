"""chrF, chrF++ and TER against sacreBLEU 2.x (the oracle) and hand-checked values.

The statistics come from sacreBLEU's own per-segment code; what is ours (and tested here) is the
score of summed statistics over any leading axes, the option mapping, the reference cache shared
by every system and the reuse of a (segment, hypothesis) pair's statistics across systems.
"""

from __future__ import annotations

import numpy as np
import pytest
import sacrebleu
from sacrebleu.metrics import CHRF as SacreCHRF
from sacrebleu.metrics import TER as SacreTER

from mteval_core import __version__
from mteval_core.metrics import REGISTRY, get_metric
from mteval_core.metrics.chrf import chrf_from_totals
from mteval_core.metrics.scoring import metric_signatures, run_signature
from mteval_core.metrics.ter import ter_from_totals
from mteval_core.model.testset import TestSet, TextColumn
from mteval_core.settings.options import Options
from tests.helpers import make_test_set, read_lines, shared_dataset
from tests.oracle_pins import inputs_key, oracle_values


def sacrebleu_metric(name: str, options: Options | None = None):
    """The sacreBLEU object our metric must equal under ``options``: sacreBLEU's defaults
    (case-insensitive TER) unless ``ter_case_sensitive`` asks for case-sensitive TER."""
    options = options or Options()
    if name == "ter":
        return SacreTER(case_sensitive=options.ter.case_sensitive and not options.lowercase)
    return SacreCHRF(word_order=2 if name == "chrf++" else 0, lowercase=options.lowercase)


DEFAULT = Options()


def our_scores(test_set: TestSet, name: str, options: Options = DEFAULT):
    """Corpus and segment scores of every system, from the raw-text statistics."""
    metric = get_metric(name, options)
    result = {}
    for system in test_set.system_names:
        stats = metric.text_statistics(test_set, system)
        result[system] = (metric.corpus_score(stats), metric.segment_scores(stats))
    return result


def assert_equal_to_sacrebleu(
    test_set, name, options=DEFAULT, every=1, tolerance=1e-9, pin: str | None = None
):
    """Corpus scores of every system and every ``every``-th sentence score against sacreBLEU's
    public corpus_score and sentence_score; on a shared test set (``pin`` names it), sacreBLEU's
    values are pinned (tests/oracle_pins.py)."""
    oracle = sacrebleu_metric(name, options)
    references = [list(reference.segments) for reference in test_set.references]
    hypotheses = [list(test_set.system(system)) for system in test_set.system_names]
    n = len(references[0])
    picked = range(0, n, every)

    def corpus(indices):
        return [oracle.corpus_score(hypotheses[i], references).score for i in indices]

    def sentences(indices):
        entries = [divmod(i, len(picked)) for i in indices]
        return [
            oracle.sentence_score(
                hypotheses[s][picked[k]], [reference[picked[k]] for reference in references]
            ).score
            for s, k in entries
        ]

    if pin is None:
        expected_corpus = corpus(range(len(hypotheses)))
        expected_sentences = sentences(range(len(hypotheses) * len(picked)))
    else:
        texts = [text for column in (*references, *hypotheses) for text in column]
        described = f"{name} lowercase={options.lowercase} ter-case={options.ter.case_sensitive}"
        key = inputs_key(f"sacrebleu {sacrebleu.__version__} {described}", texts)
        # a live corpus score costs as much as the whole pin: its sentences are what is checked
        expected_corpus = oracle_values(f"{pin}-corpus", key, len(hypotheses), corpus, 0)
        count = len(hypotheses) * len(picked)
        expected_sentences = oracle_values(f"{pin}-sentences", key, count, sentences, 12)
    expected_sentences = np.reshape(expected_sentences, (len(hypotheses), len(picked)))
    ours = our_scores(test_set, name, options)
    for s, (system, (corpus_score, segments)) in enumerate(ours.items()):
        assert corpus_score == pytest.approx(expected_corpus[s], abs=tolerance), (name, system)
        for k, i in enumerate(picked):
            assert segments[i] == pytest.approx(expected_sentences[s, k], abs=tolerance), (
                name,
                system,
                i,
            )


EDGE_REFERENCES = [
    ["The cat sat on the mat.", "", "a b c", "Hello, world!", "(hi) there", "x"],
    ["A cat was sitting on the mat.", "nothing", "c b a", "hello world", "hi there", ""],
]
EDGE_SYSTEMS = {
    "good": ["The cat sat on the mat.", "", "a b c", "Hello world!", "(hi) there", "x"],
    "empty": ["", "", "", "", "", ""],
    "shifted": ["on the mat the cat sat .", "something", "c a b", "world, Hello!", "there hi", "y"],
    "cased": ["THE CAT SAT ON THE MAT.", "Nothing", "A B C", "HELLO, WORLD!", "(HI) THERE", "X"],
}


@pytest.mark.parametrize("name", ["chrf", "chrf++", "ter"])
@pytest.mark.parametrize("lowercase", [False, True], ids=["cased", "lowercased"])
@pytest.mark.parametrize("ter_case", [False, True], ids=["ter-lc", "ter-mixed"])
@pytest.mark.parametrize("n_references", [1, 2])
def test_edge_cases_equal_sacrebleu(name, lowercase, ter_case, n_references):
    """Empty hypotheses and references, punctuation chrF++ splits off, shifts, case."""
    test_set = make_test_set(EDGE_REFERENCES[:n_references], EDGE_SYSTEMS)
    options = Options.from_flags(lowercase=lowercase, ter_case_sensitive=ter_case)
    assert_equal_to_sacrebleu(test_set, name, options)


def test_ter_is_case_insensitive_by_default_as_sacrebleu():
    """sacreBLEU's TER lowercases unless told not to; ours too, and its signature says so."""
    test_set = make_test_set(["The Cat sat"], {"upper": ["THE CAT SAT"]})
    default = get_metric("ter", Options())
    cased = get_metric("ter", Options.from_flags(ter_case_sensitive=True))
    assert default.corpus_score(default.text_statistics(test_set, "upper")) == 0.0
    assert cased.corpus_score(cased.text_statistics(test_set, "upper")) == 100.0  # 3 of 3
    assert (default.case_label, cased.case_label) == ("lc", "mixed")
    lowercased = get_metric("ter", Options.from_flags(lowercase=True, ter_case_sensitive=True))
    assert lowercased.case_label == "lc"  # lowercased text has no case left to tell


def test_hand_checked_scores():
    # chrF of "ab" against "ac": characters 1/2 match, bigrams 0/1; both orders have n-grams on
    # both sides, so P = R = (1/2 + 0) / 2 = 1/4 and F2 = 5 PR / (4P + R) = 1/4.
    stats = get_metric("chrf", Options()).text_statistics(make_test_set(["ac"], {"s": ["ab"]}), "s")
    assert stats[0, :6].tolist() == [2, 2, 1, 1, 1, 0]  # (hyp, ref, match) for n = 1, 2
    assert chrf_from_totals(stats[0]) == pytest.approx(25.0, abs=1e-12)
    # TER: one deletion against two reference words; one shift of "c" against three.
    assert ter_from_totals(np.array([1.0, 2.0])) == 50.0
    test_set = make_test_set(["a b c"], {"shift": ["c a b"]})
    stats = get_metric("ter", Options()).text_statistics(test_set, "shift")
    assert stats.tolist() == [[1.0, 3.0]]
    # empty references: 100 with edits, 0 without (sacreBLEU 2.3.2 and later)
    assert ter_from_totals(np.array([[2.0, 0.0], [0.0, 0.0]])).tolist() == [100.0, 0.0]


@pytest.mark.parametrize("name", ["chrf", "chrf++", "ter"])
def test_scores_of_summed_statistics_over_leading_axes(name):
    """What the bootstrap does: score_from_totals of a (resamples, stats) array equals the
    corpus score of the resampled segments, row by row."""
    test_set = make_test_set(EDGE_REFERENCES[0], {"s": EDGE_SYSTEMS["shifted"]})
    metric = get_metric(name, Options())
    stats = metric.text_statistics(test_set, "s")
    counts = np.random.default_rng(3).multinomial(6, np.full(6, 1 / 6), size=4)
    expected = [metric.corpus_score(np.repeat(stats, row, axis=0)) for row in counts]
    np.testing.assert_allclose(metric.score_from_totals(counts @ stats), expected, atol=1e-12)
    assert metric.score_from_totals(stats[None, None]).shape == (1, 1, 6)


def test_metric_attributes_and_signatures():
    assert {"chrf", "chrf++", "ter"} <= set(REGISTRY)
    chrf, chrf_pp, ter = (get_metric(n, Options()) for n in ("chrf", "chrf++", "ter"))
    assert chrf.higher_is_better and chrf_pp.higher_is_better and not ter.higher_is_better
    signature = run_signature(Options(), [chrf, chrf_pp, ter], 1)
    assert "|nc:6|nw:0|space:no|" in run_signature(Options(), [chrf], 1)
    assert "|nc:6|nw:2|space:no|" in run_signature(Options(), [chrf_pp], 1)
    assert "|ter-tok:tercom|norm:no|punct:yes|asian:no|" in signature
    assert signature.startswith("nrefs:1|case:mixed|") and "|ter-case:lc|" in signature
    cased = Options.from_flags(ter_case_sensitive=True)
    assert "ter-case" not in run_signature(cased, [chrf, get_metric("ter", cased)], 1)
    own = metric_signatures(Options(), [chrf, ter, get_metric("bleu", Options())], 1)
    # chrF and TER read the raw text: as sacreBLEU's, their signatures name no tokenizer
    assert own["ter"].startswith("nrefs:1|case:lc|ter-tok:tercom|")
    assert own["bleu"].startswith("nrefs:1|case:mixed|tok:13a|") and "ter" not in own["bleu"]
    assert own["chrf"] == f"nrefs:1|case:mixed|nc:6|nw:0|space:no|version:{__version__}"
    mteval_tok = metric_signatures(Options(tokenize="zh", stem="porter"), [chrf, ter], 1)
    assert "tok:" not in mteval_tok["chrf"] and "stem:" not in mteval_tok["ter"]
    assert len(chrf.stat_names) == 18 and len(chrf_pp.stat_names) == 24
    assert ter.stat_names == ("edits", "reference_length")


def test_systems_with_the_same_output_share_statistics():
    test_set = make_test_set(
        EDGE_REFERENCES[0], {"a": EDGE_SYSTEMS["good"], "b": EDGE_SYSTEMS["good"]}
    )
    metric = get_metric("ter", Options())
    np.testing.assert_array_equal(
        metric.text_statistics(test_set, "a"), metric.text_statistics(test_set, "b")
    )


def test_scored_through_score_test_set():
    """The registry path: needs EncodedCorpus to keep its test set (``corpus.test_set``)."""
    from mteval_core.metrics.scoring import score_test_set

    test_set = make_test_set(EDGE_REFERENCES, EDGE_SYSTEMS)
    scores = score_test_set(test_set, ["chrf", "chrf++", "ter"], Options())
    for name in ("chrf", "chrf++", "ter"):
        expected = our_scores(test_set, name)
        for system, (corpus, segments) in expected.items():
            assert scores.corpus()[system][name] == corpus
            np.testing.assert_array_equal(scores.segment_scores(system, name), segments)


# ---------------------------------------------------------------------- shared test sets
def folder_test_set(
    name: str, references: list[str], systems: int | None = None, segments: int | None = None
) -> TestSet:
    """A shared test set folder's references and (the first) systems, (first) segments only."""
    folder = shared_dataset(name)

    def column(path) -> TextColumn:
        return TextColumn(path.stem, tuple(read_lines(path)[:segments]), str(path))

    return TestSet(
        references=[column(folder / "ref" / reference) for reference in references],
        systems=[column(path) for path in sorted((folder / "sys").iterdir())[:systems]],
    )


SHARED_SETS = {
    "wmt21-ende-3refs": ("wmt21-newstest2021-ende", ["ref-A.de", "ref-C.de", "ref-D.de"]),
    "wmt21-zhen": ("wmt21-newstest2021-zhen", ["ref-A.en"]),
    "ted-ende": ("wmt21-ted-mqm-ende", ["ref-A.de"]),
    "ted-zhen": ("wmt21-ted-mqm-zhen", ["ref-B.en"]),
    "compare-mt-sken": ("compare-mt-ted-sk-en", ["ref.detok.en"]),
}


def test_wmt17_every_system_equals_sacrebleu(wmt17):
    """chrF on all 16 systems x 3,004 segments: every corpus score, every 50th sentence score;
    chrF++ on four systems. (A full run of every system, segment and test set for the three
    metrics is in the report of issue #11; it takes an hour, mostly sacreBLEU's TER.)"""
    assert len(wmt17.systems) == 16
    assert_equal_to_sacrebleu(wmt17, "chrf", every=50, pin="chrf-wmt17")
    four = wmt17.with_systems(wmt17.systems[:4])
    assert_equal_to_sacrebleu(four, "chrf++", every=50, pin="chrf++-wmt17")


@pytest.mark.parametrize("test_set", SHARED_SETS, ids=list(SHARED_SETS))
def test_shared_sets_chrf_equal_sacrebleu(test_set):
    folder, references = SHARED_SETS[test_set]
    loaded = folder_test_set(folder, references, systems=4)
    for name in ("chrf", "chrf++"):
        assert_equal_to_sacrebleu(loaded, name, every=10, pin=f"{name}-{test_set}")


@pytest.mark.parametrize(
    ("test_set", "systems", "segments"),
    [("wmt21-ende-3refs", 2, 150), ("ted-ende", 3, 200), ("ted-zhen", 3, 200)],
)
def test_shared_sets_ter_equals_sacrebleu(test_set, systems, segments):
    """TER's shift search is slow in Python (sacreBLEU's, and so ours): the first segments of
    a few systems, (sacreBLEU's default) case-insensitive and case-sensitive."""
    folder, references = SHARED_SETS[test_set]
    loaded = folder_test_set(folder, references, systems=systems, segments=segments)
    assert_equal_to_sacrebleu(loaded, "ter", every=3, pin=f"ter-{test_set}")
    cased = Options.from_flags(ter_case_sensitive=True)
    assert_equal_to_sacrebleu(loaded, "ter", cased, every=5, pin=f"ter-cased-{test_set}")


@pytest.mark.parametrize("name", ["chrf", "chrf++", "ter"])
@pytest.mark.parametrize("block", [1, 4])
def test_references_in_blocks_give_the_same_statistics(name, block, monkeypatch):
    """The references are preprocessed a block of segments at a time (REFERENCE_BLOCK, so that
    chrF's n-gram counters do not fill memory): blocks of 1 and 4 segments (6 segments, the last
    block short) give every system's statistics of one block to the bit, and sacreBLEU's scores."""
    from mteval_core.metrics import sacrebleu_segments

    test_set = make_test_set(EDGE_REFERENCES, EDGE_SYSTEMS)
    whole = {s: get_metric(name, DEFAULT).text_statistics(test_set, s) for s in EDGE_SYSTEMS}
    monkeypatch.setattr(sacrebleu_segments, "REFERENCE_BLOCK", block)
    metric = get_metric(name, DEFAULT)
    for system, expected in whole.items():
        np.testing.assert_array_equal(metric.text_statistics(test_set, system), expected)
    assert_equal_to_sacrebleu(test_set, name)


def test_a_system_of_the_wrong_length_is_refused():
    test_set = make_test_set(EDGE_REFERENCES[0], {"s": EDGE_SYSTEMS["good"]})
    short = {"s": EDGE_SYSTEMS["good"][:-1]}
    from mteval_core.metrics.sacrebleu_segments import segment_statistics

    with pytest.raises(ValueError, match="s: 5 hypotheses for 6 segments"):
        segment_statistics(SacreCHRF(), [list(test_set.references[0].segments)], short)
