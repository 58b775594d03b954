"""``sosgame play``: a game at one keyboard, full-screen (Textual) or line by line (``--plain``).

Without ``--plain`` the full-screen game opens: on the new-game screen, or straight into a game
when any game option (size, mode, players, names, ``--seat-level``) or ``--load`` is given.
Both play against computer seats (``--seat-level``).
Where Textual is not installed it says, in one line, to install ``sosgame[tui]`` and exits
with status 1 (``--plain`` always works); with standard input or output not a terminal it
says so in one line and plays the line-mode game.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

from sosgame.cli.language import add_mode, subcommand, t
from sosgame.cli.plain import PlainGame
from sosgame.errors import InvalidSettingsError, SosError
from sosgame.extras import missing
from sosgame.game import MAX_PLAYERS, MIN_PLAYERS, Game
from sosgame.i18n import default_name, detect_language, error_text, translator
from sosgame.levels import LEVELS
from sosgame.limits import BOARD_MAX_SIDE, BOARD_MIN_SIDE
from sosgame.record import load
from sosgame.settings import check_names
from sosgame.table import PERSON, Seat, Table, seats_from_record

if TYPE_CHECKING:
    from sosgame.ai import Player

__all__ = ["register"]


def register(commands: Any) -> None:
    """Add the ``play`` subcommand."""
    parser = subcommand(commands, "play")
    parser.add_argument("--plain", action="store_true", help=t("cli.play.plain"))
    parser.add_argument("--size", type=int, metavar="N", help=t("cli.play.size"))
    parser.add_argument("--rows", type=int, metavar="R", help=t("cli.help.rows"))
    parser.add_argument("--cols", type=int, metavar="C", help=t("cli.help.cols"))
    add_mode(parser)
    parser.add_argument(
        "--players",
        type=int,
        metavar="N",
        help=t("cli.play.players", least=MIN_PLAYERS, most=MAX_PLAYERS),
    )
    parser.add_argument("--names", nargs="+", metavar="NAME", help=t("cli.play.names"))
    parser.add_argument(
        "--seat-level",
        nargs=2,
        action="append",
        metavar=("SEAT", "LEVEL"),
        help=t("cli.play.seat_level", levels=", ".join(LEVELS)),
    )
    parser.add_argument("--load", metavar="FILE", help=t("cli.play.load"))
    parser.add_argument("--seed", type=int, metavar="N", help=t("cli.help.seed"))
    parser.set_defaults(run=run)


def _settings(arguments: argparse.Namespace) -> tuple[int, int, int, list[str] | None]:
    size = arguments.size if arguments.size is not None else 5
    rows = arguments.rows if arguments.rows is not None else size
    cols = arguments.cols if arguments.cols is not None else size
    for name, value in (("--size", arguments.size), ("--rows", rows), ("--cols", cols)):
        if value is not None and not BOARD_MIN_SIDE <= value <= BOARD_MAX_SIDE:
            raise SosError(t("cli.play.bad_side", option=name, most=BOARD_MAX_SIDE, value=value))
    names = arguments.names
    players = arguments.players if arguments.players is not None else len(names or [1, 2])
    if names is not None and len(names) != players:
        raise SosError(t("cli.play.names_count", count=len(names), players=players))
    if names is not None:
        try:
            check_names(names)
        except InvalidSettingsError as error:
            raise SosError(t("cli.play.bad_names", error=error_text(t, error))) from None
    return rows, cols, players, names


_SET_BY_A_RECORD: Final = ("size", "rows", "cols", "mode", "players", "names")
"""The options a record file already settles, so that --load cannot take them too."""


def _check_load(arguments: argparse.Namespace) -> None:
    for option in _SET_BY_A_RECORD:
        if getattr(arguments, option) is not None:
            raise SosError(t("cli.play.load_conflict", option=f"--{option}"))


def _levels(arguments: argparse.Namespace, players: int) -> dict[int, str]:
    levels = {}
    for seat_text, level in arguments.seat_level or []:
        if seat_text.isdigit() and int(seat_text) > players and _counted_by_names(arguments):
            # The seats are as many as the names, so a seat past them lacks only its name.
            raise SosError(t("cli.play.seat_without_name", seat=seat_text))
        if not seat_text.isdigit() or not 1 <= int(seat_text) <= players:
            raise SosError(t("cli.play.bad_seat", most=players, seat=repr(seat_text)))
        if level not in LEVELS:
            raise SosError(t("cli.play.bad_level", levels=", ".join(LEVELS), level=repr(level)))
        levels[int(seat_text) - 1] = level
    for level in sorted(set(levels.values())):
        try:
            from sosgame.ai import make_player
        except ImportError:
            raise SosError(t("cli.play.no_players")) from None
        make_player(level)  # a level not available yet raises, naming the ones there are
    return levels


def _counted_by_names(arguments: argparse.Namespace) -> bool:
    """Whether ``--names`` alone sets the number of players (no ``--players``, no record)."""
    return arguments.names is not None and arguments.players is None and not arguments.load


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


def _table(arguments: argparse.Namespace, translate: Callable[..., str]) -> Table | None:
    """The table the options describe: a record's game (``--load``) or a new game when any game
    option is given (``None`` when none is); default names in ``translate``'s language."""
    if arguments.load:
        _check_load(arguments)
        record = load(arguments.load)
        seats = seats_from_record(record)
        for seat, level in _levels(arguments, len(seats)).items():
            seats[seat] = Seat(seats[seat].name, level)
        return Table(record.to_game(), seats)
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
    if all(option is None for option in given):
        return None
    game = Game(rows, cols, players=players, mode=arguments.mode or "general")
    if names is None:
        names = [
            default_name(translate, seat, computer=kind != PERSON)
            for seat, kind in enumerate(kinds)
        ]
    return Table(game, [Seat(name, kind) for name, kind in zip(names, kinds, strict=True)])


def _run_plain(arguments: argparse.Namespace, translate: Callable[..., str]) -> int:
    table = _table(arguments, translate)
    if table is None:
        table = Table(Game(5, 5), [Seat(default_name(translate, seat)) for seat in range(2)])
    seed = arguments.seed

    def player(level: str) -> Player:
        from sosgame.ai import make_player

        return make_player(level, seed=seed)

    return PlainGame(table, translate, sys.stdin, sys.stdout, player=player).run()


def _run_full_screen(
    arguments: argparse.Namespace, language: str, translate: Callable[..., str]
) -> int:
    from sosgame.tui import run as run_tui
    from sosgame.tui.screens.setup import Settings
    from sosgame.tui.session import Session

    options: dict[str, Any] = {"language": language, "seed": arguments.seed}
    table = _table(arguments, translate)
    if table is not None:
        options["session"] = Session(table.game, table.seats)
        if arguments.load:
            count = len(table.game.actions)
            options["message"] = translate("tui.loaded", path=arguments.load, count=count)
    else:
        rows, cols, players, names = _settings(arguments)
        kinds = [PERSON] * players
        options["settings"] = Settings(rows, cols, "general", players, list(names or []), kinds)
    from sosgame.first_compile import announcing

    with announcing(None):  # a line on standard error would draw over the full screen
        return run_tui(**options)
