"""The counting every lexical metric shares: text as int32 token ids (``tokens``), the references'
n-gram index and each system's clipped n-gram matches (``ngrams``), a block of segments at a time,
and freed memory handed back to the system (``memory``)."""
