"""METEOR's matching modules: each adds its candidate matches to a `Stage`, in the jar's order.

The order of the matches within `Stage.matches[j]` decides ties in the aligner's beam search, so
every matcher walks the words as the jar's matcher does: reference words in the outer loop,
hypothesis words in the inner one. Words are compared by their Java hash keys where the jar
compares keys (`Stage.hypothesis_keys`): the stem and synonym matchers skip a pair of words with
one key, whether or not an earlier module matched them (that is all they skip: they never look
at earlier matches), and the paraphrase matcher skips nothing at all, not even pairs of
identical words. Every match has prob 1, as in the jar.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import numpy as np

from mteval_core.errors import InputError
from mteval_core.metrics.meteor.java_strings import java_hash
from mteval_core.metrics.meteor.paraphrases import ParaphraseTable, extend_hash
from mteval_core.metrics.meteor.resources import MeteorData
from mteval_core.metrics.meteor.stage import Match, Stage
from mteval_core.metrics.meteor.synonyms import SynonymDictionary


def match_exact(stage: Stage, module: int) -> None:
    """One-word matches between words with one key (the jar's `ExactMatcher`: every reference
    word, then the hypothesis words with its key in ascending order), in time that grows with
    the words and the matches, not with their product."""
    hypothesis_positions = _positions_by_key(stage.hypothesis_keys)
    for j, reference_key in enumerate(stage.reference_keys):
        for i in hypothesis_positions.get(reference_key, ()):
            stage.add(Match(j, 1, i, 1, 1.0, module))


def _positions_by_key(keys: Sequence[int]) -> dict[int, list[int]]:
    """Key -> the ascending positions holding it."""
    positions: dict[int, list[int]] = {}
    for index, key in enumerate(keys):
        positions.setdefault(key, []).append(index)
    return positions


def match_stems(stage: Stage, module: int, stem: Callable[[str], str]) -> None:
    """One-word matches between different words whose stems have one key (`StemMatcher`).

    `stem` is the language's stemmer (`resources.stemmer`); words are stemmed as they stand.
    """
    hypothesis_stems = _positions_by_key([java_hash(stem(word)) for word in stage.hypothesis])
    for j, word in enumerate(stage.reference):
        for i in hypothesis_stems.get(java_hash(stem(word)), ()):
            if stage.hypothesis_keys[i] != stage.reference_keys[j]:
                stage.add(Match(j, 1, i, 1, 1.0, module))


def match_synonyms(stage: Stage, module: int, synonyms: SynonymDictionary) -> None:
    """One-word matches between different words sharing a WordNet synset (`SynonymMatcher`:
    every reference word, then the hypothesis words in ascending order), the hypothesis words
    found through their synsets, so that the time grows with the matches and not with the
    product of the lines' lengths."""
    by_synset: dict[int, list[int]] = {}
    for i, word in enumerate(stage.hypothesis):
        for synset in synonyms.synsets(word):
            by_synset.setdefault(synset, []).append(i)
    keys = stage.hypothesis_keys
    matched: dict[str, list[int]] = {}  # a repeated reference word's positions, found once
    for j, word in enumerate(stage.reference):
        if word not in matched:
            sharing = {i for synset in synonyms.synsets(word) for i in by_synset.get(synset, ())}
            key = stage.reference_keys[j]
            matched[word] = sorted(i for i in sharing if keys[i] != key)
        for i in matched[word]:
            stage.add(Match(j, 1, i, 1, 1.0, module))


class _PhraseIndex:
    """Where each phrase of a line starts, by phrase hash, for the phrases a table can hold."""

    def __init__(self, word_ids: list[int], longest: int) -> None:
        self.word_ids = word_ids
        self.starts = _phrase_starts(word_ids, longest)
        self.keys = np.sort(np.fromiter(self.starts, dtype=np.uint64, count=len(self.starts)))

    def occurrences(
        self, table: ParaphraseTable, paraphrases: np.ndarray
    ) -> Iterator[tuple[int, int]]:
        """(length, start) of every place each paraphrase occurs, the paraphrases in order."""
        if not len(self.keys) or not len(paraphrases):
            return
        hashes = table.phrase_hash[paraphrases]
        places = np.minimum(np.searchsorted(self.keys, hashes), len(self.keys) - 1)
        for hit in np.flatnonzero(self.keys[places] == hashes):
            words = table.phrase(int(paraphrases[hit]))
            length = len(words)
            for start in self.starts[int(hashes[hit])]:
                if self.word_ids[start : start + length] == words.tolist():
                    yield length, start


def _phrase_starts(word_ids: list[int], longest: int) -> dict[int, list[int]]:
    """Phrase hash -> ascending starts of the phrases of at most `longest` known words."""
    starts: dict[int, list[int]] = {}
    for start in range(len(word_ids)):
        value = 0
        for word_id in word_ids[start : start + longest]:
            if word_id < 0:
                break
            value = extend_hash(value, word_id)
            starts.setdefault(value, []).append(start)
    return starts


def match_paraphrases(stage: Stage, module: int, paraphrases: ParaphraseTable) -> None:
    """Phrase matches from the paraphrase table, both ways (`ParaphraseMatcher`).

    First every reference phrase's paraphrases found in the hypothesis (reference start
    outer), then every hypothesis phrase's paraphrases found in the reference (hypothesis start
    outer); each phrase's paraphrases in file order, each paraphrase at every place it occurs.
    """
    hypothesis_ids = paraphrases.translate(stage.hypothesis)
    reference_ids = paraphrases.translate(stage.reference)
    longest = paraphrases.longest_phrase
    in_hypothesis = _PhraseIndex(hypothesis_ids, longest)
    for j in range(len(reference_ids)):
        for length, targets in paraphrases.paths(reference_ids, j):
            for match_length, i in in_hypothesis.occurrences(paraphrases, targets):
                stage.add(Match(j, length, i, match_length, 1.0, module))
    in_reference = _PhraseIndex(reference_ids, longest)
    for i in range(len(hypothesis_ids)):
        for match_length, targets in paraphrases.paths(hypothesis_ids, i):
            for length, j in in_reference.occurrences(paraphrases, targets):
                stage.add(Match(j, length, i, match_length, 1.0, module))


MODULES = ("exact", "stem", "synonym", "paraphrase")


def module_matchers(
    modules: Sequence[str], language: str, data: MeteorData
) -> list[Callable[[Stage, int], None]]:
    """One `matcher(stage, module_index)` per configured module, its resources loaded now.

    `modules` are the jar's module names in the configured order (`-m "exact stem ..."`); a
    module whose data is missing raises the `InputError` that says where to get it.
    """
    prepared: list[Callable[[Stage, int], None]] = []
    for name in modules:
        module = name.lower()
        if module == "exact":
            prepared.append(match_exact)
        elif module == "stem":
            stem = data.stemmer(language)
            prepared.append(lambda stage, index, stem=stem: match_stems(stage, index, stem))
        elif module == "synonym":
            synonyms = data.synonyms(language)
            prepared.append(lambda stage, index, s=synonyms: match_synonyms(stage, index, s))
        elif module == "paraphrase":
            table = data.paraphrases(language)
            prepared.append(lambda stage, index, t=table: match_paraphrases(stage, index, t))
        else:
            raise InputError(f"METEOR has no module {name!r}", hint=f"Use {', '.join(MODULES)}.")
    return prepared
