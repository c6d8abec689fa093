"""The MQM data model: error counts per rating and error type, before any weights.

A rating is one rater's judgment of one system's segment; an error type is a (severity, category)
pair. ``mteval_core.io.mqm_tsv`` reads Google's TSV into this; ``mteval_core.loss.mqm_loss``
weighs it into scores, so that a user can change the weights without reading the file again.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

Rating = tuple[str, str, str]  # (system, seg_id, rater)
ErrorType = tuple[str, str]  # (severity, category)


@dataclass(frozen=True)
class MqmAnnotations:
    """``counts[i, j]``: how many errors of ``error_types[j]`` rating ``ratings[i]`` marked."""

    origin: str
    ratings: tuple[Rating, ...]  # in the order of their first row
    error_types: tuple[ErrorType, ...]
    counts: np.ndarray  # (ratings, error_types), whole numbers
