"""From strings to tokens, one pipeline for every metric: tokenizers (the Python reference and
the compiled ``_scan``), outside_tokenizers (MeCab, SentencePiece), stemming, character_classes,
tercom (TER's own rules) and sentencepiece_models."""
