"""``sosgame replay FILE [--json]``: replay a record and report how the game stands."""

from __future__ import annotations

import argparse
import json
from typing import Any

from sosgame.game import Game
from sosgame.record import load

__all__ = ["register", "summary"]


def register(commands: Any) -> None:
    """Add the ``replay`` subcommand."""
    parser = commands.add_parser(
        "replay",
        help="replay a game record and show the final board, scores, lines and outcome",
        description="Replay a game record (JSON, sosgame-record/1), checking every move.",
    )
    parser.add_argument("file", metavar="FILE", help="the record file")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def summary(game: Game) -> dict[str, Any]:
    """A game's state as the JSON object ``replay --json`` prints."""
    outcome = game.outcome
    return {
        "rows": game.rows,
        "cols": game.cols,
        "mode": game.mode,
        "players": game.players,
        "position": game.position(),
        "scores": list(game.scores),
        "turn": game.turn,
        "over": outcome is not None,
        "winners": [] if outcome is None else list(outcome.winners),
        "termination": None if outcome is None else outcome.termination.value,
        "moves": [str(action) for action in game.actions],
        "lines": [
            {"owner": line.owner, "ply": line.ply, "cells": [str(cell) for cell in line.cells]}
            for line in game.lines
        ],
    }


def run(arguments: argparse.Namespace) -> int:
    """Replay the record named on the command line."""
    record = load(arguments.file)
    game = record.to_game()
    if arguments.json:
        print(json.dumps(summary(game), ensure_ascii=False))
        return 0
    print(game)
    print()
    names = record.players
    print(
        "Scores: "
        + ", ".join(f"{name} {score}" for name, score in zip(names, game.scores, strict=True))
    )
    for line in game.lines:
        if line.owner is None:
            print(f"  {line}  on the starting board")
        else:
            print(f"  {line}  {names[line.owner]}, ply {line.ply}")
    outcome = game.outcome
    if outcome is None:
        print(f"Not over: {names[game.turn]} to move after {len(game.actions)} moves.")
    elif outcome.winner is not None:
        print(f"{names[outcome.winner]} wins ({outcome.termination.value}).")
    else:
        drawn = ", ".join(names[seat] for seat in outcome.winners)
        print(f"Draw between {drawn} ({outcome.termination.value}).")
    return 0
