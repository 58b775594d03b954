"""``sosgame bot``: play on a server as a bot (:mod:`sosgame.bot`).

Only argparse and the texts load before the options are parsed; the client and ``httpx``
load when the command runs, so ``--help`` stays as quick as every other command's.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from pathlib import Path
from typing import IO, Any, Final

from sosgame.cli.language import subcommand, t
from sosgame.errors import SosError
from sosgame.game import MODES
from sosgame.i18n import error_text
from sosgame.levels import DEFAULT_SECONDS, LEVELS

__all__ = ["TOKEN_VARIABLE", "register", "run"]

TOKEN_VARIABLE: Final = "SOSGAME_BOT_TOKEN"
_BAD_INPUT: Final = 2
_INTERRUPTED: Final = 130


def register(commands: Any) -> None:
    """Add the ``bot`` subcommand."""
    parser = subcommand(commands, "bot")
    parser.add_argument("--server", required=True, metavar="URL", help=t("cli.bot.server"))
    parser.add_argument(
        "--token", metavar="TOKEN", help=t("cli.bot.token", variable=TOKEN_VARIABLE)
    )
    chosen = parser.add_mutually_exclusive_group()
    chosen.add_argument("--level", choices=LEVELS, default="hard", help=t("cli.bot.level"))
    chosen.add_argument("--player", metavar="MODULE:FUNCTION", help=t("cli.bot.player"))
    parser.add_argument(
        "--seconds",
        type=float,
        default=DEFAULT_SECONDS,
        metavar="S",
        help=t("cli.bot.seconds", seconds=f"{DEFAULT_SECONDS:g}"),
    )
    parser.add_argument("--sizes", default="any", metavar="RxC,...", help=t("cli.bot.sizes"))
    parser.add_argument(
        "--modes", default=",".join(MODES), metavar="MODE,...", help=t("cli.bot.modes")
    )
    parser.add_argument("--clock", default="any", metavar="MIN-MAX", help=t("cli.bot.clock"))
    parser.add_argument(
        "--increment", default="any", metavar="MIN-MAX", help=t("cli.bot.increment")
    )
    parser.add_argument("--days", default="any", metavar="MIN-MAX", help=t("cli.bot.days"))
    parser.add_argument(
        "--untimed", action=argparse.BooleanOptionalAction, default=True, help=t("cli.bot.untimed")
    )
    parser.add_argument(
        "--rated", action=argparse.BooleanOptionalAction, default=True, help=t("cli.bot.rated")
    )
    parser.add_argument(
        "--casual", action=argparse.BooleanOptionalAction, default=True, help=t("cli.bot.casual")
    )
    parser.add_argument(
        "--from",
        dest="source",
        choices=("anyone", "bots", "people"),
        default="anyone",
        help=t("cli.bot.from"),
    )
    parser.add_argument(
        "--concurrency", type=int, default=1, metavar="N", help=t("cli.bot.concurrency")
    )
    parser.add_argument("--challenge", metavar="NAME", help=t("cli.bot.challenge"))
    parser.add_argument(
        "--challenge-size", default="5x5", metavar="RxC", help=t("cli.bot.challenge_size")
    )
    parser.add_argument(
        "--challenge-mode", choices=MODES, default="general", help=t("cli.bot.challenge_mode")
    )
    parser.add_argument(
        "--challenge-clock", metavar="INITIAL+INCREMENT", help=t("cli.bot.challenge_clock")
    )
    parser.add_argument("--challenge-days", type=int, metavar="N", help=t("cli.bot.challenge_days"))
    parser.add_argument("--challenge-rated", action="store_true", help=t("cli.bot.challenge_rated"))
    parser.add_argument("--games", type=int, metavar="N", help=t("cli.bot.games"))
    parser.add_argument("--log-games", type=Path, metavar="FILE", help=t("cli.bot.log_games"))
    parser.add_argument(
        "--tournament",
        dest="tournaments",
        action="append",
        default=[],
        metavar="ID",
        help=t("cli.bot.tournament"),
    )
    parser.add_argument("--upgrade", action="store_true", help=t("cli.bot.upgrade"))
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    """Play until Ctrl-C (or ``--games`` are over): 0; 2 for a setting or token refused."""
    from sosgame.extras import require

    require("bot", "sosgame bot")
    log = None
    try:
        if arguments.log_games is not None:
            log = arguments.log_games.open("a", encoding="utf-8")
        return _play(_client(arguments, log))
    except SosError as error:
        print(t("cli.error", error=error_text(t, error)), file=sys.stderr)
        return _BAD_INPUT
    finally:
        if log is not None:
            log.close()


def _say(key: str, **values: object) -> None:
    print(t(key, **values), file=sys.stderr, flush=True)


def _logger(log: IO[str]) -> Any:
    def write(report: Any) -> None:
        # One write a game, flushed: a stop leaves only whole lines.
        log.write(json.dumps(report.to_json(), ensure_ascii=False) + "\n")
        log.flush()

    return write


def _client(arguments: argparse.Namespace, log: IO[str] | None) -> Any:
    from sosgame.bot import BotClient, BotError, ChallengeFilter, ChallengeSpec
    from sosgame.bot.filters import parse_range, parse_sizes
    from sosgame.bot.players import callable_mover, load_callable

    token = arguments.token or os.environ.get(TOKEN_VARIABLE)
    if not token:
        raise BotError("no_token", variable=TOKEN_VARIABLE)
    modes = frozenset(mode.strip() for mode in arguments.modes.split(","))
    if not modes or not modes <= set(MODES):
        raise BotError("bad_modes", text=arguments.modes)
    increment = parse_range(arguments.increment, "--increment")
    if increment is None:
        raise BotError("bad_range", option="--increment", text=arguments.increment)
    accept = ChallengeFilter(
        sizes=parse_sizes(arguments.sizes),
        modes=modes,
        clock=parse_range(arguments.clock, "--clock"),
        increment=increment,
        days=parse_range(arguments.days, "--days"),
        untimed=arguments.untimed,
        rated=arguments.rated,
        casual=arguments.casual,
        source=arguments.source,
    )
    challenge = None
    if arguments.challenge is not None:
        sizes = parse_sizes(arguments.challenge_size)
        if sizes is None or len(sizes) != 1:
            raise BotError("bad_size", text=arguments.challenge_size)
        ((rows, cols),) = sizes
        clock = None
        if arguments.challenge_clock is not None:
            initial, plus, added = arguments.challenge_clock.partition("+")
            if not (initial.isdigit() and (not plus or added.isdigit())):
                raise BotError("bad_clock", text=arguments.challenge_clock)
            clock = (int(initial), int(added or 0))
        challenge = ChallengeSpec(
            arguments.challenge,
            rows,
            cols,
            arguments.challenge_mode,
            clock,
            arguments.challenge_days,
            arguments.challenge_rated,
        )
    player = None
    if arguments.player is not None:
        # As `python -m`: a module of the folder the command runs in can be named.
        if os.getcwd() not in sys.path:
            sys.path.insert(0, os.getcwd())
        player = load_callable(arguments.player)
        callable_mover(player)
    return BotClient(
        arguments.server,
        token,
        player=player,
        level=arguments.level,
        seconds=arguments.seconds,
        accept=accept,
        concurrency=arguments.concurrency,
        challenge=challenge,
        games=arguments.games,
        tournaments=tuple(arguments.tournaments),
        upgrade=arguments.upgrade,
        on_game_end=None if log is None else _logger(log),
        say=_say,
    )


def _play(client: Any) -> int:
    """Run the client; the first Ctrl-C (or SIGTERM) stops it cleanly, a second at once."""
    import asyncio

    async def main() -> None:
        loop = asyncio.get_running_loop()
        stops = 0

        def stop() -> None:
            nonlocal stops
            stops += 1
            if stops > 1:
                os._exit(_INTERRUPTED)
            client.stop()

        for signal_number in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signal_number, stop)
        await client.run()
        if stops:
            print(t("cli.bot.stopped", count=len(client.left)), file=sys.stderr)

    asyncio.run(main())
    return 0
