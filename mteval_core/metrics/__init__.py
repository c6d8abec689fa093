"""The metric registry: the CLI, the statistics and the dashboard find metrics by name here."""

from __future__ import annotations

from mteval_core.errors import InputError
from mteval_core.metrics.base import Metric
from mteval_core.metrics.bleu import BLEU, BLEUArithmetic
from mteval_core.metrics.chrf import CHRF, CHRFPlusPlus
from mteval_core.metrics.gtm import GTM, GTMPrecision, GTMRecall
from mteval_core.metrics.meteor.metric import METEOR
from mteval_core.metrics.nist import NIST
from mteval_core.metrics.ter import TER
from mteval_core.metrics.unigram import F1, Fmean, Precision, Recall
from mteval_core.settings.options import Options

REGISTRY: dict[str, type[Metric]] = {
    cls.name: cls
    for cls in (
        BLEU,
        NIST,
        Precision,
        Recall,
        F1,
        Fmean,
        BLEUArithmetic,
        GTM,
        GTMPrecision,
        GTMRecall,
        CHRF,
        CHRFPlusPlus,
        TER,
        METEOR,
    )
}
DEFAULT_METRICS = ("bleu", "nist", "precision", "recall", "f1", "fmean")


def get_metric(name: str, options: Options) -> Metric:
    try:
        return REGISTRY[name](options)
    except KeyError:
        raise InputError(
            f"unknown metric {name!r}", hint=f"Available metrics: {', '.join(REGISTRY)}."
        ) from None


def parse_metric_list(text: str) -> list[str]:
    """'bleu, nist' -> ['bleu', 'nist'], checking every name and refusing an empty list."""
    names = [name.strip().lower() for name in text.split(",") if name.strip()]
    if not names:
        raise InputError("no metric was named", hint=f"Choose from: {', '.join(REGISTRY)}.")
    for name in names:
        if name not in REGISTRY:
            raise InputError(
                f"unknown metric {name!r}", hint=f"Available metrics: {', '.join(REGISTRY)}."
            )
    return list(dict.fromkeys(names))


__all__ = ["DEFAULT_METRICS", "REGISTRY", "Metric", "get_metric", "parse_metric_list"]
