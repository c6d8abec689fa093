"""Benchmark: the rankings against the organisers' own code, on the same files, in the same run.

Three procedures, each timed as a whole process from the files to the tables (interpreter,
imports, reading, ranking, writing), ours and theirs alternating, ``--runs`` times each; printed:
the median of each, their ratio, and the 1-minute load average beside every run. Before any
timing, one run of each side is compared and the benchmark stops if a number differs.

- ``wmt24``: WMT24's human ranking of the ESA waves 2-3 (../shared/data/wmt-rankings), theirs
  ``humeval/calculate_clusters.py`` of wmt-conference/wmt24-news-systems @ bfa937e, prepared and
  run exactly as scripts/wmt24_human_oracle.py does (its driver records the tables); ours
  ``mteval rank --protocol wmt24``. Compared: every system's order, score, rank range, cluster,
  domain means and (same scipy) every Stouffer p-value.
- ``autorank``: WMT25's AutoRank of all 31 pairs from the 59 ``automatic_scores/*.jsonl``
  files, theirs ``autorank/compute_autorank.py`` of prosho-97/wmt-automatic-eval (the script the
  organisers' README runs; it reads one ``metrics_outputs/<METRIC>/outputs.pickle`` per metric,
  here written from the same jsonl files before the timing, since the repository's own pickles
  are LFS-sized and absent), run unchanged with its default 31 pairs; ours ``mteval rank
  --autorank wmt25 --bootstrap 1000 --leave-one-out``, which also draws 1,000 resamples and
  ranks without each metric (the organisers compute neither). Compared: every AutoRank.
- ``wmt25``: WMT25's human ranking of tests/rankings/fixtures/wmt25_synthetic_humeval.jsonl.gz
  (WMT25's own file is not obtainable), theirs ``humeval/08-compute_clusters.py`` @ e0cb47f run
  unchanged as scripts/wmt25_human_oracle.py lays it out; ours ``mteval rank --protocol wmt25``.
  Compared: the fixture's oracle (their code's numbers, recorded by that script).
- ``--scale``: "16 language pairs x 60 systems" made from the real files (see ``scaled_*``):
  for AutoRank, 16 of WMT25's pairs, each with its systems copied under new names until it has
  60 (a copy's paragraph scores are the original's on the pair's segments rotated by a fixed
  offset, so no two systems are equal); for WMT24, waves 2-3's four pairs made sixteen (each
  pair also read under three other target-language codes, with its own .docs file) and their
  systems copied under new names (ratings of segment i taken from segment i+1's) to 60 per
  pair. Both sides read the same scaled files.

    python bench/bench_rankings.py --oracle-python /tmp/wmt24venv17/bin/python \\
        --wmt24-repo GIT_DIR --autorank-repo GIT_DIR --wmt25-code DIR [--parts wmt24,autorank]
        [--runs 3] [--scale]

``--oracle-python``: pandas < 3, scipy, numpy, absl-py, openpyxl, ipdb, jinja2 (as for
scripts/wmt24_human_oracle.py); ``--wmt25-python`` one with numpy, scipy and tqdm. GIT_DIRs:
clones or bare mirrors of wmt-conference/wmt24-news-systems and prosho-97/wmt-automatic-eval;
DIR: the organisers' 08-compute_clusters.py and utils.py (as for scripts/wmt25_human_oracle.py).
Their code is read into a temporary folder and never enters the project.
OPENBLAS_NUM_THREADS=1 for both sides.
"""

from __future__ import annotations

import argparse
import gzip
import json
import lzma
import os
import pickle
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
SHARED = ROOT.parent / "shared" / "data" / "wmt-rankings"
FIXTURES = ROOT / "tests" / "rankings" / "fixtures"
AUTORANK_SCRIPT = "autorank/compute_autorank.py"
# Bytecode caches on (the first, compared, run writes them for both sides, as an ordinary install
# has them); one BLAS thread for both sides.
ENV = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "PYTHONHASHSEED": "0"}
ENV.pop("PYTHONDONTWRITEBYTECODE", None)
TOLERANCE = 1e-9  # float sums in another order: the largest difference found is printed


@dataclass
class Part:
    """One procedure: both commands, and how to check that their numbers agree."""

    name: str
    theirs: list[str]
    theirs_cwd: Path
    ours: list[str]
    compare: Callable[[], float]  # raises AssertionError on a difference; the largest one


def _run(command: list[str], cwd: Path | None = None, stdout: Path | None = None) -> float:
    start = time.perf_counter()
    with open(stdout or os.devnull, "wb") as out:
        subprocess.run(command, cwd=cwd, env=ENV, check=True, stdout=out, stderr=subprocess.PIPE)
    return time.perf_counter() - start


def _mteval(*arguments: str) -> list[str]:
    return [sys.executable, "-m", "mteval_core.cli", "rank", *arguments, "--format", "json"]


# ------------------------------------------------------------------------------ WMT24 human
def wmt24_part(folder: Path, repo: Path, python: str) -> Part:
    from scripts.wmt24_human_oracle import DRIVER, prepare

    prepare(folder, repo)
    humeval = folder / "humeval"
    (humeval / "driver.py").write_text(DRIVER, encoding="utf-8")
    waves = sorted(str(p) for p in humeval.glob("esa_generalMT2024_wave*.csv"))
    documents = sorted(str(p) for p in (folder / "txt" / "documents").glob("*.docs"))
    theirs_out, ours_out = folder / "theirs.json", folder / "ours.json"
    ours = _mteval("--protocol", "wmt24", "--human", *waves, "--documents", *documents)

    def compare() -> float:
        _run([python, "driver.py", str(theirs_out)], humeval)
        _run(ours, stdout=ours_out)
        return _compare_human(theirs_out, ours_out, "pvalues_stouffer", "p_values")

    return Part(
        "WMT24 human ranking", [python, "driver.py", str(theirs_out)], humeval, ours, compare
    )


def _compare_human(theirs_path: Path, ours_path: Path, p_key: str, our_p_key: str) -> float:
    theirs = json.loads(theirs_path.read_text())
    ours = json.loads(ours_path.read_text())["language_pairs"]
    assert sorted(ours) == sorted(theirs["language_pairs"]), (sorted(ours), theirs.keys())
    worst = 0.0
    for pair, expected in theirs["language_pairs"].items():
        got = ours[pair]["systems"]
        assert [s["system"] for s in got] == [s["system"] for s in expected["systems"]], pair
        for mine, their in zip(got, expected["systems"]):
            assert mine["rank"] == their["rank"] and mine["cluster"] == their["cluster"], pair
            worst = max(worst, _difference(mine["score"], their["score"]))
            for domain, value in their["domain_scores"].items():
                worst = max(worst, _difference(mine["extra"]["domains"][domain], value))
        by_system = {s["system"]: s["extra"][our_p_key] for s in got}
        for key, value in expected[p_key].items():
            a, b = key.split("|")
            worst = max(worst, _difference(by_system[a][b], value))
    return worst


def _difference(mine: float | None, theirs: float | None) -> float:
    if mine is None or theirs is None:
        assert mine is None and theirs is None, (mine, theirs)
        return 0.0
    difference = abs(mine - theirs)
    assert difference <= TOLERANCE, (mine, theirs)
    return difference


# ------------------------------------------------------------------------------ WMT25 AutoRank
AUTORANK_DRIVER = r"""
import json, sys
source = open("compute_autorank.py", encoding="utf-8").read()
head, main_block = source.split('if __name__ == "__main__":\n')
namespace = {"__name__": "compute_autorank"}
exec(compile(head, "compute_autorank.py", "exec"), namespace)
recorded = {}
compute = namespace["compute_autorank"]
def recording(language_pair, args):
    df, latex = compute(language_pair, args)
    recorded[language_pair] = {s: float(v) for s, v in df["autorank"].items()}
    return df, latex
namespace["compute_autorank"] = recording
out = sys.argv[1]
sys.argv = ["compute_autorank.py", *sys.argv[2:]]
lines = main_block.splitlines()
exec(compile("\n".join(line[4:] for line in lines), "compute_autorank.py", "exec"), namespace)
json.dump(recorded, open(out, "w"))
"""


def autorank_part(folder: Path, repo: Path, python: str, scale: bool) -> Part:
    scores, metadata = folder / "automatic_scores", folder / "systems_metadata.json"
    with tarfile.open(SHARED / "wmt25-general-mt" / "data" / "automatic_scores.tar.xz") as tar:
        tar.extractall(folder / "tar", filter="data")
    shutil.move(folder / "tar" / "data" / "automatic_scores", scores)
    meta_xz = SHARED / "wmt25-general-mt" / "data" / "systems_metadata_updated3.json.xz"
    metadata.write_bytes(lzma.decompress(meta_xz.read_bytes()))
    pairs: list[str] = []
    if scale:
        pairs = scaled_autorank(scores, metadata)
    code = folder / "autorank"
    code.mkdir()
    script = subprocess.run(
        ["git", "-C", str(repo), "show", f"HEAD:{AUTORANK_SCRIPT}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    (code / "compute_autorank.py").write_text(script, encoding="utf-8")
    (code / "driver.py").write_text(AUTORANK_DRIVER, encoding="utf-8")
    _write_pickles(scores, folder / "metrics_outputs")
    theirs_out, ours_out = folder / "theirs.json", folder / "ours.json"
    arguments = ["--metrics-outputs-path", str(folder / "metrics_outputs")]
    arguments += ["--teams-path", str(metadata), "--out-path", str(folder / "res")]
    if pairs:
        arguments += ["--lps", *pairs]
    theirs = [python, "compute_autorank.py", *arguments]
    ours = _mteval("--autorank", "wmt25", "--metric-scores", str(scores))
    ours += ["--systems-metadata", str(metadata), "--bootstrap", "1000", "--seed", "1"]
    ours += ["--leave-one-out", *(["--lp", *pairs] if pairs else [])]

    def compare() -> float:
        _run([python, "driver.py", str(theirs_out), *arguments], code)
        _run(ours, stdout=ours_out)
        expected = json.loads(theirs_out.read_text())
        got = json.loads(ours_out.read_text())["language_pairs"]
        assert sorted(got) == sorted(expected), (sorted(got), sorted(expected))
        worst = 0.0
        for pair, values in expected.items():
            mine = {s["system"]: s["autorank"] for s in got[pair]["systems"]}
            assert sorted(mine) == sorted(values), pair
            for system, value in values.items():
                worst = max(worst, _difference(mine[system], value))
        return worst

    return Part("WMT25 AutoRank", theirs, code, ours, compare)


def _write_pickles(scores: Path, out: Path) -> None:
    """The jsonl files in the layout compute_autorank.py reads: per metric, system -> pair ->
    domain -> document -> paragraph scores (None kept)."""
    by_metric: dict[str, dict] = {}
    for path in sorted(scores.glob("*.jsonl")):
        system = path.name[: -len(".jsonl")]
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            for metric, values in record["metric_scores"].items():
                pairs = by_metric.setdefault(metric, {}).setdefault(system, {})
                domains = pairs.setdefault(record["language_pair"], {})
                domains.setdefault(record["domain"], {})[record["document_id"]] = values
    for metric, systems in by_metric.items():
        (out / metric).mkdir(parents=True)
        with open(out / metric / "outputs.pickle", "wb") as file:
            pickle.dump(systems, file)


# The organisers' 16 human-evaluated pairs (compute_autorank.py's human_evaluated_lps).
SCALED_PAIRS = (
    "en-ar_EG", "en-bho_IN", "en-cs_CZ", "en-et_EE", "en-is_IS", "en-it_IT", "en-ja_JP",
    "en-ko_KR", "en-mas_KE", "en-ru_RU", "en-sr_Cyrl_RS", "en-uk_UA", "en-zh_CN", "cs-uk_UA",
    "cs-de_DE", "ja-zh_CN",
)  # fmt: skip


def scaled_autorank(scores: Path, metadata: Path, systems: int = 60) -> list[str]:
    """Each of SCALED_PAIRS brought to ``systems`` systems (module docstring): copy k of a
    system holds, per metric, its paragraph scores of the pair rotated by k + 1 places over the
    pair's segments (in file order), in files of their own and entries of the metadata."""
    meta = json.loads(metadata.read_text(encoding="utf-8"))
    lines_of: dict[str, dict[str, list[dict]]] = {}
    for path in sorted(scores.glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if record["language_pair"] in SCALED_PAIRS:
                lines_of.setdefault(record["language_pair"], {}).setdefault(
                    path.name[: -len(".jsonl")], []
                ).append(record)
    copies: dict[str, list[dict]] = {}
    for pair, by_system in lines_of.items():
        names = [s for s in sorted(by_system) if pair in meta.get(s, {}).get("supported_lps", {})]
        for k in range(systems - len(names)):
            original = names[k % len(names)]
            name = f"{original}-copy{k}"
            copies.setdefault(name, []).extend(_rotated(by_system[original], k + 1))
            entry = meta.setdefault(name, {**meta[original], "supported_lps": {}})
            entry["supported_lps"][pair] = meta[original]["supported_lps"][pair]
    for name, records in copies.items():
        text = "".join(json.dumps(r) + "\n" for r in records)
        (scores / f"{name}.jsonl").write_text(text, encoding="utf-8")
    metadata.write_text(json.dumps(meta), encoding="utf-8")
    return list(SCALED_PAIRS)


def _rotated(records: list[dict], offset: int) -> list[dict]:
    metrics = list(records[0]["metric_scores"])
    flat = {m: [v for r in records for v in r["metric_scores"][m]] for m in metrics}
    rotated = {m: values[offset:] + values[:offset] for m, values in flat.items()}
    out, start = [], 0
    for record in records:
        count = len(record["metric_scores"][metrics[0]])
        scores = {m: rotated[m][start : start + count] for m in metrics}
        out.append({**record, "metric_scores": scores})
        start += count
    return out


# ------------------------------------------------------------------------------ WMT25 human
def wmt25_part(folder: Path, code: Path, python: str) -> Part:
    from scripts.wmt25_human_oracle import metadata

    text = gzip.decompress((FIXTURES / "wmt25_synthetic_humeval.jsonl.gz").read_bytes())
    (folder / "data").mkdir()
    (folder / "humeval").mkdir()
    humeval = folder / "data" / "wmt25-genmt-humeval.jsonl"
    humeval.write_bytes(text)
    systems, supported = metadata([json.loads(line) for line in text.splitlines()])
    (folder / "data" / "systems_humeval.json").write_text(json.dumps(systems))
    (folder / "data" / "systems_metadata_updated3.json").write_text(json.dumps(supported))
    for name in ("08-compute_clusters.py", "utils.py"):
        shutil.copy(code / name, folder / "humeval" / name)
    ours_out = folder / "ours.json"
    ours = _mteval("--protocol", "wmt25", "--human", str(humeval))

    def compare() -> float:
        _run(ours, stdout=ours_out)
        return _compare_human(
            FIXTURES / "wmt25_synthetic_oracle.json", ours_out, "p_better", "p_better_than"
        )

    theirs = [python, "08-compute_clusters.py"]
    return Part("WMT25 human ranking", theirs, folder / "humeval", ours, compare)


# ------------------------------------------------------------------------------ the runs
def measure(part: Part, runs: int) -> None:
    worst = part.compare()
    print(f"{part.name}: numbers equal (largest difference {worst:.1e})", flush=True)
    mine, theirs = [], []
    for run in range(runs):
        load = os.getloadavg()[0]
        theirs.append(_run(part.theirs, part.theirs_cwd))
        mine.append(_run(part.ours))
        print(
            f"  run {run + 1}: theirs {theirs[-1]:7.2f} s, ours {mine[-1]:6.2f} s, load {load:.2f}"
        )
    ratio = statistics.median(mine) / statistics.median(theirs)
    print(
        f"  median of {runs}: theirs {statistics.median(theirs):.2f} s, ours "
        f"{statistics.median(mine):.2f} s: {ratio:.3f}x (load now {os.getloadavg()[0]:.2f})",
        flush=True,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--oracle-python", required=True)
    parser.add_argument("--wmt24-repo", type=Path)
    parser.add_argument("--autorank-repo", type=Path)
    parser.add_argument("--wmt25-code", type=Path)
    parser.add_argument("--wmt25-python", help="with numpy, scipy, tqdm (default: the oracle's)")
    parser.add_argument("--parts", default="wmt24,autorank,wmt25")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--scale", action="store_true", help="16 pairs x 60 systems (AutoRank)")
    args = parser.parse_args()
    for name in args.parts.split(","):
        with tempfile.TemporaryDirectory() as temporary:
            folder = Path(temporary)
            if name == "wmt24":
                part = wmt24_part(folder, args.wmt24_repo, args.oracle_python)
            elif name == "autorank":
                part = autorank_part(folder, args.autorank_repo, args.oracle_python, args.scale)
            else:
                python = args.wmt25_python or args.oracle_python
                part = wmt25_part(folder, args.wmt25_code, python)
            measure(part, args.runs)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
