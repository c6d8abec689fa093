"""What holds memory while `mteval score` runs, structure by structure (bench_memory.py
--breakdown): the text, each statistics kind, the references' tokens and n-gram index, one
system's tokens, in bytes per segment from the arrays' own sizes; then tracemalloc's peak and the
10 lines that allocated most of what is held after scoring."""

from __future__ import annotations

import gc
import tracemalloc
from collections.abc import Sequence

import numpy as np

from mteval_core.engine.ngrams import EncodedCorpus
from mteval_core.io.test_set_files import read_test_set_files
from mteval_core.metrics.scoring import score_test_set, statistics_kind_of
from mteval_core.settings.options import Options

TOP_LINES = 10


def print_breakdown(
    ref: str, systems: Sequence[str], n_segments: int, metrics: Sequence[str]
) -> dict[str, float]:
    """Print and return each structure's bytes per segment, with tracemalloc's figures."""
    tracemalloc.start()
    test_set = read_test_set_files([ref], [(None, path) for path in systems])
    gc.collect()
    text_traced = tracemalloc.get_traced_memory()[0]
    tracemalloc.reset_peak()
    scores = score_test_set(test_set, metrics, Options())
    gc.collect()
    held, peak = tracemalloc.get_traced_memory()
    snapshot = tracemalloc.take_snapshot()
    tracemalloc.stop()
    sizes = structure_sizes(test_set, scores)
    sizes["traced after reading (text and imports)"] = text_traced
    sizes["traced after scoring (held)"] = held
    sizes["traced peak while scoring"] = peak
    print(f"  breakdown at {n_segments:,} segments, bytes per segment:")
    for name, size in sizes.items():
        print(f"    {size / n_segments:8.0f}  {name}")
    print(f"  the {TOP_LINES} lines that allocated most of what is held after scoring:")
    for stat in snapshot.statistics("lineno")[:TOP_LINES]:
        frame = stat.traceback[0]
        print(
            f"    {stat.size / n_segments:8.0f}  {frame.filename.split('/mteval_core/')[-1]}:"
            f"{frame.lineno} ({stat.count:,} blocks)"
        )
    return {name: size / n_segments for name, size in sizes.items()}


def structure_sizes(test_set, scores) -> dict[str, int]:
    """Bytes of each structure, from the objects themselves."""
    columns = [*test_set.references, *test_set.systems]
    sizes = {"text (packed, every column)": sum(c.segments.nbytes for c in columns)}
    seen: set[int] = set()
    for metric in scores.metric_names:
        kind = statistics_kind_of(metric)
        arrays = [a for a in scores.statistics[metric].values() if id(a) not in seen]
        seen.update(map(id, arrays))
        if arrays:
            dtype = arrays[0].dtype
            sizes[f"statistics {kind} ({arrays[0].shape[1]} x {dtype}, every system)"] = sum(
                a.nbytes for a in arrays
            )
    sizes.update(index_sizes(EncodedCorpus(test_set, Options()), test_set.system_names[0]))
    return sizes


def index_sizes(corpus: EncodedCorpus, system: str) -> dict[str, int]:
    """The references' tokens and n-gram index as scoring builds them (its private parts: this
    is a measurement), and one system's tokens while it is scored."""
    index = corpus._reference_index
    compiled = corpus._compiled_index
    stream = corpus.systems[system]

    def nbytes(*arrays: np.ndarray) -> int:
        return sum(array.nbytes for array in arrays)

    return {
        "reference token ids and offsets": sum(nbytes(r.ids, r.offsets) for r in corpus.references),
        "reference n-gram counts per segment (ids)": sum(nbytes(t.ids) for t in index.max_counts),
        "reference n-gram counts per segment (counts)": sum(
            nbytes(t.counts) for t in index.max_counts
        ),
        "reference n-gram counts per segment (offsets)": sum(
            nbytes(t.offsets) for t in index.max_counts
        ),
        "reference n-gram dictionaries and totals (dropped once hashed)": nbytes(
            *index.dictionaries, *index.totals
        ),
        "compiled hash tables and NIST weights": sum(nbytes(*t) for t in compiled.dictionaries)
        + nbytes(*compiled.weights),
        "one system's token ids and offsets (while scored)": nbytes(stream.ids, stream.offsets),
    }
