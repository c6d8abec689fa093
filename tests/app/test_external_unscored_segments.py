"""A metric from a file that scores only some segments, on the Correlation page (AppTest): a
segment it does not score has no score in the system's segment table, and is listed last, not as
a 0 that disagreed with people."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from mteval_core.io.uploads import read_uploaded_metric
from tests.helpers import load_sample

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.filterwarnings("ignore::mteval_core.errors.Note")  # asserted elsewhere


def test_unscored_segments_have_no_score_and_come_last() -> None:
    test_set = load_sample().test_set
    rows = ["system,segment_id,score"]
    for rank, system in enumerate(test_set.system_names):
        rows += [f"{system},{line},{rank + line / 100}" for line in range(1, 21)]  # 1-20 of 40
    data = "\n".join(rows).encode()
    half = read_uploaded_metric(("half.csv", data), "half", "higher", test_set, {})
    app = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    app.session_state["external_metrics"] = half
    app.switch_page("pages/2_Correlation.py").run()
    next(box for box in app.selectbox if box.label == "Metric").set_value("half").run()
    assert not app.exception
    segments = next(f.value for f in app.dataframe if "rank disagreement" in f.value.columns)
    unscored = segments.index > 20
    assert np.isnan(segments.loc[unscored, "metric"]).all()  # they were 0.0
    assert np.isnan(segments.loc[unscored, "rank disagreement"]).all()
    assert list(unscored) == sorted(unscored)  # listed after every scored segment
