"""How far the opening book carries ``perfect``: its moves in whole games, by empty cells.

``perfect`` plays whole games against another level, as the first seat and as the second
(one game each per seed). For every move it makes, the report counts whether the position
was in the book, whether the move was proven best (book or solver), and the longest time a
move took, by the number of empty cells. A position neither in the book nor settled by the
solver within the budget shows as unproven; a slow proven move shows as a long time.

Run: ``python benchmarks/book_reach.py [--size 4x5] [--mode general] [--seeds 6]
[--seconds 1] [--opponent medium] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import defaultdict

from sosgame import Game
from sosgame.ai import LEVELS, make_player
from sosgame.ai.book import book_moves
from sosgame.game import MODES


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="4x5", help="the board, ROWSxCOLS (4x5)")
    parser.add_argument("--mode", choices=MODES, default="general")
    parser.add_argument("--seeds", type=int, default=6, help="games per seat (6)")
    parser.add_argument("--seconds", type=float, default=1.0, help="perfect's budget (1)")
    parser.add_argument("--opponent", choices=LEVELS, default="medium")
    parser.add_argument("--json", action="store_true")
    arguments = parser.parse_args()
    rows, cols = (int(side) for side in arguments.size.split("x"))
    # Per number of empty cells: moves, in the book, proven, longest seconds.
    levels: dict[int, list[float]] = defaultdict(lambda: [0, 0, 0, 0.0])
    for seed in range(arguments.seeds):
        for seat in (0, 1):
            perfect = make_player("perfect", seconds=arguments.seconds, seed=seed)
            other = make_player(arguments.opponent, seconds=arguments.seconds, seed=seed)
            game = Game(rows, cols, mode=arguments.mode)
            while not game.is_over:
                if game.turn != seat:
                    game.play(other.choose_move(game))
                    continue
                found = levels[game.position().count(".")]
                found[1] += book_moves(game) is not None
                start = time.perf_counter()
                move = perfect.choose_move(game)
                found[3] = max(found[3], time.perf_counter() - start)
                found[0] += 1
                found[2] += bool(perfect.proven)  # type: ignore[attr-defined]
                game.play(move)
    rows_out = [
        {"empty": empty, "moves": int(m), "book": int(b), "proven": int(p), "longest": round(s, 3)}
        for empty, (m, b, p, s) in sorted(levels.items(), reverse=True)
    ]
    if arguments.json:
        print(json.dumps(rows_out))
        return
    print(
        f"perfect at {arguments.seconds:g} s against {arguments.opponent}, {arguments.size}"
        f" {arguments.mode}, {arguments.seeds} games as each seat"
    )
    print("| empty cells | moves | in the book | proven | longest, s |")
    print("|---:|---:|---:|---:|---:|")
    for row in rows_out:
        print(
            f"| {row['empty']} | {row['moves']} | {row['book']} | {row['proven']} |"
            f" {row['longest']:.2f} |"
        )
    total = [sum(row[key] for row in rows_out) for key in ("moves", "book", "proven")]
    print(f"all: {total[0]} moves, {total[1]} in the book, {total[2]} proven")


if __name__ == "__main__":
    main()
