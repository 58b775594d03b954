"""Provisional players: the distinct opponents that count which each named player has met in
rated games (``player_opponents``) and their number (``players.opponents``).

Whether a past opponent was established then is not known, so every opponent of a rated game
played before this revision counts: players rated before it keep their standing by the
opponents they had.

Revision ID: 0013
Revises: 0012
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from sosgame.web.storage.migrations.columns import add_columns, drop_columns, player_key

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    add_columns("players", sa.Column("opponents", sa.Integer, nullable=False, server_default="0"))
    opponents = op.create_table(
        "player_opponents",
        player_key(),
        sa.Column("opponent", sa.String(32), primary_key=True),
    )
    assert opponents is not None
    met = _past_opponents()
    if met:
        op.bulk_insert(
            opponents,
            [{"player_id": player, "opponent": other} for player, other in sorted(met)],
        )
        players = sa.table("players", sa.column("id", sa.Integer), sa.column("opponents"))
        counts: dict[int, int] = {}
        for player, _other in met:
            counts[player] = counts.get(player, 0) + 1
        for player, count in counts.items():
            op.execute(players.update().where(players.c.id == player).values(opponents=count))


def _past_opponents() -> set[tuple[int, str]]:
    """Each named player's distinct opponents in the rated games stored: ``#`` and the id
    of a named player, or a computer level's name."""
    bind = op.get_bind()
    history = sa.table("rating_history", sa.column("player_id"), sa.column("game_id"))
    seats = sa.table("seats", sa.column("game_id"), sa.column("seat"), sa.column("player"))
    linked = sa.table(
        "player_seats", sa.column("game_id"), sa.column("seat"), sa.column("player_id")
    )
    rows = bind.execute(
        sa.select(history.c.player_id, seats.c.player, linked.c.player_id.label("other"))
        .select_from(
            history.join(seats, seats.c.game_id == history.c.game_id).outerjoin(
                linked,
                sa.and_(linked.c.game_id == seats.c.game_id, linked.c.seat == seats.c.seat),
            )
        )
        .where(sa.or_(linked.c.player_id.is_(None), linked.c.player_id != history.c.player_id))
    )
    met: set[tuple[int, str]] = set()
    for player, kind, other in rows:
        if kind != "human":
            met.add((player, kind))
        elif other is not None:
            met.add((player, f"#{other}"))
    return met


def downgrade() -> None:
    op.drop_table("player_opponents")
    drop_columns("players", "opponents")
