"""The tables games are stored in (SQLAlchemy Core, so any database SQLAlchemy speaks will do).

The schema itself is created and changed only by the Alembic migrations beside this module.
"""

from __future__ import annotations

from typing import Final

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

__all__ = ["METADATA", "actions", "games", "jobs", "seats"]

METADATA: Final = MetaData()

games: Final = Table(
    "games",
    METADATA,
    Column("id", String(32), primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("rows", Integer, nullable=False),
    Column("cols", Integer, nullable=False),
    Column("mode", String(16), nullable=False),
    Column("players", Integer, nullable=False),
    Column("start", Text, nullable=True),
    Column("clock", Text, nullable=True),
    Column("status", String(16), nullable=False, index=True),
    Column("result", Text, nullable=True),
    Column("created_ms", BigInteger, nullable=False),
    Column("updated_ms", BigInteger, nullable=False),
    Column("public", Boolean, nullable=False, default=False),
    Column("rematch", String(32), nullable=True),
    Column("version", Integer, nullable=False, default=0),
)
"""One row per game: its settings, ``status`` (open, playing, finished) and JSON extras;
``public`` games are listed with their free seats; ``rematch`` is the game that followed;
``version`` counts the game's changes, so a change made for an older version is refused."""

seats: Final = Table(
    "seats",
    METADATA,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(100), nullable=False),
    Column("player", String(16), nullable=False),
    Column("token_hash", String(64), nullable=True),
    Column("invite", String(64), nullable=True),
)
"""One row per seat: ``player`` is ``human`` or a computer level; a taken seat has a token;
a free seat of an online game has the ``invite`` secret its invite link carries."""

actions: Final = Table(
    "actions",
    METADATA,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("action", String(16), nullable=False),
    Column("created_ms", BigInteger, nullable=False),
)
"""One row per move or resignation, ``ply`` counting from 1 over both."""

jobs: Final = Table(
    "jobs",
    METADATA,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("version", Integer, nullable=False),
    Column("ready_ms", BigInteger, nullable=False),
    Column("holder", String(64), nullable=True),
    Column("lease_ms", BigInteger, nullable=False, index=True),
    Column("watched_ms", BigInteger, nullable=True),
)
"""A computer move to be made, shared by every server process: for the game at ``version``,
not before ``ready_ms``; the process named ``holder`` works on it until ``lease_ms`` (it
renews the lease while it thinks, so a process that dies leaves it to another). A game with
only computer seats moves only while watched: ``watched_ms`` is until when (``NULL`` for a
game with a person in it, which always moves)."""
