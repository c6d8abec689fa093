"""METEOR 1.5 as an mteval metric: per-segment statistics from the raw text, scores from sums.

METEOR reads the raw text as the jar does (its normaliser with ``--meteor-normalize``, Java's
lowercasing with ``--lowercase``, then a split on the five characters Java's StringTokenizer
splits on: java_strings, normalizer), not the shared tokens: the tokenizer and stemmer options
change nothing of it. Its statistics (scorer.py) add up over segments, documents and shards,
and the corpus score is the score of their sums, as the jar's system score is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

import numpy as np

from mteval_core.engine.ngrams import EncodedCorpus
from mteval_core.errors import InputError, Note, say
from mteval_core.metrics.base import Metric
from mteval_core.metrics.meteor import availability
from mteval_core.metrics.meteor.aligner import Alignment, Matcher
from mteval_core.metrics.meteor.configuration import MeteorConfiguration, configure
from mteval_core.metrics.meteor.corpus_alignment import (
    CorpusMatcher,
    EncodedLines,
    WordTable,
    compiled_module,
    encoded_pair_statistics,
    matched_from_keys,
    pair_statistics,
)
from mteval_core.metrics.meteor.java_strings import java_tokenize
from mteval_core.metrics.meteor.optimal import optimal_alignment
from mteval_core.metrics.meteor.paraphrase_corpus import CorpusParaphrases
from mteval_core.metrics.meteor.scorer import (
    best_reference_row,
    meteor_from_totals,
    stat_names,
    statistics_row,
)
from mteval_core.metrics.meteor.stage import TooManyMatches
from mteval_core.model.testset import TestSet
from mteval_core.settings.limits import (
    METEOR_EXACT_MAX_STEPS,
    METEOR_MAX_MATCHES,
    METEOR_MAX_WORDS,
)
from mteval_core.settings.options import Options


class ModulesLeftOut(Note):
    """A default METEOR module was left out because its data is missing."""


class BeamFallback(Note):
    """Some segments were too large for the exact alignment; the beam's was kept."""


class SegmentsLeftOut(Note):
    """Some segments were over METEOR's limits (words a line, candidate matches); METEOR leaves
    them out."""


def configuration_of(options: Options) -> MeteorConfiguration:
    """The jar's configuration for mteval's options (``--lowercase`` is the jar's -lower)."""
    return configure(
        options.meteor.language,
        task=options.meteor.task,
        modules=options.meteor.modules,
        weights=options.meteor.weights,
        parameters=options.meteor.parameters,
        normalize=options.meteor.normalize,
        lowercase=options.lowercase,
    )


class METEOR(Metric):
    family = "meteor"
    name = "meteor"
    label = "METEOR"
    scale = "0 to 1"
    reads_tokens = False
    stat_names: ClassVar[tuple[str, ...]] = stat_names(("exact",))

    def __init__(self, options: Options) -> None:
        super().__init__(options)
        configuration = configuration_of(options)
        availability.check_normalizer(configuration)
        self._left_out_note: str | None = None
        if options.meteor.modules is None:  # the defaults, without modules whose data is missing
            configuration = self._without_missing_modules(configuration)
        self.configuration = configuration
        self.stat_names = stat_names(configuration.modules)
        self._matchers: list[Matcher] | None = None
        self._prepare: Callable[[str], str] | None = None
        self._statistics_for: tuple[TestSet, dict[str, np.ndarray]] | None = None
        self._prepared_references: tuple[TestSet, list[list[list[str]]]] | None = None
        self._word_table: WordTable | None = None
        self._encoded_references: tuple[object, list[EncodedLines]] | None = None
        self._corpus: dict[int, CorpusMatcher] | None = None

    def _without_missing_modules(self, configuration: MeteorConfiguration) -> MeteorConfiguration:
        """The default modules that can run here, as if named with --meteor-modules (the jar's
        positional weights then follow the shorter list), and a note naming the others."""
        options = self.options
        available = availability.available_modules(configuration, options.meteor.data)
        if available == configuration.modules:
            return configuration
        left_out = [m for m in configuration.modules if m not in available]
        if options.meteor.weights is not None:
            raise InputError(
                f"METEOR's weights are for its default modules of {configuration.language}, "
                f"which include {', '.join(left_out)}, which cannot run here",
                hint="Name the modules that can run, one weight per module.",
            )
        reasons = "; ".join(
            availability.why_missing(m, configuration, options.meteor.data) for m in left_out
        )
        self._left_out_note = (
            f"METEOR leaves out its default {', '.join(left_out)} module(s) for "
            f"{configuration.language} ({reasons}); it scores with {', '.join(available)}"
        )
        return configure(
            options.meteor.language,
            task=options.meteor.task,
            modules=available,
            parameters=options.meteor.parameters,
            normalize=options.meteor.normalize,
            lowercase=options.lowercase,
        )

    # ------------------------------------------------------------------ statistics
    def statistics(self, corpus: EncodedCorpus, system: str) -> np.ndarray:
        return self.text_statistics(corpus.test_set, system)

    def forget_test_set(self) -> None:
        """The word table stays: like the stems a process remembers, it serves every test set."""
        self._statistics_for = None
        self._prepared_references = None
        self._encoded_references = None

    def text_statistics(self, test_set: TestSet, system: str) -> np.ndarray:
        """(n_segments, n_stats) statistics of one system, from the raw text."""
        if self._left_out_note is not None:  # said once, with the run's other notes
            say(self._left_out_note, ModulesLeftOut, stacklevel=2)
            self._left_out_note = None
        if self._statistics_for is None or self._statistics_for[0] is not test_set:
            self._statistics_for = (test_set, {})
        computed = self._statistics_for[1]
        if system not in computed:
            column = next(c for c in test_set.systems if c.name == system)
            references = [reference.segments for reference in test_set.references]
            computed[system] = self.segment_statistics(
                column.segments, references, self._reference_words(test_set), system
            )
        return computed[system]

    def _reference_words(self, test_set: TestSet) -> list[list[list[str]]]:
        """Every reference's words, prepared once per test set for all its systems."""
        if self._prepared_references is None or self._prepared_references[0] is not test_set:
            words = [[self.words(text) for text in r.segments] for r in test_set.references]
            self._prepared_references = (test_set, words)
        return self._prepared_references[1]

    def segment_statistics(
        self,
        hypotheses: Sequence[str],
        references: Sequence[Sequence[str]],
        reference_words: Sequence[Sequence[list[str]]] | None = None,
        system: str | None = None,
    ) -> np.ndarray:
        """Statistics of every segment, each against its best reference (``reference_words``:
        the references already prepared, see ``words``). A segment over METEOR's limits against
        any reference (settings/limits.py) is left out: its row is 0, and a note (naming
        ``system``) says which."""
        if reference_words is None:
            reference_words = [[self.words(text) for text in r] for r in references]
        per_reference = self._beam_statistics(hypotheses, reference_words)
        if self.options.meteor.alignment == "exact":
            rows = self._exact_statistics(hypotheses, reference_words, per_reference)
        else:
            rows = self._best_of(per_reference)
        return self._without_left_out(rows, hypotheses, reference_words, system)

    def _best_of(self, per_reference: np.ndarray) -> np.ndarray:
        """Each segment's row against its best-scoring reference, the first on ties
        (best_reference_row); NaN for a segment left out against any reference."""
        if len(per_reference) == 1:
            return per_reference[0]
        best = np.argmax(self.score_from_totals(per_reference), axis=0)
        rows = per_reference[best, np.arange(per_reference.shape[1])]
        rows[np.isnan(per_reference).any(axis=(0, 2))] = np.nan
        return rows

    def _exact_statistics(
        self,
        hypotheses: Sequence[str],
        reference_words: Sequence[Sequence[list[str]]],
        per_reference: np.ndarray,
    ) -> np.ndarray:
        """--meteor-alignment exact: every pair's optimal alignment; the beam's row (from
        ``per_reference``) where the search is too large, with a note; NaN where the beam's is
        (the segment is over the limits)."""
        rows = np.full(per_reference.shape[1:], np.nan)
        fallbacks = 0
        for index, hypothesis in enumerate(hypotheses):
            if np.isnan(per_reference[:, index]).any():
                continue
            hypothesis_words = self.words(hypothesis)
            candidates = []
            for k, prepared in enumerate(reference_words):
                reference_line = prepared[index]
                alignment = self._optimal(hypothesis_words, reference_line)
                fallbacks += alignment is None
                candidates.append(
                    list(per_reference[k, index])
                    if alignment is None
                    else statistics_row(alignment, len(hypothesis_words), len(reference_line))
                )
            rows[index] = best_reference_row(candidates, self.configuration.parameters)
        if fallbacks:
            say(
                f"METEOR's exact alignment: {fallbacks} segment-reference pair(s) had too many "
                "competing matches for the exact search (over "
                f"{METEOR_EXACT_MAX_STEPS:,} steps); the beam's alignment was kept for them",
                BeamFallback,
                stacklevel=3,
            )
        return rows

    def _optimal(self, hypothesis: list[str], reference: list[str]) -> Alignment | None:
        """optimal.optimal_alignment with this metric's matchers; None where it is too large."""
        try:
            return optimal_alignment(
                hypothesis,
                reference,
                self.matchers(),
                self.configuration.modules,
                self.function_words(),
            )
        except TooManyMatches:  # counted as the beam counts them: not met within its limits
            return None

    def _without_left_out(
        self,
        rows: np.ndarray,
        hypotheses: Sequence[str],
        reference_words: Sequence[Sequence[list[str]]],
        system: str | None,
    ) -> np.ndarray:
        """The rows with those of the segments left out (NaN) made 0, so that no sum counts
        them, and a note that names them and the limits."""
        left_out = np.flatnonzero(np.isnan(rows).any(axis=1))
        if not left_out.size:
            return rows
        rows = rows.copy()
        rows[left_out] = 0.0
        first = int(left_out[0])
        words = [len(self.words(hypotheses[first])), *(len(r[first]) for r in reference_words)]
        numbers = ", ".join(str(s + 1) for s in left_out[:5]) + (
            ", ..." if left_out.size > 5 else ""
        )
        why = (
            f"has {words[0]:,} words against {', '.join(f'{n:,}' for n in words[1:])}"
            if max(words) > METEOR_MAX_WORDS
            else f"has more than {METEOR_MAX_MATCHES:,} candidate matches"
        )
        say(
            f"{system or 'METEOR'}: METEOR leaves out {left_out.size} segment(s) too large for its "
            f"alignment (segment {numbers}; segment {first + 1} {why}; the limits are "
            f"{METEOR_MAX_WORDS:,} words a line and {METEOR_MAX_MATCHES:,} candidate matches a "
            "segment and reference): this system's METEOR scores cover its other segments, and "
            "these segments score 0.",
            SegmentsLeftOut,
            stacklevel=3,
        )
        return rows

    def _beam_statistics(
        self, hypotheses: Sequence[str], reference_words: Sequence[Sequence[list[str]]]
    ) -> np.ndarray:
        """The beam's statistics of every segment against each reference, (references,
        segments, statistics), all pairs of one reference at a time (corpus_alignment: compiled
        where built); NaN rows for pairs over the limits. Where the compiled loops match every
        module from the encoded lines, the hypotheses are encoded straight from their text,
        without their words."""
        modules = self.configuration.modules
        encoded = None
        if matched_from_keys(modules, self._words_table()):
            encoded = self._words_table().encode_lines([self._prepared(t) for t in hypotheses])
        if encoded is not None:
            references = self._encoded_references_of(reference_words)
            table = self._words_table()
            rows = [encoded_pair_statistics(encoded, ref, modules, table) for ref in references]
        else:
            words = [self.words(text) for text in hypotheses]
            rows = [
                pair_statistics(
                    words,
                    prepared,
                    self.matchers(),
                    modules,
                    self._words_table(),
                    corpus_matchers=self._corpus_matchers(),
                    encoded=pair,
                )
                for prepared, pair in zip(
                    reference_words, self._encodings(words, reference_words), strict=True
                )
            ]
        return np.stack(rows).reshape(len(reference_words), len(hypotheses), len(self.stat_names))

    def _encodings(
        self, hypotheses: list[list[str]], reference_words: Sequence[Sequence[list[str]]]
    ) -> list[tuple[EncodedLines, EncodedLines] | None]:
        """Per reference, (the hypotheses, that reference) as the compiled loops read them: the
        hypotheses encoded once for all references, each reference once per test set. None
        without the compiled loops, whose per-pair fallback reads the words."""
        if compiled_module() is None:
            return [None] * len(reference_words)
        hypotheses_encoded = self._words_table().encode(hypotheses)
        references = self._encoded_references_of(reference_words)
        return [(hypotheses_encoded, reference) for reference in references]

    def _encoded_references_of(
        self, reference_words: Sequence[Sequence[list[str]]]
    ) -> list[EncodedLines]:
        """Each reference encoded, once per test set."""
        if self._encoded_references is None or self._encoded_references[0] is not reference_words:
            table = self._words_table()
            self._encoded_references = (reference_words, [table.encode(r) for r in reference_words])
        return self._encoded_references[1]

    def _words_table(self) -> WordTable:
        """The table of every word seen so far (its keys, stem, function flag and synsets), made
        once."""
        if self._word_table is None:
            stem = synonyms = None
            modules = self.configuration.modules
            if "stem" in modules or "synonym" in modules:
                data = availability.meteor_data(self.options.meteor.data)
                if "stem" in modules:
                    stem = data.stemmer(self.configuration.language)
                if "synonym" in modules:
                    synonyms = data.synonyms(self.configuration.language)
            self._word_table = WordTable(stem, self.function_words(), synonyms)
        return self._word_table

    def _corpus_matchers(self) -> dict[int, CorpusMatcher]:
        """The modules whose matches are found for all pairs at once (the paraphrase module)."""
        if self._corpus is None:
            self._corpus = {}
            for k, module in enumerate(self.configuration.modules):
                if module == "paraphrase":
                    data = availability.meteor_data(self.options.meteor.data)
                    table = data.paraphrases(self.configuration.language)
                    self._corpus[k] = CorpusParaphrases(table).matches
        return self._corpus

    def words(self, text: str) -> list[str]:
        """The jar's preparation of a line: normalise, lowercase (Java's), split (Java's)."""
        return java_tokenize(self._prepared(text))

    def _prepared(self, text: str) -> str:
        """A line normalised and lowercased as the options ask, before Java's split."""
        if self._prepare is None:
            self._prepare = availability.line_preparer(self.configuration, self.options.meteor.data)
        return self._prepare(text)

    def matchers(self) -> list[Matcher]:
        if self._matchers is None:
            self._matchers = [
                availability.matcher(module, self.configuration, self.options.meteor.data)
                for module in self.configuration.modules
            ]
        return self._matchers

    def function_words(self) -> frozenset[str]:
        return availability.function_words(self.options.meteor.data)

    # ------------------------------------------------------------------ scores
    def score_from_totals(self, totals: np.ndarray) -> np.ndarray:
        return meteor_from_totals(totals, self.configuration.parameters)

    @property
    def case_label(self) -> str:
        """METEOR reads the raw text: only ``lowercase`` (the jar's -lower) or its normaliser
        change its case."""
        return "lc" if self.configuration.lowercase else "mixed"

    def signature_options(self) -> dict[str, str]:
        return {
            **self.configuration.signature_options(),
            "meteor-align": self.options.meteor.alignment,
        }


__all__ = ["METEOR", "configuration_of"]
