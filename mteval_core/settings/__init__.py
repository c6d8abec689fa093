"""What the user chooses and what the server allows: the options every computation takes and the
signature that records them (``options``), the size limits (``limits``), and the languages of a
test set with the stemmer that suits them (``languages``)."""
