"""A game as settings and the text of its actions: what a worker process, a cache or a
database row needs to rebuild it through the engine (:func:`build_game`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sosgame.game import Game, Mode
from sosgame.record import Start, starting_game

__all__ = ["Snapshot", "build_game"]


@dataclass(frozen=True)
class Snapshot:
    """A game's settings (``start`` as a record's ``start`` object, or ``None`` for an
    empty board) and its actions as text, such as ``Sb3`` or ``resign:1``."""

    rows: int
    cols: int
    players: int
    mode: Mode
    start: dict[str, Any] | None
    actions: tuple[str, ...]


def build_game(snapshot: Snapshot) -> Game:
    """Replay a snapshot's actions through the engine, from its start."""
    start = None
    if snapshot.start is not None:
        scores = snapshot.start.get("scores")
        start = Start(
            str(snapshot.start["position"]),
            int(snapshot.start.get("turn", 0)),
            None if scores is None else tuple(scores),
        )
    game = starting_game(
        snapshot.rows, snapshot.cols, players=snapshot.players, mode=snapshot.mode, start=start
    )
    game.play_all(snapshot.actions)
    return game
