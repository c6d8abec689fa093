"""GTM's loops in plain Python: the algorithm of ``_loops.pyx``, for installs without a
C compiler. Same inputs, same outputs, the same floating-point operations in the same order, so
every number is identical (the tests run both); about a hundred times slower.

Read ``_loops.pyx`` for why the greedy works on runs; this file follows it line for line. The exact
matching's search is explained here, in the docstrings of ``_Search``; the compiled loops follow
it function for function.
"""

from __future__ import annotations

import heapq
import math
from collections import defaultdict

import numpy as np

DONE, TOO_MANY_HITS, TOO_MANY_RUNS, NO_MEMORY, BROKEN_INVARIANT = range(5)
NEVER = 1 << 62  # "no block accepted yet", above every level and key

Run = tuple[int, int]  # (length, key): key = i * x + j of its first cell


def _runs(c: list[int], r: list[int], max_hits: int, max_runs: int) -> tuple[int, list[Run]]:
    """Every run of the grid; the hits are counted per word before anything grows with them."""
    m, x = len(c), len(r)
    positions: dict[int, list[int]] = defaultdict(list)
    for j, token in enumerate(r):
        if token != -1:
            positions[token].append(j)
    if sum(len(positions.get(token, ())) for token in c) > max_hits:
        return TOO_MANY_HITS, []
    runs: list[Run] = []
    for i, token in enumerate(c):
        for j in positions.get(token, ()):
            if i > 0 and j > 0 and c[i - 1] == r[j - 1]:
                continue  # (i, j) continues a run that starts further up-left
            if len(runs) >= max_runs:
                return TOO_MANY_RUNS, []
            length = 0
            while i + length < m and j + length < x and c[i + length] == r[j + length]:
                length += 1
            runs.append((length, i * x + j))
    return DONE, runs


class _Grid:
    """The rows and columns the greedy has used."""

    def __init__(self, m: int, x: int) -> None:
        self.x = x
        self.row_used = bytearray(m)
        self.col_used = bytearray(x)

    def cell_free(self, key: int, t: int) -> bool:
        return not self.row_used[key // self.x + t] and not self.col_used[key % self.x + t]

    def block_free(self, key: int, cells: int) -> bool:
        return all(self.cell_free(key, t) for t in range(cells))

    def take(self, key: int, cells: int) -> None:
        for t in range(cells):
            self.row_used[key // self.x + t] = 1
            self.col_used[key % self.x + t] = 1

    def free_pieces(self, length: int, key: int) -> tuple[list[Run], bool]:
        """The still-free pieces of a queued block, and whether all of it was free."""
        pieces, start, was_free = [], -1, True
        for t in range(length + 1):
            if t < length and self.cell_free(key, t):
                start = t if start < 0 else start
                continue
            if t < length:
                was_free = False
            if start >= 0:
                pieces.append((t - start, key + start * (self.x + 1)))
                start = -1
        return pieces, was_free


def _find_cut_block(
    grid: _Grid, runs: list[Run], remaining: float, last_level: int, last_key: int
) -> int:
    """The key of the block GTM 1.4 cuts to ``remaining``, or -1 (see the .pyx)."""
    cells = math.ceil(remaining)
    best_level, best_key = 0, -1
    for length, run_key in runs:
        free_after = 0
        for t in range(length - 1, -1, -1):
            free_after = free_after + 1 if grid.cell_free(run_key, t) else 0
            if free_after < cells:
                continue
            key = run_key + t * (grid.x + 1)
            limit = last_level if key < last_key else last_level - 1
            level = min(length - t, limit)
            if level > remaining and (level, key) > (best_level, best_key):
                best_level, best_key = level, key
    return best_key


def _greedy(
    c: list[int], r: list[int], cap: float, e: float, max_hits: int, max_runs: int
) -> tuple[float, list[tuple[float, float, float]], int]:
    """GTM 1.4's greedy: (sum of len ** e, blocks (i, j, len) in order, status)."""
    m, x = len(c), len(r)
    if m == 0 or x == 0 or cap <= 0:
        return 0.0, [], DONE
    status, runs = _runs(c, r, max_hits, max_runs)
    if status != DONE:
        return 0.0, [], status
    grid = _Grid(m, x)
    queue = [(-length, -key) for length, key in runs]  # heapq is a min-heap
    heapq.heapify(queue)
    remaining, total, chosen = cap, 0.0, []
    searched, last_level, last_key = False, NEVER, NEVER
    while queue and remaining > 0:
        length, key = (-value for value in heapq.heappop(queue))
        if length >= remaining:  # GTM 1.4 may cut a block now
            if not searched:
                found = _find_cut_block(grid, runs, remaining, last_level, last_key)
                if found >= 0:
                    cut = remaining
                    grid.take(found, math.ceil(cut))
                    remaining = 0.0
                    total += math.pow(cut, e)
                    chosen.append((float(found // x), float(found % x), cut))
                    break
                searched = True
            if length > remaining:  # lost cells since it was queued
                pieces, was_free = grid.free_pieces(length, key)
                if was_free:
                    return 0.0, [], BROKEN_INVARIANT
                for piece_length, piece_key in pieces:
                    heapq.heappush(queue, (-piece_length, -piece_key))
                continue
        if not grid.block_free(key, length):
            for piece_length, piece_key in grid.free_pieces(length, key)[0]:
                heapq.heappush(queue, (-piece_length, -piece_key))
            continue
        grid.take(key, length)
        remaining -= length
        total += math.pow(float(length), e)
        chosen.append((float(key // x), float(key % x), float(length)))
        last_level, last_key, searched = length, key, False
    return total, chosen, DONE


def greedy_matching(candidate, rcat, cap, exponent, max_hits, max_runs):
    """As the compiled greedy_matching: (sum of len ** e, blocks array, status)."""
    total, chosen, status = _greedy(
        candidate.tolist(), rcat.tolist(), float(cap), float(exponent), max_hits, max_runs
    )
    return total, np.array(chosen, np.float64).reshape(-1, 3), status


def greedy_sizes(  # noqa: PLR0913 (the compiled loop's arguments, one for one)
    candidates, candidate_offsets, rcats, rcat_offsets, caps, exponent, max_hits, max_runs,
    stop=None,
):  # fmt: skip
    """As the compiled greedy_sizes: (sizes, status per segment), until ``stop`` is set."""
    sizes = np.zeros(len(caps))
    statuses = np.zeros(len(caps), np.int8)
    c_all, r_all = candidates.tolist(), rcats.tolist()
    inverse = 1.0 / exponent
    for s in range(len(caps)):
        if stop is not None and stop.is_set():
            break
        c = c_all[candidate_offsets[s] : candidate_offsets[s + 1]]
        r = r_all[rcat_offsets[s] : rcat_offsets[s + 1]]
        total, _, status = _greedy(c, r, float(caps[s]), float(exponent), max_hits, max_runs)
        statuses[s] = status
        if status == DONE and c and r:
            sizes[s] = math.pow(total, inverse)  # a general pow, as GTM 1.4
    return sizes, statuses


def run_lengths(candidate, rcat):
    """L[i, j]: length of the chain of hits starting at (i, j), shape (m + 1, x + 1)."""
    m, x = len(candidate), len(rcat)
    lengths = np.zeros((m + 1, x + 1), np.int32)
    hits = (candidate[:, None] == rcat[None, :]) & (rcat[None, :] != -1)
    for i in range(m - 1, -1, -1):  # row by row, each row vectorised
        lengths[i, :x] = np.where(hits[i], lengths[i + 1, 1:] + 1, 0)
    return lengths


def candidate_blocks(lengths, max_blocks):
    """Every block (i, j, l) in GTM 1.4's order, or None when there are over ``max_blocks``."""
    m, x = lengths.shape[0] - 1, lengths.shape[1] - 1
    if m <= 0 or x <= 0:
        return np.empty((0, 3), np.int64)
    inner = lengths[:m, :x].astype(np.int64)
    if int(inner.sum()) > max_blocks:
        return None
    i, j = np.nonzero(inner)
    counts = inner[i, j]
    rows, cols = np.repeat(i, counts), np.repeat(j, counts)
    block_lengths = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts) + 1
    order = np.lexsort((-(rows * x + cols), -block_lengths))
    return np.column_stack([rows, cols, block_lengths])[order].astype(np.int64).reshape(-1, 3)


def run_weights(lengths, exponent):
    """For every hit, (length of the maximal run through it) ** (e - 1), else 0."""
    m, x = lengths.shape[0] - 1, lengths.shape[1] - 1
    weights = np.zeros((max(m, 0), max(x, 0)))
    for i in range(m):
        for j in range(x):
            run = int(lengths[i, j])
            if run > 0 and (i == 0 or j == 0 or lengths[i - 1, j - 1] == 0):
                weight = math.pow(float(run), exponent - 1.0)
                for t in range(run):
                    weights[i + t, j + t] = weight
    return weights


# ---------------------------------------------------------------------- the exact matching
# How exact_matching settled a segment (matching.py names them).
BOUND, SEARCH, UNSOLVED, CLOSED_FORM, GREEDY_FALLBACK = range(5)
UNDECIDED, FREE = -1, -2  # a row's state in the search, when not the column it is matched to

Block = tuple[int, int, int]  # (i, j, length) of whole cells


class _Word:
    """One word's rows and columns in a component: each of its rows meets each of its columns
    in a hit, so any number of them up to min(rows, columns) can be matched as blocks of 1."""

    def __init__(self) -> None:
        self.long_rows: list[int] = []  # rows with a cell of a run of 2 or more, ascending
        self.short_rows: list[int] = []  # rows whose hits are all runs of 1, ascending
        self.cols: list[int] = []  # ascending


class _Component:
    """Runs that share rows and columns only with each other (see ``_components``)."""

    def __init__(self) -> None:
        self.long_runs: list[Block] = []  # (i0, j0, length >= 2), in the order of their keys
        self.rows: list[int] = []  # the long rows, ascending: the rows the search decides
        self.words: list[_Word] = []  # by word id
        self.word_of: dict[int, int] = {}  # each long row's index in ``words``


def _components(
    c: list[int], r: list[int], runs: list[Run], whole: bool
) -> tuple[list[_Component], list[int]]:
    """The grid's components, in the order of their first runs, and each row's component (-1 for
    rows without hits); with ``whole``, all runs as one component.

    Runs linked by a chain of runs, each sharing a row or a column with the next, form one
    component; a matching of the grid is a matching of each component, so without the budget the
    maximum matching is the union of the components' maximum matchings.
    """
    x = len(r)
    parent = list(range(len(runs)))

    def root(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    row_owner, col_owner = [-1] * len(c), [-1] * x  # the first run through each row and column
    for k, (length, key) in enumerate(runs):
        for t in range(length):
            for owner, line in ((row_owner, key // x + t), (col_owner, key % x + t)):
                if owner[line] < 0:
                    owner[line] = k
                elif not whole:
                    parent[root(k)] = root(owner[line])
    number: dict[int, int] = {}
    index = [0 if whole else number.setdefault(root(k), len(number)) for k in range(len(runs))]
    components = [_Component() for _ in range(max(index, default=-1) + 1)]
    is_long = [False] * len(c)
    for k, (length, key) in enumerate(runs):
        if length > 1:
            components[index[k]].long_runs.append((key // x, key % x, length))
            for t in range(length):
                is_long[key // x + t] = True
    row_component = [index[k] if k >= 0 else -1 for k in row_owner]
    col_component = [index[k] if k >= 0 else -1 for k in col_owner]
    for n, component in enumerate(components):
        rows = sorted((c[i], i) for i, owner in enumerate(row_component) if owner == n)
        cols = sorted((r[j], j) for j, owner in enumerate(col_component) if owner == n)
        _group_words(component, rows, cols, is_long)
    return components, row_component


def _group_words(
    component: _Component,
    rows: list[tuple[int, int]],
    cols: list[tuple[int, int]],
    is_long: list[bool],
) -> None:
    """Fill the component's words from its (word, row) and (word, column) pairs, both sorted
    (the same words, in the same order)."""
    for k, (word, i) in enumerate(rows):
        if k == 0 or word != rows[k - 1][0]:
            component.words.append(_Word())
        if is_long[i]:
            component.words[-1].long_rows.append(i)
            component.word_of[i] = len(component.words) - 1
        else:
            component.words[-1].short_rows.append(i)
    n = -1
    for k, (word, j) in enumerate(cols):
        if k == 0 or word != cols[k - 1][0]:
            n += 1
        component.words[n].cols.append(j)
    component.rows = sorted(component.word_of)


class _Search:
    """Depth-first branch and bound over one component: the proof that GTM's greedy is optimal
    there, or a heavier matching.

    Only blocks of 2 or more cells need a search: once they are chosen, each word's remaining
    rows and columns all meet in hits, so the most blocks of 1 they hold is min(rows, columns)
    (within the budget). The search decides the long rows (those with a cell of a run of 2 or
    more) top to bottom: each is left to the blocks of 1, or starts a block of 2 or more, or
    extends the block of the row above (whose weight then grows from k ** e to (k + 1) ** e). A
    node is pruned when its weight plus an upper bound on what the rest can add is no more than
    the best matching known (at first the greedy's): the search proves, it never guesses.
    """

    def __init__(
        self, component: _Component, grid: tuple[int, int], powers: list[float], limits: tuple
    ) -> None:
        m, x = grid
        self.runs, self.rows, self.words = component.long_runs, component.rows, component.words
        self.word_of = component.word_of
        self.powers = powers
        self.budget, self.max_steps, self.best, self.tolerance = limits
        self.row_runs: dict[int, list[int]] = defaultdict(list)  # long runs through each row
        for k, (i0, _, length) in enumerate(self.runs):
            for t in range(length):
                self.row_runs[i0 + t].append(k)
        self.match, self.chain = [UNDECIDED] * m, [0] * m  # and the length of its block so far
        self.col_used = bytearray(x)
        self.free_rows = [len(word.short_rows) for word in self.words]  # left to blocks of 1
        self.free_cols = [len(word.cols) for word in self.words]
        self.row_best, self.col_best = [0.0] * m, [0.0] * x
        n = len(self.rows)
        self.values, self.cells = [0.0] * (n + 1), [0] * (n + 1)  # above each depth
        self.choices: list[list[tuple[float, int]]] = [[] for _ in range(n)]
        self.next = [0] * n
        lines = sum(len(w.long_rows) + len(w.short_rows) + len(w.cols) for w in self.words)
        self.size = sum(length for _, _, length in self.runs) + lines  # what a bound looks at
        self.steps = 0
        self.found: list[tuple[int, int]] | None = None  # the cells of a heavier matching

    def run(self) -> bool:
        """Search the component; False when over the step limit (then nothing is proven)."""
        n = len(self.rows)
        if self.bound(0, 0) <= self.best + self.tolerance:
            return True
        if n == 0:
            self.record()
            return True
        if not self.expand(0):
            return False
        depth = 0
        while depth >= 0:
            if not self.next_choice(depth):
                depth -= 1
            elif depth + 1 == n:
                self.record()
            elif not self.expand(depth + 1):
                return False
            else:
                depth += 1
        return True

    def bound(self, depth: int, cells: int) -> float:
        """What the rows from rows[depth] on and the blocks of 1 can add, at most.

        A free piece of a long run (a stretch of cells in undecided rows and free columns) of P
        cells, of which the budget leaves room for at most R, gives at most R ** e to any
        matching: R ** (e - 1) a cell (the piece that extends the block of k cells above,
        ((k + R) ** e - k ** e) / R a cell, by convexity); any other hit of a free column gives 1.
        Each row and each column holds one matched cell, rows meet only their word's columns, and
        the best pairing of a word's rows with its columns under these weights pairs them in
        order of weight; the budget keeps the heaviest pairs.
        """
        room = self.budget - cells
        if room == 0:
            return 0.0
        i = self.rows[depth] if depth < len(self.rows) else len(self.match)
        above = self.match[i - 1] if depth < len(self.rows) and i > 0 else UNDECIDED
        k = self.chain[i - 1] if above >= 0 else 0
        for i0, j0, length in self.runs:
            t = max(0, i - i0)
            while t < length:
                if self.col_used[j0 + t]:
                    t += 1
                    continue
                start = t
                while t < length and not self.col_used[j0 + t]:
                    t += 1
                piece = min(t - start, room)
                if above >= 0 and i0 + start == i and j0 + start == above + 1:
                    weight = (self.powers[k + piece] - self.powers[k]) / piece
                else:
                    weight = self.powers[piece] / piece
                for u in range(start, t):
                    self.row_best[i0 + u] = max(self.row_best[i0 + u], weight)
                    self.col_best[j0 + u] = max(self.col_best[j0 + u], weight)
        pairs: list[float] = []
        for n, word in enumerate(self.words):
            by_row = [1.0] * self.free_rows[n] + _take(self.row_best, word.long_rows, i, None)
            by_col = _take(self.col_best, word.cols, 0, self.col_used)
            by_row.sort(reverse=True)
            by_col.sort(reverse=True)
            pairs += [min(a, b) for a, b in zip(by_row, by_col)]
        if len(pairs) > room:
            pairs.sort(reverse=True)
            del pairs[room:]
        total = 0.0
        for value in pairs:  # in order, as the compiled loop (sum() compensates from Python 3.12)
            total += value
        return total

    def expand(self, depth: int) -> bool:
        """List the row's choices whose bound beats the best matching, best bound first; False
        when over the step limit."""
        scored = []
        for j in self.options(depth):
            self.steps += self.size
            if self.steps > self.max_steps:
                return False
            self.choose(depth, j)
            bound = self.values[depth + 1] + self.bound(depth + 1, self.cells[depth + 1])
            self.unchoose(depth)
            if bound > self.best + self.tolerance:
                scored.append((bound, j))
        scored.sort(key=lambda choice: -choice[0])  # stable: ties keep their order
        self.choices[depth], self.next[depth] = scored, 0
        return True

    def options(self, depth: int) -> list[int]:
        """The row's choices: extend the block above, start a block of 2 or more at a free hit of
        a long run (in the order of the runs), or leave the row to the blocks of 1 (FREE). A
        block started in the row above must be extended."""
        i, cells = self.rows[depth], self.cells[depth]
        above = self.match[i - 1] if i > 0 else UNDECIDED
        if above >= 0 and self.chain[i - 1] == 1:
            return [above + 1]
        options = []
        for k in self.row_runs[i]:
            i0, j0, length = self.runs[k]
            j = j0 + i - i0
            if self.col_used[j]:
                continue
            if j == above + 1 and above >= 0:
                options += [j] if cells < self.budget else []
            elif i - i0 + 1 < length and not self.col_used[j + 1] and cells + 2 <= self.budget:
                options.append(j)
        return [*options, FREE]

    def next_choice(self, depth: int) -> bool:
        """Undo the row's last choice and make its next, unless its bound no longer beats the
        best matching; False when none is left."""
        self.unchoose(depth)
        if self.next[depth] == len(self.choices[depth]):
            return False
        bound, j = self.choices[depth][self.next[depth]]
        if bound <= self.best + self.tolerance:
            return False
        self.next[depth] += 1
        self.choose(depth, j)
        return True

    def choose(self, depth: int, j: int) -> None:
        """Match the row to column j, or leave it to the blocks of 1 (FREE)."""
        i = self.rows[depth]
        self.values[depth + 1], self.cells[depth + 1] = self.values[depth], self.cells[depth]
        self.match[i] = j
        if j == FREE:
            self.free_rows[self.word_of[i]] += 1
            return
        self.col_used[j] = 1
        self.free_cols[self.word_of[i]] -= 1
        extends = i > 0 and j > 0 and self.match[i - 1] == j - 1
        self.chain[i] = self.chain[i - 1] + 1 if extends else 1
        gain = self.powers[self.chain[i]] - self.powers[self.chain[i] - 1]
        self.values[depth + 1] = self.values[depth] + gain
        self.cells[depth + 1] = self.cells[depth] + 1

    def unchoose(self, depth: int) -> None:
        i = self.rows[depth]
        if self.match[i] == FREE:
            self.free_rows[self.word_of[i]] -= 1
        elif self.match[i] >= 0:
            self.col_used[self.match[i]] = 0
            self.free_cols[self.word_of[i]] += 1
        self.match[i] = UNDECIDED

    def record(self) -> None:
        """Keep the matching of the last row's choice: its blocks of 2 or more, and each word's
        free rows matched to its free columns in order, within the budget."""
        n = len(self.rows)
        self.best = self.values[n] + self.bound(n, self.cells[n])
        self.found = [(i, self.match[i]) for i in self.rows if self.match[i] >= 0]
        room = self.budget - self.cells[n]
        for word in self.words:
            rows = sorted(word.short_rows + [i for i in word.long_rows if self.match[i] == FREE])
            cols = [j for j in word.cols if not self.col_used[j]]
            pairs = list(zip(rows, cols))[:room]
            self.found += pairs
            room -= len(pairs)

    def blocks(self) -> list[Block]:
        """The heavier matching found, as blocks (i, j, length)."""
        blocks: list[Block] = []
        ending: dict[tuple[int, int], int] = {}  # the last cell of each block -> the block
        for i, j in sorted(self.found or ()):
            n = ending.pop((i - 1, j - 1), len(blocks))
            if n == len(blocks):
                blocks.append((i, j, 1))
            else:
                blocks[n] = (blocks[n][0], blocks[n][1], blocks[n][2] + 1)
            ending[i, j] = n
        return blocks


def _take(best: list[float], lines: list[int], first: int, used: bytearray | None) -> list[float]:
    """max(best[line], 1) for the lines from ``first`` on (and not ``used``); best is reset."""
    taken = [
        max(best[line], 1.0) for line in lines if line >= first and (used is None or not used[line])
    ]
    for line in lines:
        best[line] = 0.0
    return taken


def _exact(
    c: list[int], r: list[int], budget: int, e: float, limits: tuple[int, int, int, int]
) -> tuple[float, list[Block], int, int]:
    """(sum of len ** e, blocks, method, status) of the maximum matching with at most ``budget``
    cells: GTM's greedy, then a search of each component where it reaches no bound; where the
    components' best matchings together exceed the budget, a search of all runs at once."""
    max_hits, max_runs, max_cells, max_steps = limits
    total, chosen, status = _greedy(c, r, float(budget), e, max_hits, max_runs)
    greedy = [(int(i), int(j), int(length)) for i, j, length in chosen]
    if status != DONE or not greedy or e == 1.0:
        return total, greedy, CLOSED_FORM if e == 1.0 else BOUND, status
    if len(c) * len(r) > max_cells:
        return total, greedy, GREEDY_FALLBACK, DONE
    runs = _runs(c, r, max_hits, max_runs)[1]
    powers = [math.pow(float(k), e) for k in range(max(length for length, _ in runs) + 1)]
    search = (budget, max_steps, 1e-12 * max(total, 1.0))
    blocks, steps = _improve(c, r, runs, greedy, powers, search, False)
    if blocks is not None and sum(length for _, _, length in blocks) > budget:
        search = (budget, max_steps - steps, search[2])
        blocks, steps = _improve(c, r, runs, greedy, powers, search, True)
    if steps < 0:
        return total, greedy, UNSOLVED, DONE
    if blocks is None:
        return total, greedy, SEARCH if steps > 0 else BOUND, DONE
    total = 0.0
    for _, _, length in blocks:
        total += powers[length]
    return total, blocks, SEARCH, DONE


def _improve(
    c: list[int],
    r: list[int],
    runs: list[Run],
    greedy: list[Block],
    powers: list[float],
    search: tuple[int, int, float],
    whole: bool,
) -> tuple[list[Block] | None, int]:
    """A heavier matching than the greedy's (None if it is optimal), longest blocks first, and
    the steps of search below the components' roots (-1 when over the limit)."""
    budget, max_steps, tolerance = search
    components, row_component = _components(c, r, runs, whole)
    incumbents = [0.0] * len(components)
    for i, _, length in greedy:
        incumbents[row_component[i]] += powers[length]
    found: dict[int, list[Block]] = {}
    steps = 0
    for index, component in enumerate(components):
        limits = (budget, max_steps - steps, incumbents[index], tolerance)
        searched = _Search(component, (len(c), len(r)), powers, limits)
        if not searched.run():
            return None, -1
        steps += searched.steps
        if searched.found is not None:
            found[index] = searched.blocks()
    if not found:
        return None, steps
    blocks = [block for block in greedy if row_component[block[0]] not in found]
    return sorted(blocks + [b for part in found.values() for b in part], key=_canonical), steps


def _canonical(block: Block) -> tuple[int, int, int]:
    """Longest first, then by row and column: the order the integer program's blocks come in."""
    return -block[2], block[0], block[1]


def exact_matching(candidate, rcat, budget, exponent, limits):
    """As the compiled exact_matching: (sum of len ** e, blocks array, method, status)."""
    total, blocks, method, status = _exact(
        candidate.tolist(), rcat.tolist(), int(budget), float(exponent), limits
    )
    return total, np.array(blocks, np.int64).reshape(-1, 3), method, status


def exact_totals(candidates, candidate_offsets, rcats, rcat_offsets, caps, exponent, limits):
    """As the compiled exact_totals: (sum of len ** e, method, status) per segment, under the
    budget floor(cap)."""
    totals = np.zeros(len(caps))
    methods = np.zeros(len(caps), np.int8)
    statuses = np.zeros(len(caps), np.int8)
    c_all, r_all = candidates.tolist(), rcats.tolist()
    for s in range(len(caps)):
        c = c_all[candidate_offsets[s] : candidate_offsets[s + 1]]
        r = r_all[rcat_offsets[s] : rcat_offsets[s + 1]]
        totals[s], _, methods[s], statuses[s] = _exact(
            c, r, math.floor(caps[s]), float(exponent), limits
        )
    return totals, methods, statuses
