"""User-supplied text in Plotly figures, shown exactly as written.

Plotly renders a subset of HTML in every text it draws (titles, axis titles and tick labels,
legend entries, hover labels, annotations, text on markers): ``<a href>``, ``<b>``, ``<i>``,
``<br>``, ``<sup>``, ``<span style>``. A system named ``<a href="https://example.org">best</a>``
would be drawn as a link. Every name and token a figure shows goes through :func:`escape_plotly`;
Plotly turns the entities back into the characters on screen. ``>`` needs no entity: without an
escaped ``<`` before it no tag can open, and a ranking such as ``A > B`` stays readable in the
figure's data. User text is never put inside a hovertemplate or texttemplate either (``%{...}``
there is Plotly's): templates refer to the data.
"""

from __future__ import annotations

from collections.abc import Iterable


def escape_plotly(text: object) -> str:
    """``text`` with ``&`` and ``<`` as entities, so Plotly draws it as plain text."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;")


def escape_all(texts: Iterable[object]) -> list[str]:
    """:func:`escape_plotly` of each text, e.g. the category names of an axis."""
    return [escape_plotly(text) for text in texts]
