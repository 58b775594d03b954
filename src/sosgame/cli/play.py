"""``sosgame play``: a game for people at one keyboard."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from sosgame.cli.plain import PlainGame
from sosgame.errors import SosError
from sosgame.game import MAX_PLAYERS, MIN_PLAYERS, MODES, Game
from sosgame.i18n import LANGUAGES, detect_language, translator
from sosgame.notation import MAX_SIDE

__all__ = ["register"]


def register(commands: Any) -> None:
    """Add the ``play`` subcommand."""
    parser = commands.add_parser(
        "play",
        help="play a game at this keyboard",
        description="Play SOS at one keyboard, reading moves such as Sb3 from standard input.",
    )
    parser.add_argument(
        "--plain", action="store_true", help="the line-mode game (works with piped input)"
    )
    parser.add_argument("--size", type=int, metavar="N", help="a square N x N board (default 5)")
    parser.add_argument("--rows", type=int, metavar="R", help="the number of rows")
    parser.add_argument("--cols", type=int, metavar="C", help="the number of columns")
    parser.add_argument("--mode", choices=MODES, default="general", help="the rules to play")
    parser.add_argument(
        "--players",
        type=int,
        metavar="N",
        help=f"how many players, {MIN_PLAYERS} to {MAX_PLAYERS} (default: as many as --names)",
    )
    parser.add_argument("--names", nargs="+", metavar="NAME", help="the players' names, in order")
    parser.add_argument(
        "--lang",
        choices=list(LANGUAGES),
        help="the language (default: from the locale, else English)",
    )
    parser.set_defaults(run=run)


def _settings(arguments: argparse.Namespace) -> tuple[int, int, int, list[str] | None]:
    size = arguments.size if arguments.size is not None else 5
    rows = arguments.rows if arguments.rows is not None else size
    cols = arguments.cols if arguments.cols is not None else size
    for name, value in (("--size", arguments.size), ("--rows", rows), ("--cols", cols)):
        if value is not None and not 1 <= value <= MAX_SIDE:
            raise SosError(f"{name} must be from 1 to {MAX_SIDE}, not {value}")
    names = arguments.names
    players = arguments.players if arguments.players is not None else len(names or [1, 2])
    if names is not None and len(names) != players:
        raise SosError(f"--names gives {len(names)} names but --players is {players}")
    if names is not None:
        for name in names:
            if not name.strip() or len(name) > 100:
                raise SosError(f"--names: {name!r} is not a name of 1 to 100 characters")
    return rows, cols, players, names


def run(arguments: argparse.Namespace) -> int:
    """Start the game the command line describes."""
    rows, cols, players, names = _settings(arguments)
    game = Game(rows, cols, players=players, mode=arguments.mode)
    language = arguments.lang or detect_language()
    translate = translator(language)
    if names is None:
        names = [translate("player", number=seat + 1) for seat in range(players)]
    session = PlainGame(game, names, translate, sys.stdin, sys.stdout)
    return session.run()
