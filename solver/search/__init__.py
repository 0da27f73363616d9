"""Finding a family's ranks: the chess-level model and the constraint search behind it."""
