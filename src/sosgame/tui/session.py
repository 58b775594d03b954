"""What the terminal game keeps besides the :class:`~sosgame.table.Table` (seats, undo back to
a person's turn, redo, replays): whether the game is saved, and who took each action.

Nothing here knows Textual, and nothing here knows the rules: every move, undo, redo and
resignation is a call on the engine, which alone decides scores, turns and the result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sosgame.game import Action, Game
from sosgame.notation import Resignation
from sosgame.record import Start, starting_game
from sosgame.table import Seat, Table

__all__ = ["History", "Session", "Step", "history"]


class Session(Table):
    """A game in play at the terminal: a :class:`Table`, and the actions its record file holds
    (``saved``; by default the ones it starts with: none for a new game, a file's for a game
    read from that file)."""

    def __init__(
        self, game: Game, seats: Sequence[Seat], *, saved: list[Action] | None = None
    ) -> None:
        super().__init__(game, seats)
        self.saved = list(game.actions) if saved is None else saved

    @property
    def unsaved(self) -> bool:
        """Whether leaving now would lose moves: the game is not what was last saved."""
        return list(self.game.actions) != self.saved

    def mark_saved(self) -> None:
        """Note that a record file now holds the game as it is."""
        self.saved = list(self.game.actions)


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
