"""The Rankings page as a person uses it, through Streamlit's AppTest: the sample's own AutoRank,
WMT25's automatic scores uploaded as the organisers ship them (every pair listed, en-cs_CZ equal
to ``mteval rank --autorank wmt25``), WMT24's ESA waves (the human table with its clusters, equal
to ``mteval rank --protocol wmt24``), hostile system names, and bad uploads."""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import lzma
from pathlib import Path
from urllib.parse import parse_qs

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from mteval_core.cli import main
from mteval_core.rankings.autorank import autorank_wmt25
from mteval_core.report.figures.plotly_escape import escape_plotly
from mteval_core.stats.bootstrap import DEFAULT_SEED
from tests.app.test_hostile_pages import BOLD, IMAGE, SCRIPT, SCRIPT_LINK, hostile_test_set
from tests.helpers import shared_dataset
from tests.rankings import conftest as rankings_data

wmt24, wmt25 = rankings_data.wmt24, rankings_data.wmt25  # the shared data, unpacked

ROOT = Path(__file__).resolve().parents[2]
PAGE = "pages/6_Rankings.py"
SAMPLE = ROOT / "sample_data"
RESAMPLES = 200  # the slider's smallest choice above none: the comparisons stay quick


def opened(**state) -> AppTest:
    """The page opened from Home, as the sidebar opens it (so that its link to Compare works)."""
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
    for key, value in state.items():
        app.session_state[key] = value
    app.run()
    app.switch_page(PAGE).run()
    assert not app.exception, [e.message for e in app.exception]
    return app


def uploaded(app: AppTest, **files) -> AppTest:
    """Each uploader (by key: scores, metadata, waves, documents) given (name, bytes) files."""
    uploaders = {u.key.removeprefix("rankings_"): u for u in app.file_uploader}
    for key, given in files.items():
        value = [(name, data, "application/octet-stream") for name, data in given]
        uploaders[key].set_value(value if key != "metadata" else value[0])
    app.run()
    assert not app.exception, [e.message for e in app.exception]
    return app


def cli_json(*args: str) -> dict:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(["rank", *args, "--format", "json"])
    return json.loads(out.getvalue())


def table(app: AppTest):
    return app.dataframe[0].value


# ------------------------------------------------------------------------------ the sample
def test_the_sample_is_ranked_by_autorank_of_its_metrics_as_the_scores_command_scores_them():
    app = opened()
    frame = table(app)
    assert list(frame["system"]) == ["neural-large", "neural-small", "phrase-based", "word-by-word"]
    caption = next(c.value for c in app.caption if c.value.startswith("AutoRank of this session"))
    assert "1,000 bootstrap resamples" in caption
    # the AutoRank column is WMT25's recipe over the corpus scores `mteval score` prints
    metrics = [m for m in app.multiselect[0].value]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        main(
            [
                "score",
                "--refs",
                *map(str, sorted((SAMPLE / "ref").iterdir())),
                "--hyps",
                *map(str, sorted((SAMPLE / "sys").iterdir())),
                "--metrics",
                ",".join(metrics),
                "--format",
                "json",
            ]
        )
    corpus = json.loads(out.getvalue())
    systems = list(frame["system"])
    means = np.array([[corpus["scores"][s][m] for m in metrics] for s in systems])
    assert np.allclose(frame["AutoRank"], autorank_wmt25(means), rtol=0, atol=1e-12)
    assert frame["rank"][0] == "1"
    assert app.get("plotly_chart")


def test_a_lower_is_better_metric_enters_flipped():
    app = opened(metrics=("bleu", "ter"))
    frame = table(app)
    assert any("lower is better, entered with the sign flipped" in c.value for c in app.caption)
    # TER's best system (lowest TER) is AutoRank 1 when TER is the only metric
    app.multiselect[0].set_value(["ter"]).run()
    frame = table(app)
    ter = frame["metric TER"]
    assert frame["AutoRank"][ter.idxmin()] == 1.0


def test_two_systems_of_the_sample_link_to_compare_with_both_chosen():
    app = opened()
    app.selectbox(key="rankings_a").set_value("phrase-based").run()
    app.selectbox(key="rankings_b").set_value("word-by-word").run()
    link = next(p.proto for p in app.get("page_link") if "Compare" in p.proto.label)
    assert parse_qs(link.query_string) == {"a": ["phrase-based"], "b": ["word-by-word"]}
    assert "phrase-based: rank range" in app.markdown[-1].value


def test_systems_the_session_does_not_hold_get_no_compare_link(wmt24):
    waves = [(p.name, p.read_bytes()) for p in sorted((wmt24 / "waves").glob("*.csv"))]
    documents = [(p.name, p.read_bytes()) for p in sorted((wmt24 / "documents").glob("*.docs"))]
    app = uploaded(opened(), waves=waves, documents=documents)
    assert not [p for p in app.get("page_link") if "Compare" in p.proto.label]
    assert any("does not hold both systems" in c.value for c in app.caption)


# ------------------------------------------------------------------------------ WMT25 uploaded
@pytest.fixture(scope="module")
def wmt25_files() -> dict[str, list[tuple[str, bytes]]]:
    source = shared_dataset("wmt-rankings") / "wmt25-general-mt" / "data"
    meta = lzma.decompress((source / "systems_metadata_updated3.json.xz").read_bytes())
    tarball = (source / "automatic_scores.tar.xz").read_bytes()
    return {"scores": [("automatic_scores.tar.xz", tarball)], "metadata": [("meta.json", meta)]}


def test_wmt25_tarball_lists_every_pair_and_ranks_en_cs_as_the_command_does(wmt25_files, wmt25):
    app = uploaded(opened(), **wmt25_files)
    pairs = app.selectbox(key="rankings_pair").options
    assert len(pairs) == 31 and "en-cs_CZ" in pairs
    app.selectbox(key="rankings_pair").set_value("en-cs_CZ").run()
    app.select_slider(key="rankings_resamples").set_value(RESAMPLES).run()
    assert not app.exception
    frame = table(app)
    expected = cli_json(
        "--autorank",
        "wmt25",
        "--metric-scores",
        str(wmt25 / "data" / "automatic_scores"),
        "--systems-metadata",
        str(wmt25 / "meta.json"),
        "--lp",
        "en-cs_CZ",
        "--bootstrap",
        str(RESAMPLES),
        "--seed",
        str(DEFAULT_SEED),
        "--leave-one-out",
    )["language_pairs"]["en-cs_CZ"]["systems"]
    assert list(frame["system"]) == [s["system"] for s in expected]
    assert list(frame["AutoRank"]) == [s["autorank"] for s in expected]
    ranges = [str(a) if a == b else f"{a}-{b}" for a, b in (s["rank"] for s in expected)]
    assert list(frame["rank"]) == ranges
    assert list(frame["metric XCOMET-XL"]) == [s["extra"]["metrics"]["XCOMET-XL"] for s in expected]
    assert app.get("plotly_chart")


# ------------------------------------------------------------------------------ WMT24 uploaded
def test_wmt24_waves_give_the_human_table_with_its_clusters(wmt24):
    waves = [(p.name, p.read_bytes()) for p in sorted((wmt24 / "waves").glob("*.csv"))]
    documents = [(p.name, p.read_bytes()) for p in sorted((wmt24 / "documents").glob("*.docs"))]
    app = uploaded(opened(), waves=waves, documents=documents)
    assert app.selectbox(key="rankings_pair").options == ["en-cs", "en-hi", "en-ja", "en-zh"]
    app.selectbox(key="rankings_pair").set_value("en-ja").run()
    frame = table(app)
    expected = cli_json(
        "--protocol",
        "wmt24",
        "--human",
        *map(str, sorted((wmt24 / "waves").glob("*.csv"))),
        "--documents",
        *map(str, sorted((wmt24 / "documents").glob("*.docs"))),
        "--lp",
        "en-ja",
    )["language_pairs"]["en-ja"]["systems"]
    assert list(frame["system"]) == [s["system"] for s in expected]
    assert list(frame["cluster"]) == [s["cluster"] for s in expected]
    assert len(set(frame["cluster"])) > 1  # clusters, not one group
    assert list(frame["score"]) == [s["score"] for s in expected]
    domains = [c for c in frame.columns if c.startswith("domain ")]
    assert domains and all(
        list(frame[c]) == [s["extra"]["domains"][c.removeprefix("domain ")] for s in expected]
        for c in domains
    )
    # the figure draws a dashed line between clusters
    figure = json.loads(app.get("plotly_chart")[0].proto.spec)
    lines = [s for s in figure["layout"].get("shapes", []) if s.get("line", {}).get("dash")]
    assert len(lines) == len(set(frame["cluster"])) - 1
    # two systems' test: the p-value the JSON holds
    first, second = expected[0]["system"], expected[1]["system"]
    app.selectbox(key="rankings_a").set_value(first).run()
    app.selectbox(key="rankings_b").set_value(second).run()
    p_value = expected[0]["extra"]["p_values"][second]
    assert f"p = {p_value:.4g}" in app.markdown[-1].value
    for domain, p in expected[0]["extra"]["domain_p_values"][second].items():
        assert f"{domain} {p:.4g}" in app.markdown[-1].value


# ------------------------------------------------------------------------------ hostile names
def test_hostile_system_names_are_text_in_the_table_figure_and_test():
    test_set = hostile_test_set(more=(SCRIPT,))
    app = opened(test_set=test_set)
    names = set(table(app)["system"])
    assert names == set(test_set.system_names)  # as written in the table (plain text)
    spec = app.get("plotly_chart")[0].proto.spec
    assert "<img" not in spec and "<script" not in spec
    ticks = json.loads(spec)["layout"]["yaxis"]["ticktext"]
    assert escape_plotly(SCRIPT) in ticks  # drawn as the characters, not as a tag
    for text in (m.value for m in app.markdown):
        for raw in (IMAGE, SCRIPT_LINK, BOLD, SCRIPT):
            assert raw not in text


# ------------------------------------------------------------------------------ bad uploads
def test_a_broken_score_file_is_refused_with_its_name_and_line():
    good = json.dumps(
        {
            "language_pair": "en-de_DE",
            "domain": "news",
            "document_id": "d1",
            "metric_scores": {"chrF++": [50.0, 60.0]},
        }
    )
    app = uploaded(opened(), scores=[("A.jsonl", f"{good}\n{{not json\n".encode())])
    assert not app.exception
    message = app.error[0].value
    assert message.startswith("A.jsonl") and "line 2" in message
    assert app.expander and not app.get("plotly_chart")


def test_waves_without_documents_are_refused_with_what_to_upload(wmt24):
    waves = [(p.name, p.read_bytes()) for p in sorted((wmt24 / "waves").glob("*.csv"))][:1]
    app = uploaded(opened(), waves=waves)
    assert "needs both the ESA waves and the documents files" in app.error[0].value


def test_an_xz_file_that_is_no_archive_is_refused_as_what_it_is():
    app = uploaded(opened(), scores=[("scores.tar.xz", lzma.compress(b"plain text"))])
    assert "this xz file holds no tar archive" in app.error[0].value


def test_the_metadata_alone_says_what_else_to_upload(wmt25_files):
    app = uploaded(opened(), metadata=wmt25_files["metadata"])
    assert any("upload them too" in i.value for i in app.info)
    assert table(app)["system"][0] == "neural-large"  # the session's ranking meanwhile


# ------------------------------------------------------------------------------ every procedure
FIXTURES = ROOT / "tests" / "rankings" / "fixtures"
WMT23_ORACLE = json.loads((FIXTURES / "wmt23_synthetic_oracle.json").read_text(encoding="utf-8"))
WMT23_EXPORT = gzip.decompress((FIXTURES / WMT23_ORACLE["export"]).read_bytes())
WMT25_HUMEVAL = gzip.decompress((FIXTURES / "wmt25_synthetic_humeval.jsonl.gz").read_bytes())


def ranked_like_the_command(app: AppTest, expected: dict) -> None:
    """The page's table for one pair is the command's JSON for it: order, scores, ranks,
    clusters."""
    frame = table(app)
    systems = expected["systems"]
    assert list(frame["system"]) == [s["system"] for s in systems]
    assert list(frame["score"]) == [s["score"] for s in systems]
    ranks = [str(a) if a == b else f"{a}-{b}" for a, b in (s["rank"] for s in systems)]
    assert list(frame["rank"]) == ranks
    if "cluster" in frame.columns:
        assert list(frame["cluster"]) == [s["cluster"] for s in systems]


def one_pair(app: AppTest, files: list[Path], *options: str) -> dict:
    """The command's JSON for the page's chosen pair (the first the files hold)."""
    pair = app.selectbox(key="rankings_pair").value
    ranked = cli_json(*options, "--human", *map(str, files), "--lp", pair)
    return ranked["language_pairs"][pair]


def test_a_da_sqm_export_offers_wmt23_and_custom_and_ranks_as_the_command_does(tmp_path):
    export = tmp_path / "WMT23.scores_all.csv"
    export.write_bytes(WMT23_EXPORT)
    app = uploaded(opened(), waves=[(export.name, WMT23_EXPORT)])
    assert app.selectbox(key="rankings_procedure").options == ["WMT23", "custom"]
    expected = one_pair(app, [export], "--protocol", "wmt23")
    assert len(expected["systems"]) > 2
    ranked_like_the_command(app, expected)
    assert any(c.value.startswith("WMT23's human ranking") for c in app.caption)
    # two systems' test: the Mann-Whitney p-value the JSON holds, their wins and losses
    first, second = expected["systems"][0], expected["systems"][1]
    app.selectbox(key="rankings_a").set_value(first["system"]).run()
    app.selectbox(key="rankings_b").set_value(second["system"]).run()
    text = app.markdown[-1].value
    assert f"p = {first['extra']['p_values'][second['system']]:.4g}" in text
    assert f"wins {first['extra']['wins']} and loses {first['extra']['losses']}" in text


def test_custom_with_two_parts_changed_ranks_as_the_command_with_the_same_options(tmp_path):
    export = tmp_path / "WMT23.scores_all.csv"
    export.write_bytes(WMT23_EXPORT)
    app = uploaded(opened(), waves=[(export.name, WMT23_EXPORT)])
    app.selectbox(key="rankings_procedure").set_value("custom").run()
    app.selectbox(key="rankings_normalise").set_value("z").run()
    app.selectbox(key="rankings_test").set_value("mann-whitney").run()
    assert not app.exception and not app.error
    options = ("--protocol", "custom", "--custom-normalise", "z", "--custom-test", "mann-whitney")
    expected = one_pair(app, [export], *options)
    ranked_like_the_command(app, expected)
    assert expected["protocol"].startswith("custom(z, micro, mann-whitney")
    default = one_pair(app, [export], "--protocol", "custom")
    assert [s["score"] for s in default["systems"]] != [s["score"] for s in expected["systems"]]


def test_wmt25_humeval_offers_wmt25_only_and_ranks_as_the_command_does(tmp_path):
    humeval = tmp_path / "wmt25-genmt-humeval.jsonl"
    humeval.write_bytes(WMT25_HUMEVAL)
    app = uploaded(opened(), waves=[(humeval.name, WMT25_HUMEVAL)])
    assert app.selectbox(key="rankings_procedure").options == ["WMT25"]
    expected = one_pair(app, [humeval], "--protocol", "wmt25")
    assert len(expected["systems"]) > 2
    ranked_like_the_command(app, expected)
    domains = [c for c in table(app).columns if c.startswith("domain ")]
    assert domains
    # two systems' test: WMT25's one-sided p-values, both ways
    first, second = expected["systems"][0], expected["systems"][1]
    app.selectbox(key="rankings_a").set_value(first["system"]).run()
    app.selectbox(key="rankings_b").set_value(second["system"]).run()
    p_value = first["extra"]["p_better_than"][second["system"]]
    assert f"p = {p_value:.4g}" in app.markdown[-1].value


def test_a_file_that_fits_no_procedure_gets_one_message_naming_it():
    app = uploaded(opened(), waves=[("notes.txt", b"just some notes\nof a meeting\n")])
    assert len(app.error) == 1
    message = app.error[0].value
    assert message.startswith("notes.txt") and "fits no human ranking" in message
    assert not app.get("plotly_chart")


def test_two_kinds_of_annotations_together_are_refused_naming_both():
    files = [("export.csv", WMT23_EXPORT), ("humeval.jsonl", WMT25_HUMEVAL)]
    app = uploaded(opened(), waves=files)
    assert len(app.error) == 1
    message = app.error[0].value
    assert "export.csv is a DA+SQM export" in message and "humeval.jsonl is WMT25" in message


def test_esa_waves_offer_wmt24_and_custom_and_custom_ranks_as_the_command_does(wmt24):
    waves = sorted((wmt24 / "waves").glob("*.csv"))
    documents = sorted((wmt24 / "documents").glob("*.docs"))
    app = uploaded(
        opened(),
        waves=[(p.name, p.read_bytes()) for p in waves],
        documents=[(p.name, p.read_bytes()) for p in documents],
    )
    assert app.selectbox(key="rankings_procedure").options == ["WMT24", "custom"]
    app.selectbox(key="rankings_procedure").set_value("custom").run()
    app.selectbox(key="rankings_average").set_value("domain").run()
    app.selectbox(key="rankings_correction").set_value("none").run()
    options = ("--protocol", "custom", "--custom-average", "domain", "--custom-correction", "none")
    expected = one_pair(app, waves, *options, "--documents", *map(str, documents))
    ranked_like_the_command(app, expected)
