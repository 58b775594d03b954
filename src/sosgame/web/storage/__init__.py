"""Storage: the SQL store, its schema and migrations, its writer thread, turn-taking writes."""
