"""What the terminal game keeps besides the :class:`Game`: who sits where, redo, and replays.

Nothing here knows Textual, and nothing here knows the rules: every move, undo, redo and
resignation is a call on the engine, which alone decides scores, turns and the result.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from sosgame.game import Action, Game
from sosgame.levels import LEVELS
from sosgame.notation import Move, Resignation, parse_action
from sosgame.outcome import Line
from sosgame.record import Record, Start, starting_game

__all__ = [
    "LEVELS",
    "PERSON",
    "SEATS_TAG",
    "History",
    "Replay",
    "Seat",
    "Session",
    "Step",
    "history",
    "seats_from_record",
    "start_game",
]

PERSON: Final = "person"
"""The kind of a seat that a person plays."""
SEATS_TAG: Final = "sosgame.seats"
"""The record tag that keeps who played each seat: kinds separated by commas."""


@dataclass(frozen=True)
class Seat:
    """One seat: the name shown and who plays it (:data:`PERSON` or a computer level)."""

    name: str
    kind: str = PERSON

    @property
    def is_computer(self) -> bool:
        """Whether a computer plays this seat."""
        return self.kind != PERSON


@dataclass
class Session:
    """A game in play: the engine's game, the seats, and the actions that undo took back."""

    game: Game
    seats: list[Seat]
    redo_stack: list[Action] = field(default_factory=list)
    saved: list[Action] | None = None
    """The actions a record file holds for this game; by default, the ones it starts with
    (a new game has none, a game read from a file has that file's)."""

    def __post_init__(self) -> None:
        if len(self.seats) != self.game.players:
            raise ValueError(f"{len(self.seats)} seats for a {self.game.players}-player game")
        if self.saved is None:
            self.saved = list(self.game.actions)

    @property
    def unsaved(self) -> bool:
        """Whether leaving now would lose moves: the game is not what was last saved."""
        return list(self.game.actions) != self.saved

    def mark_saved(self) -> None:
        """Note that a record file now holds the game as it is."""
        self.saved = list(self.game.actions)

    @property
    def names(self) -> list[str]:
        """The seats' names, in seat order."""
        return [seat.name for seat in self.seats]

    @property
    def has_person(self) -> bool:
        """Whether a person plays any seat."""
        return any(not seat.is_computer for seat in self.seats)

    @property
    def computer_to_move(self) -> bool:
        """Whether the game goes on and a computer is to move."""
        return not self.game.is_over and self.seats[self.game.turn].is_computer

    def play(self, move: Move) -> tuple[Line, ...]:
        """Play ``move`` through the engine; a new move makes the undone ones unreachable.

        :raises IllegalMoveError: (from the engine) with the game left as it was.
        """
        lines = self.game.play(move)
        self.redo_stack.clear()
        return lines

    def resign(self) -> int:
        """The seat to move resigns; returns that seat."""
        seat = self.game.turn
        self.game.resign(seat)
        self.redo_stack.clear()
        return seat

    def undo(self) -> list[Action]:
        """Take back the last action, and more until a person is to move; returns them in order.

        With people at the table, taking back only a computer's reply would let it play again
        at once, so undo goes back to the last position where a person was to move.
        """
        undone: list[Action] = []
        game = self.game
        while game.actions:
            undone.append(game.undo())
            if not self.has_person or not self.seats[game.turn].is_computer:
                break
        if self.has_person and self.computer_to_move:
            # No earlier position has a person to move (a computer opened the game): keep
            # the game as it was rather than stop where only the computer could go on.
            for action in reversed(undone):
                game.apply(action)
            return []
        self.redo_stack.extend(undone)
        return undone

    def redo(self) -> list[Action]:
        """Replay what undo took back, up to the next position where a person is to move."""
        redone: list[Action] = []
        game = self.game
        while self.redo_stack:
            action = self.redo_stack.pop()
            game.apply(action)
            redone.append(action)
            if not self.has_person or not self.computer_to_move:
                break
        return redone

    def record(self) -> Record:
        """The record of the game so far, with the seats' names."""
        return Record.from_game(self.game, players=self.names)


def start_game(record: Record) -> Game:
    """A new game with ``record``'s settings and starting position, before any move."""
    return record.starting_game()


@dataclass(frozen=True)
class Step:
    """One entry of a game's history: the action, the seat that took it, the points it scored."""

    action: Action
    seat: int
    points: int


def history(game: Game) -> list[Step]:
    """Who took each of ``game``'s actions, found by replaying them through the engine."""
    replay = _fresh(game)
    steps = []
    for action in game.actions:
        seat = action.seat if isinstance(action, Resignation) else replay.turn
        points = len(replay.apply(action))
        steps.append(Step(action, seat, points))
    return steps


class History:
    """:func:`history` kept up to date as a game goes on: each update replays, through the
    engine, only the actions that changed since the last one (undone ones are taken back)."""

    def __init__(self) -> None:
        self._replay: Game | None = None
        self._steps: list[Step] = []

    def steps(self, game: Game) -> list[Step]:
        """Who took each of ``game``'s actions (the list is the history's own)."""
        replay = self._replay
        if (
            replay is None
            or (replay.rows, replay.cols, replay.players, replay.mode)
            != (
                game.rows,
                game.cols,
                game.players,
                game.mode,
            )
            or replay.start != game.start
        ):
            replay = self._replay = _fresh(game)
            self._steps = []
        actions, done = game.actions, replay.actions
        common = 0
        for mine, theirs in zip(done, actions, strict=False):
            if mine != theirs:
                break
            common += 1
        while len(replay.actions) > common:
            replay.undo()
            self._steps.pop()
        for action in actions[common:]:
            seat = action.seat if isinstance(action, Resignation) else replay.turn
            self._steps.append(Step(action, seat, len(replay.apply(action))))
        return self._steps


def _fresh(game: Game) -> Game:
    start = None if game.start is None else Start(*game.start)
    return starting_game(game.rows, game.cols, players=game.players, mode=game.mode, start=start)


class Replay:
    """A record shown move by move: every step is an engine call on a game built from it."""

    def __init__(self, record: Record) -> None:
        self.record = record
        self.actions: list[Action] = [parse_action(text) for text in record.moves]
        self.game = start_game(record)

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


def seats_from_record(record: Record) -> list[Seat]:
    """The seats of a record: its names, and the computer levels if it kept them."""
    tags = record.meta.get("tags", {})
    kinds = str(tags.get(SEATS_TAG, "")).split(",") if isinstance(tags, dict) else []
    if len(kinds) != len(record.players) or not all(k in (PERSON, *LEVELS) for k in kinds):
        kinds = [PERSON] * len(record.players)
    return [Seat(name, kind) for name, kind in zip(record.players, kinds, strict=True)]
