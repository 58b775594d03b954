"""Many games' changes in one statement, for a database server (PostgreSQL), where every
statement costs a round trip: the version-checked update of each game row, and the moves
added, sent as arrays.

Each statement's text never changes, so it is compiled and planned once; only the arrays do.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Final

from sqlalchemy import Connection, TextClause, text

from sosgame.web.live import clock as clocks
from sosgame.web.storage.rows import Change

__all__ = [
    "change_values",
    "dump_json",
    "update_checked_at_once",
    "write_moves_at_once",
]

_CHANGES: Final = """
    change AS (
        SELECT * FROM unnest(
            CAST(:game AS varchar[]), CAST(:seen AS integer[]), CAST(:new_status AS varchar[]),
            CAST(:new_result AS text[]), CAST(:new_clock AS text[]), CAST(:now AS bigint[]),
            CAST(:new_deadline AS bigint[])
        ) AS change(game, seen, status, result, clock, now, deadline)
    ),
    moved AS (
        UPDATE games SET status = change.status, result = change.result, clock = change.clock,
            updated_ms = change.now, deadline_ms = change.deadline, version = change.seen + 1
        FROM change WHERE games.id = change.game AND games.version = change.seen
        RETURNING games.id
    )"""

_UPDATE: Final[TextClause] = text(f"WITH {_CHANGES} SELECT id FROM moved")
_UPDATE_AND_ADD: Final[TextClause] = text(
    f"""WITH {_CHANGES},
    added AS (
        INSERT INTO actions (game_id, ply, action, created_ms)
        SELECT added.game, added.ply, added.action, added.created FROM unnest(
            CAST(:action_games AS varchar[]), CAST(:plies AS integer[]),
            CAST(:texts AS varchar[]), CAST(:created AS bigint[])
        ) AS added(game, ply, action, created)
        WHERE added.game IN (SELECT id FROM moved)
    )
    SELECT id FROM moved"""
)


def dump_json(value: dict[str, Any] | None) -> str | None:
    """A JSON column's text (``None`` stays SQL ``NULL``)."""
    return None if value is None else json.dumps(value, separators=(",", ":"))


def _deadline(change: Change) -> int | None:
    # The deadline a change stores: a correspondence game's, while it is played.
    return clocks.deadline_ms(change.clock) if change.status == "playing" else None


def change_values(change: Change) -> dict[str, Any]:
    """What a change writes to its game row, by the names of the parameters of the
    statements that write it (``seen``: the version the change was made at)."""
    return {
        "game": change.game_id,
        "seen": change.version,
        "new_status": change.status,
        "new_result": dump_json(change.result),
        "new_clock": dump_json(change.clock),
        "now": change.now_ms,
        "new_deadline": _deadline(change),
    }


def _change_arrays(changes: Sequence[Change]) -> dict[str, list[Any]]:
    # Each parameter of change_values as an array, one item per change, for unnest.
    arrays: dict[str, list[Any]] = {}
    for change in changes:
        for key, value in change_values(change).items():
            arrays.setdefault(key, []).append(value)
    return arrays


def update_checked_at_once(db: Connection, changes: Sequence[Change]) -> set[str]:
    """Write the game rows of version-checked changes; the games refused (another change
    of theirs came first)."""
    moved = set(db.execute(_UPDATE, _change_arrays(changes)).scalars())
    return {change.game_id for change in changes} - moved


def write_moves_at_once(db: Connection, changes: Sequence[Change]) -> set[str]:
    """Version-checked changes that only add actions, as one statement (atomic by itself,
    so it may run outside a transaction); the games refused, of which nothing is written."""
    added = [
        (change.game_id, ply, action, change.now_ms)
        for change in changes
        for ply, action in enumerate(change.texts, start=change.first_ply)
    ]
    arrays = _change_arrays(changes)
    arrays.update(
        action_games=[row[0] for row in added],
        plies=[row[1] for row in added],
        texts=[row[2] for row in added],
        created=[row[3] for row in added],
    )
    moved = set(db.execute(_UPDATE_AND_ADD, arrays).scalars())
    return {change.game_id for change in changes} - moved
