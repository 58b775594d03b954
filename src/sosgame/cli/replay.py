"""``sosgame replay FILE [--json]``: replay a record and report how the game stands."""

from __future__ import annotations

import argparse
import json
from typing import Any

from sosgame.cli.language import add_json, subcommand, t
from sosgame.game import Game
from sosgame.i18n import outcome_text
from sosgame.record import load

__all__ = ["register", "summary"]


def register(commands: Any) -> None:
    """Add the ``replay`` subcommand."""
    parser = subcommand(commands, "replay")
    parser.add_argument("file", metavar="FILE", help=t("cli.help.record"))
    add_json(parser)
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
        "lines": [line.to_dict() for line in game.lines],
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
    scores = ", ".join(f"{name} {score}" for name, score in zip(names, game.scores, strict=True))
    print(t("scores", scores=scores))
    for line in game.lines:
        if line.owner is None:
            print(t("cli.replay.start_line", line=line))
        else:
            print(t("cli.replay.line", line=line, name=names[line.owner], ply=line.ply))
    outcome = game.outcome
    if outcome is None:
        print(t("cli.replay.not_over", name=names[game.turn], count=len(game.actions)))
        return 0
    print(outcome_text(t, outcome, names))
    return 0
