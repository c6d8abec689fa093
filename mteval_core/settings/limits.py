"""Bounds on the work one request can cause, in one place so that messages, pages and README agree.

A shared dashboard server runs every session in one process: one upload that makes it allocate
without bound, or compute for minutes, takes the service away from everybody. Each limit here is
far above what real test sets need (WMT news: 20-23 systems x 2,000-3,000 segments, segments of a
few hundred tokens) and is named in the message of whatever refuses work above it.
"""

from __future__ import annotations

import os

# ----------------------------------------------------------------------------------------- uploads
MAX_UPLOAD_MB = 50  # per file; .streamlit/config.toml (server.maxUploadSize) says the same
# The dashboard keeps every session's test set, its statistics and 1,000+ bootstrap resamples in
# one server process: measured with tests/e2e/measure_memory.py, 100,000 segments peaked at
# 2.5 GB (the resample counts grow with resamples x segments), so the limits keep the largest
# upload near 1 GB while WMT sets (20-23 systems x 1,000-3,000 segments, 1-3 references, about
# 50,000 texts) fit four times over.
MAX_UPLOAD_SEGMENTS = 20_000  # segments in one uploaded test set
MAX_UPLOAD_TEXTS = 200_000  # segments x (systems + references) in one uploaded test set
# Systems and their pairs cost the pages apart from the texts: 1,000 systems of 10 segments (5%
# of the texts) made the Scores page fail on a 1.5 GB allocation. Measured with
# bench/bench_systems.py (each page in AppTest with its defaults and the seven default metrics;
# the growth of peak resident memory at 20 to 200 systems of 10 segments, and 50 of 2,000):
# Scores holds about 4 MB per system at its 20,000 resamples (50, 100, 200 systems: 0.21, 0.41,
# 0.82 GB), and approximate randomization over every pair at 20,000 trials took 93 s for 100
# systems (about 19 ms a pair) and 90 s (0.43 GB) for 50 systems of 2,000 segments; Correlation
# holds about 0.6 MB per system and 37 KB per pair at 1,000 resamples (50, 100, 200 systems:
# 0.10, 0.27, 0.92 GB); Home's report takes about 9 ms a pair (100 systems: 46 s). WMT25's
# largest language pair has 43 systems; at 50 the worst of any page stays under half a gigabyte
# and about a minute and a half.
MAX_UPLOAD_SYSTEMS = 50  # systems in one uploaded test set
MAX_METRIC_FILES = MAX_UPLOAD_SYSTEMS  # files of one uploaded metric: one per system at most
MAX_SYSTEM_PAIRS = MAX_UPLOAD_SYSTEMS * (MAX_UPLOAD_SYSTEMS - 1) // 2  # 1,225 per metric

# An uploaded archive (mt-metrics-eval's folders as .zip or .tar.gz) is read in memory. Its members
# together may unpack to at most MAX_ARCHIVE_RATIO times the archive's size (text compresses 3-10
# times; a zip bomb 1,000 times) and never to more than MAX_ARCHIVE_UNPACKED_MB: one WMT language
# pair with its scores is 20-60 MB unpacked. A member is never larger than a file the dashboard
# takes on its own. Both are checked on the sizes the archive declares before anything is
# unpacked, and again on the bytes as they are unpacked, in case the archive lies.
MAX_ARCHIVE_UNPACKED_MB = 4 * MAX_UPLOAD_MB  # all members together
MAX_ARCHIVE_RATIO = 100  # unpacked bytes per archive byte, above MAX_UPLOAD_MB unpacked
MAX_ARCHIVE_MEMBERS = 10_000  # files and folders; a whole WMT test set has about 3,000
# A member's path: mt-metrics-eval's longest (mt-metrics-eval-v2/wmt23/metric-scores/en-de/
# NAME-REF.seg.score) is about 100 characters and 5 deep. Both are checked on each name before it
# is split or its folders are listed, so the tree of an archive costs at most members x depth
# folders; a 682-byte .tar.gz whose one member was 100,000 folders deep took the server to its
# memory cap before these bounds.
MAX_ARCHIVE_PATH_CHARS = 400  # characters of one member's path
MAX_ARCHIVE_DEPTH = 16  # folders in one member's path
# A tar member's name may come in an extended header (pax, GNU long name) that tar reads whole
# before the member: such headers are refused above this size, and above this many before one
# member (tar writes one or two; a chain of them would make Python's tarfile recurse).
MAX_ARCHIVE_HEADER_KB = 64
MAX_ARCHIVE_EXTENDED_HEADERS = 8
# The Data page lists every (test set, language pair) of an archive for the user to choose one;
# all of mt-metrics-eval's data (WMT19-WMT25) has about 200.
MAX_ARCHIVE_PAIRS = 1_000
# The Rankings page also reads a .tar.xz (WMT25 ships its automatic scores as one). An xz stream
# names the memory its decoder needs (xz -9: 65 MB); one that asks for more is refused before it
# is decoded, so a crafted header cannot make the server reserve gigabytes.
MAX_XZ_DECODER_MB = 100
# The Rankings page's own uploads (WMT25's score files or an archive of them, the systems
# metadata, Appraise ESA waves and .docs files): WMT25 ships 59 score files, 45 MB unpacked; the
# files, counted inside archives too, and their bytes together are bounded as one archive is.
MAX_RANKING_FILES = 200
MAX_RANKING_UPLOAD_MB = MAX_ARCHIVE_UNPACKED_MB
# Systems of one language pair a ranking takes: a human ranking tests every pair of them (60
# systems x 300 items in 4 domains: 1,770 pairs, 10.7 s on 2 cores at load 7; 100 systems about
# three times that); WMT25 ranks up to 43.
MAX_RANKED_SYSTEMS = 100

# -------------------------------------------------------------------------------------- resampling
MAX_RESAMPLES = 20_000  # bootstrap resamples, command line and dashboard
# The dashboard holds its resample counts at once, one float per resample and segment: 64 million
# (512 MB) let a WMT set (3,000 segments) have 20,000 resamples and the largest upload (20,000
# segments) 2,000, never gigabytes on a shared server.
MAX_RESAMPLED_CELLS = 64_000_000
# comet-compare's bootstrap holds systems x sample size x splits float32 scores at once (its
# np.take): 64 million cells are 256 MB, e.g. 20 systems of a WMT set at its 300 splits
COMET_COMPARE_MAX_CELLS = 64_000_000

# --------------------------------------------------------------------------------------------- GTM
# GTM's greedy works on the hits of a segment's bitext grid (cells whose two tokens are equal),
# grouped into runs (maximal diagonals): its time grows with the hits, its memory with the runs.
# The hits are counted before any work that grows with them, the runs as they are found. At
# e = 1 (GTM 1.4's default) GTM has a closed form that needs no grid, so every segment is scored;
# at other exponents a segment above either limit is left out of GTM with a note in every output
# (never a crash, never a silent zero).
GTM_MAX_HITS = 10_000_000  # per segment: at most about 0.1 s of work
GTM_MAX_RUNS = 1_000_000  # per segment: at most about 50 MB
GTM_EXACT_MAX_CELLS = 1_000_000  # |C| x |Rcat| for the exact matching; above it, the greedy
# The exact matching's branch and bound, per segment, in steps (a step is one choice scored, and
# costs the cells and lines of its part of the grid): 5 million take about 12 ms compiled (3 s in
# pure Python), less than a typical integer program, which decides the segments that need more.
# WMT17 en-de (one reference) needs at most 12,000; WMT21 en-de with two references at e = 2,
# 4 million.
GTM_EXACT_MAX_STEPS = 5_000_000
GRID_MAX_CELLS = 250_000  # |C| x |Rcat| of a bitext grid drawn in the dashboard

# ------------------------------------------------------------------------------------------ METEOR
# METEOR's beam search works on the candidate matches its modules find between a hypothesis and a
# reference (exact: every pair of equal words, so one word repeated n times on both lines makes
# n x n; 3,000 took 36 s and 2.6 GB, 10,000 a MemoryError), and copies the used words of both
# lines for every partial alignment it keeps. The matches are counted as the modules find them
# (stopping at the limit, before the search), the words before any matching; a segment above
# either limit against any reference is left out of METEOR with a note in every output (never a
# crash, never a silent zero). Measured (compiled, one pair at the limits: one word repeated 499
# x 500 times, or 5,000-word lines of 120 distinct words): about 0.4 s and 70 MB, 0.7 s with all
# four English modules. The largest real segments are far below: WMT17, WMT21 and all 14 WMT23
# pairs have at most 2,258 candidates of exact and stem (WMT23 en-de's paragraphs) and 498 words.
METEOR_MAX_MATCHES = 250_000  # candidate matches of all modules, per segment and reference
METEOR_MAX_WORDS = 5_000  # per line (hypothesis or reference)
# The exact alignment (--meteor-alignment exact): steps of its dynamic programme per segment and
# reference (a step is a state visited, or a candidate match tried from it; 2 million take about
# 1 s in Python); a pair that needs more keeps the beam's alignment, with a note. WMT17 en-de
# (exact and stem, 4 systems, 12,016 pairs) needs fewer for every pair; 4 need over 100,000 and
# 23 over 20,000. WMT23 en-de's paragraphs (up to 498 words) need more for 57 of the first 200
# pairs of its first system, which keep the beam's (3.4 s a pair in all, 676 s): the search in
# Python is for sentences.
METEOR_EXACT_MAX_STEPS = 2_000_000
# A paraphrase table is unpacked and parsed into its cache once (English's: 62 MB of gzip, 272 MB
# and 15.8 million lines unpacked, 22 s and 1.5 GB at the peak). One that unpacks to more than
# these (about 1.5 times English's) is refused as it is unpacked, before it is parsed: a gzip of
# 2 MB can hold 2 GB of empty lines, each a Python object once split.
METEOR_PARAPHRASE_MAX_MB = 400
METEOR_PARAPHRASE_MAX_LINES = 24_000_000


def _memory_budget() -> int:
    """A quarter of the machine's memory, at most 1 GiB: enough for the results of the largest
    accepted upload, little enough to leave room for the sessions' data."""
    try:
        physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # no sysconf (Windows): assume 4 GiB
        physical = 4 * 2**30
    return min(2**30, physical // 4)


CACHE_BYTES = _memory_budget()  # the dashboard's cache of results, for all sessions together

# ---------------------------------------------------------------------------------- human rankings
# WMT25's human ranking tests every ordered pair of a language pair's systems: N (N - 1) Wilcoxon
# tests of 2 x 2 x segments differences, about 6 ms each at 600 segments (measured on 2 shared
# cores), so 100 systems (9,900 tests) take about a minute; WMT25 ranked at most 30 per pair.
MAX_HUMAN_RANKED_SYSTEMS = 100

# ---------------------------------------------------------------------------------- SentencePiece
# A loaded SentencePiece model takes several times its file in memory (measured: a 0.47 MB model
# 2.5 MB; issue 42 measured four 29 MB models at +940 MB). The server keeps this many loaded at
# once for all sessions together, the least recently used dropped first; a session's own upload
# stays in its memory (never on the server's disk), so a model that was dropped is loaded again
# from it when that session tokenizes next.
MAX_LOADED_SENTENCEPIECE_MODELS = 2

# Permutations per pair of metrics in `mteval correlate --task-set` (mt-metrics-eval's official
# runs use 1000; each permutation of an SPA task scores two permuted matrices).
MAX_TASK_SET_PERMUTATIONS = 10_000

# ------------------------------------------------------------------------------------------- spans
# Scoring spans per character allocates one count per character of each target. Where a file
# gives the target (MQM TSV, WMT25 task 2) its length bounds that; Appraise's ESA exports give
# offsets only, so the largest offset sets the length and is checked first: WMT25's longest
# paragraphs are a few thousand characters, and an offset above this is refused, not allocated.
MAX_SPAN_OFFSET = 100_000  # code points into one target
MAX_SPANS_PER_ANNOTATION = 1_000  # error spans of one annotator on one segment
