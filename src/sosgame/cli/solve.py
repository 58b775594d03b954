"""``sosgame solve POSITION|RxC``: the exact value of a two-player position, and its best moves."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from sosgame.cli.language import subcommand, t
from sosgame.errors import InvalidPositionError
from sosgame.game import MODES, Game
from sosgame.notation import parse_size
from sosgame.solver import DEFAULT_MEMORY_MB, Solution, solve

__all__ = ["register"]


def register(commands: Any) -> None:
    """Add the ``solve`` subcommand."""
    parser = subcommand(commands, "solve")
    parser.add_argument("position", metavar="POSITION|RxC", help=t("cli.solve.position"))
    parser.add_argument("--mode", choices=MODES, default="general", help=t("cli.help.mode"))
    parser.add_argument("--json", action="store_true", help=t("cli.help.json"))
    parser.add_argument(
        "--memory", type=int, metavar="MIB", help=t("cli.solve.memory", most=DEFAULT_MEMORY_MB)
    )
    parser.set_defaults(run=run)


def _game(text: str, mode: str) -> Game:
    size = parse_size(text)
    if size is not None:
        return Game(*size, mode=mode)  # type: ignore[arg-type]
    if any(char.isdigit() for char in text):
        raise InvalidPositionError(t("cli.solve.neither", text=repr(text)))
    return Game.from_position(text, mode=mode)  # type: ignore[arg-type]


def _verdict(solution: Solution, mode: str) -> str:
    if solution.value == 0:
        return t("cli.solve.draw")
    if mode == "simple":
        return t("cli.solve.wins" if solution.value > 0 else "cli.solve.loses")
    lead = abs(solution.value)
    return t("cli.solve.mover_by" if solution.value > 0 else "cli.solve.other_by", count=lead)


def run(arguments: argparse.Namespace) -> int:
    """Solve the position named on the command line and print the answer."""
    game = _game(arguments.position, arguments.mode)
    try:
        solution = solve(game, memory_mb=arguments.memory)
    except KeyboardInterrupt:
        print(t("cli.solve.stopped"), file=sys.stderr)
        return 130
    moves = [str(move) for move in solution.best_moves]
    if arguments.json:
        print(
            json.dumps(
                {
                    "value": solution.value,
                    "best_moves": moves,
                    "nodes": solution.nodes,
                    "seconds": round(solution.seconds, 3),
                }
            )
        )
        return 0
    value = f"{solution.value:+d}" if solution.value else "0"
    print(t("cli.solve.value", value=value, verdict=_verdict(solution, arguments.mode)))
    print(t("cli.solve.best", count=len(moves), moves=" ".join(moves)))
    print(t("cli.solve.nodes", nodes=solution.nodes, seconds=f"{solution.seconds:.2f}"))
    return 0
