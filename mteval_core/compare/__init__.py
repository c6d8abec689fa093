"""Why one system is better than another: compare-mt's analyses of two systems (Neubig et al.
2019), with compare-mt 0.2.10's defaults and its numbers, and a bootstrap interval on every bucket.

``analysis.compare_pair`` runs them all; each module is one analysis: ``word_accuracy`` (by the
words' frequency), ``sentence_buckets`` (by reference length, length difference and sentence
BLEU), ``ngram_differences`` (salient n-grams), ``sentence_examples`` (where the two differ most).
compare-mt reads text that is tokenised already and splits it on spaces (``whitespace_split``);
its BLEU and NLTK's sentence BLEU, which it uses, are in ``compare_mt_bleu``; its bucket edges and
labels in ``buckets``.
"""
