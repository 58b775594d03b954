"""``sosgame show POSITION|RxC``: draw a position, or an empty board, as text or SVG."""

from __future__ import annotations

import argparse
from typing import Any

from sosgame.cli.language import subcommand, t
from sosgame.game import Game
from sosgame.notation import parse_size

__all__ = ["register"]


def register(commands: Any) -> None:
    """Add the ``show`` subcommand."""
    parser = subcommand(commands, "show")
    parser.add_argument("position", metavar="POSITION|RxC", help=t("cli.show.position"))
    parser.add_argument("--svg", action="store_true", help=t("cli.show.svg"))
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    """Draw the position named on the command line."""
    size = parse_size(arguments.position)
    game = Game(*size) if size is not None else Game.from_position(arguments.position)
    if arguments.svg:
        from sosgame.svg import svg

        print(svg(game))
        return 0
    print(game)
    if game.lines:
        lines = ", ".join(str(line) for line in game.lines)
        print(t("cli.show.lines", count=len(game.lines), lines=lines))
    return 0
