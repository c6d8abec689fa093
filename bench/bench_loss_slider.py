"""Benchmark: one cost slider change on the Loss page, through Streamlit's AppTest (issue #12,
"Loss page and uploads"; goal: at most 0.3 s).

Each change is ``app.slider[2].set_value(v).run()``: AppTest reruns the whole script, so this is
an upper bound on what a browser waits for (there only the cost explorer's fragment reruns).
The table and its map of rankings come from the content-keyed cache after the first run, so a
change costs the losses at the new costs, the open tab's figures and the page's elements.

Wall times suffer from whatever else runs on the machine; the CPU time of this process (every
thread, so AppTest's own work too) does not, and is printed beside it with the load average.

    .venv/bin/python bench/bench_loss_slider.py --runs 15
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the page imports pages.ui, as under `streamlit run app.py`
TABLES = (
    "Tate & Voss 2006, all wh-types (Tables 2 and 4)",
    "Tate & Voss 2006, per wh-type (Tables 3 and 8)",
    "Tate & Voss 2006, counts (Table 2)",
)


def slider_changes(table: str, runs: int) -> tuple[list[float], list[float]]:
    """(wall, CPU) seconds of ``runs`` changes of c3 on ``table``, after one warm-up change."""
    app = AppTest.from_file(str(ROOT / "pages" / "4_Loss.py"), default_timeout=120)
    app.run()
    app.selectbox[0].set_value(table).run()
    app.slider[2].set_value(0.5).run()
    wall, cpu = [], []
    for k in range(runs):
        start, start_cpu = time.perf_counter(), time.process_time()
        app.slider[2].set_value(1.0 + 0.5 * (k % 6)).run()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        if app.exception or app.error:
            raise RuntimeError(f"the page failed on {table}")
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=15)
    runs = parser.parse_args().runs
    for table in TABLES:
        wall, cpu = slider_changes(table, runs)
        print(
            f"{table}: wall median {statistics.median(wall):.3f} s (fastest {min(wall):.3f}, "
            f"slowest {max(wall):.3f}); CPU median {statistics.median(cpu):.3f} s "
            f"(slowest {max(cpu):.3f}); load average {os.getloadavg()[0]:.1f}"
        )


if __name__ == "__main__":
    main()
