"""`mteval report` on the sample test set: one self-contained HTML page (no script, nothing
loaded from elsewhere) with the scores, clusters, correlations, the comparison of the two best
systems and the signatures; user names escaped; a bad --pair is one line."""

from __future__ import annotations

import re

from mteval_core.cli import main
from mteval_core.metrics.scoring import score_test_set
from mteval_core.report.evaluation_report import top_two
from mteval_core.settings.options import Options
from tests.helpers import SAMPLE_DATA, load_sample, shared_dataset

REFS = [str(SAMPLE_DATA / "ref" / "ref-A.en"), str(SAMPLE_DATA / "ref" / "ref-B.en")]
SYSTEMS = sorted(str(p) for p in (SAMPLE_DATA / "sys").iterdir())
HUMAN = str(SAMPLE_DATA / "human" / "judgments.tsv")
QUICK = ["--paired-ar", "400", "--bootstrap", "50"]


def run(capsys, *args: str) -> tuple[int, str, str]:
    status = main(["report", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_report_holds_every_section_and_compares_the_two_best(capsys):
    status, out, _ = run(capsys, "--refs", *REFS, "--hyps", *SYSTEMS, "--human", HUMAN, *QUICK)
    assert status == 0
    assert out.startswith("<!DOCTYPE html>") and out.rstrip().endswith("</html>")
    for heading in ("Scores", "Significance clusters", "Correlation with human scores"):
        assert f"<h2>{heading}</h2>" in out
    sample = load_sample().test_set
    best, second = top_two(score_test_set(sample, ["bleu", "nist"], Options()))
    assert f"<h2>Comparison of {best} and {second}</h2>" in out
    assert "Paired approximate randomization (400 trials, seed 12345" in out
    # the comparison reads the text as the scores did (13a) and scores their BLEU
    assert "|case:mixed|tok:13a|stem:none|freq:ref|" in out
    assert "|bleu:sacrebleu|smooth:exp|sentbleu:sacrebleu|resamples:50|seed:12345|" in out
    assert "tokenized with 13a as the scores read it, with sacreBLEU&#x27;s BLEU" in out
    # self-contained: nothing to run and nothing fetched from elsewhere
    assert "<script" not in out and not re.search(r"(src|href)=", out)


def test_report_escapes_system_names_and_takes_a_chosen_pair(capsys, tmp_path):
    hostile = '<script>alert("x")</script>'  # NAME=PATH: a name without "="
    status, out, _ = run(
        capsys,
        "--refs",
        REFS[0],
        "--hyps",
        f"{hostile}={SYSTEMS[0]}",
        f"plain={SYSTEMS[1]}",
        "--pair",
        "plain",
        hostile,
        *QUICK,
    )
    assert status == 0
    assert hostile not in out and "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in out
    assert "<h2>Comparison of plain and &lt;script&gt;" in out
    assert "Correlation with human" not in out  # no judgments given


def test_a_pair_the_test_set_lacks_is_one_line(capsys):
    status, _, err = run(capsys, "--refs", REFS[0], "--hyps", *SYSTEMS[:2], "--pair", "x", "y")
    assert status == 2
    assert err.startswith("mteval: error: --pair x y: give two different systems")
    assert len(err.strip().splitlines()) == 1


def test_report_takes_a_criterion_and_names_it_when_several_have_no_default(capsys, tmp_path):
    """Issue 42: `mteval report` said "choose a criterion" but had no --criterion. The sample's
    judgments with fluency renamed 'DA': two criteria, no adequacy+fluency default."""
    renamed = tmp_path / "judgments.tsv"
    text = (SAMPLE_DATA / "human" / "judgments.tsv").read_text(encoding="utf-8")
    renamed.write_text(text.replace("\tfluency\t", "\tDA\t"), encoding="utf-8")
    given = ["--refs", *REFS, "--hyps", *SYSTEMS, "--human", str(renamed), *QUICK]
    status, out, err = run(capsys, *given)
    assert status == 2 and out == ""
    assert err == (
        "mteval: error: the human judgments have several criteria (adequacy, DA). Choose one "
        "with --criterion NAME: adequacy, DA.\n"
    )
    status, out, _ = run(capsys, *given, "--criterion", "DA")
    assert status == 0 and "<p>System level, against human DA.</p>" in out
    status, out, _ = run(capsys, *given, "--criterion", "adequacy+DA")
    assert status == 0 and "<p>System level, against human adequacy+DA.</p>" in out
    status, _, err = run(capsys, *given, "--criterion", "fluency")
    assert status == 2
    assert "--criterion fluency: the human judgments have no criterion 'fluency'" in err
    status, _, err = run(capsys, "--refs", *REFS, "--hyps", *SYSTEMS, "--criterion", "DA")
    assert status == 2 and "--criterion needs --human" in err


def test_report_places_mqm_by_its_segment_ids(capsys):
    """--segment-ids, as `mteval score` reads it: WMT21 TED's MQM rows name the data set's
    seg_ids, which the map turns into lines."""
    folder = shared_dataset("wmt21-ted-mqm-ende")
    systems = sorted(str(path) for path in (folder / "sys").iterdir())[:3]
    human = folder / "human" / "original" / "mqm_ted_ende.tsv"
    given = ["--refs", str(folder / "ref" / "ref-A.de"), "--hyps", *systems, "--human", str(human)]
    status, out, err = run(
        capsys,
        *given,
        "--segment-ids",
        str(folder / "segment_ids.tsv"),
        "--metrics",
        "bleu",
        *QUICK,
    )
    assert status == 0, err
    assert "by seg_id" in err and "<p>System level, against human MQM.</p>" in out


def test_report_compares_as_compare_mt_reads_with_reading_compare_mt(capsys):
    status, out, _ = run(
        capsys, "--refs", REFS[0], "--hyps", *SYSTEMS, *QUICK, "--reading", "compare-mt"
    )
    assert status == 0
    assert "|tok:whitespace|case:mixed|" in out
    assert "|compare-mt:0.2.10|resamples:50|seed:12345|" in out
    assert "<h2>compare-mt BLEU by reference length</h2>" in out
