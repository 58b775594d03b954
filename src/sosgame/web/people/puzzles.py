"""Puzzle ratings in the store: each named player's Glicko-2 puzzle rating, each puzzle's, and
the first attempts that changed them (:mod:`sosgame.glicko`; why Glicko-2: docs/puzzles.md),
and to whom each puzzle's solution was shown.

Every call is one transaction and blocks, like :class:`~sosgame.web.people.players.Players`' (the
server makes them from its database thread). A first attempt is rated once: its row goes in
with the new ratings, so a second answer to the same puzzle (another tab, another process)
finds it and changes nothing. It is not rated (and leaves no row) when the puzzle's solution
was shown to the player or their address lately (a guest who gave up, another account), or
when the player has had their quota of rated attempts in the last minute.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import Connection, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from sosgame.ai.puzzles import Puzzle
from sosgame.glicko import NEW_RATING, Glicko
from sosgame.glicko import update as rate
from sosgame.web.storage.schema import (
    puzzle_attempts,
    puzzle_players,
    puzzle_ratings,
    puzzle_reveals,
)
from sosgame.web.storage.store import Store
from sosgame.web.storage.turns import in_turn

__all__ = ["PUZZLE_DEVIATION", "PuzzleRatings", "RatedAttempt", "Unrated", "viewers"]

PUZZLE_DEVIATION: Final = 200.0
"""How unsure a puzzle's starting rating is (from its length and the levels' misses)."""
_MINUTE_MS: Final = 60_000


def viewers(address: str, player_id: int | None) -> list[str]:
    """Who a solution is shown to: the client address and, if logged in, the player."""
    return [f"a:{address}"] + ([] if player_id is None else [f"p:{player_id}"])


@dataclass(frozen=True)
class Unrated:
    """Why a first attempt was judged but not rated: ``solution_seen`` (the solution was
    shown to the player or their address lately) or ``too_fast`` (past the pace)."""

    reason: str


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
        self,
        player_id: int,
        address: str,
        puzzle: Puzzle,
        solved: bool,
        now_ms: int,
        *,
        unrated_ms: int,
        per_minute: int,
    ) -> RatedAttempt | Unrated | None:
        """Rate the player's first attempt at ``puzzle``; ``None`` if it is not the first,
        :class:`Unrated` if the solution was shown to the player or ``address`` within
        ``unrated_ms``, or the player has had ``per_minute`` rated attempts in the last
        minute (either way it stays a first attempt to come)."""
        try:
            # One answer of a player at a time (over every process): the pace holds.
            with in_turn(self._engine, f"puzzle:{player_id}") as db:
                tried = db.execute(
                    select(puzzle_attempts.c.puzzle_id).where(
                        puzzle_attempts.c.player_id == player_id,
                        puzzle_attempts.c.puzzle_id == puzzle.id,
                    )
                ).first()
                if tried is not None:
                    return None
                seen = db.execute(
                    select(puzzle_reveals.c.viewer).where(
                        puzzle_reveals.c.puzzle_id == puzzle.id,
                        puzzle_reveals.c.viewer.in_(viewers(address, player_id)),
                        puzzle_reveals.c.at_ms > now_ms - unrated_ms,
                    )
                ).first()
                if seen is not None:
                    return Unrated("solution_seen")
                recent = db.execute(
                    select(func.count()).where(
                        puzzle_attempts.c.player_id == player_id,
                        puzzle_attempts.c.at_ms > now_ms - _MINUTE_MS,
                    )
                ).scalar_one()
                if recent >= per_minute:
                    return Unrated("too_fast")
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

    def reveal(self, puzzle_id: str, shown_to: Sequence[str], now_ms: int, keep_ms: int) -> None:
        """Note that the puzzle's solution was shown to these viewers (:func:`viewers`) now;
        notes older than ``keep_ms`` go at the same time."""
        for attempt in range(2):
            try:
                with self._engine.begin() as db:
                    db.execute(
                        delete(puzzle_reveals).where(puzzle_reveals.c.at_ms < now_ms - keep_ms)
                    )
                    for viewer in shown_to:
                        key = (puzzle_reveals.c.puzzle_id == puzzle_id) & (
                            puzzle_reveals.c.viewer == viewer
                        )
                        if not db.execute(
                            update(puzzle_reveals).where(key).values(at_ms=now_ms)
                        ).rowcount:
                            db.execute(
                                insert(puzzle_reveals).values(
                                    puzzle_id=puzzle_id, viewer=viewer, at_ms=now_ms
                                )
                            )
                return
            except IntegrityError:  # noted at the same moment by another process: again
                if attempt:
                    raise

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
