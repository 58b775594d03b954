"""``sosgame hint POSITION``: the move a computer level would play."""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from sosgame.ai import DEFAULT_SECONDS, make_player
from sosgame.errors import InvalidSettingsError
from sosgame.game import MAX_PLAYERS, MIN_PLAYERS, MODES, Game
from sosgame.geometry import geometry
from sosgame.levels import LEVELS
from sosgame.notation import parse_size

__all__ = ["parse_scores", "register", "starting_game"]


def register(commands: Any) -> None:
    """Add the ``hint`` subcommand."""
    parser = commands.add_parser(
        "hint",
        help="the move a computer level would play in a position",
        description=(
            "Print the move a computer level would play in a position (rows from the top,"
            " separated by '/'; S, O, or '.'), or on the empty board RxC."
        ),
    )
    parser.add_argument("position", metavar="POSITION|RxC", help="for example S.O/.O./S.S or 5x5")
    parser.add_argument("--mode", choices=MODES, default="general", help="the rules (general)")
    parser.add_argument("--level", choices=LEVELS, default="hard", help="the level (hard)")
    parser.add_argument(
        "--players",
        type=int,
        default=MIN_PLAYERS,
        metavar="N",
        help=f"how many seats, {MIN_PLAYERS} to {MAX_PLAYERS} (2)",
    )
    parser.add_argument(
        "--turn",
        type=int,
        default=1,
        metavar="SEAT",
        help="the seat to move, counted from 1 (1); the JSON answer counts from 0",
    )
    parser.add_argument(
        "--scores",
        metavar="A,B,...",
        help="the seats' points so far, adding up to the lines on the board (default: 0 each)",
    )
    parser.add_argument(
        "--seconds",
        type=float,
        metavar="S",
        help=f"the search time for hard and perfect (default {DEFAULT_SECONDS:g})",
    )
    parser.add_argument("--nodes", type=int, metavar="N", help="bound the search by nodes")
    parser.add_argument("--seed", type=int, metavar="N", help="make the choice reproducible")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(run=run)


def parse_scores(text: str | None) -> list[int] | None:
    """``"1,0"`` as ``[1, 0]``; ``None`` stays ``None``.

    :raises InvalidSettingsError: for anything but whole numbers separated by commas.
    """
    if text is None:
        return None
    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        raise InvalidSettingsError(
            f"--scores must be whole numbers separated by commas, such as 1,0, not {text!r}"
        ) from None


def starting_game(
    text: str, *, mode: Any, players: int, turn: int, scores: list[int] | None
) -> Game:
    """The game a command names: a position, or ``RxC`` for an empty board."""
    size = parse_size(text)
    if size is not None:
        rows, cols = size
        geometry(rows, cols)  # names a bad size before anything else
        empty = "/".join(["." * cols] * rows)
        return Game.from_position(empty, mode=mode, players=players, turn=turn, scores=scores)
    return Game.from_position(text, mode=mode, players=players, turn=turn, scores=scores)


def run(arguments: argparse.Namespace) -> int:
    """Print the move the chosen level would play."""
    seats_valid = MIN_PLAYERS <= arguments.players <= MAX_PLAYERS  # else the game names it
    if seats_valid and not 1 <= arguments.turn <= arguments.players:
        raise InvalidSettingsError(
            f"--turn must be a seat from 1 to {arguments.players}, not {arguments.turn}"
        )
    game = starting_game(
        arguments.position,
        mode=arguments.mode,
        players=arguments.players,
        turn=arguments.turn - 1,
        scores=parse_scores(arguments.scores),
    )
    player = make_player(
        arguments.level, seconds=arguments.seconds, nodes=arguments.nodes, seed=arguments.seed
    )
    if game.is_over:
        raise InvalidSettingsError(
            f"position {game.position()!r} is already over: there is no move to suggest"
        )
    start = time.perf_counter()
    move = player.choose_move(game)
    seconds = time.perf_counter() - start
    lines = len(game.copy().play(move))
    if arguments.json:
        print(
            json.dumps(
                {
                    "move": str(move),
                    "level": arguments.level,
                    "position": game.position(),
                    "mode": game.mode,
                    "players": game.players,
                    "turn": game.turn,
                    "lines": lines,
                    "seconds": round(seconds, 3),
                }
            )
        )
        return 0
    completes = f" (completes {lines} SOS)" if lines else ""
    print(f"{move}{completes}")
    return 0
