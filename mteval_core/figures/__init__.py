"""Plotly figure builders: plain data in, a Figure out; nothing here knows about Streamlit."""

from mteval_core.figures.scores import system_scores_bar

__all__ = ["system_scores_bar"]
