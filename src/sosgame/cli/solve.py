"""``sosgame solve POSITION|RxC``: the exact value of a two-player position, and its best moves."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from sosgame.errors import InvalidPositionError
from sosgame.game import MODES, Game
from sosgame.notation import parse_size
from sosgame.solver import DEFAULT_MEMORY_MB, Solution, solve

__all__ = ["register"]


def register(commands: Any) -> None:
    """Add the ``solve`` subcommand."""
    parser = commands.add_parser(
        "solve",
        help="solve a two-player position exactly",
        description=(
            "Solve a two-player position exactly: its value for the side to move with best"
            " play from both sides, and every move that reaches it. General mode: the mover's"
            " future points minus the opponent's; simple mode: 1 win, 0 draw, -1 loss."
        ),
    )
    parser.add_argument(
        "position",
        metavar="POSITION|RxC",
        help="a position such as S.O/.../OSS, or RxC for the empty board, such as 4x4",
    )
    parser.add_argument(
        "--mode", choices=MODES, default="general", help="the rules (default general)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--memory",
        type=int,
        metavar="MIB",
        help=(
            "the transposition table's size in MiB (default: sized to the position, at most"
            f" {DEFAULT_MEMORY_MB}); more memory can mean fewer nodes on large problems"
        ),
    )
    parser.set_defaults(run=run)


def _game(text: str, mode: str) -> Game:
    size = parse_size(text)
    if size is not None:
        return Game(*size, mode=mode)  # type: ignore[arg-type]
    if any(char.isdigit() for char in text):
        raise InvalidPositionError(
            f"{text!r} is neither a board size such as 4x4 nor a position such as S.O/.../OSS"
        )
    return Game.from_position(text, mode=mode)  # type: ignore[arg-type]


def _verdict(solution: Solution, mode: str) -> str:
    if mode == "simple":
        return {1: "the side to move wins", 0: "a draw", -1: "the side to move loses"}[
            solution.value
        ]
    if solution.value == 0:
        return "a draw"
    lead = abs(solution.value)
    side = "the side to move" if solution.value > 0 else "the other side"
    return f"{side} wins by {lead} point{'s' if lead != 1 else ''}"


def run(arguments: argparse.Namespace) -> int:
    """Solve the position named on the command line and print the answer."""
    game = _game(arguments.position, arguments.mode)
    try:
        solution = solve(game, memory_mb=arguments.memory)
    except KeyboardInterrupt:
        print("sosgame: solve stopped by Ctrl-C before it finished", file=sys.stderr)
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
    print(f"value {value}: {_verdict(solution, arguments.mode)} with best play")
    print(f"best moves ({len(moves)}): {' '.join(moves)}")
    print(f"{solution.nodes} nodes in {solution.seconds:.2f} s")
    return 0
