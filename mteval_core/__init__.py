"""mteval: machine translation evaluation: exact lexical metrics, statistics, loss analysis.

The public Python API (mteval_core.api) is importable from here. Its names load on first use
(PEP 562), so that ``import mteval_core`` and the ``mteval`` command stay light: reading a
command's arguments imports no metric, numpy or statistics it does not run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:  # what type checkers and editors see; at run time __getattr__ loads them
    from mteval_core.api import (
        DEFAULT_METRICS,
        REGISTRY,
        InputError,
        Options,
        Scores,
        TestSet,
        bootstrap,
        compare_systems,
        correlate,
        rank,
        read_test_set,
        score,
        with_human,
    )

__all__ = [
    "DEFAULT_METRICS",
    "REGISTRY",
    "InputError",
    "MetricSignature",
    "Options",
    "Scores",
    "TestSet",
    "__version__",
    "bootstrap",
    "compare_systems",
    "correlate",
    "rank",
    "read_metric_scores",
    "read_mqm",
    "read_mtme",
    "read_test_set",
    "score",
    "with_human",
]


def __getattr__(name: str) -> Any:
    """A public name of mteval_core.api, imported the first time it is asked for."""
    if name in __all__ and name != "__version__":
        import mteval_core.api as api

        return getattr(api, name)
    raise AttributeError(f"module 'mteval_core' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
