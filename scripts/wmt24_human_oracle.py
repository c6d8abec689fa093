"""Make tests/rankings/fixtures/wmt24_waves23_oracle.json by running the WMT24 organisers' own
ranking code on the public ESA waves 2-3 (their code never enters the project; the fixture holds
its numbers).

    python scripts/wmt24_human_oracle.py --repo GIT_DIR --python PYTHON [--out FILE]

GIT_DIR is a clone (or bare mirror) of wmt-conference/wmt24-news-systems holding commit bfa937e;
PYTHON an interpreter with pandas < 3 (their code fails under pandas 3), scipy, numpy, absl-py,
openpyxl, ipdb and jinja2 (e.g. a venv with pandas==2.2.3 scipy==1.17.1 numpy==2.1.3). The
waves, AutoRank.xlsx and the .docs files come from ../shared/data/wmt-rankings/. The text files
their ``attach_resources`` reads but never scores are empty placeholders with the right number
of lines. Their wave list is cut to waves 2-3, the only ones public. The p-values depend on
scipy's version (1.14.1 gives other Wilcoxon p-values for 104 of 662 pairs, same ranks and
clusters); the fixture records the versions it was made with.
"""

from __future__ import annotations

import argparse
import csv
import json
import lzma
import shutil
import subprocess
import tempfile
from pathlib import Path

COMMIT = "bfa937ee53586aa173d68657b89b8642693f7b66"
ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data" / "wmt-rankings" / "wmt24-news-systems"
WAVES = ("esa_generalMT2024_wave2.csv", "esa_generalMT2024_wave3.csv")
CODES = {"eng": "en", "ces": "cs", "hin": "hi", "zho": "zh", "jpn": "ja"}

DRIVER = """
import json, math, sys
import calculate_clusters as cc
from absl import app
captured, pvalues = {}, {}
tables = cc.generate_latex_tables
def keep_tables(results, extended=False):
    if not extended:
        captured.update(results)
    tables(results, extended)
get_pvalues = cc.get_pvalues
def keep_pvalues(df, macro_avg=True):
    p = get_pvalues(df, macro_avg)
    pvalues[df["lp"].iloc[0]] = p
    return p
cc.generate_latex_tables, cc.get_pvalues = keep_tables, keep_pvalues
try:
    app.run(cc.main, argv=["calculate_clusters.py"])
except SystemExit:
    pass
import numpy, pandas, scipy
names = {"cs": "Czech", "hi": "Hindi", "ja": "Japanese", "zh": "Chinese"}
out = {"source": "wmt-conference/wmt24-news-systems @ COMMIT, humeval/calculate_clusters.py on "
       "esa_generalMT2024_wave{2,3}.csv only (scripts/wmt24_human_oracle.py)",
       "versions": {"pandas": pandas.__version__, "scipy": scipy.__version__,
                    "numpy": numpy.__version__}, "language_pairs": {}}
for lp, p in pvalues.items():
    title = "English-" + names[lp[3:]]
    systems = [
        {"system": row["system_id"], "score": float(row["overall"]),
         "rank": [int(r) for r in row["rank"]], "cluster": int(row["cluster"]),
         "wins_losses": row["wins/losses"],
         "domain_scores": {c[7:]: (None if math.isnan(row[c]) else float(row[c]))
                           for c in captured[title].columns if c.startswith("domain_")}}
        for _, row in captured[title].iterrows()
    ]
    out["language_pairs"][lp] = {"title": title, "systems": systems, "pvalues_stouffer": {
        f"{a}|{b}": (None if math.isnan(v) else float(v)) for (a, b), v in p.items()}}
json.dump(out, open(sys.argv[1], "w"), indent=1, sort_keys=True)
""".replace("@ COMMIT", f"@ {COMMIT}")


def prepare(folder: Path, repo: Path) -> None:
    humeval, txt = folder / "humeval", folder / "txt"
    for sub in ("documents", "sources", "system-outputs", "references"):
        (txt / sub).mkdir(parents=True)
    humeval.mkdir()
    for name in ("tools.py", "calculate_clusters.py", "tables.py"):
        code = subprocess.run(
            ["git", "-C", str(repo), "show", f"{COMMIT}:humeval/{name}"],
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        if name == "calculate_clusters.py":  # only the public waves
            for gone in (
                "'mqm_generalMT2024_ende.tsv', 'mqm_generalMT2024_jazh.tsv',",
                "'esa_generalMT2024_wave0.csv', 'esa_generalMT2024_wave1.csv',",
            ):
                code = code.replace(gone, "")
        (humeval / name).write_text(code, encoding="utf-8")
    shutil.copy(SHARED / "humeval" / "AutoRank.xlsx", humeval)
    systems: dict[str, set[str]] = {}
    for wave in WAVES:
        data = lzma.decompress((SHARED / "humeval" / f"{wave}.xz").read_bytes())
        (humeval / wave).write_bytes(data)
        for row in csv.reader(data.decode("utf-8").splitlines()):
            systems.setdefault(f"{CODES[row[4]]}-{CODES[row[5]]}", set()).add(row[1])
    for lp, names in systems.items():
        docs = lzma.decompress((SHARED / "txt" / "documents" / f"{lp}.docs.xz").read_bytes())
        (txt / "documents" / f"{lp}.docs").write_bytes(docs)
        blank = "\n" * docs.count(b"\n")
        (txt / "sources" / f"{lp}.txt").write_text(blank)
        (txt / "system-outputs" / lp).mkdir()
        for name in names:
            if name == "refA":
                (txt / "references" / f"{lp}.refA.txt").write_text(blank)
            else:
                (txt / "system-outputs" / lp / f"{name}.txt").write_text(blank)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, required=True)
    parser.add_argument("--python", required=True)
    parser.add_argument(
        "--out", type=Path, default=ROOT / "tests/rankings/fixtures/wmt24_waves23_oracle.json"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        prepare(folder, args.repo)
        (folder / "humeval" / "driver.py").write_text(DRIVER, encoding="utf-8")
        subprocess.run(
            [args.python, "driver.py", str(args.out.resolve())],
            cwd=folder / "humeval",
            check=True,
            capture_output=True,
        )
    print(json.loads(args.out.read_text())["versions"])


if __name__ == "__main__":
    main()
