"""Each module is one schema revision."""
