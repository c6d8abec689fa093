"""mteval: machine translation evaluation: exact lexical metrics, statistics, loss analysis."""

__version__ = "0.1.0"
