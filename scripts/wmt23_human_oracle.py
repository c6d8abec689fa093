"""Make tests/rankings/fixtures/wmt23_synthetic_oracle.json (and the export beside it) by
running the WMT23 organisers' own ranking code on a synthetic DA+SQM export (their code never
enters the project; the fixture holds its numbers).

    python scripts/wmt23_human_oracle.py --appraise GIT_DIR --wmt23 GIT_DIR --python PYTHON

WMT23's raw export (wmt-conference/wmt23-news-systems ``humaneval/DA+SQM/WMT23.scores_all.csv``)
is not public in a form this project can read, so this script writes one shaped like it: the
11 comma-separated fields of the repository's ``CSV-format.md``, three language pairs of 8, 11
and 14 systems, annotators with their own scales (harsh, lenient, narrow; some only in steps of
5 or 10, which makes ties), documents rated by one or two annotators, a system with very few
documents, document-level scores (``IsDocument?`` True), quality-control documents with a
``BAD`` item, ``REF`` and ``CHK`` items and one annotator to exclude. It then runs, as the
organisers did (``humaneval/DA+SQM/README.md`` and the ``/dev/fd/63`` of WMT23.results.txt):

    cat scores_all.csv | python3 scripts/rm_bad_docs.py | grep -v ",True," > scores.csv
    python manage.py ComputeWMT23Results x --csv-file scores.csv --task-type Document
           --exclude-ids <the excluded annotator>

GIT_DIR for ``--appraise`` is a clone (or bare mirror) of AppraiseDev/Appraise holding commit
12103f1 (``Campaign/management/commands/ComputeWMT23Results.py``), for ``--wmt23`` one of
wmt-conference/wmt23-news-systems holding 107cdca (``humaneval/DA+SQM/scripts/rm_bad_docs.py``).
PYTHON is an interpreter with scipy and numpy (e.g. a venv with scipy==1.17.1 numpy==2.4.6).
Django is not needed: the command's module is loaded with stub modules for the five Django and
Appraise imports it names (BaseCommand, CommandError, User, Campaign, LANGUAGE_CODES_AND_NAMES,
DirectAssessmentResult, DirectAssessmentTask), none of which its ``--csv-file`` path computes
with; its arithmetic runs untouched. What it computes is read, not re-derived: scipy's
``mannwhitneyu`` is wrapped to record every call's systems, sizes and result (and, at the first
call of a pair, the annotators' means and standard deviations and the system table the command
built), and the command's final ``latex_data`` and ``tsv_data`` (rank ranges, cluster lines)
are taken from its frame when it returns.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import subprocess
import tempfile
from pathlib import Path

APPRAISE_COMMIT = "12103f17c6ba5fe4da0792dfa21d84c2bce03922"
WMT23_COMMIT = "107cdca28e41b5bec990ceeba3ff3333699b8f05"
ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "rankings" / "fixtures"
EXCLUDED = "engdeu0399"
PAIRS = (("ces", "ukr", 8), ("eng", "deu", 11), ("jpn", "eng", 14))

STUBS = {
    "django/__init__.py": "",
    "django/contrib/__init__.py": "",
    "django/contrib/auth/__init__.py": "",
    "django/contrib/auth/models.py": "class User:\n    pass\n",
    "django/core/__init__.py": "",
    "django/core/management/__init__.py": "",
    "django/core/management/base.py": (
        "import sys\n"
        "class CommandError(Exception):\n    pass\n"
        "class BaseCommand:\n"
        "    def __init__(self):\n        self.stdout = sys.stdout\n"
    ),
    "Campaign/__init__.py": "",
    "Campaign/models.py": "class Campaign:\n    pass\n",
    "Dashboard/__init__.py": "",
    "Dashboard/models.py": (
        "class _Names(dict):\n"
        "    def __missing__(self, code):\n        return code\n"
        "LANGUAGE_CODES_AND_NAMES = _Names()\n"
    ),
    "EvalData/__init__.py": "",
    "EvalData/models.py": (
        "class DirectAssessmentResult:\n    pass\nclass DirectAssessmentTask:\n    pass\n"
    ),
}

DRIVER = """
import copy, io, json, sys
import scipy.stats
from contextlib import redirect_stdout
import ComputeWMT23Results as command

calls, tables = [], {}
real = scipy.stats.mannwhitneyu
def recorded(a, b, **options):
    result = real(a, b, **options)
    caller = sys._getframe(1).f_locals
    pair = "-".join(caller["language_pair"])
    if pair not in tables:
        tables[pair] = {
            "annotators": {u: [caller["user_means"][u], caller["user_variances"][u]]
                           for u in caller["user_scores"] if caller["user_scores"][u]},
            "systems": [list(v) for v in caller["normalized_scores"].values()],
        }
    calls.append({"pair": pair, "a": caller["sysA"], "b": caller["sysB"], "n_a": len(a),
                  "n_b": len(b), "statistic": float(result.statistic),
                  "p": float(result.pvalue)})
    return result
scipy.stats.mannwhitneyu = recorded

final = {}
def profile(frame, event, arg):
    if event == "return" and frame.f_code.co_name == "handle":
        final["latex"] = list(frame.f_locals["latex_data"])
        final["tsv"] = list(frame.f_locals["tsv_data"])
sys.setprofile(profile)
printed = io.StringIO()
with redirect_stdout(printed):
    command.Command().handle(
        campaign_name="synthetic", completed_only=False, csv_file=sys.argv[1],
        exclude_ids=sys.argv[2], show_p_values=False, combo_systems=None, combo_refs=None,
        task_type="Document", no_sigtest=False, use_ar=False, wmt22_format=False)
sys.setprofile(None)
import numpy, scipy
json.dump({"tables": tables, "calls": calls, "latex": final["latex"], "tsv": final["tsv"],
           "stdout": printed.getvalue(),
           "versions": {"scipy": scipy.__version__, "numpy": numpy.__version__,
                        "python": sys.version.split()[0]}}, open(sys.argv[3], "w"))
"""


# ------------------------------------------------------------------ the synthetic export
def synthetic_export(seed: int = 23) -> str:
    """An export in WMT23's 11-field layout, one run of rows per (annotator, system, document)
    task, each run ending with its document-level score, as Appraise writes them."""
    rng = random.Random(seed)
    rows: list[str] = []
    clock = 1_690_000_000.0
    for source, target, n_systems in PAIRS:
        systems = [f"{source[:2]}{target[:2]}-sys{i:02d}" for i in range(n_systems - 1)]
        systems.append("Human-refA")
        quality = {s: rng.uniform(55, 88) for s in systems}
        documents = {f"doc{d:03d}": rng.randint(3, 9) for d in range(14)}
        annotators = [f"{source}{target}{n:04d}" for n in range(390, 399)]
        if target == "deu":
            annotators.append(EXCLUDED)
        scales = {a: _scale(rng) for a in annotators}
        few = systems[1]  # rated on two documents only
        for system in systems:
            docs = list(documents)[:2] if system == few else list(documents)
            for document in docs:
                raters = rng.sample(annotators, 2 if rng.random() < 0.35 else 1)
                for annotator in raters:
                    clock += rng.uniform(30, 600)
                    task = (annotator, system, document, source, target)
                    rows += _task(
                        rng, task, documents[document], quality[system], scales[annotator], clock
                    )
    return "".join(row + "\n" for row in rows)


def _scale(rng: random.Random) -> tuple[float, float, int]:
    """An annotator's offset, spread and step (1, 5 or 10: the coarser, the more ties)."""
    return rng.uniform(-25, 12), rng.uniform(0.4, 1.6), rng.choice((1, 1, 5, 10))


def _task(rng, task, length, quality, scale, clock) -> list[str]:
    """One annotator's rows of one system's document: (annotator, system, document, source,
    target) is ``task``; the run ends with its document-level score."""
    annotator, system, document, source, target = task
    offset, spread, step = scale
    rows = []
    bad = rng.random() < 0.06  # a quality-control document: one segment replaced by a BAD item
    for segment in range(1, length + 1):
        raw = quality + offset + spread * rng.gauss(0, 12)
        score = max(0, min(100, int(round(raw / step) * step)))
        kind = "TGT"
        if bad and segment == length // 2 + 1:
            kind, score = "BAD", max(0, score - 40)
        elif rng.random() < 0.03:
            kind = "REF"
        elif rng.random() < 0.04:
            kind = "CHK"
        fields = (annotator, system, segment, kind, source, target, score, document, "False")
        rows.append(_row(fields, clock + segment * 20))
    doc_score = max(0, min(100, int(quality + offset)))
    fields = (annotator, system, length + 1, "TGT", source, target, doc_score, document, "True")
    rows.append(_row(fields, clock + (length + 1) * 20))
    return rows


def _row(fields: tuple, end: float) -> str:
    """The nine fields, then the start and end times."""
    return ",".join([*map(str, fields), f"{end - 15:.3f}", f"{end:.3f}"])


# ------------------------------------------------------------------ running their code
def _git_show(repo: Path, commit: str, path: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), "show", f"{commit}:{path}"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout


def run_organisers(export: str, appraise: Path, wmt23: Path, python: str) -> dict:
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        for name, text in STUBS.items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(text, encoding="utf-8")
        command = "Campaign/management/commands/ComputeWMT23Results.py"
        (folder / "ComputeWMT23Results.py").write_text(
            _git_show(appraise, APPRAISE_COMMIT, command), encoding="utf-8"
        )
        (folder / "rm_bad_docs.py").write_text(
            _git_show(wmt23, WMT23_COMMIT, "humaneval/DA+SQM/scripts/rm_bad_docs.py"),
            encoding="utf-8",
        )
        kept = subprocess.run(
            [python, "rm_bad_docs.py"],
            input=export,
            cwd=folder,
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        kept = "".join(line for line in kept.splitlines(True) if ",True," not in line)
        (folder / "scores.csv").write_text(kept, encoding="utf-8")
        (folder / "driver.py").write_text(DRIVER, encoding="utf-8")
        subprocess.run(
            [python, "driver.py", "scores.csv", EXCLUDED, "out.json"], cwd=folder, check=True
        )
        return json.loads((folder / "out.json").read_text(encoding="utf-8"))


def fixture(raw: dict) -> dict:
    """The command's numbers per language pair, in its table order."""
    pairs = {}
    for pair, table in raw["tables"].items():
        tests = {f"{c['a']}|{c['b']}": c for c in raw["calls"] if c["pair"] == pair}
        pairs[pair] = {
            "annotators": table["annotators"],
            "systems": [
                {"system": s[0], "ratings": s[1], "z": s[2], "raw": s[3], "h": s[4]}
                for s in sorted(table["systems"], key=lambda s: -s[3])
            ],
            "tests": {
                k: {f: c[f] for f in ("n_a", "n_b", "statistic", "p")} for k, c in tests.items()
            },
        }
    _add_table(pairs, raw["latex"], raw["tsv"])
    return pairs


def _add_table(pairs: dict, latex: list[str], tsv: list[str]) -> None:
    """Rank ranges from the TSV rows, clusters from the LaTeX table's \\hline after a row."""
    by_name = {}
    for pair in pairs:
        source, target = pair.split("-")
        by_name[(source, target)] = pairs[pair]
    blocks, current = [], None
    for line in latex:
        if line.startswith("{\\bf"):
            current = []
            blocks.append(current)
        elif line.startswith("\\Uncon{}"):
            current.append(line)
    for pair, block in zip(pairs, blocks):
        cluster = 1
        systems = pairs[pair]["systems"]
        assert len(block) == len(systems), pair
        for entry, line in zip(systems, block):
            _, ranks, _, name = line.split(" & ", 3)
            assert name.split("\\\\")[0].replace("\\_", "_") == entry["system"], (pair, name)
            first, _, last = ranks.partition("-")
            entry["rank"] = [int(first), int(last or first)]
            entry["cluster"] = cluster
            if line.endswith("\\hline"):
                cluster += 1
    assert len([row for row in tsv if not row.startswith("pair\t")]) == sum(
        len(p["systems"]) for p in pairs.values()
    )


# ------------------------------------------------------------------ the published output
def published_table(results_txt: str) -> dict:
    """WMT23.results.txt's table per pair: each system's wins (the printed column), its rank
    range (the TSV rows) and its cluster (the dashed lines between rows), in the printed order."""
    pairs: dict = {}
    lines = results_txt.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("Wins ") and "System ID" in line:
            rows, cluster = [], 1
            for row in lines[i + 2 :]:
                if not row.strip():
                    break
                if row.startswith("-----"):
                    cluster += 1
                    continue
                wins, name, score = row.split()
                rows.append({"system": name, "wins": int(wins), "score": score, "cluster": cluster})
            pairs[len(pairs)] = rows
    ranks: dict = {}
    for line in lines:
        parts = line.split("\t")
        if len(parts) == 4 and parts[0] != "pair":
            ranks.setdefault(parts[0], []).append((parts[1].replace("\\_", "_"), parts[2]))
    out = {}
    for (pair, ranked), rows in zip(ranks.items(), pairs.values()):
        for row, (name, span) in zip(rows, ranked):
            assert name == row["system"], (pair, name)
            first, _, last = span.partition("-")
            row["rank"] = [int(first), int(last or first)]
        out[pair] = rows
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--appraise", type=Path, required=True)
    parser.add_argument("--wmt23", type=Path, required=True)
    parser.add_argument("--python", required=True)
    args = parser.parse_args()
    results = _git_show(args.wmt23, WMT23_COMMIT, "humaneval/DA+SQM/WMT23.results.txt")
    published = {
        "source": f"wmt-conference/wmt23-news-systems @ {WMT23_COMMIT}, "
        "humaneval/DA+SQM/WMT23.results.txt: its printed wins, rank ranges and cluster lines "
        "(scripts/wmt23_human_oracle.py)",
        "language_pairs": published_table(results),
    }
    (FIXTURES / "wmt23_results_published.json").write_text(
        json.dumps(published, indent=1) + "\n", encoding="utf-8"
    )
    export = synthetic_export()
    raw = run_organisers(export, args.appraise, args.wmt23, args.python)
    document = {
        "source": f"AppraiseDev/Appraise @ {APPRAISE_COMMIT}, ComputeWMT23Results.py "
        f"--csv-file --task-type Document --exclude-ids {EXCLUDED}, after "
        f"wmt-conference/wmt23-news-systems @ {WMT23_COMMIT} rm_bad_docs.py and "
        "grep -v ',True,' (scripts/wmt23_human_oracle.py)",
        "export": "wmt23_synthetic_export.csv.gz",
        "exclude_ids": [EXCLUDED],
        "versions": raw["versions"],
        "language_pairs": fixture(raw),
    }
    FIXTURES.mkdir(parents=True, exist_ok=True)
    with gzip.GzipFile(FIXTURES / "wmt23_synthetic_export.csv.gz", "wb", mtime=0) as out:
        out.write(export.encode("utf-8"))
    (FIXTURES / "wmt23_synthetic_oracle.json").write_text(
        json.dumps(document, indent=1, sort_keys=True) + "\n", encoding="utf-8"
    )
    print(raw["versions"], {p: len(v["systems"]) for p, v in document["language_pairs"].items()})


if __name__ == "__main__":
    main()
