"""Write tests/io/fixtures/neural_outputs/: sample_data's systems scored in the layouts the tools
write, for the readers' tests (no model runs here: none can be downloaded on CI).

The numbers stand in for a model's and are computed from the texts: "COMET" is sacreBLEU's
sentence chrF / 100 against ref-A, MetricX's "prediction" sentence TER / 4 clipped to [0, 25]
(lower is better, as MetricX's), and xCOMET's spans mark the first word of a translation that
the reference lacks (severity minor, its chrF / 100 as the confidence). The layouts follow each
tool's writer: comet-score --to_json is json.dump(data, f, ensure_ascii=False, indent=4) of
{translation path: [{"src", "mt", "ref", "COMET", "errors"}]} (Unbabel/COMET comet/cli/score.py,
lines stripped as it strips them); MetricX's predict.py writes json.dumps(example) per line, the
input's fields with "prediction" added; pymarian-eval writes f"{score:.4f}" per line (-a append
adds the mean); gemba prints each answer of a pandas column (GEMBA-MQM's minus error points,
as floats and nan once one segment has no answer).
comet.json is byte-identical to what the released unbabel-comet 2.2.7 score_command writes with
--to_json when run (outside the project, torch stubbed) with a stand-in model giving these
scores and spans (tests/stats/fixtures/comet_compare_oracle.json's provenance says how).

    .venv/bin/python scripts/neural_output_fixtures.py
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
from sacrebleu.metrics import CHRF, TER

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests/io/fixtures/neural_outputs"
SYSTEMS = ["neural-large", "neural-small", "phrase-based", "word-by-word"]


def lines(path: Path) -> list[str]:
    return [line.strip() for line in path.read_text(encoding="utf-8").splitlines()]


def first_missing_word(mt: str, ref: str) -> tuple[int, int, str] | None:
    reference = set(ref.split())
    start = 0
    for word in mt.split(" "):
        if word and word not in reference:
            return start, start + len(word), word
        start += len(word) + 1
    return None


def main() -> None:
    source = lines(ROOT / "sample_data/src.de")
    reference = lines(ROOT / "sample_data/ref/ref-A.en")
    chrf, ter = CHRF(), TER()
    comet: dict[str, list[dict]] = {}
    for system in SYSTEMS:
        mt = lines(ROOT / f"sample_data/sys/{system}.en")
        entries = []
        metricx_rows = []
        for src, hyp, ref in zip(source, mt, reference, strict=True):
            score = chrf.sentence_score(hyp, [ref]).score / 100
            entry = {"src": src, "mt": hyp, "ref": ref, "COMET": score}
            span = first_missing_word(hyp, ref)
            if span is not None:
                entry["errors"] = [
                    {
                        "text": span[2],
                        "confidence": score,
                        "severity": "minor",
                        "start": span[0],
                        "end": span[1],
                    }
                ]
            entries.append(entry)
            prediction = min(max(ter.sentence_score(hyp, [ref]).score / 4, 0.0), 25.0)
            metricx_rows.append(
                {"source": src, "hypothesis": hyp, "reference": ref, "prediction": prediction}
            )
        comet[f"sample_data/sys/{system}.en"] = entries
        with open(OUT / f"{system}.metricx.jsonl", "w", encoding="utf-8") as out:
            for row in metricx_rows:
                out.write(json.dumps(row) + "\n")
        scores = [entry["COMET"] for entry in entries]
        with open(OUT / f"{system}.pymarian.txt", "w", encoding="utf-8") as out:
            out.writelines(f"{value:.4f}\n" for value in scores)
    with open(OUT / "comet.json", "w", encoding="utf-8") as out:
        json.dump(comet, out, ensure_ascii=False, indent=4)
    appended = [entry["COMET"] for entry in comet["sample_data/sys/neural-large.en"]]
    with open(OUT / "neural-large.pymarian-append.txt", "w", encoding="utf-8") as out:
        out.writelines(f"{value:.4f}\n" for value in [*appended, sum(appended) / len(appended)])
    answers = [  # GEMBA-MQM's minus error points; segment 7 without an answer
        {"answer": None if number == 6 else -min(25, round((1 - entry["COMET"]) * 10))}
        for number, entry in enumerate(comet["sample_data/sys/phrase-based.en"])
    ]
    with open(OUT / "phrase-based.gemba.txt", "w", encoding="utf-8") as out:
        for answer in list(pd.DataFrame(answers)["answer"]):  # as gemba/utils.py returns them
            print(answer, file=out)


if __name__ == "__main__":
    main()
