"""Positions as text: ranks and IDs, FENs and SFENs, castling fields, dialects, book linting."""
