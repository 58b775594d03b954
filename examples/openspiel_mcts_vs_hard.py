"""OpenSpiel's Python MCTS bot against sosgame's ``hard`` player on ``python_sos``.

Run: ``python examples/openspiel_mcts_vs_hard.py --rows 4 --cols 4 --games 4``
"""

from __future__ import annotations

import argparse
import json

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import sosgame.envs.openspiel  # noqa: F401 (registers python_sos)
from sosgame.ai import make_player
from sosgame.envs.encoding import move_to_action


def play_match(
    *,
    rows: int,
    cols: int,
    mode: str,
    games: int,
    simulations: int,
    level: str,
    seconds: float | None,
    nodes: int | None,
    seed: int,
) -> dict[str, float]:
    """Play ``games`` games, MCTS taking seat 0 in even games and seat 1 in odd ones."""
    game = pyspiel.load_game("python_sos", {"rows": rows, "cols": cols, "mode": mode})
    rng = np.random.RandomState(seed)
    bot = mcts.MCTSBot(
        game, 2.0, simulations, mcts.RandomRolloutEvaluator(1, rng), random_state=rng
    )
    ours = make_player(level, seconds=seconds, nodes=nodes, seed=seed)
    tally = {"mcts_points": 0.0, "ours_points": 0.0, "games": float(games)}
    for number in range(games):
        mcts_seat = number % 2
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.current_player() == mcts_seat:
                action = bot.step(state)
            else:
                action = move_to_action(ours.choose_move(state.game), cols)
            state.apply_action(action)
        returns = state.returns()
        # A result of +1 / 0 / -1 counts as 1 / 0.5 / 0 points for the match score.
        tally["mcts_points"] += (returns[mcts_seat] + 1) / 2
        tally["ours_points"] += (returns[1 - mcts_seat] + 1) / 2
    return tally


def main(argv: list[str] | None = None) -> dict[str, float]:
    """Parse the options, play the match, print and return the tally."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=4)
    parser.add_argument("--cols", type=int, default=4)
    parser.add_argument("--mode", choices=["general", "simple"], default="general")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--seconds", type=float, default=0.2)
    parser.add_argument("--nodes", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    arguments = parser.parse_args(argv)
    tally = play_match(
        rows=arguments.rows,
        cols=arguments.cols,
        mode=arguments.mode,
        games=arguments.games,
        simulations=arguments.simulations,
        level=arguments.level,
        seconds=None if arguments.nodes else arguments.seconds,
        nodes=arguments.nodes,
        seed=arguments.seed,
    )
    print(json.dumps(tally))
    return tally


if __name__ == "__main__":
    main()
