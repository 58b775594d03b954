"""Settings of the web app that the command line shows without importing the app itself."""

from __future__ import annotations

from typing import Final

__all__ = ["DEFAULT_DATABASE", "LOOPBACK_HOSTS"]

DEFAULT_DATABASE: Final = "sqlite:///data/sosgame.sqlite3"
"""The embedded store ``sosgame serve`` uses unless told otherwise (created on first run)."""
LOOPBACK_HOSTS: Final = ("127.0.0.1", "localhost", "::1")
"""The host names ``sosgame serve`` answers for unless told others (with any port)."""
