"""The Data page's logic (pages/0_Data.py is its layout): the tokenizer's refusal when it cannot
run on this server."""

from __future__ import annotations

from mteval_core.errors import InputError
from mteval_core.settings.languages import Languages, default_tokenizer, missing_default
from mteval_core.settings.options import Options
from mteval_core.text.outside_tokenizers import require_tokenizer
from pages.ui.session import TokenizerOffer

TOKENIZER_HINT = (  # the Data page's "what to do" when the tokenizer cannot run here
    "Choose another tokenizer above (for Japanese, char is what WMT's official BLEU uses), or "
    "have the package installed on the server. Until then every page that tokenizes (BLEU, "
    "NIST, the unigram metrics, GTM, the Bitext grid) says so instead of scoring."
)


def tokenizer_refusal(options: Options, languages: Languages, offer: TokenizerOffer) -> str | None:
    """Why the options' tokenizer cannot run on this server (its package, or its SentencePiece
    model), in the words of ``mteval score`` (the language default named as such), with the
    Data page's hint; None when it can run."""
    try:
        require_tokenizer(options)
    except InputError as error:
        if error.origin is not None:  # the SentencePiece model: its own message
            return str(error)
        problem = error.problem
        if not offer.chosen and options.tokenize == default_tokenizer(languages):
            problem = missing_default(languages, problem)
        return str(InputError(problem[0].upper() + problem[1:], hint=TOKENIZER_HINT))
    return None
