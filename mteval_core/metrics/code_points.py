"""Text handed to compiled metric code as code points, a block of segments at a time.

chrF's and TER's compiled statistics (_chrf_counts.pyx, _ter_edits.pyx) read the same layout: the
code points of every segment of every column in one uint32 array, with int64 offsets of segment s
of column c at c * n_segments + s. Encoding a block at a time keeps memory flat in the test set.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np

from mteval_core.engine.threads import map_on_cores, spans, usable_cores

# Segments encoded at a time: their code points (4 bytes each, every column) are held at once.
SEGMENT_BLOCK = 4_096
# The fewest segments a block has when a test set is split for the cores (below it, starting a
# thread costs more than it saves).
PARALLEL_BLOCK = 64

# (code points, offsets, number of references, number of systems) -> (systems, segments, stats)
BlockStatistics = Callable[[np.ndarray, np.ndarray, int, int], np.ndarray]


def encode_columns(
    columns: Sequence[Sequence[str]], lowercase: bool
) -> tuple[np.ndarray, np.ndarray]:
    """The code points and offsets of every segment of every column; lowercased with
    ``str.lower`` of the whole segment as sacreBLEU lowercases (the length may change, a final
    sigma is known).

    ``surrogatepass`` keeps a lone surrogate as the one code point Python sees, as sacreBLEU
    would compare it, instead of failing (the readers refuse them, but the API takes any
    string)."""
    segments = [
        segment.lower() if lowercase else segment for column in columns for segment in column
    ]
    lengths = np.fromiter(
        (len(segment) for segment in segments), dtype=np.int64, count=len(segments)
    )
    offsets = np.zeros(len(segments) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    encoded = "".join(segments).encode("utf-32-le", "surrogatepass")
    return np.frombuffer(encoded, dtype=np.uint32), offsets


def statistics_in_blocks(
    references: Sequence[Sequence[str]],
    systems: Mapping[str, Sequence[str]],
    n_stats: int,
    lowercase: bool,
    compute: BlockStatistics,
) -> dict[str, np.ndarray]:
    """Every system's (n_segments, n_stats) float64 statistics, ``compute`` run on one block of
    segments of the references and every system at a time, a block per core at once (the
    compiled loops release the interpreter lock; a segment's numbers do not depend on its
    block). Blocks hold at most SEGMENT_BLOCK segments, so memory stays flat in the test set."""
    n_segments = len(references[0]) if references else 0
    for name, hypotheses in systems.items():
        if len(hypotheses) != n_segments:
            raise ValueError(f"{name}: {len(hypotheses)} hypotheses for {n_segments} segments")
    result = {name: np.empty((n_segments, n_stats), dtype=np.float64) for name in systems}
    names = list(systems)
    cores = usable_cores()
    blocks = spans(n_segments, PARALLEL_BLOCK, SEGMENT_BLOCK) if n_segments else []

    def block_statistics(block: tuple[int, int]) -> np.ndarray:
        start, stop = block
        columns = [reference[start:stop] for reference in references]
        columns += [systems[name][start:stop] for name in names]
        text, offsets = encode_columns(columns, lowercase)
        return compute(text, offsets, len(references), len(names))

    for first in range(0, len(blocks), cores):  # a wave of blocks, one per core
        wave = blocks[first : first + cores]
        for (start, stop), statistics in zip(wave, map_on_cores(block_statistics, wave)):
            for index, name in enumerate(names):
                result[name][start:stop] = statistics[index]
    return result
