"""The data model: a test set (segments, references, systems, documents, human judgments), checked
once when it is built, and the human judgments as matrices for the statistics."""
