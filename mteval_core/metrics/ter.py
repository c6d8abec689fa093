"""TER, translation edit rate (Snover et al. 2006), exactly as sacreBLEU 2.x computes it.

TER counts the edits (insertions, deletions, substitutions and shifts of word sequences) that turn
the hypothesis into the reference, divided by the reference length. It is an error rate: lower is
better, on sacreBLEU's scale (100 = as many edits as reference words; it can exceed 100).

TER tokenizes with its own Tercom rules, not with the shared tokenizer: with sacreBLEU's defaults
(no normalisation, punctuation kept, no Asian-script handling) that is a split on whitespace, so
on Chinese and Japanese, written without spaces, most segments are one word and TER reads about
100 (WMT23 en-ja: 99-130; with normalized and asian_support, 68-71). sacreBLEU's options
(``Options.ter.normalized``, ``ter_no_punct``, ``ter_asian_support``) give its numbers, and a
note says so where the output is Chinese or Japanese and they are not set. Its case follows
sacreBLEU's default: case-insensitive (``case:lc`` in TER's signature), whatever the other
metrics do, because published TER numbers (WMT's, mt-metrics-eval's) come from that default;
``Options.ter.case_sensitive`` (``--ter-case-sensitive``) asks for case-sensitive TER
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

from mteval_core.errors import Note, say
from mteval_core.metrics.base import safe_divide
from mteval_core.metrics.sacrebleu_segments import RawTextMetric
from mteval_core.metrics.ter_statistics import (
    compiled_module,
    ter_segment_statistics,
    warn_slow_ter,
)
from mteval_core.model.testset import TestSet
from mteval_core.settings.languages import NAMES, languages_of

# Languages written without spaces between words, where Tercom's default split leaves whole
# sentences as one word (its asian_support rules cover CJK ideographs, kana and CJK punctuation).
UNSPACED_LANGUAGES = ("zh", "ja")

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
    family = "ter"

    def scorer(self) -> SacrebleuTER:
        from sacrebleu.metrics import TER as SacrebleuTER

        return SacrebleuTER(**self.tercom_options())

    def tercom_options(self) -> dict[str, bool]:
        """sacreBLEU's ``TER(...)`` arguments for these options."""
        return {
            "normalized": self.options.ter.normalized,
            "no_punct": self.options.ter.no_punct,
            "asian_support": self.options.ter.asian_support,
            "case_sensitive": self.case_sensitive,
        }

    def text_statistics(self, test_set: TestSet, system: str) -> np.ndarray:
        """As every raw-text metric's, with a note where the output is Chinese or Japanese and
        TER's words are still whitespace-separated (sacreBLEU's default)."""
        splits_characters = self.options.ter.normalized and self.options.ter.asian_support
        target = languages_of(test_set).target
        if target in UNSPACED_LANGUAGES and not splits_characters:
            say(unspaced_note(NAMES[target]), Note, stacklevel=2)
        return super().text_statistics(test_set, system)

    def compute_statistics(
        self, references: Sequence[Sequence[str]], systems: Mapping[str, Sequence[str]]
    ) -> dict[str, np.ndarray]:
        """The compiled shift search (ter_statistics.py), sacreBLEU's numbers many times
        faster; sacreBLEU's own Python, with a note, where the module was not built."""
        if compiled_module() is None:
            warn_slow_ter()
            return super().compute_statistics(references, systems)
        return ter_segment_statistics(references, systems, **self.tercom_options())

    @property
    def case_sensitive(self) -> bool:
        """Case-sensitive only when asked for and the text is not lowercased anyway."""
        return self.options.ter.case_sensitive and not self.options.lowercase

    @property
    def case_label(self) -> str:
        return "mixed" if self.case_sensitive else "lc"

    def score_from_totals(self, totals: np.ndarray) -> np.ndarray:
        return ter_from_totals(totals)

    def signature_options(self) -> dict[str, str]:
        """sacreBLEU's TER fields (``ter-tok``: its ``tok``, which the run's signature has for
        the shared tokenizer)."""
        options = self.options
        return {
            "ter-tok": "tercom",
            "norm": _yes_no(options.ter.normalized),
            "punct": _yes_no(not options.ter.no_punct),
            "asian": _yes_no(options.ter.asian_support),
        }


def _yes_no(value: bool) -> str:
    return "yes" if value else "no"


def unspaced_note(language: str) -> str:
    """Said wherever TER is scored on Chinese or Japanese output without sacreBLEU's options
    that split it into characters (named as sacreBLEU names them)."""
    return (
        f"TER on {language} output splits words on whitespace only (sacreBLEU's default Tercom "
        f"tokenization), and {language} is written without spaces: most segments are one word "
        "or a few, so TER reads about 100 or more. sacreBLEU's TER options normalized and "
        "asian_support together split every CJK character."
    )
