"""``sosgame hint POSITION``: the move a computer level would play.

Its options are declared in :mod:`sosgame.cli.options`, which loads this module when the
command runs.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from sosgame.ai import make_player
from sosgame.cli.language import t
from sosgame.errors import InvalidSettingsError
from sosgame.game import MAX_PLAYERS, MIN_PLAYERS, Game
from sosgame.geometry import geometry
from sosgame.notation import parse_size

__all__ = ["parse_scores", "run", "starting_game"]


def parse_scores(text: str | None) -> list[int] | None:
    """``"1,0"`` as ``[1, 0]``; ``None`` stays ``None``.

    :raises InvalidSettingsError: for anything but whole numbers separated by commas.
    """
    if text is None:
        return None
    try:
        return [int(part) for part in text.split(",")]
    except ValueError:
        raise InvalidSettingsError(t("cli.hint.bad_scores", text=repr(text))) from None


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
            t("cli.hint.bad_turn", most=arguments.players, turn=arguments.turn)
        )
    game = starting_game(
        arguments.position,
        mode=arguments.mode,
        players=arguments.players,
        turn=arguments.turn - 1,
        scores=parse_scores(arguments.scores),
    )
    if arguments.level == "perfect" and game.players != 2:
        # Else it would search the whole time and only then say it proved nothing.
        raise InvalidSettingsError(t("cli.hint.perfect_players", players=game.players))
    player = make_player(
        arguments.level, seconds=arguments.seconds, nodes=arguments.nodes, seed=arguments.seed
    )
    if game.is_over:
        raise InvalidSettingsError(t("cli.hint.over", position=repr(game.position())))
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
                    "proven": bool(getattr(player, "proven", False)),
                }
            )
        )
        return 0
    completes = t("cli.hint.completes", count=lines) if lines else ""
    print(f"{move}{completes}")
    if arguments.level == "perfect":
        print(t("cli.hint.proven" if getattr(player, "proven", False) else "cli.hint.unproven"))
    return 0
