"""Which words of two outputs to highlight, as MT-ComparEval shows a sentence (Klejch et al.
2015): the n-grams (orders 1-4) of each output that the reference confirms, and among them the
ones the other output lacks. With a as the baseline, b's own confirmed n-grams are MT-ComparEval's
"improving" n-grams and a's own are its "worsening" ones.

An n-gram is confirmed as many times as the reference has it (clipped, as BLEU and compare-mt's
n-gram analysis count); one output's own confirmed n-grams are those it has confirmed more often
than the other. A word is marked by the n-grams that cover it: ``own`` when one of them is among
the output's own, else ``confirmed`` when one is confirmed, else ``unconfirmed``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from mteval_core.compare.ngram_matches import MAX_ORDER, ngrams_of
from mteval_core.compare.whitespace_split import split_tokens

OWN, CONFIRMED, UNCONFIRMED = "own", "confirmed", "unconfirmed"


@dataclass(frozen=True)
class Highlights:
    """Each output's words with their mark (``OWN``, ``CONFIRMED`` or ``UNCONFIRMED``)."""

    a: tuple[tuple[str, str], ...]
    b: tuple[tuple[str, str], ...]
    own_a: tuple[str, ...]  # a's own confirmed n-grams (words joined by spaces): "worsening"
    own_b: tuple[str, ...]  # b's own: "improving"


def confirmed(tokens: Sequence[str], in_reference: Counter, max_order: int) -> Counter:
    return Counter(
        {
            g: min(c, in_reference[g])
            for g, c in ngrams_of(tokens, max_order).items()
            if g in in_reference
        }
    )


def _marks(tokens: Sequence[str], own: Counter, confirmed_here: Counter, max_order: int) -> tuple:
    marks = [UNCONFIRMED] * len(tokens)
    for n in range(1, max_order + 1):
        for i in range(len(tokens) - n + 1):
            gram = tuple(tokens[i : i + n])
            for j in range(i, i + n):
                if gram in own:
                    marks[j] = OWN
                elif gram in confirmed_here and marks[j] == UNCONFIRMED:
                    marks[j] = CONFIRMED
    return tuple(zip(tokens, marks))


def highlights(
    reference: str,
    a: str,
    b: str,
    split: Callable[[str], Sequence[str]] = split_tokens,
    max_order: int = MAX_ORDER,
) -> Highlights:
    """The marks of one sentence's two outputs against its reference, each text's tokens as
    ``split`` gives them (``readings.Reading.split``; by default compare-mt's)."""
    ref, out_a, out_b = split(reference), split(a), split(b)
    in_reference = ngrams_of(ref, max_order)
    confirmed_a = confirmed(out_a, in_reference, max_order)
    confirmed_b = confirmed(out_b, in_reference, max_order)
    own_a, own_b = confirmed_a - confirmed_b, confirmed_b - confirmed_a
    return Highlights(
        _marks(out_a, own_a, confirmed_a, max_order),
        _marks(out_b, own_b, confirmed_b, max_order),
        tuple(" ".join(g) for g in sorted(own_a)),
        tuple(" ".join(g) for g in sorted(own_b)),
    )
