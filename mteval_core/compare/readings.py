"""The two ways the analyses read text: which tokens they count, and which BLEU they score.

- ``TokenizedReading`` (the default of the page and the commands): the text as Scores and
  `mteval score` read it, with the options' tokenizer, case and stemming, and sacreBLEU's BLEU
  and sentence BLEU, so that the comparison's corpus BLEU is Scores' BLEU against the same
  reference, to the last bit (``metrics.bleu``: the same statistics, the same sums, the same
  function of them). Chinese read with ``zh`` or Japanese with ``char`` gives the numbers WMT
  reports.
- ``CompareMtReading``: compare-mt 0.2.10's, for its numbers: each line stripped and split on
  single spaces (``whitespace_split``), its corpus BLEU and NLTK's sentence BLEU
  (``compare_mt_bleu``). It expects text that is split into words already; Chinese or Japanese as
  written is one "word" per run of characters, and every BLEU reads near zero.

Either reading says when its tokens are too long to be words (``unsplit_note``): a comparison
whose charts are all near zero says why instead of showing them silently.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from mteval_core.compare.compare_mt_bleu import (
    corpus_bleu,
    counted_as_compare_mt,
    sentence_bleus,
)
from mteval_core.compare.whitespace_split import split_corpus
from mteval_core.metrics.bleu import BLEU
from mteval_core.settings.options import Options
from mteval_core.text.stemming import stemmer
from mteval_core.text.tokenizers import tokenize

COMPARE_MT_VERSION = "0.2.10"  # whose defaults and numbers the compare-mt reading gives
# Tokens of the reference longer than this many characters on average are not words: every
# WMT23 reference split on spaces averages 4.6-5.9 characters a word (German 5.65, Russian
# 5.81), but Chinese 15.8 and Japanese 41.3, where runs of characters have no space between them
WORD_CHARACTERS = 10.0
# the statistics' columns as sacreBLEU orders them: hypothesis length, reference length, the rest
_SACREBLEU_COLUMNS = np.array([1, 0, *range(2, 10)])


class Reading(ABC):
    """How the analyses read the text (its tokens) and score it (corpus and sentence BLEU, 0-100,
    from ``ngram_matches``' statistics: reference length, hypothesis length, matches and
    hypothesis n-grams of n = 1..4)."""

    key: ClassVar[str]  # the JSON's "reading", the command line's choice
    bleu_label: ClassVar[str]  # how tables, charts and the page name its corpus BLEU
    sentence_bleu_label: ClassVar[str]
    token: ClassVar[str]  # what its tokens are called: "word" or "token"

    @abstractmethod
    def tokens(self, segments: Sequence[str]) -> list[tuple[str, ...]]:
        """Each segment's tokens, as the analyses count them."""

    @abstractmethod
    def bleu_statistics(self, counted: np.ndarray) -> np.ndarray:
        """Per sentence, the statistics this reading's BLEU sums (from ``ngram_matches``')."""

    @abstractmethod
    def corpus_bleu(self, totals: np.ndarray) -> np.ndarray:
        """BLEU of summed ``bleu_statistics``, over any leading axes."""

    @abstractmethod
    def sentence_bleus(self, statistics: np.ndarray) -> np.ndarray:
        """Every sentence's BLEU, one row of ``bleu_statistics`` each."""

    @abstractmethod
    def text_signature(self) -> tuple[str, ...]:
        """The signature's parts that say how the text became tokens."""

    @abstractmethod
    def bleu_signature(self) -> tuple[str, ...]:
        """The signature's parts that say which BLEU was scored."""

    @abstractmethod
    def how_split(self) -> str:
        """How the text became tokens, as a phrase ("tokenized with zh", "split on spaces")."""

    @abstractmethod
    def description(self) -> str:
        """One phrase for captions and reports: how the text was read and scored."""

    @abstractmethod
    def remedy(self) -> str:
        """What reads text that this reading does not split into words."""

    def split(self, segment: str) -> tuple[str, ...]:
        """One segment's tokens (the sentences a page shows, marked word by word)."""
        return self.tokens([segment])[0]


@dataclass(frozen=True)
class TokenizedReading(Reading):
    """The text as Scores and `mteval score` read it under ``options`` (tokenizer, case,
    stemming), scored with sacreBLEU's BLEU: exp smoothing for the corpus, sentence BLEU with
    the effective order, as the Scores page's segment scores."""

    options: Options
    key: ClassVar[str] = "tokenized"
    bleu_label: ClassVar[str] = "BLEU"
    sentence_bleu_label: ClassVar[str] = "sentence BLEU"
    token: ClassVar[str] = "token"

    def tokens(self, segments: Sequence[str]) -> list[tuple[str, ...]]:
        stem = stemmer(self.options.stem, self.options.stem_language)
        tokenized = tokenize(segments, self.options)
        if stem is None:
            return [tuple(tokens) for tokens in tokenized]
        return [tuple(map(stem, tokens)) for tokens in tokenized]

    def bleu_statistics(self, counted: np.ndarray) -> np.ndarray:
        return counted  # sacreBLEU's counts already: an order a sentence is too short for is 0

    def corpus_bleu(self, totals: np.ndarray) -> np.ndarray:
        return BLEU(self.options).score_from_totals(np.asarray(totals)[..., _SACREBLEU_COLUMNS])

    def sentence_bleus(self, statistics: np.ndarray) -> np.ndarray:
        return BLEU(self.options).segment_scores(np.asarray(statistics)[..., _SACREBLEU_COLUMNS])

    def text_signature(self) -> tuple[str, ...]:
        return tuple(self.options.preprocessing_signature().split("|"))

    def bleu_signature(self) -> tuple[str, ...]:
        return ("bleu:sacrebleu", "smooth:exp", "sentbleu:sacrebleu")

    def how_split(self) -> str:
        options = self.options
        parts = [f"tokenized with {options.tokenize_label}"]
        if options.lowercase:
            parts.append("lowercased")
        if options.stem != "none":
            parts.append(f"stemmed ({options.stem_label})")
        return ", ".join(parts)

    def description(self) -> str:
        return f"{self.how_split()} as the scores read it, with sacreBLEU's BLEU"

    def remedy(self) -> str:
        return (
            f"the {self.options.tokenize_label} tokenizer does not split this text into words; "
            "a tokenizer for its language does (zh for Chinese, char or ja-mecab for Japanese)"
        )


@dataclass(frozen=True)
class CompareMtReading(Reading):
    """compare-mt 0.2.10's reading: split on spaces, its BLEU and NLTK's sentence BLEU."""

    key: ClassVar[str] = "compare-mt"
    bleu_label: ClassVar[str] = "compare-mt BLEU"
    sentence_bleu_label: ClassVar[str] = "compare-mt sentence BLEU"
    token: ClassVar[str] = "word"

    def tokens(self, segments: Sequence[str]) -> list[tuple[str, ...]]:
        return split_corpus(segments)

    def bleu_statistics(self, counted: np.ndarray) -> np.ndarray:
        return counted_as_compare_mt(counted)

    def corpus_bleu(self, totals: np.ndarray) -> np.ndarray:
        return corpus_bleu(totals)

    def sentence_bleus(self, statistics: np.ndarray) -> np.ndarray:
        return sentence_bleus(statistics)

    def text_signature(self) -> tuple[str, ...]:
        return ("tok:whitespace", "case:mixed")

    def bleu_signature(self) -> tuple[str, ...]:
        return ("sentbleu:nltk-method2", f"compare-mt:{COMPARE_MT_VERSION}")

    def how_split(self) -> str:
        return "split on spaces"

    def description(self) -> str:
        return f"{self.how_split()} as compare-mt {COMPARE_MT_VERSION} reads it, with its BLEU"

    def remedy(self) -> str:
        return (
            "compare-mt reads text that is split into words already, and the default reading "
            "tokenizes it as the scores do"
        )


COMPARE_MT = CompareMtReading()
READINGS = (TokenizedReading.key, CompareMtReading.key)


def unsplit_note(reading: Reading, tokens: Sequence[Sequence[str]]) -> str | None:
    """A note when the reference's ``tokens`` (as ``reading`` split it) average more than
    WORD_CHARACTERS characters: the text is not split into words, so every BLEU and bucket of
    the comparison reads near zero. None when they look like words."""
    n_tokens = sum(len(sentence) for sentence in tokens)
    n_characters = sum(len(token) for sentence in tokens for token in sentence)
    if n_tokens == 0 or n_characters / n_tokens <= WORD_CHARACTERS:
        return None
    return (
        f"the reference's {n_tokens:,} {reading.token}s ({reading.how_split()}) average "
        f"{n_characters / n_tokens:.1f} characters: the text is not split into words (Chinese "
        "and Japanese are written without spaces), so every BLEU and bucket of this "
        f"comparison reads near zero; {reading.remedy()}"
    )
