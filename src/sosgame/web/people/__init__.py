"""People: accounts and passwords, names, ratings, puzzle ratings and seat tokens."""
