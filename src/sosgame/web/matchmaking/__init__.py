"""Finding games: the lobby, its pools and seeks, and the making of new games."""
