"""The state of one live game, as a frozen value: what the machine reads and returns.

Everything a rule of the live game decides from is here: the game's settings and actions,
its seats, clock, offers, ending, presence and version. What is worked out from it (the
engine's game, who has moved, the last moves) is computed once per value and kept with it;
a new value is made with :func:`evolve`, never by changing one.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from types import MappingProxyType
from typing import Any, Final

from sosgame.game import Game, Mode
from sosgame.snapshot import Snapshot, build_game
from sosgame.table import Seat, Table
from sosgame.web.live.protocol import ProtocolError
from sosgame.web.storage.rows import HUMAN, SeatRow, StoredGame

__all__ = ["ENDINGS", "Clock", "LiveState", "Timings", "ending_of", "evolve", "load"]

Clock = dict[str, Any]
"""A clock as :mod:`sosgame.web.live.clock` has it (never changed in place here)."""
ENDINGS: Final = ("aborted", "agreement", "abandoned")
"""Terminations the engine does not know: the state's ``ending`` says them instead."""
_NONE: Final[Mapping[Any, Any]] = MappingProxyType({})


def ending_of(result: dict[str, Any] | None) -> dict[str, Any] | None:
    """A stored result that the engine cannot tell from the moves (an abort, an agreement,
    an abandoned game), else ``None``."""
    if isinstance(result, dict) and result.get("termination") in ENDINGS:
        return result
    return None


@dataclass(frozen=True)
class Timings:
    """The fair-play timers of the server's limits, in milliseconds."""

    first_move_ms: int = 30_000
    abandon_ms: int = 60_000
    rematch_ms: int = 60_000


@dataclass(frozen=True)
class LiveState:
    """One live game: its settings, actions, seats, clock, offers, ending and presence."""

    game_id: str
    kind: str
    rows: int
    cols: int
    mode: Mode
    seats: tuple[SeatRow, ...]
    timings: Timings = Timings()
    start: dict[str, Any] | None = None
    rated: bool = False
    actions: tuple[str, ...] = ()
    undone: tuple[str, ...] = ()
    """What a local game's undo took back, for redo (the next action to play again last)."""
    status: str = "playing"
    public: bool = False
    rematch: str | None = None
    version: int = 0
    clock: Clock | None = None
    offers: tuple[dict[str, Any], ...] = ()
    """The offers as stored (draws and takebacks stamped with the version they stand at)."""
    ending: dict[str, Any] | None = None
    begun: bool = False
    """Every seat had made its first move before a takeback undid one."""
    away_since: Mapping[int, int] = field(default_factory=lambda: _NONE)
    """Per seat away, since when."""
    came_back: Mapping[int, tuple[int, int]] = field(default_factory=lambda: _NONE)
    """Per seat that came back: the ply then and how long it had been away."""
    seen: frozenset[int] = frozenset()
    """The seats that have been connected since the game was loaded."""

    # ---------------------------------------------------------------- worked out once

    @cached_property
    def game(self) -> Game:
        """The game as the engine has it (read it, never change it: copy it first)."""
        snapshot = Snapshot(self.rows, self.cols, len(self.seats), self.mode, self.start, ())
        game = build_game(snapshot)
        game.play_all(self.actions)
        return game

    def fresh_game(self) -> Game:
        """The game from its start, before any action."""
        snapshot = Snapshot(self.rows, self.cols, len(self.seats), self.mode, self.start, ())
        return build_game(snapshot)

    def table(self) -> Table:
        """A copy of the game at its seats, with the engine's undo rules for a table."""
        return Table(self.game.copy(), [Seat(row.name, row.kind) for row in self.seats])

    @cached_property
    def moved_seats(self) -> frozenset[int]:
        """The seats that have made at least one move (resignations are not moves)."""
        moved, _last, _resignation = self._history
        return moved

    @cached_property
    def last_moves(self) -> tuple[Mapping[int, int], int]:
        """Per seat the index of its last move, and that of the last resignation (-1)."""
        _moved, last, resignation = self._history
        return last, resignation

    @cached_property
    def _history(self) -> tuple[frozenset[int], Mapping[int, int], int]:
        # Read from the game (already played), not from a replay of it.
        last: dict[int, int] = {}
        resignation = -1
        for index, (text, mover) in enumerate(zip(self.actions, self.game.movers, strict=True)):
            if text.startswith("resign:"):
                resignation = index
            else:
                last[mover] = index
        return frozenset(last), MappingProxyType(last), resignation

    @property
    def ply(self) -> int:
        """How many actions the game has."""
        return len(self.actions)

    @cached_property
    def started(self) -> bool:
        """Whether every seat has made its first move (or resigned), now or before a
        takeback: the clocks run, and the game can no longer be aborted."""
        if self.begun:
            return True
        active = set(self.game.active_seats)
        return all(seat in self.moved_seats or seat not in active for seat in self.seat_numbers)

    @property
    def seat_numbers(self) -> range:
        """Every seat, in order."""
        return range(len(self.seats))

    @property
    def over(self) -> bool:
        """Whether the game is over (the engine's end, or an ending of the server's)."""
        return self.status == "finished" or self.game.is_over

    @property
    def playable(self) -> bool:
        """Whether moves may be made now: every seat is filled and the game goes on."""
        return self.status == "playing" and not self.game.is_over

    @property
    def abandonable(self) -> bool:
        """An online game without a clock that goes on: a seat away long enough may be
        claimed against."""
        return self.kind == "online" and self.clock is None and self.playable

    @property
    def days(self) -> int | None:
        """Days per move of a correspondence game, else ``None``."""
        return None if self.clock is None else self.clock.get("days")

    @property
    def people(self) -> frozenset[int]:
        """The seats a person plays."""
        return frozenset(row.seat for row in self.seats if row.player == HUMAN)

    @cached_property
    def can_undo(self) -> bool:
        """Whether a local game's undo would take anything back."""
        return self.kind == "local" and self.table().can_undo

    @property
    def can_redo(self) -> bool:
        """Whether a local game's redo would play anything again."""
        return self.kind == "local" and bool(self.undone)

    def takeback_point(self, asker: int) -> int:
        """How many actions a takeback for ``asker`` keeps: those before its last move."""
        moves, resignation = self.last_moves
        last = moves.get(asker)
        if last is None:
            raise ProtocolError("nothing_to_undo", f"seat {asker} has made no move to take back")
        if resignation > last:
            raise ProtocolError("not_allowed", "a resignation cannot be taken back")
        return last

    def standing_offers(self, now: int) -> list[dict[str, Any]]:
        """The offers that still stand at ``now``: draws and takebacks while the game is at
        the version they were made at, rematches while the game is over and not lapsed."""
        playing = self.playable
        finished = self.status == "finished" and self.rematch is None
        standing = []
        for item in self.offers:
            if item.get("offer") == "rematch":
                if finished and now < int(item.get("lapses", 0)):
                    standing.append(item)
            elif playing and item.get("version") == self.version:
                standing.append(item)
        return standing

    def standing(self, kind: str, now: int) -> dict[str, Any] | None:
        """The offer of ``kind`` that stands at ``now``, if any."""
        return next((item for item in self.standing_offers(now) if item["offer"] == kind), None)


def evolve(state: LiveState, game: Game | None = None, **changes: Any) -> LiveState:
    """``state`` with ``changes``; ``game``, if given, is the engine's game for the new
    actions (so that it is not replayed again)."""
    new = dataclasses.replace(state, **changes)
    if game is not None:
        new.__dict__["game"] = game  # the cached_property's slot
    return new


def load(stored: StoredGame, timings: Timings, *, previous: LiveState | None = None) -> LiveState:
    """The stored game as a state; ``previous``, the same game as known before it was read
    again, gives what the store does not keep (presence, what undo took back)."""
    mode: Mode = "simple" if stored.mode == "simple" else "general"
    state = LiveState(
        game_id=stored.id,
        kind=stored.kind,
        rows=stored.rows,
        cols=stored.cols,
        mode=mode,
        seats=tuple(stored.seats),
        timings=timings,
        start=stored.start,
        rated=stored.rated is not False and stored.kind == "online",
        actions=tuple(stored.actions),
        status=stored.status,
        public=stored.public,
        rematch=stored.rematch,
        version=stored.version,
        clock=stored.clock,
        offers=tuple(stored.offers or ()),
        ending=ending_of(stored.result) if stored.status == "finished" else None,
        begun=stored.begun,
    )
    if previous is None:
        return state
    same = previous.actions == state.actions and previous.start == state.start
    return evolve(
        state,
        game=previous.game if same else None,
        undone=previous.undone if same else (),
        away_since=previous.away_since,
        came_back=previous.came_back,
        seen=previous.seen,
    )
