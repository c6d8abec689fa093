"""One sentence's two outputs as HTML, with the words one system gets right and the other misses
highlighted as MT-ComparEval shows them (``compare.highlights``): with a as the baseline, b's own
confirmed words are "improving" (green), a's own are "worsening" (red), words the reference
confirms in both are "confirmed" (blue), the rest plain. Every piece of user text is
HTML-escaped here, word by word, so a sentence or a system name is only ever shown as text."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from html import escape

from mteval_core.compare.highlights import CONFIRMED, OWN, UNCONFIRMED, Highlights, highlights
from mteval_core.compare.whitespace_split import split_tokens

COLOURS = {"improving": "#b7e4b0", "worsening": "#f5b7b1", CONFIRMED: "#d4e6f6"}
LEGEND_TITLES = {
    "improving": "confirmed by the reference in b, missing in a (improving)",
    "worsening": "confirmed by the reference in a, missing in b (worsening)",
    CONFIRMED: "confirmed by the reference in both",
}


UNDERLINE = "text-decoration:underline;text-decoration-thickness:2px;text-underline-offset:3px"


def _words(words: tuple[tuple[str, str], ...], own: str, underlined: Collection[str] = ()) -> str:
    """The words with their marks as escaped spans; ``own`` names a mark OWN of this output;
    the words in ``underlined`` are underlined besides."""
    parts = []
    for word, mark in words:
        kind = own if mark == OWN else mark
        text = escape(word)
        if word in underlined:
            text = f'<u class="bucket-word" style="{UNDERLINE}">{text}</u>'
        if kind in COLOURS:
            parts.append(
                f'<span class="{kind}" title="{kind}" style="background:{COLOURS[kind]};'
                f'border-radius:3px;padding:0 2px">{text}</span>'
            )
        else:
            parts.append(text)
    return " ".join(parts)


def legend_html() -> str:
    """The colours' meaning, as a line of HTML."""
    return " ".join(
        f'<span style="background:{colour};border-radius:3px;padding:0 4px">'
        f"{escape(kind)}</span> {escape(LEGEND_TITLES[kind])}"
        for kind, colour in COLOURS.items()
    )


def sentence_html(
    line: int,
    systems: tuple[str, str],
    reference: str,
    outputs: tuple[str, str],
    source: str | None = None,
    underlined: Collection[str] | None = None,
    split: Callable[[str], Sequence[str]] = split_tokens,
) -> str:
    """A table of line ``line``: source (when given), reference and the two outputs, each
    output's tokens (as ``split`` gives them: the comparison's reading) marked against the
    reference; the tokens in ``underlined`` (e.g. a frequency bucket's) underlined in the
    reference and both outputs."""
    marked: Highlights = highlights(reference, *outputs, split)
    rows = []
    if source is not None:
        rows.append(("source", escape(source)))
    shown_reference = escape(reference)
    if underlined:
        plain = tuple((word, UNCONFIRMED) for word in split(reference))
        shown_reference = _words(plain, "", underlined)
    rows += [
        ("reference", shown_reference),
        (escape(systems[0]) + " (a)", _words(marked.a, "worsening", underlined or ())),
        (escape(systems[1]) + " (b)", _words(marked.b, "improving", underlined or ())),
    ]
    cells = "".join(
        f'<tr><th style="text-align:left;vertical-align:top;padding:2px 8px;'
        f'white-space:nowrap">{name}</th><td style="padding:2px 8px">{text}</td></tr>'
        for name, text in rows
    )
    return (
        f'<div class="sentence"><div style="font-weight:bold">Line {int(line)}</div>'
        f'<table style="border-collapse:collapse;margin-bottom:0.8em">{cells}</table></div>'
    )
