"""Speed of the ``hard`` searches: alpha-beta nodes per second and tree-search simulations.

Alpha-beta searches positions from a few seeded medium-vs-medium games to a fixed depth (the
same work every run); the tree search runs for a fixed number of simulations. Both are timed
in CPU seconds of this process (so a busy, shared machine slows the figures less than wall
time would), after the kernels are compiled (or loaded from the cache).

Run: ``python benchmarks/search.py [--deep] [--json]``. ``--deep`` searches 7 quiet moves deep on
5x5 and 5 on 8x8 instead of 5 and 4 (more work per position, so steadier rates), and counts the
nodes of 30 seeded endgames per mode searched to the end. The node
counts of the fixed-depth searches are printed too: a change to the search that keeps its
results should keep them or lower them.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time

from sosgame import Game
from sosgame.ai import make_player
from sosgame.ai.alphabeta import Searcher, warm_up
from sosgame.ai.mcts import mcts
from sosgame.ai.state import State
from sosgame.game import MODES
from sosgame.kernel import JIT, encode

SIZES = (5, 8)


def positions(size: int, count: int) -> list[Game]:
    """Middle-game positions: ``medium`` against itself, stopped a third of the way in."""
    found = []
    for seed in range(count):
        players = [make_player("medium", seed=seed), make_player("medium", seed=seed + 99)]
        game = Game(size, size)
        while game.ply < size * size // 3:
            game.play(players[game.turn].choose_move(game))
        found.append(game)
    return found


def alphabeta_rate(size: int, depth: int) -> tuple[float, int]:
    """Alpha-beta nodes per CPU second over the positions searched to ``depth``, and the
    nodes."""
    nodes = 0
    games = positions(size, 4)
    start = time.process_time()
    for game in games:
        searcher = Searcher()
        result = searcher.search(
            State(game), random.Random(0), seconds=None, nodes=None, depth_limit=depth
        )
        assert result is not None
        nodes += result.nodes
    return nodes / (time.process_time() - start), nodes


def endgame_nodes(mode: str) -> int:
    """Alpha-beta nodes to search 30 seeded endgames (1 to 12 empty cells) to the end."""
    rng = random.Random(5)
    nodes = 0
    for _ in range(30):
        rows, cols = rng.choice([(3, 3), (3, 4), (4, 4), (2, 5)])
        game = Game(rows, cols, mode=mode)  # type: ignore[arg-type]
        target = rng.randint(1, 12)
        while not game.is_over and len(game.empty_cells()) > target:
            game.play(rng.choice(list(game.legal_moves)))
        if not game.is_over:
            result = Searcher().search(State(game), random.Random(1), seconds=None, nodes=None)
            assert result is not None
            nodes += result.nodes
    return nodes


def mcts_rate(size: int, simulations: int) -> float:
    """Tree-search simulations per CPU second over the positions."""
    games = positions(size, 4)
    start = time.process_time()
    for game in games:
        mcts(encode(game), random.Random(0), seconds=None, nodes=simulations)
    return 4 * simulations / (time.process_time() - start)


def main() -> None:
    """Print the figures (``--json`` for one object)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--deep", action="store_true", help="search 7 deep on 5x5, 5 on 8x8")
    arguments = parser.parse_args()
    warm_up()
    depths = {5: 7, 8: 5} if arguments.deep else {5: 5, 8: 4}
    alphabeta = {size: alphabeta_rate(size, depths[size]) for size in SIZES}
    figures = {
        "compiled": JIT,
        "python": platform.python_version(),
        "alphabeta_depths": {f"{size}x{size}": depths[size] for size in SIZES},
        "alphabeta_nodes": {f"{size}x{size}": alphabeta[size][1] for size in SIZES},
        "alphabeta_nodes_per_second": {
            f"{size}x{size}": round(alphabeta[size][0]) for size in SIZES
        },
        "mcts_simulations_per_second": {
            f"{size}x{size}": round(mcts_rate(size, 2000)) for size in SIZES
        },
    }
    endgames = {mode: endgame_nodes(mode) for mode in MODES} if arguments.deep else {}
    if endgames:
        figures["alphabeta_endgame_nodes"] = endgames
    if arguments.json:
        print(json.dumps(figures))
        return
    for name in ("alphabeta_nodes", "alphabeta_nodes_per_second", "mcts_simulations_per_second"):
        for board, rate in figures[name].items():  # type: ignore[attr-defined]
            print(f"{name.replace('_', ' ')} on {board}: {rate:,}")
    for mode, count in endgames.items():
        print(f"alpha-beta nodes for 30 endgames, {mode}: {count:,}")


if __name__ == "__main__":
    main()
