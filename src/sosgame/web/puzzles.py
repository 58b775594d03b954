"""Puzzle ratings in the store: each named player's Glicko-2 puzzle rating, each puzzle's, and
the first attempts that changed them (:mod:`sosgame.glicko`; why Glicko-2: docs/puzzles.md).

Every call is one transaction and blocks, like :class:`~sosgame.web.players.Players`' (the
server makes them from its database thread). A first attempt is rated once: its row goes in
with the new ratings, so a second answer to the same puzzle (another tab, another process)
finds it and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import Connection, insert, select, update
from sqlalchemy.exc import IntegrityError

from sosgame.ai.puzzles import Puzzle
from sosgame.glicko import NEW_RATING, Glicko
from sosgame.glicko import update as rate
from sosgame.web.schema import puzzle_attempts, puzzle_players, puzzle_ratings
from sosgame.web.store import Store

__all__ = ["PUZZLE_DEVIATION", "PuzzleRatings", "RatedAttempt"]

PUZZLE_DEVIATION: Final = 200.0
"""How unsure a puzzle's starting rating is (from its length and the levels' misses)."""


@dataclass(frozen=True)
class RatedAttempt:
    """A first attempt's effect on the player's rating (``None`` if it was not the first)."""

    before: Glicko
    after: Glicko

    def to_json(self) -> dict[str, Any]:
        """As the API sends it: the new rating and the change, rounded."""
        return {
            "rating": round(self.after.rating),
            "change": round(self.after.rating) - round(self.before.rating),
        }


def _glicko(row: Any) -> Glicko:
    return Glicko(row["rating"], row["deviation"], row["volatility"])


class PuzzleRatings:
    """The puzzle tables of one store."""

    def __init__(self, store: Store) -> None:
        self._engine = store.engine

    def player(self, player_id: int) -> tuple[Glicko, set[str]]:
        """The player's puzzle rating and the puzzles they have tried."""
        with self._engine.begin() as db:
            return self._player(db, player_id), self._tried(db, player_id)

    @staticmethod
    def _player(db: Connection, player_id: int) -> Glicko:
        row = (
            db.execute(select(puzzle_players).where(puzzle_players.c.player_id == player_id))
            .mappings()
            .first()
        )
        return NEW_RATING if row is None else _glicko(row)

    @staticmethod
    def _tried(db: Connection, player_id: int) -> set[str]:
        rows = db.execute(
            select(puzzle_attempts.c.puzzle_id).where(puzzle_attempts.c.player_id == player_id)
        )
        return {row[0] for row in rows}

    def puzzle(self, puzzle: Puzzle) -> Glicko:
        """The puzzle's rating now."""
        with self._engine.begin() as db:
            return self._puzzle(db, puzzle)

    @staticmethod
    def _puzzle(db: Connection, puzzle: Puzzle) -> Glicko:
        row = (
            db.execute(select(puzzle_ratings).where(puzzle_ratings.c.puzzle_id == puzzle.id))
            .mappings()
            .first()
        )
        return Glicko(puzzle.rating, PUZZLE_DEVIATION) if row is None else _glicko(row)

    def record(
        self, player_id: int, puzzle: Puzzle, solved: bool, now_ms: int
    ) -> RatedAttempt | None:
        """Rate the player's first attempt at ``puzzle``; ``None`` if it is not the first."""
        try:
            with self._engine.begin() as db:
                attempt = {
                    "player_id": player_id,
                    "puzzle_id": puzzle.id,
                    "solved": solved,
                    "at_ms": now_ms,
                }
                db.execute(insert(puzzle_attempts).values(**attempt))
                before = self._player(db, player_id)
                stored = self._puzzle(db, puzzle)
                after, puzzle_after = rate(before, stored, 1.0 if solved else 0.0)
                self._save(db, puzzle_players, "player_id", player_id, after)
                self._save(db, puzzle_ratings, "puzzle_id", puzzle.id, puzzle_after)
        except IntegrityError:
            return None
        return RatedAttempt(before, after)

    @staticmethod
    def _save(db: Connection, table: Any, key: str, value: object, rating: Glicko) -> None:
        column = table.c[key]
        values = {
            "rating": rating.rating,
            "deviation": rating.deviation,
            "volatility": rating.volatility,
        }
        changed = db.execute(
            update(table).where(column == value).values(attempts=table.c.attempts + 1, **values)
        )
        if not changed.rowcount:
            db.execute(insert(table).values({key: value, "attempts": 1, **values}))
