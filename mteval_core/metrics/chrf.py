"""chrF (Popović 2015) and chrF++ (Popović 2017), exactly as sacreBLEU 2.x computes them.

chrF is the F-score (beta = 2: recall weighs four times as much as precision) of character n-grams
of orders 1..6, counted on the text with all whitespace removed; chrF++ adds word unigrams and
bigrams (words split on whitespace, with a leading or trailing punctuation mark split off). Only
the ``lowercase`` option applies: chrF does not tokenize and does not stem.

Statistics per segment, in sacreBLEU's order (counted by compiled code, chrf_statistics.py, with
sacreBLEU's own Python as the fallback): for every order (characters 1..6, then words), the
hypothesis n-gram count, the reference n-gram count and the clipped matches. With several
references a segment keeps the statistics of the reference with the best sentence-level chrF (the
first on ties). The score of summed statistics is sacreBLEU's default, "effective order": precision
and recall are averaged over the orders that have n-grams on both sides, then combined into
F-beta; a corpus score sums the statistics of all segments first.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from mteval_core.metrics.base import safe_divide
from mteval_core.metrics.chrf_statistics import (
    chrf_segment_statistics,
    compiled_module,
    warn_slow_chrf,
)
from mteval_core.metrics.sacrebleu_segments import RawTextMetric

if TYPE_CHECKING:
    from sacrebleu.metrics import CHRF as SacrebleuCHRF

CHAR_ORDER = 6
BETA = 2


def chrf_from_totals(totals: np.ndarray, beta: float = BETA) -> np.ndarray:
    """chrF on sacreBLEU's 0-100 scale from (..., 3 * n_orders) statistics, over any leading axes.

    The arithmetic follows sacreBLEU's ``_compute_f_score`` step by step (orders added left to
    right), so that scores agree to the last bit or nearly."""
    totals = np.asarray(totals, dtype=np.float64)
    n_hyp, n_ref, n_match = totals[..., 0::3], totals[..., 1::3], totals[..., 2::3]
    effective = (n_hyp > 0) & (n_ref > 0)
    precision = np.where(effective, safe_divide(n_match, n_hyp), 0.0)
    recall = np.where(effective, safe_divide(n_match, n_ref), 0.0)
    summed_precision = np.zeros(totals.shape[:-1])
    summed_recall = np.zeros(totals.shape[:-1])
    for order in range(n_hyp.shape[-1]):
        summed_precision = summed_precision + precision[..., order]
        summed_recall = summed_recall + recall[..., order]
    n_effective = effective.sum(axis=-1)
    mean_precision = safe_divide(summed_precision, n_effective)
    mean_recall = safe_divide(summed_recall, n_effective)
    factor = beta**2
    numerator = (1 + factor) * mean_precision * mean_recall
    score = safe_divide(numerator, factor * mean_precision + mean_recall)
    return 100 * score


def _stat_names(word_order: int) -> tuple[str, ...]:
    orders = [f"char{n}" for n in range(1, CHAR_ORDER + 1)]
    orders += [f"word{n}" for n in range(1, word_order + 1)]
    return tuple(f"{kind}_{order}" for order in orders for kind in ("hyp", "ref", "match"))


class CHRF(RawTextMetric):
    name = "chrf"
    label = "chrF"
    scale = "0 to 100"
    higher_is_better: ClassVar[bool] = True
    word_order: ClassVar[int] = 0
    stat_names = _stat_names(0)

    def scorer(self) -> SacrebleuCHRF:
        from sacrebleu.metrics import CHRF as SacrebleuCHRF

        return SacrebleuCHRF(
            char_order=CHAR_ORDER,
            word_order=self.word_order,
            beta=BETA,
            lowercase=self.options.lowercase,
        )

    def compute_statistics(
        self, references: Sequence[Sequence[str]], systems: Mapping[str, Sequence[str]]
    ) -> dict[str, np.ndarray]:
        """The compiled counts (chrf_statistics.py), sacreBLEU's numbers about a hundred times
        faster; sacreBLEU's own Python, with a note, where the module was not built."""
        if compiled_module() is None:
            warn_slow_chrf()
            return super().compute_statistics(references, systems)
        return chrf_segment_statistics(
            references,
            systems,
            char_order=CHAR_ORDER,
            word_order=self.word_order,
            beta=BETA,
            lowercase=self.options.lowercase,
        )

    def score_from_totals(self, totals: np.ndarray) -> np.ndarray:
        return chrf_from_totals(totals)

    @property
    def case_label(self) -> str:
        """chrF reads the raw text: only ``lowercase`` changes its case (not the mteval
        tokenizer's ASCII lowercasing), as sacreBLEU's ``lowercase``."""
        return "lc" if self.options.lowercase else "mixed"

    def signature_options(self) -> dict[str, str]:
        return {"nc": str(CHAR_ORDER), "nw": str(self.word_order), "space": "no"}


class CHRFPlusPlus(CHRF):
    name = "chrf++"
    label = "chrF++"
    word_order = 2
    stat_names = _stat_names(2)
