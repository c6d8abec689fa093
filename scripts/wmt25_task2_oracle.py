"""Run WMT25 task 2's scoring_esa.py on span files and pin its numbers for tests/spans.

The organisers score predicted error spans against human spans with
``scripts/scoring/task2/scoring_esa.py`` of wmt-conference/wmt25-mteval (read at d1f6ab9): per
character, full credit for the right severity, half for the wrong one, precision, recall and F1
per language pair, then their mean. Its test data (``data/testset/mteval-task2-test25.tsv.gz``)
is a Git LFS pointer in the repository, so this runs it on two inputs of our own:

1. synthetic: three language pairs of random targets (emoji, combining marks, quotes, CJK) with
   random spans (overlapping, empty, ``missing``, ``undecided``, ``critical``, ``no-error`` rows,
   rows of another ``set_id``), written to tests/spans/fixtures/wmt25_task2/{ref,res}/ in the
   script's own layout;
2. released: Google's WMT23 zh-en MQM ratings (../shared/data/wmt23-zhen-mqm), the first rater of
   every rated translation as gold and the second as the prediction (Neutral errors left out:
   the script knows no such severity; an error marked only in the source is ``missing``).

For each it writes the script's scores.txt as printed and, through the script's own
``get_char_f1``, every language pair's precision, recall and F1 unrounded (partial credit 0.5,
and 0 and 1 for the synthetic pairs) to tests/spans/fixtures/wmt25_task2_oracle.json.

With --criticality (``scripts/analysis/21-metrics_criticality.py`` of the same repository, whose
data file ``wmt25-genmt-humeval-metrics.jsonl`` is not in it), its ``f1`` function, taken alone
from the file, scores synthetic human and metric scores (ties included) as the script's loop
does for a metric: the better of ranking the metric bottom-up and top-down; pinned beside.

    .venv/bin/python scripts/wmt25_task2_oracle.py --scoring-esa PATH/TO/scoring_esa.py \\
        --criticality PATH/TO/21-metrics_criticality.py

scoring_esa.py needs pandas and numpy (both in the project's venv). Its code stays where it is.
"""

from __future__ import annotations

import argparse
import ast
import csv
import importlib.util
import json
import os
import random
import re
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "spans" / "fixtures"
SYNTHETIC = FIXTURES / "wmt25_task2"
PINNED = FIXTURES / "wmt25_task2_oracle.json"
MQM_RELEASE = (
    ROOT.parent
    / "shared"
    / "data"
    / "wmt23-zhen-mqm"
    / "sxs_mqm_generalMT2023_zhen.3ratingsPerSegment.tsv.tar.gz"
)
COLUMNS = [
    "doc_id", "segment_id", "source_lang", "target_lang", "set_id", "system_id",
    "source_segment", "hypothesis_segment", "reference_segment", "domain_name", "method",
    "start_indices", "end_indices", "error_types",
]  # fmt: skip
PIECES = ["a", "b", "ž", "é", "e\u0301", "日本", "語", "😀", "👩\u200d💻", '"', "'", " ", "  ", ","]
SEVERITIES = ["major", "minor", "critical", "undecided"]


def synthetic_rows(seed: int) -> tuple[list[dict], list[dict]]:
    """Gold and predicted rows of three language pairs; predictions keep the gold's keys."""
    rng = random.Random(seed)
    gold, predicted = [], []
    for pair in ("en-cs", "en-ja", "cs-uk"):
        source_lang, target_lang = pair.split("-")
        for index in range(40):
            target = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 30)))
            keys = {
                "doc_id": f"doc{index // 5}",
                "segment_id": str(index),
                "source_lang": source_lang,
                "target_lang": target_lang,
                "set_id": "official" if index % 13 else "testsuite",
                "system_id": f"sys{index % 3}",
                "source_segment": f"source {index}",
                "hypothesis_segment": target,
                "reference_segment": f"reference {index}",
                "domain_name": "news",
                "method": "ESA",
            }
            gold.append({**keys, **_random_spans(rng, len(target))})
            predicted.append({**keys, **_random_spans(rng, len(target))})
    return gold, predicted


def _random_spans(rng: random.Random, length: int) -> dict[str, str]:
    if length == 0 or rng.random() < 0.2:
        return {"start_indices": "-1", "end_indices": "-1", "error_types": "no-error"}
    starts, ends, types = [], [], []
    for _ in range(rng.randint(1, 4)):
        if rng.random() < 0.1:
            starts.append("missing")
            ends.append("missing")
        else:
            start = rng.randint(0, length)
            starts.append(str(start))
            ends.append(str(rng.randint(start, length)))
        types.append(rng.choice(SEVERITIES))
    return {
        "start_indices": " ".join(starts),
        "end_indices": " ".join(ends),
        "error_types": " ".join(types),
    }


def write_tsv(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, COLUMNS, delimiter="\t", lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


def mqm_rows() -> tuple[list[dict], list[dict]]:
    """Google's WMT23 zh-en MQM: the first and the second rater of every rated translation."""
    with tarfile.open(MQM_RELEASE) as tar:
        member = next(m for m in tar if m.isfile())
        text = tar.extractfile(member).read().decode("utf-8")
    lines = text.split("\n")
    header = lines[0].split("\t")
    ratings: dict[tuple[str, str], dict[str, list[list[str]]]] = {}
    for line in lines[1:]:
        if not line.strip():
            continue
        row = dict(zip(header, line.split("\t")))
        item = (row["system"], f"{row['doc']}::{row['docSegId']}")
        ratings.setdefault(item, {}).setdefault(row["rater"], []).append(
            [row["target"], row["severity"]]
        )
    gold, predicted = [], []
    for (system, segment), raters in ratings.items():
        if len(raters) < 2:
            continue
        first, second = list(raters.values())[:2]
        target = re.sub("</?v>", "", first[0][0])
        keys = {
            "doc_id": segment, "segment_id": "1", "source_lang": "zh", "target_lang": "en",
            "set_id": "official", "system_id": system, "source_segment": "",
            "hypothesis_segment": target, "reference_segment": "", "domain_name": "",
            "method": "MQM",
        }  # fmt: skip
        gold.append({**keys, **_mqm_spans(first)})
        predicted.append({**keys, **_mqm_spans(second)})
    return gold, predicted


def _mqm_spans(rows: list[list[str]]) -> dict[str, str]:
    starts, ends, types = [], [], []
    for target, severity in rows:
        severity = severity.lower()
        if severity not in ("major", "minor", "critical"):
            continue  # No-error, Neutral, HOTW-test, empty: no span the script knows
        found = re.search("<v>(.*?)</v>", target)
        if found is None:
            starts.append("missing")
            ends.append("missing")
        else:
            start = len(re.sub("</?v>", "", target[: found.start()]))
            starts.append(str(start))
            ends.append(str(start + len(found.group(1).replace("<v>", "").replace("</v>", ""))))
        types.append(severity)
    if not types:
        return {"start_indices": "-1", "end_indices": "-1", "error_types": "no-error"}
    return {
        "start_indices": " ".join(starts),
        "end_indices": " ".join(ends),
        "error_types": " ".join(types),
    }


def run_script(scoring_esa: Path, folder: Path) -> str:
    """scoring_esa.py as the organisers run it: input folder (ref/, res/), output folder. It
    walks its language pairs as a set, whose order Python's string hashing decides: a fixed
    PYTHONHASHSEED makes the printed order, and so the pinned file, the same on every run."""
    environment = {**os.environ, "PYTHONHASHSEED": "0"}
    with tempfile.TemporaryDirectory() as out:
        command = [sys.executable, str(scoring_esa), str(folder), out]
        subprocess.run(command, check=True, env=environment)
        return (Path(out) / "scores.txt").read_text(encoding="utf-8")


def unrounded(scoring_esa: Path, folder: Path, credits: list[float]) -> dict:
    """Every language pair's (precision, recall, F1) from the script's get_char_f1, its rows
    read and merged as its main() reads them."""
    spec = importlib.util.spec_from_file_location("scoring_esa", scoring_esa)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    pd = module.pd
    gold = pd.read_csv(folder / "ref" / "task2_refs.tsv", sep="\t", keep_default_na=False)
    pred = pd.read_csv(folder / "res" / "predictions.tsv", sep="\t", keep_default_na=False)
    results: dict = {}
    for frame in (gold, pred):
        frame["lp"] = frame["source_lang"] + "-" + frame["target_lang"]
        frame["errors"] = frame.apply(module.get_error_list, axis=1)
    gold["len_hyp"] = gold["hypothesis_segment"].apply(len)
    keys = [
        "doc_id", "segment_id", "source_lang", "target_lang", "set_id", "system_id",
        "domain_name", "method",
    ]  # fmt: skip
    for pair in sorted(set(gold["lp"]) & set(pred["lp"])):
        g = gold[(gold["lp"] == pair) & gold.set_id.isin(["official"])]
        p = pred[(pred["lp"] == pair) & pred.set_id.isin(["official"])]
        merged = p.merge(g, on=keys, how="left", suffixes=("_pred", "_gold"))
        results[pair] = {
            str(credit): list(
                module.get_char_f1(
                    merged["len_hyp"].to_list(),
                    merged["errors_gold"].to_list(),
                    merged["errors_pred"].to_list(),
                    partial_credit=credit,
                )
            )
            for credit in credits
        }
    return results


def criticality_cases(criticality: Path, seed: int) -> list[dict]:
    """Synthetic (human, metric) score lists and the script's F1 of each."""
    tree = ast.parse(criticality.read_text(encoding="utf-8"))
    only_f1 = ast.Module([n for n in tree.body if getattr(n, "name", "") == "f1"], [])
    namespace: dict = {}
    exec(compile(only_f1, str(criticality), "exec"), namespace)  # the oracle's f1, alone
    rng = random.Random(seed)
    cases = []
    for size in (2, 3, 7, 40, 233):
        human = [
            rng.choice([rng.uniform(0, 10), rng.uniform(0, 100), 5.0, 10.0]) for _ in range(size)
        ]
        metric = [round(rng.uniform(0, 1), 1) for _ in range(size)]  # rounding makes ties
        items = [(value, (f"doc{i}", "sys")) for i, value in enumerate(metric)]
        positive = {key for (_v, key), y in zip(items, human) if y < 10}
        negative = {key for (_v, key), y in zip(items, human) if y >= 10}
        bottom = namespace["f1"](positive, negative, sorted(items, key=lambda x: x[0]))
        top = namespace["f1"](positive, negative, sorted(items, key=lambda x: x[0], reverse=True))
        cases.append({"human": human, "metric": metric, "f1": max(bottom, top)})
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scoring-esa", type=Path, required=True)
    parser.add_argument("--criticality", type=Path)
    args = parser.parse_args()
    gold, predicted = synthetic_rows(seed=2025)
    write_tsv(SYNTHETIC / "ref" / "task2_refs.tsv", gold)
    write_tsv(SYNTHETIC / "res" / "predictions.tsv", predicted)
    pinned = {
        "synthetic": {
            "scores_txt": run_script(args.scoring_esa, SYNTHETIC),
            "pairs": unrounded(args.scoring_esa, SYNTHETIC, [0.5, 0.0, 1.0]),
        }
    }
    if MQM_RELEASE.exists():
        with tempfile.TemporaryDirectory() as folder:
            gold, predicted = mqm_rows()
            write_tsv(Path(folder) / "ref" / "task2_refs.tsv", gold)
            write_tsv(Path(folder) / "res" / "predictions.tsv", predicted)
            pinned["wmt23_zhen_mqm"] = {
                "items": len(gold),
                "scores_txt": run_script(args.scoring_esa, Path(folder)),
                "pairs": unrounded(args.scoring_esa, Path(folder), [0.5]),
            }
    if args.criticality:
        pinned["criticality"] = criticality_cases(args.criticality, seed=21)
    PINNED.write_text(json.dumps(pinned, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {PINNED.relative_to(ROOT)} and {SYNTHETIC.relative_to(ROOT)}/")


if __name__ == "__main__":
    main()
