"""Settings of the web app that the command line shows without importing the app itself."""

from __future__ import annotations

from typing import Final

__all__ = ["DEFAULT_DATABASE"]

DEFAULT_DATABASE: Final = "sqlite:///data/sosgame.sqlite3"
"""The embedded store ``sosgame serve`` uses unless told otherwise (created on first run)."""
