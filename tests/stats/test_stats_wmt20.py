"""The WMT20 metrics task's system-level correlations, reproduced from the raw organiser files.

Expected values: the organisers' output tables (WMT-Metrics-task/wmt20-metrics,
results/output/system-level/DA-{ende,zhen}-cor{-excloutl,}.csv), the numbers printed in Mathur et
al. 2020 (tables 5 and 6): Pearson over the MT systems without the outliers, and Kendall tau over
all MT systems, with the DA z-scores as the human scores.
"""

from __future__ import annotations

import gzip

import pytest

from mteval_core.cli import main
from tests.helpers import shared_dataset

OUTLIERS = {
    "en-de": {"zlabs-nlp.179", "WMTBiomedBaseline.388", "Online-G.1556"},
    "zh-en": {"WMTBiomedBaseline.183"},
}
PUBLISHED = {  # (Pearson without outliers, Kendall over all MT systems)
    "en-de": {
        "BLEU": (0.8247221105872489, 0.8021978021978022),
        "sentBLEU": (0.8233823384487936, 0.8021978021978022),
        "chrF": (0.8615236014814989, 0.8681318681318682),
        "chrF++": (0.8498320995819537, 0.8681318681318682),
        "TER": (0.8477784432614794, 0.8241758241758242),
    },
    "zh-en": {
        "BLEU": (0.956805788719771, 0.8333333333333333),
        "sentBLEU": (0.9495612285547368, 0.8499999999999999),
        "chrF": (0.9541016585387854, 0.8333333333333333),
        "chrF++": (0.9549828396821908, 0.8499999999999999),
        "TER": (0.9106562374039487, 0.7999999999999999),
    },
}


def write_tables(pair: str, folder, tmp_path) -> tuple[str, str, set[str]]:
    """The organisers' raw files as the two system tables `mteval correlate` reads."""
    human_lines = (folder / "human" / "original" / f"metrics-ad-sys-scores-{pair}.csv").read_text()
    human = {}
    for line in human_lines.splitlines()[1:]:
        _, z, _, system, _ = line.split()  # RAW.SCR Z.SCR N SYS N.ALL
        human[system] = z
    metrics: dict[str, dict[str, str]] = {}
    for metric in PUBLISHED[pair]:
        with gzip.open(folder / "metrics" / "original" / f"{metric}.sys.score.gz", "rt") as f:
            for line in f:
                _, lp, _, refset, system, score = line.rstrip("\n").split("\t")
                if lp == pair and refset == "newstest2020":
                    metrics.setdefault(system, {})[metric] = score
    mt_systems = {s for s in human if not s.startswith("Human") and s in metrics}
    human_path, metric_path = tmp_path / "human.tsv", tmp_path / "metrics.tsv"
    human_path.write_text(
        "system\tDA\n" + "".join(f"{s}\t{human[s]}\n" for s in sorted(mt_systems))
    )
    names = list(PUBLISHED[pair])
    metric_path.write_text(
        "system\t"
        + "\t".join(names)
        + "\n"
        + "".join(
            f"{s}\t" + "\t".join(metrics[s][m] for m in names) + "\n" for s in sorted(mt_systems)
        )
    )
    return str(human_path), str(metric_path), mt_systems


@pytest.mark.parametrize("pair", ["en-de", "zh-en"])
def test_wmt20_system_level_correlations(pair, tmp_path, capsys):
    import json

    folder = shared_dataset("wmt20-newstest2020-scores")
    human, metrics, mt_systems = write_tables(pair, folder, tmp_path)
    base = ["correlate", "--human", human, "--metrics", metrics, "--format", "json"]
    assert main([*base, "--exclude", *sorted(OUTLIERS[pair])]) == 0
    without_outliers = json.loads(capsys.readouterr().out)
    assert main(base) == 0
    all_mt = json.loads(capsys.readouterr().out)
    for metric, (pearson, kendall) in PUBLISHED[pair].items():
        assert without_outliers[metric]["n"] == len(mt_systems) - len(OUTLIERS[pair])
        assert without_outliers[metric]["pearson"] == pytest.approx(pearson, abs=1e-12)
        assert all_mt[metric]["n"] == len(mt_systems)
        assert all_mt[metric]["kendall"] == pytest.approx(kendall, abs=1e-12)
