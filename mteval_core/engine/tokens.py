"""Text as integer token ids: the vocabulary that gives words their ids, one text column's ids
end to end (:class:`TokenStream`), and each system's ids encoded when it is scored
(:class:`SystemStreams`). ``ngrams`` builds the n-gram statistics on these arrays.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from mteval_core.model.testset import TextColumn
from mteval_core.settings.options import Options
from mteval_core.text.tokenizers import token_ids, token_table, tokenize


class Vocabulary:
    """Token string -> integer id; with stemming, all forms of a stem share one id."""

    def __init__(self, stem: Callable[[str], str] | None = None) -> None:
        self._stem = stem
        self._id_of_form: dict[str, int] = {}
        self._id_of_word: dict[str, int] = {}
        self.words: list[str] = []  # id -> the (stemmed) word
        self._compiled_table = token_table(self._add_form)

    def encode_texts(self, texts: Sequence[str], options: Options) -> TokenStream:
        """Tokenize and encode in one pass where the compiled tokenizer is there."""
        if self._compiled_table is None:
            return self.encode(tokenize(texts, options))
        ids, lengths = token_ids(texts, options, self._compiled_table)
        return TokenStream(ids, offsets_of(lengths))

    def encode(self, token_lists: Sequence[Sequence[str]]) -> TokenStream:
        flat = [token for tokens in token_lists for token in tokens]
        # First-seen order, not set order: ids (and so the order of every float sum over them)
        # must not depend on PYTHONHASHSEED.
        for form in dict.fromkeys(form for form in flat if form not in self._id_of_form):
            self._add_form(form)
        ids = np.fromiter(map(self._id_of_form.__getitem__, flat), np.int32, len(flat))
        return TokenStream(ids, offsets_of(np.fromiter(map(len, token_lists), np.int64)))

    def _add_form(self, form: str) -> int:
        """The id of a form seen for the first time: its stem's id, new if the stem is new."""
        found = self._id_of_form.get(form)
        if found is not None:
            return found
        word = self._stem(form) if self._stem else form
        if word not in self._id_of_word:
            self._id_of_word[word] = len(self.words)
            self.words.append(word)
        self._id_of_form[form] = self._id_of_word[word]
        return self._id_of_form[form]

    def id_of(self, word: str) -> int | None:
        return self._id_of_word.get(word)


def offsets_of(lengths: np.ndarray) -> np.ndarray:
    offsets = np.zeros(len(lengths) + 1, np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return offsets


@dataclass(frozen=True, eq=False)
class TokenStream:
    """All tokens of one text column end to end, with segment boundaries."""

    ids: np.ndarray  # int32 token ids (half of int64's memory; GTM's loops copy a block to int64)
    offsets: np.ndarray  # int64, n_segments + 1; segment i is ids[offsets[i]:offsets[i+1]]

    @property
    def lengths(self) -> np.ndarray:
        return np.diff(self.offsets)

    def blocks(self, max_tokens: int) -> list[tuple[int, int]]:
        """Consecutive segment ranges [first, last) of at most ``max_tokens`` tokens each (or one
        segment, if a single segment is longer), covering every segment."""
        n_segments = len(self.offsets) - 1
        ranges, first = [], 0
        while first < n_segments:
            last = int(np.searchsorted(self.offsets, self.offsets[first] + max_tokens, "right"))
            last = min(max(last - 1, first + 1), n_segments)
            ranges.append((first, last))
            first = last
        return ranges or [(0, 0)]

    def block(self, first: int, last: int) -> TokenStream:
        """Segments first .. last - 1 as a stream of their own (views, no copy of the ids)."""
        start = self.offsets[first]
        return TokenStream(
            self.ids[start : self.offsets[last]], self.offsets[first : last + 1] - start
        )

    def grams(self, n: int) -> Grams:
        """Where the n-grams inside segments start, and their segment. Computed when asked and
        not kept: these per-token arrays are the largest thing a stream has."""
        segment = np.repeat(np.arange(len(self.offsets) - 1, dtype=np.int32), self.lengths)
        index = np.int32 if len(self.ids) < 2**31 else np.int64
        ends = np.repeat((self.offsets[1:] - n).astype(index), self.lengths)  # last start
        starts = np.flatnonzero(np.arange(len(self.ids), dtype=index) <= ends)
        return Grams(starts, segment[starts])


@dataclass(frozen=True, eq=False)
class Grams:
    """The n-grams of one order in one stream: where they start and their segment."""

    starts: np.ndarray
    segment: np.ndarray


class SystemStreams(Mapping[str, TokenStream]):
    """Each system's tokens, encoded when first asked for and dropped by :meth:`drop`: memory
    holds the system being scored, not all of them.

    Words get their ids in test-set order (references, then systems one by one) whatever order
    systems are asked in, as when everything was encoded at once: ids fix the order of every
    float sum over n-grams, so they must not depend on who asked first.
    """

    def __init__(
        self, columns: Sequence[TextColumn], encode: Callable[[Sequence[str]], TokenStream]
    ) -> None:
        self._columns = {column.name: column for column in columns}
        self._encode = encode
        self._streams: dict[str, TokenStream] = {}
        self._in_vocabulary = 0  # the first this-many systems have given their words ids

    def __getitem__(self, system: str) -> TokenStream:
        if system not in self._streams:
            if system not in self._columns:
                raise KeyError(system)
            names = list(self._columns)
            position = names.index(system)
            for earlier in names[self._in_vocabulary : position]:  # their words' ids come first
                self._encode(self._columns[earlier].segments)
            self._streams[system] = self._encode(self._columns[system].segments)
            self._in_vocabulary = max(self._in_vocabulary, position + 1)
        return self._streams[system]

    def __iter__(self) -> Iterator[str]:
        return iter(self._columns)

    def __len__(self) -> int:
        return len(self._columns)

    def drop(self, system: str) -> None:
        """Forget ``system``'s tokens; asked again, they are encoded again (with the same ids)."""
        self._streams.pop(system, None)
