"""User-supplied text shown by Streamlit exactly as written, never as Markdown.

Streamlit renders Markdown in st.markdown, captions, alerts, subheaders, metric labels and values,
expander, tab, radio and widget labels, page links and progress texts: a system named
``![x](https://example.org/x.png)`` would make every viewer's browser fetch that image, and
``[Session expired](https://example.org)`` in a link parameter would put a link into the app's own
warning box. Every name, file name, segment text and URL parameter goes through
:func:`escape_markdown` before it reaches one of those. Selectbox and multiselect options,
st.text, st.code and table cells and headers are plain text already and take names as they are.
"""

from __future__ import annotations

import re

WORD_JOINER = "\u2060"  # invisible, zero width; not part of a URL or an e-mail address
# the bidi embeddings, overrides and isolates: each holds for the rest of its paragraph, so a name
# with an unclosed right-to-left override would turn the page's words after it around
_BIDI_CONTROL = re.compile("[\u202a-\u202e\u2066-\u2069]")
_INLINE = re.compile(r"([\\`*_\[\]<>&$:|~])")  # emphasis, code, links, HTML, entities, math, ...
_BLOCK_START = re.compile(r"^([ \t]*)([#>+\-=]|\d+(?=[.)]))")  # heading, quote, list, rule
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def escape_markdown(text: object) -> str:
    """``text`` as Markdown that Streamlit shows literally, on one line.

    Every character that starts inline Markdown or one of Streamlit's extensions (``:emoji:``,
    ``:red[...]``, ``:material/icon:``, ``$math$``) gets a backslash, and so does a first
    character that would start a block (``# heading``, ``- item``, ``1. item``). GitHub-style
    autolinks (``www.x.org``, ``http://...``, ``a@b.org``) ignore backslashes, so an invisible
    word joiner breaks them. Letters, digits, spaces, ``.``, ``,``, ``-`` inside a name and
    quotes are left alone: ordinary names read the same in the page source as on the screen.
    A bidi control (an override, embedding or isolate) is shown as its code point, ``<U+202E>``,
    so that it reorders nothing after it and the name shows what it holds.
    """
    text = _LINE_BREAK.sub(" ", str(text))
    text = _BIDI_CONTROL.sub(lambda match: f"<U+{ord(match.group()):04X}>", text)
    text = text.replace("@", WORD_JOINER + "@").replace("://", ":" + WORD_JOINER + "//")
    text = re.sub(r"(?i)(www)(\.)", rf"\1{WORD_JOINER}\2", text)
    text = _INLINE.sub(r"\\\1", text)
    return _BLOCK_START.sub(_escape_block_start, text, count=1)


def _escape_block_start(match: re.Match) -> str:
    indent, start = match.groups()
    if start[0].isdigit():  # "1." or "1)": escape the mark after the number
        return f"{indent}{start}\\"
    return f"{indent}\\{start}"
