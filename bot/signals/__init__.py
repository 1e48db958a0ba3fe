"""Named signals: facts about the evidence that a single-line regex cannot express."""
