"""An OpenSpiel bot or trained policy playing on a server as a bot.

Anything OpenSpiel plays with goes: a ``pyspiel.Bot`` (its ``step``: MCTS here) or a policy
(its ``action_probabilities``: a tabular policy, a trained network's). The server's game is
replayed as a ``python_sos`` state, and the chosen action turned back into a move.

Run: ``SOSGAME_BOT_TOKEN=sos_... python examples/bot_openspiel.py --server URL``
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import sosgame.bot
import sosgame.envs.openspiel  # registers python_sos
from sosgame import Game, Move
from sosgame.envs.encoding import action_to_move, move_to_action


def spiel_state(game: Game) -> Any:
    """The ``python_sos`` state of ``game``: its moves played again."""
    spiel = pyspiel.load_game(
        "python_sos", {"rows": game.rows, "cols": game.cols, "mode": game.mode}
    )
    state = spiel.new_initial_state()
    for move in game.moves:
        state.apply_action(move_to_action(move, game.cols))
    return state


def as_player(chooser: Any) -> Callable[[Game], Move]:
    """A ``pyspiel.Bot`` or an OpenSpiel policy as a bot's player."""

    def play(game: Game) -> Move:
        state = spiel_state(game)
        if hasattr(chooser, "step"):
            action = chooser.step(state)
        else:
            chances = chooser.action_probabilities(state)
            action = max(chances, key=chances.get)
        return action_to_move(int(action), game.rows, game.cols)

    return play


def mcts_bot(rows: int, cols: int, mode: str, simulations: int, seed: int) -> Any:
    """OpenSpiel's MCTS with random rollouts, for one board."""
    spiel = pyspiel.load_game("python_sos", {"rows": rows, "cols": cols, "mode": mode})
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    return mcts.MCTSBot(spiel, 2.0, simulations, evaluator, random_state=rng)


def main(argv: list[str] | None = None) -> list[sosgame.bot.GameReport]:
    """Play on the server with MCTS until Ctrl-C (or ``--games`` games)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--server", required=True)
    parser.add_argument("--token", default=os.environ.get("SOSGAME_BOT_TOKEN"))
    parser.add_argument("--rows", type=int, default=4)
    parser.add_argument("--cols", type=int, default=4)
    parser.add_argument("--mode", choices=["general", "simple"], default="general")
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--games", type=int)
    parser.add_argument("--seed", type=int, default=0)
    arguments = parser.parse_args(argv)
    bot = mcts_bot(
        arguments.rows, arguments.cols, arguments.mode, arguments.simulations, arguments.seed
    )
    accept = sosgame.bot.ChallengeFilter(
        sizes=frozenset({(arguments.rows, arguments.cols)}), modes=frozenset({arguments.mode})
    )
    return sosgame.bot.run(
        arguments.server, arguments.token, player=as_player(bot), accept=accept,
        games=arguments.games,
    )  # fmt: skip


if __name__ == "__main__":
    main()
