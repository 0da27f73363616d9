"""Numbering a family: placement steps, counting without listing, lookups, listing in order."""
