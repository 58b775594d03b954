"""A table in play: a :class:`Game`, who sits at each seat, undo back to a person's turn and
redo, and a record shown move by move from which play goes on.

The terminal game and the browser's rooms both keep their game at a :class:`Table`, so that
both take back and play again by the same rules:

* with a person at the table, undo takes back the last action and then more, until a person
  is to move; if no earlier position has a person to move (a computer opened the game), it
  takes back nothing rather than stop where only a computer could go on;
* at a table of computers only, undo takes back one action;
* a finished game with a computer and a person at the table stays finished: undo takes back
  nothing (the person would otherwise reopen a game the computer had won);
* redo plays again what undo took back, up to the next position where a person is to move
  (at a table of computers only, one action);
* any new action, a move or a resignation, forgets what undo took back.

So undo then redo gives back exactly the game and what redo holds. Nothing here knows the
rules: every action and every undo is a call on the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from sosgame.game import Action, Game
from sosgame.levels import LEVELS
from sosgame.notation import parse_action
from sosgame.outcome import Line
from sosgame.record import Record

__all__ = [
    "KINDS",
    "PERSON",
    "SEATS_TAG",
    "Replay",
    "Seat",
    "Table",
    "seats_from_record",
]

PERSON: Final = "person"
"""The kind of a seat that a person plays; any other kind is a computer level."""
KINDS: Final = (PERSON, *LEVELS)
"""Every kind of seat: a person, then the computer levels, weakest first."""
SEATS_TAG: Final = "sosgame.seats"
"""The record tag that keeps who plays each seat: the kinds, separated by commas."""


@dataclass(frozen=True)
class Seat:
    """One seat: the name shown and who plays it (:data:`PERSON` or a computer level).

    :raises ValueError: if ``kind`` is neither.
    """

    name: str
    kind: str = PERSON

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"a seat is one of {', '.join(KINDS)}, not {self.kind!r}")

    @property
    def is_computer(self) -> bool:
        """Whether a computer plays this seat."""
        return self.kind != PERSON


class Table:
    """A game in play at its seats, with what undo took back (for redo).

    :raises ValueError: if there is not one seat per player.
    """

    def __init__(self, game: Game, seats: Sequence[Seat]) -> None:
        if len(seats) != game.players:
            raise ValueError(f"{len(seats)} seats for a {game.players}-player game")
        self.game = game
        self.seats = list(seats)
        self._undone: list[Action] = []
        self._forgotten: tuple[int, list[Action]] | None = None

    # ------------------------------------------------------------------------- reading

    @property
    def names(self) -> list[str]:
        """The seats' names, in seat order."""
        return [seat.name for seat in self.seats]

    @property
    def kinds(self) -> list[str]:
        """Who plays each seat, in seat order."""
        return [seat.kind for seat in self.seats]

    @property
    def has_person(self) -> bool:
        """Whether a person plays any seat."""
        return any(not seat.is_computer for seat in self.seats)

    @property
    def has_computer(self) -> bool:
        """Whether a computer plays any seat."""
        return any(seat.is_computer for seat in self.seats)

    @property
    def computer_to_move(self) -> bool:
        """Whether the game goes on and a computer is to move."""
        return not self.game.is_over and self.seats[self.game.turn].is_computer

    @property
    def redo_stack(self) -> list[Action]:
        """What redo can play again, the next action last (a copy)."""
        return list(self._undone)

    @property
    def can_undo(self) -> bool:
        """Whether undo would take anything back."""
        return bool(self._undo_span())

    @property
    def can_redo(self) -> bool:
        """Whether redo would play anything again."""
        return bool(self._undone)

    def _stops_undo(self) -> bool:
        """Whether undo may stop here: a person is to move, or no person is at the table."""
        return not self.has_person or not self.seats[self.game.turn].is_computer

    def _undo_span(self) -> int:
        """How many actions undo takes back (the game is left as it was)."""
        game = self.game
        if game.is_over and self.has_computer and self.has_person:
            return 0
        taken: list[Action] = []
        while game.actions:
            taken.append(game.undo())
            if self._stops_undo():
                break
        span = len(taken) if taken and self._stops_undo() else 0
        for action in reversed(taken):
            game.apply(action)
        return span

    # ------------------------------------------------------------------------- changing

    def play(self, action: Action | str) -> tuple[Line, ...]:
        """Take ``action`` (a move or a resignation, or its text) through the engine; what undo
        took back can no longer come back. Returns the lines it made.

        :raises InvalidMoveError: (from the engine) for text that is no action;
        :raises IllegalMoveError: for an action the game forbids, with the table as it was.
        """
        lines = self.game.apply(action)
        self._forgotten = (len(self.game.actions), self._undone)
        self._undone = []
        return lines

    def resign(self, seat: int | None = None) -> int:
        """Seat ``seat`` (by default the one to move) resigns; returns that seat."""
        resigner = self.game.turn if seat is None else seat
        self.game.resign(resigner)
        self._forgotten = (len(self.game.actions), self._undone)
        self._undone = []
        return resigner

    def retract(self) -> Action:
        """Take back the action just taken by :meth:`play` or :meth:`resign`, which could not
        be kept (it could not be stored, say): the table is as it was before it.

        :raises NothingToUndoError: (from the engine) if there is no action to take back.
        """
        forgotten = self._forgotten
        action = self.game.undo()
        if forgotten is not None and forgotten[0] == len(self.game.actions) + 1:
            self._undone = forgotten[1]
        self._forgotten = None
        return action

    def undo(self) -> list[Action]:
        """Take back the last action, and more until a person is to move (see the module's
        rules); returns what was taken back, in the order it was taken back."""
        undone = [self.game.undo() for _ in range(self._undo_span())]
        self._undone.extend(undone)
        self._forgotten = None
        return undone

    def redo(self) -> list[Action]:
        """Play again what undo took back, up to the next position where a person is to move;
        returns what was played, in order."""
        redone: list[Action] = []
        while self._undone:
            action = self._undone.pop()
            self.game.apply(action)
            redone.append(action)
            if not self.has_person or not self.computer_to_move:
                break
        self._forgotten = None
        return redone

    def rewind(self, ply: int) -> list[Action]:
        """Take back every action after the first ``ply`` for redo (as another copy of this
        table's undo did); returns them in the order they were taken back."""
        undone = [self.game.undo() for _ in range(len(self.game.actions) - ply)]
        self._undone.extend(undone)
        self._forgotten = None
        return undone

    def record(self, **meta: object) -> Record:
        """The record of the game so far, with the seats' names and, in its tags, who plays
        each seat (``meta``: more of the record's ``meta`` fields)."""
        tags = {SEATS_TAG: ",".join(self.kinds)}
        return Record.from_game(self.game, players=self.names, meta={**meta, "tags": tags})


def seats_from_record(record: Record) -> list[Seat]:
    """The seats of ``record``: its names, and who played each seat if it kept that (a person
    at every seat if it did not)."""
    tags = record.meta.get("tags", {})
    kinds = str(tags.get(SEATS_TAG, "")).split(",") if isinstance(tags, dict) else []
    if len(kinds) != len(record.players) or not all(kind in KINDS for kind in kinds):
        kinds = [PERSON] * len(record.players)
    return [Seat(name, kind) for name, kind in zip(record.players, kinds, strict=True)]


class Replay:
    """A record shown move by move, each step an engine call on a game built from it; play
    goes on from the position shown with the same seats (by default, the record's)."""

    def __init__(self, record: Record, seats: Sequence[Seat] | None = None) -> None:
        self.record = record
        self.seats = list(seats_from_record(record) if seats is None else seats)
        if len(self.seats) != len(record.players):
            raise ValueError(f"{len(self.seats)} seats for a {len(record.players)}-player game")
        self.actions: list[Action] = [parse_action(text) for text in record.moves]
        self.game = record.starting_game()

    @property
    def ply(self) -> int:
        """How many of the record's actions are on the board."""
        return len(self.game.actions)

    @property
    def total(self) -> int:
        """How many actions the record holds."""
        return len(self.actions)

    def forward(self) -> bool:
        """Play the next action; returns whether there was one."""
        if self.ply >= self.total:
            return False
        self.game.apply(self.actions[self.ply])
        return True

    def back(self) -> bool:
        """Take back the last action shown; returns whether there was one."""
        if not self.ply:
            return False
        self.game.undo()
        return True

    def to_start(self) -> None:
        """Go back to the position before the first action."""
        while self.back():
            pass

    def to_end(self) -> None:
        """Go on to the position after the last action."""
        while self.forward():
            pass

    def play_on(self) -> Table:
        """A table that plays on from the position shown: a copy of it, at the same seats."""
        return Table(self.game.copy(), self.seats)
