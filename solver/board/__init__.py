"""The board: its geometry, the pieces and their names, and how declared pieces move."""
