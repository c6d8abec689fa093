"""The counting every lexical metric shares: text as int32 token ids (``tokens``), the references'
n-gram index and each system's clipped n-gram matches (``ngrams``), a block of segments at a time,
freed memory handed back to the system (``memory``), and the C library's log and exp over arrays
(``libm``), which BLEU and NIST need to equal the programs they port on every CPU, and compiled
loops run on every core in threads (``threads``)."""
