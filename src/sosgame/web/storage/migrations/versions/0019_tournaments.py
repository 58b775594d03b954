"""Tournaments: Arena and Swiss, their entrants, games, byes, turns and invitations.

Revision ID: 0019
Revises: 0018
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

from sosgame.web.storage.migrations.columns import times

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def _tournament_key() -> sa.Column[Any]:
    return sa.Column(
        "tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), primary_key=True
    )


def _player(name: str, *, key: bool = False, null: bool = False) -> sa.Column[Any]:
    return sa.Column(name, sa.Integer, sa.ForeignKey("players.id"), primary_key=key, nullable=null)


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.String(16), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(100), nullable=False),
        sa.Column("rows", sa.Integer, nullable=False),
        sa.Column("cols", sa.Integer, nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("clock_initial", sa.Integer, nullable=True),
        sa.Column("clock_increment", sa.Integer, nullable=True),
        sa.Column("days", sa.Integer, nullable=True),
        sa.Column("rated", sa.Boolean, nullable=False),
        *times("starts_at_ms"),
        sa.Column("minutes", sa.Integer, nullable=True),
        sa.Column("rounds", sa.Integer, nullable=True),
        sa.Column("bots", sa.Boolean, nullable=False),
        sa.Column("open", sa.Boolean, nullable=False),
        _player("creator_id", null=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("first_moves_to_top", sa.Boolean, nullable=False),
        *times("created_ms", "updated_ms"),
    )
    op.create_index("ix_tournaments_status_starts", "tournaments", ["status", "starts_at_ms"])
    op.create_table(
        "tournament_entrants",
        _tournament_key(),
        _player("player_id", key=True),
        sa.Column("rating", sa.Integer, nullable=False),
        *times("joined_ms"),
        sa.Column("withdrawn", sa.Boolean, nullable=False),
        sa.Column("paused", sa.Boolean, nullable=False),
        sa.Column("absent", sa.Boolean, nullable=False),
        sa.Column("waiting_since_ms", sa.BigInteger, nullable=True),
    )
    op.create_index("ix_tournament_entrants_player", "tournament_entrants", ["player_id"])
    op.create_table(
        "tournament_games",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("tournament_id", sa.String(16), sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("round", sa.Integer, nullable=True),
        _player("first_id"),
        _player("second_id"),
        sa.Column("berserk_first", sa.Boolean, nullable=False),
        sa.Column("berserk_second", sa.Boolean, nullable=False),
        _player("forfeit", null=True),
    )
    op.create_index("ix_tournament_games_round", "tournament_games", ["tournament_id", "round"])
    op.create_table(
        "tournament_byes",
        _tournament_key(),
        _player("player_id", key=True),
        sa.Column("round", sa.Integer, primary_key=True),
    )
    op.create_table(
        "tournament_turns",
        _tournament_key(),
        sa.Column("number", sa.Integer, primary_key=True),
        *times("made_ms"),
    )
    op.create_table(
        "tournament_invitations",
        _tournament_key(),
        _player("player_id", key=True),
    )


def downgrade() -> None:
    for table in (
        "tournament_invitations",
        "tournament_turns",
        "tournament_byes",
        "tournament_games",
        "tournament_entrants",
    ):
        op.drop_table(table)
    op.drop_index("ix_tournaments_status_starts", "tournaments")
    op.drop_table("tournaments")
