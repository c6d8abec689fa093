"""TER, translation edit rate (Snover et al. 2006), exactly as sacreBLEU 2.x computes it.

TER counts the edits (insertions, deletions, substitutions and shifts of word sequences) that turn
the hypothesis into the reference, divided by the reference length. It is an error rate: lower is
better, on sacreBLEU's scale (100 = as many edits as reference words; it can exceed 100).

TER tokenizes with its own Tercom rules, not with the shared tokenizer: with sacreBLEU's defaults
(no normalisation, punctuation kept, no Asian-script handling) that is a split on whitespace. Its
case follows sacreBLEU's default: case-insensitive (``case:lc`` in TER's signature), whatever the
other metrics do, because published TER numbers (WMT's, mt-metrics-eval's) come from that default;
``Options.ter_case_sensitive`` (``--ter-case-sensitive``) asks for case-sensitive TER
(``case:mixed``), and ``lowercase`` lowercases TER's text as every other metric's.

Statistics per segment, as sacreBLEU keeps them (computed by compiled code, ter_statistics.py,
with sacreBLEU's own Python as the fallback): the fewest edits against any reference, and the
mean length of the references. Corpus TER is sum(edits) / sum(mean reference lengths); a segment
or corpus whose references are empty scores 100 with edits and 0 without.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, ClassVar

import numpy as np

from mteval_core.metrics.base import safe_divide
from mteval_core.metrics.sacrebleu_segments import RawTextMetric
from mteval_core.metrics.ter_statistics import (
    compiled_module,
    ter_segment_statistics,
    warn_slow_ter,
)

if TYPE_CHECKING:
    from sacrebleu.metrics import TER as SacrebleuTER


def ter_from_totals(totals: np.ndarray) -> np.ndarray:
    """TER on sacreBLEU's scale from (..., 2) statistics (edits, reference length)."""
    totals = np.asarray(totals, dtype=np.float64)
    edits, reference_length = totals[..., 0], totals[..., 1]
    rate = np.where(reference_length > 0, safe_divide(edits, reference_length), edits > 0)
    return 100 * rate


class TER(RawTextMetric):
    name = "ter"
    label = "TER"
    scale = "0 and up, lower is better"
    higher_is_better: ClassVar[bool] = False
    stat_names = ("edits", "reference_length")

    def scorer(self) -> SacrebleuTER:
        from sacrebleu.metrics import TER as SacrebleuTER

        return SacrebleuTER(case_sensitive=self.case_sensitive)

    def compute_statistics(
        self, references: Sequence[Sequence[str]], systems: Mapping[str, Sequence[str]]
    ) -> dict[str, np.ndarray]:
        """The compiled shift search (ter_statistics.py), sacreBLEU's numbers many times
        faster; sacreBLEU's own Python, with a note, where the module was not built."""
        if compiled_module() is None:
            warn_slow_ter()
            return super().compute_statistics(references, systems)
        return ter_segment_statistics(references, systems, case_sensitive=self.case_sensitive)

    @property
    def case_sensitive(self) -> bool:
        """Case-sensitive only when asked for and the text is not lowercased anyway."""
        return self.options.ter_case_sensitive and not self.options.lowercase

    @property
    def case_label(self) -> str:
        return "mixed" if self.case_sensitive else "lc"

    def score_from_totals(self, totals: np.ndarray) -> np.ndarray:
        return ter_from_totals(totals)

    def signature_options(self) -> dict[str, str]:
        return {"ter-tok": "tercom", "norm": "no", "punct": "yes", "asian": "no"}
