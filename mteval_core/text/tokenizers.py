"""Tokenizers: from a string to its tokens, every tokenizer the options name.

The order is sacreBLEU's: lowercase the string, tokenize it, split into tokens; stemming
(``stemming``) then maps each token to its stem, so that matching requires identity of stems
(Lavie et al. 2004).

Two implementations give the same tokens. The Python functions below are the reference, written
as the original programs are (regular expressions), and the fallback when mteval was installed
without a C compiler. ``_scan.pyx`` does the same in one compiled pass per line and can hand out
token ids as it goes (``token_ids``): tokenization was more than half of scoring WMT17. MeCab and
SentencePiece run outside (``outside_tokenizers``); their lines are then split on whitespace.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache

import numpy as np

from mteval_core.settings.options import Options
from mteval_core.text import character_classes
from mteval_core.text.outside_tokenizers import OUTSIDE_TOKENIZERS, spaced_out

try:
    from mteval_core.text import _scan
except ImportError:  # installed without a C compiler: the Python tokenizers below
    _scan = None

# GTM 1.4 and METEOR split on these five characters only (the "gtm14" tokenizer); NBSP and vertical
# tab are not separators. sacreBLEU's BLEU splits on every Unicode whitespace (str.split), and so
# does every other tokenizer here, "none" included.
_GTM_WHITESPACE = re.compile(r"[ \t\n\r\f]+")
_GTM_TRIM = "".join(chr(c) for c in range(0x21))  # Java's String.trim(): every char <= U+0020
_ASCII_UPPER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def split_whitespace(text: str) -> list[str]:
    """GTM 1.4's split: trim characters <= U+0020, then split on space, tab, LF, CR, form feed."""
    text = text.strip(_GTM_TRIM)
    return _GTM_WHITESPACE.split(text) if text else []


# mteval-v13a's tokenizer, as sacreBLEU's "13a" implements it. Its first rule puts spaces around
# every character of a fixed set; that is a per-character mapping, so str.translate does it in one
# fast pass. The other three rules need context and stay regular expressions. The result is
# identical to sacreBLEU's (tested on every shared test set and on random strings), and faster.
_13A_PUNCTUATION = '{|}~[\\]^_` !"#$%&()*+:;<=>?@/'
_13A_SPACE_OUT = str.maketrans({c: f" {c} " for c in _13A_PUNCTUATION})
_13A_RULES = (
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),  # period and comma unless preceded by a digit
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),  # period and comma unless followed by a digit
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),  # dash when preceded by a digit
)


def tokenize_13a(text: str) -> list[str]:
    """Tokens of sacreBLEU's 13a tokenizer (which strips trailing whitespace first)."""
    line = text.rstrip().replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
    if "&" in line:
        line = line.replace("&quot;", '"').replace("&amp;", "&")
        line = line.replace("&lt;", "<").replace("&gt;", ">")
    line = f" {line} ".translate(_13A_SPACE_OUT)
    for pattern, replacement in _13A_RULES:
        line = pattern.sub(replacement, line)
    return line.split()


def tokenize_mteval(text: str) -> list[str]:
    """mteval-v13a's default: ASCII-only lowercasing (tr/A-Z/a-z/), then the 13a rules."""
    return tokenize_13a(text.translate(_ASCII_UPPER))


# sacreBLEU's zh: strip, put spaces around every character of character_classes.ZH_RANGES and of
# 13a's punctuation set (one pass: the two sets share no character), then 13a's context rules,
# without the space 13a adds on each side of the line (".5" at the start stays one token).
_ZH_SPACE_OUT = re.compile(
    "(["
    + "".join(f"{chr(start)}-{chr(end)}" for start, end in character_classes.ZH_RANGES)
    + re.escape(_13A_PUNCTUATION)
    + "])"
)


def tokenize_zh(text: str) -> list[str]:
    """Tokens of sacreBLEU's zh tokenizer: each Chinese character (and CJK or fullwidth
    punctuation) on its own, the rest as 13a splits it."""
    line = _ZH_SPACE_OUT.sub(r" \1 ", text.strip())
    for pattern, replacement in _13A_RULES:
        line = pattern.sub(replacement, line)
    return line.split()


def tokenize_char(text: str) -> list[str]:
    """Tokens of sacreBLEU's char tokenizer: every character that is not whitespace (it joins all
    characters with spaces, and BLEU splits on whitespace)."""
    return [character for character in text if not character.isspace()]


@cache
def _tokenizer(name: str) -> Callable[[str], list[str]]:
    if name == "none":  # sacreBLEU's: the line as it is, split as its BLEU splits (str.split)
        return str.split
    if name == "gtm14":
        return split_whitespace
    if name == "mteval":
        return tokenize_mteval
    if name == "zh":
        return tokenize_zh
    if name == "char":
        return tokenize_char
    if name == "intl":
        from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International

        intl = TokenizerV14International()
        return lambda text: intl(text.rstrip()).split()
    return tokenize_13a


def tokenize(texts: Sequence[str], options: Options) -> list[list[str]]:
    """Tokens of each text after case folding and tokenization; ``Vocabulary`` does the stemming."""
    if _scan is not None:
        return _scan.scan(*_compiled_arguments(texts, options))
    if options.tokenize in OUTSIDE_TOKENIZERS:
        lines = [text.lower() for text in texts] if options.lowercase else texts
        return [line.split() for line in spaced_out(lines, options)]
    split = _tokenizer(options.tokenize)
    if options.lowercase:
        return [split(text.lower()) for text in texts]
    return [split(text) for text in texts]


def token_table(add: Callable[[str], int]) -> object | None:
    """A compiled token -> id table for ``token_ids``: ``add`` gives a token seen for the first
    time its id. None without the compiled module (then tokenize, and look the tokens up)."""
    return None if _scan is None else _scan.TokenIds(add)


def token_ids(
    texts: Sequence[str], options: Options, table: object
) -> tuple[np.ndarray, np.ndarray]:
    """Ids of every token end to end, and each text's token count, in one compiled pass."""
    return _scan.scan(*_compiled_arguments(texts, options), table)


# Which of _scan's schemes runs each tokenizer: WHITESPACE (0, GTM's split), RULES_13A (1),
# RULES_INTL (2), RULES_ZH (3), CHARACTERS (4), or SPLIT (5, str.split's): sacreBLEU's none, and
# lines that MeCab or SentencePiece spaced out.
_SCHEMES = {
    "none": 5,
    "gtm14": 0,
    "13a": 1,
    "mteval": 1,
    "intl": 2,
    "zh": 3,
    "char": 4,
    **dict.fromkeys(OUTSIDE_TOKENIZERS, 5),
}


def _compiled_arguments(texts: Sequence[str], options: Options) -> tuple[list[str], int, bytes]:
    """The lines as the compiled scan takes them: case folded and with the string replacements
    that come before the tokenizer's rules (13a's, for the same result as ``tokenize_13a``)."""
    lines = [text.lower() for text in texts] if options.lowercase else list(texts)
    name = options.tokenize
    if name in ("none", "gtm14", "char"):
        return lines, _SCHEMES[name], b""
    if name in OUTSIDE_TOKENIZERS:
        return spaced_out(lines, options), _SCHEMES[name], b""
    if name == "zh":
        return [line.strip() for line in lines], _SCHEMES[name], character_classes.table_zh()
    if name == "intl":
        return [line.rstrip() for line in lines], _SCHEMES[name], character_classes.table_intl()
    if name == "mteval":
        lines = [_scan.ascii_lower(line) for line in lines]
    return (
        [_before_13a_rules(line) for line in lines],
        _SCHEMES[name],
        character_classes.table_13a(),
    )


def _before_13a_rules(text: str) -> str:
    """``tokenize_13a``'s replacements, each only when it can change something."""
    line = text.rstrip()
    if "<skipped>" in line:
        line = line.replace("<skipped>", "")
    if "\n" in line:
        line = line.replace("-\n", "").replace("\n", " ")
    if "&" in line:
        line = line.replace("&quot;", '"').replace("&amp;", "&")
        line = line.replace("&lt;", "<").replace("&gt;", ">")
    return line
