"""``sosgame show POSITION``: draw a position as text or SVG."""

from __future__ import annotations

import argparse
from typing import Any

from sosgame.game import Game
from sosgame.svg import svg

__all__ = ["register"]


def register(commands: Any) -> None:
    """Add the ``show`` subcommand."""
    parser = commands.add_parser(
        "show",
        help="draw a position such as S.O/.../OSS",
        description="Draw a position (rows from the top, separated by '/'; S, O, or '.').",
    )
    parser.add_argument("position", metavar="POSITION", help="for example S.O/.O./S.S")
    parser.add_argument("--svg", action="store_true", help="print an SVG picture instead")
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    """Draw the position named on the command line."""
    game = Game.from_position(arguments.position)
    if arguments.svg:
        print(svg(game))
        return 0
    print(game)
    if game.lines:
        print(f"{len(game.lines)} SOS: " + ", ".join(str(line) for line in game.lines))
    return 0
