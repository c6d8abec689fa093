"""Make tests/rankings/fixtures/wmt25_synthetic_humeval.jsonl.gz and wmt25_synthetic_oracle.json:
a synthetic WMT25 humeval file, and what the WMT25 organisers' own ranking code computes from it
(their code never enters the project; the fixture holds its numbers).

    python scripts/wmt25_human_oracle.py --code DIR --python PYTHON [--out-dir DIR]

WMT25's real ``data/wmt25-genmt-humeval.jsonl`` is a Git LFS object that cannot be had here
(../shared/data/wmt-rankings/PROVENANCE.md), so the input is made up, shaped as the organisers'
``humeval/05-collect_humeval.py`` writes it and ``08-compute_clusters.py`` reads it: three pairs
(16, 11 and 20 systems with refA), two waves, four, one and three domains, integer scores (so
tied and zero differences), segments one wave left unannotated (NaN), a system missing from
wave 2 altogether, two near-duplicate systems, error spans, annotators and times.

CODE DIR holds the organisers' ``08-compute_clusters.py`` (wmt-conference/wmt25-general-mt @
e0cb47f2b289b1615f2eec0d790befac681443e9, 7,981 characters) and ``utils.py`` (@ 968b9f2, only
``LANG_TO_LONG`` is used), read with the file index (the repository snapshot stops at
05-compute_clusters.py). PYTHON is an interpreter with numpy, scipy and tqdm (e.g. a venv under
/tmp with scipy==1.17.1 numpy==2.4.6 tqdm). The script is run unchanged in a temporary folder,
beside the ``data/systems_humeval.json`` and ``systems_metadata_updated3.json`` it reads for its
LaTeX columns (made up to match); a driver records each pair's ``systems_info`` (score, domain
means, rank range), its clusters by their ``does_cluster_end_here``, and the p-value of every
ordered pair by their ``get_significance`` (scipy's wilcoxon wrapped to keep the p-value).
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import shutil
import subprocess
import tempfile
from pathlib import Path

COMMIT = "e0cb47f2b289b1615f2eec0d790befac681443e9"
ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "rankings" / "fixtures"
SEED = 2025
PAIRS = {  # pair: (systems besides refA, domains, documents per domain)
    "en-cs_CZ": (15, ("literary", "news", "social", "speech"), 3),
    "cs-de_DE": (10, ("news",), 8),
    "en-ja_JP": (19, ("news", "social", "speech"), 3),
}
PARAGRAPHS = 3  # per document

DRIVER = """
import json, math, sys
import numpy as np
import scipy, scipy.stats, tqdm
namespace = {"__name__": "__main__"}
last_p = []
wilcoxon = scipy.stats.wilcoxon
def recording_wilcoxon(*args, **kwargs):
    result = wilcoxon(*args, **kwargs)
    last_p.append(float(result.pvalue))
    return result
scipy.stats.wilcoxon = recording_wilcoxon
out = {}
def finite(x):
    return None if math.isnan(x) else float(x)
def capture(langs):
    ns = namespace
    info, systems = ns["systems_info"], ns["systems"]
    ranks = [x[3] for x in info]
    cluster, clusters = 1, []
    for i in range(len(info)):
        clusters.append(cluster)
        if i + 1 != len(info) and ns["does_cluster_end_here"](i + 1, ranks):
            cluster += 1
    p = {}
    for a, a_v in systems:
        for b, b_v in systems:
            if a != b:
                ns["get_significance"](a_v, b_v)
                p[a + "|" + b] = finite(last_p[-1])
    out[langs] = {"systems": [
        {"system": name, "score": float(mean), "rank": list(rank), "cluster": c,
         "domain_scores": {d: finite(v) for d, v in domains.items()}}
        for (name, mean, domains, rank), c in zip(info, clusters)], "p_better": p}
def tracking(iterable, *args, **kwargs):
    for langs in iterable:
        yield langs
        capture(langs)
tqdm.tqdm = tracking
code = open("08-compute_clusters.py", encoding="utf-8").read()
exec(compile(code, "08-compute_clusters.py", "exec"), namespace)
import numpy, scipy
json.dump({"source": "wmt-conference/wmt25-general-mt @ COMMIT, humeval/08-compute_clusters.py "
           "on tests/rankings/fixtures/wmt25_synthetic_humeval.jsonl.gz "
           "(scripts/wmt25_human_oracle.py)",
           "versions": {"numpy": numpy.__version__, "scipy": scipy.__version__},
           "language_pairs": out}, open(sys.argv[1], "w"), indent=1, sort_keys=True)
""".replace("@ COMMIT", f"@ {COMMIT}")


def synthetic_lines(rng: random.Random) -> list[dict]:
    """The humeval lines of every pair, in the organisers' layout (NaN: not annotated)."""
    lines = []
    for pair, (count, domains, documents) in PAIRS.items():
        systems = ["refA", *(f"System-{chr(65 + s)}" for s in range(count))]
        quality = {s: rng.uniform(55, 90) for s in systems}
        quality["refA"] = 88.0
        duplicate = systems[-1]  # a near-copy of the one before it: tied, zero differences
        absent_in_wave2 = systems[-3] if pair == "en-ja_JP" else None
        annotators = [f"{pair}_#_annotator{k}" for k in range(1, 7)]
        for domain in domains:
            for document in range(documents):
                for paragraph in range(PARAGRAPHS):
                    doc_id = f"{pair}_#_{domain}_#_{domain}{document:03d}_#_{paragraph}"
                    difficulty = rng.gauss(0, 8)
                    scores: dict[str, list[dict]] = {}
                    for system in systems:
                        waves = []
                        for wave in (1, 2):
                            unannotated = rng.random() < 0.06 or (
                                wave == 2 and system == absent_in_wave2
                            )
                            score = (
                                float("nan")
                                if unannotated
                                else _score(rng, quality[system], difficulty)
                            )
                            waves.append(_wave(rng, score, rng.choice(annotators)))
                        scores[system] = waves
                    previous = scores[systems[-2]]
                    if rng.random() < 0.8:  # mostly the same scores as its neighbour
                        scores[duplicate] = [dict(w) for w in previous]
                    lines.append(
                        {
                            "scores": scores,
                            "src_text": f"source paragraph {paragraph} of {domain}{document}",
                            "tgt_text": {s: f"{s} translation" for s in systems},
                            "doc_id": doc_id,
                        }
                    )
    return lines


def _score(rng: random.Random, quality: float, difficulty: float) -> float:
    return float(max(0, min(100, round(quality + difficulty + rng.gauss(0, 11)))))


def _wave(rng: random.Random, score: float, annotator: str) -> dict:
    errors = []
    if score == score and score < 80:
        for _ in range(rng.randint(1, 3)):
            start = rng.randint(0, 40)
            errors.append(
                {
                    "start_i": start,
                    "end_i": start + rng.randint(1, 12),
                    "severity": rng.choice(("minor", "major")),
                }
            )
    start = 1756000000.0 + rng.randint(0, 10**6)
    return {
        "score": score,
        "errors": errors,
        "annotator": annotator,
        "times": [start, start + rng.randint(5, 200)],
    }


def metadata(lines: list[dict]) -> tuple[dict, dict]:
    """systems_humeval.json and systems_metadata_updated3.json as far as 08-* reads them."""
    humeval: dict[str, dict] = {}
    supported: dict[str, dict] = {}
    for line in lines:
        pair = line["doc_id"].split("_#_")[0]
        for system in line["scores"]:
            if system != "refA":
                humeval.setdefault(pair, {})[system] = {
                    "autorank": 1.0 + len(humeval.get(pair, {})),
                    "constrained": True,
                    "will_humeval": True,
                }
                supported.setdefault(system, {"supported_lps": {}})["supported_lps"][pair] = (
                    "supported"
                )
    return humeval, supported


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--code", type=Path, required=True)
    parser.add_argument("--python", required=True)
    parser.add_argument("--out-dir", type=Path, default=FIXTURES)
    args = parser.parse_args()
    lines = synthetic_lines(random.Random(SEED))
    text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
    (args.out_dir / "wmt25_synthetic_humeval.jsonl.gz").write_bytes(
        gzip.compress(text.encode("utf-8"), mtime=0)
    )
    humeval, supported = metadata(lines)
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        (folder / "data").mkdir()
        (folder / "humeval").mkdir()
        (folder / "data" / "wmt25-genmt-humeval.jsonl").write_text(text, encoding="utf-8")
        (folder / "data" / "systems_humeval.json").write_text(json.dumps(humeval))
        (folder / "data" / "systems_metadata_updated3.json").write_text(json.dumps(supported))
        for name in ("08-compute_clusters.py", "utils.py"):
            shutil.copy(args.code / name, folder / "humeval" / name)
        (folder / "humeval" / "driver.py").write_text(DRIVER, encoding="utf-8")
        out = (args.out_dir / "wmt25_synthetic_oracle.json").resolve()
        subprocess.run([args.python, "driver.py", str(out)], cwd=folder / "humeval", check=True)
    print(json.loads(out.read_text())["versions"], f"{len(lines)} lines")


if __name__ == "__main__":
    main()
