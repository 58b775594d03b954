"""A finished (or unfinished) game as frames, one per ply, each worked out by the engine."""

from __future__ import annotations

from typing import Any

from sosgame.game import Game
from sosgame.notation import Resignation
from sosgame.position import Position, build_game

__all__ = ["move_list", "replay_frames"]


def move_list(game: Game, start: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Every action with the seat that made it and the points it scored, worked out by the
    engine: ``[{"action": "Sc1", "seat": 0, "points": 1}, ...]``."""
    replaying = build_game(Position(game.rows, game.cols, game.players, game.mode, start, ()))
    moves = []
    for action in game.actions:
        seat = action.seat if isinstance(action, Resignation) else replaying.turn
        lines = replaying.apply(action)
        moves.append({"action": str(action), "seat": seat, "points": len(lines)})
    return moves


def replay_frames(game: Game, start: dict[str, Any] | None) -> dict[str, Any]:
    """Frame 0 is the start; frame ``n`` is the game after its ``n``-th action.

    Each frame gives the board, scores, turn, extra-turn flag, result and how many of
    ``lines`` (every line, in the order made) are on the board by then; ``moves`` is
    :func:`move_list`.
    """
    replaying = build_game(Position(game.rows, game.cols, game.players, game.mode, start, ()))
    actions = [str(action) for action in game.actions]
    frames = [_frame(replaying, None)]
    for text in actions:
        replaying.apply(text)
        frames.append(_frame(replaying, text))
    return {
        "rows": game.rows,
        "cols": game.cols,
        "mode": game.mode,
        "actions": actions,
        "moves": move_list(game, start),
        "lines": [
            {"owner": line.owner, "ply": line.ply, "cells": [str(cell) for cell in line.cells]}
            for line in replaying.lines
        ],
        "frames": frames,
    }


def _frame(game: Game, action: str | None) -> dict[str, Any]:
    outcome = game.outcome
    return {
        "action": action,
        "board": game.position().split("/"),
        "scores": list(game.scores),
        "turn": game.turn,
        "extra_turn": game.extra_turn,
        "lines": len(game.lines),
        "result": None
        if outcome is None
        else {"termination": outcome.termination.value, "winners": list(outcome.winners)},
    }
