"""The Correlation page's metric ranking, through AppTest: a metric whose statistic is undefined
(a constant metric under Pearson) is not drawn as ranked and the page says why, as the command
line's "metric_ranking" gives it a null rank with the reason."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from mteval_core.io.uploads import read_uploaded_metric
from tests.helpers import load_sample

ROOT = Path(__file__).resolve().parents[2]


def test_a_metric_whose_statistic_is_undefined_is_not_ranked() -> None:
    test_set = load_sample().test_set
    rows = ["system,segment_id,score"]
    rows += [f"{system},{line},0.5" for system in test_set.system_names for line in range(1, 41)]
    data = "\n".join(rows).encode()
    flat = read_uploaded_metric(("flat.csv", data), "flat", "higher", test_set, {})
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    app.session_state["external_metrics"] = flat
    app.switch_page("pages/2_Correlation.py").run()
    next(s for s in app.selectbox if s.label == "Statistic").set_value("pearson").run()
    next(s for s in app.select_slider if s.label == "Permutations per pair").set_value(100).run()
    assert not app.exception and not app.error
    charts = [json.loads(chart.proto.spec) for chart in app.get("plotly_chart")]
    bars = next(c for c in charts if c["data"][0].get("orientation") == "h")["data"][0]
    assert "flat" not in bars["y"] and len(bars["y"]) == 7  # the built-in metrics
    assert all(text.startswith("rank ") for text in bars["text"])
    assert (
        "Not ranked, their pearson (item) being undefined: flat (constant metric scores in "
        "every group)."
    ) in [caption.value for caption in app.caption]
    p_values = next(f.value for f in app.dataframe if f.value.index.name == "other metric")
    assert p_values.loc["flat", "p-value"] == "not tested (a statistic is undefined)"
    assert p_values["rank"].isna().tolist() == [name == "flat" for name in p_values.index]
    assert str(p_values["rank"].dtype) == "Int64"  # 1, 2, ..., not 1.0, 2.0 beside a gap
