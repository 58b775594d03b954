"""Names' confusables skeletons made anew: they now also fold the look-alikes within one
script (a capital I and an l, a zero and an O). Every stored skeleton is cleared here and
computed again at start by the one function that makes them
(:func:`sosgame.web.people.names.skeleton`), as for names claimed before skeletons were kept.

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def _clear() -> None:
    players = sa.table("players", sa.column("skeleton", sa.String(400)))
    op.execute(players.update().values(skeleton=None))


def upgrade() -> None:
    _clear()


def downgrade() -> None:
    _clear()
