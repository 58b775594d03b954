"""``sosgame play``: a game at one keyboard, full-screen (Textual) or line by line (``--plain``).

Without ``--plain`` the full-screen game opens: on the new-game screen, or straight into a game
when any game option (size, mode, players, names, ``--seat-level``) or ``--load`` is given.
Where Textual is not installed it says, in one line, to install ``sosgame[tui]`` and exits
with status 1 (``--plain`` always works); with standard input or output not a terminal it
says so in one line and plays the line-mode game.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any, Final

from sosgame.cli.plain import PlainGame
from sosgame.errors import SosError
from sosgame.extras import missing
from sosgame.game import MAX_PLAYERS, MIN_PLAYERS, MODES, Game
from sosgame.i18n import LANGUAGES, detect_language, translator
from sosgame.levels import LEVELS
from sosgame.notation import MAX_SIDE
from sosgame.record import load

__all__ = ["register"]


def register(commands: Any) -> None:
    """Add the ``play`` subcommand."""
    parser = commands.add_parser(
        "play",
        help="play a game at this keyboard",
        description=(
            "Play SOS at one keyboard: the full-screen game (needs sosgame[tui]), or with"
            " --plain the line-mode game, reading moves such as Sb3 from standard input."
            " The full-screen game opens on its new-game screen, or straight into a game when"
            " a game option or --load is given; without Textual it says what to install and"
            " exits with status 1; when input or output is not a terminal it plays the"
            " line-mode game."
        ),
    )
    parser.add_argument(
        "--plain", action="store_true", help="the line-mode game (works with piped input)"
    )
    parser.add_argument("--size", type=int, metavar="N", help="a square N x N board (default 5)")
    parser.add_argument("--rows", type=int, metavar="R", help="the number of rows")
    parser.add_argument("--cols", type=int, metavar="C", help="the number of columns")
    parser.add_argument("--mode", choices=MODES, help="the rules to play (default general)")
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
    parser.add_argument(
        "--seat-level",
        nargs=2,
        action="append",
        metavar=("SEAT", "LEVEL"),
        help=f"a computer plays seat SEAT (1, 2, ...) at LEVEL ({', '.join(LEVELS)});"
        " may be repeated (full-screen game only)",
    )
    parser.add_argument(
        "--load", metavar="FILE", help="continue the game in a record file (sosgame-record/1)"
    )
    parser.add_argument(
        "--seed", type=int, metavar="N", help="make the computer players' choices reproducible"
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
        seen: set[str] = set()
        for name in names:
            if not name.strip() or len(name) > 100:
                raise SosError(f"--names: {name!r} is not a name of 1 to 100 characters")
            if name.strip().casefold() in seen:
                raise SosError(f"--names: {name.strip()!r} is given twice; give each player a name")
            seen.add(name.strip().casefold())
    return rows, cols, players, names


_SET_BY_A_RECORD: Final = ("size", "rows", "cols", "mode", "players", "names")
"""The options a record file already settles, so that --load cannot take them too."""


def _check_load(arguments: argparse.Namespace) -> None:
    for option in _SET_BY_A_RECORD:
        if getattr(arguments, option) is not None:
            raise SosError(
                f"--load takes the board, mode, players and names from the record:"
                f" leave out --{option}"
            )


def _levels(arguments: argparse.Namespace, players: int) -> dict[int, str]:
    levels = {}
    for seat_text, level in arguments.seat_level or []:
        if not seat_text.isdigit() or not 1 <= int(seat_text) <= players:
            raise SosError(f"--seat-level: the seat must be from 1 to {players}, not {seat_text!r}")
        if level not in LEVELS:
            raise SosError(
                f"--seat-level: the level must be one of {', '.join(LEVELS)}, not {level!r}"
            )
        levels[int(seat_text) - 1] = level
    for level in sorted(set(levels.values())):
        try:
            from sosgame.ai import make_player
        except ImportError:
            raise SosError("--seat-level: this installation has no computer players") from None
        make_player(level)  # a level not available yet raises, naming the ones there are
    return levels


def run(arguments: argparse.Namespace) -> int:
    """Start the game the command line describes."""
    language = arguments.lang or detect_language()
    translate = translator(language)
    if arguments.plain:
        return _run_plain(arguments, translate)
    if missing("tui"):
        print(translate("tui.no_textual"), file=sys.stderr)
        return 1
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        # Piped input or output: a full-screen game cannot run, the line-mode game can.
        print(f"sosgame: {translate('tui.not_a_terminal')}", file=sys.stderr)
        return _run_plain(arguments, translate)
    return _run_full_screen(arguments, language, translate)


def _run_plain(arguments: argparse.Namespace, translate: Callable[..., str]) -> int:
    if arguments.seat_level:
        raise SosError("--seat-level needs the full-screen game: leave out --plain")
    if arguments.load:
        _check_load(arguments)
        record = load(arguments.load)
        game, names = record.to_game(), record.players
    else:
        rows, cols, players, names_given = _settings(arguments)
        game = Game(rows, cols, players=players, mode=arguments.mode or "general")
        names = names_given or [translate("player", number=seat + 1) for seat in range(players)]
    session = PlainGame(game, names, translate, sys.stdin, sys.stdout)
    return session.run()


def _run_full_screen(
    arguments: argparse.Namespace, language: str, translate: Callable[..., str]
) -> int:
    from sosgame.tui import run as run_tui
    from sosgame.tui.screens.setup import Settings
    from sosgame.tui.session import PERSON, Seat, Session, seats_from_record

    options: dict[str, Any] = {"language": language, "seed": arguments.seed}
    if arguments.load:
        _check_load(arguments)
        record = load(arguments.load)
        seats = seats_from_record(record)
        for seat, level in _levels(arguments, len(seats)).items():
            seats[seat] = Seat(seats[seat].name, level)
        options["session"] = Session(record.to_game(), seats)
        options["message"] = translate("tui.loaded", path=arguments.load, count=len(record.moves))
        return run_tui(**options)
    rows, cols, players, names = _settings(arguments)
    levels = _levels(arguments, players)
    kinds = [levels.get(seat, PERSON) for seat in range(players)]
    given = (
        arguments.size,
        arguments.rows,
        arguments.cols,
        arguments.mode,
        arguments.players,
        arguments.names,
        arguments.seat_level,
    )
    if any(option is not None for option in given):
        game = Game(rows, cols, players=players, mode=arguments.mode or "general")
        if names is None:
            names = [
                translate("player" if kind == PERSON else "tui.computer", number=seat + 1)
                for seat, kind in enumerate(kinds)
            ]
        seats = [Seat(name, kind) for name, kind in zip(names, kinds, strict=True)]
        options["session"] = Session(game, seats)
    else:
        options["settings"] = Settings(rows, cols, "general", players, list(names or []), kinds)
    return run_tui(**options)
