"""What a rule file's words mean, below both the kinds and the reader: placement
steps (and the numbering by them) and a rule's arguments."""
