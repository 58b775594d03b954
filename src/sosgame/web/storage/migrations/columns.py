"""Columns and steps that several revisions write alike.

A released revision must always build the same schema: change nothing here that one uses
(add a new helper instead). Each call makes new columns, as a table needs its own.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

__all__ = [
    "add_columns",
    "board",
    "client",
    "drop_columns",
    "game_key",
    "member",
    "player_key",
    "times",
]


def game_key() -> sa.Column[Any]:
    """``game_id``, a key part naming a row of ``games``."""
    return sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True)


def player_key() -> sa.Column[Any]:
    """``player_id``, a key part naming a row of ``players``."""
    return sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), primary_key=True)


def board() -> list[sa.Column[Any]]:
    """A game's settings: ``rows``, ``cols``, ``mode`` and ``players``."""
    return [
        sa.Column("rows", sa.Integer, nullable=False),
        sa.Column("cols", sa.Integer, nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
    ]


def client() -> list[sa.Column[Any]]:
    """``holder``, the process holding a client's connection, and ``address``, the client's."""
    return [
        sa.Column("holder", sa.String(64), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
    ]


def member() -> list[sa.Column[Any]]:
    """A player waiting for a game: the ``name`` shown and the ``account``, if logged in."""
    return [
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("account", sa.Integer, nullable=True),
    ]


def times(*names: str) -> list[sa.Column[Any]]:
    """Required times in milliseconds, one column a name."""
    return [sa.Column(name, sa.BigInteger, nullable=False) for name in names]


def add_columns(table: str, *columns: sa.Column[Any]) -> None:
    """Add ``columns`` to ``table`` (in a batch, so that SQLite can do it too)."""
    with op.batch_alter_table(table) as batch:
        for column in columns:
            batch.add_column(column)


def drop_columns(table: str, *names: str) -> None:
    """Drop the columns ``names`` from ``table``, in that order (in a batch)."""
    with op.batch_alter_table(table) as batch:
        for name in names:
            batch.drop_column(name)
