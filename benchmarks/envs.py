"""Speed of the research environments: steps per second, and what OpenSpiel's search costs.

Run: ``python benchmarks/envs.py [--seconds S]`` (part of ``make bench``). The first table
counts environment steps on 8x8 with random legal actions (one move each; the Gymnasium
figure counts the agent's steps, each of which also plays the random opponent's answer) over
about ``--seconds`` of wall time, in one process. PettingZoo's own ``performance_benchmark``
is run too and prints its figures.

The second table is what tree search through OpenSpiel pays for: ``state.clone()`` against
:meth:`sosgame.Game.copy` on a position with a third of the cells filled (the best of five
rounds of about ``--seconds / 5`` each), the length of ``state.serialize()`` there, and the
seconds a move of OpenSpiel's Python ``MCTSBot`` (100 simulations, one random rollout each,
UCT constant 2) takes over the first six moves of a game on 5x5 and 8x8.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import gymnasium
import numpy as np
import pyspiel
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import mcts
from pettingzoo.test import performance_benchmark

import sosgame.envs.openspiel  # noqa: F401 (registers python_sos)
from sosgame.envs import GYMNASIUM_ID, sos_v0

SIZE = 8
MCTS_SIMULATIONS = 100
MCTS_MOVES = 6


def measure(episode: Callable[[random.Random], int], seconds: float) -> float:
    """Steps per second, running whole episodes until ``seconds`` have passed."""
    rng = random.Random(0)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += episode(rng)
    return steps / (time.perf_counter() - start)


def pettingzoo_episode(rng: random.Random) -> int:
    """One AEC game with random legal actions."""
    env = sos_v0.env(rows=SIZE, cols=SIZE)
    env.reset()
    steps = 0
    for _ in env.agent_iter():
        observation, _, termination, truncation, _ = env.last()
        if termination or truncation:
            env.step(None)
        else:
            env.step(int(rng.choice(list(np.flatnonzero(observation["action_mask"])))))
        steps += 1
    return steps


def gymnasium_episode(rng: random.Random) -> int:
    """One Gymnasium episode against the random level."""
    env = gymnasium.make(GYMNASIUM_ID, rows=SIZE, cols=SIZE, opponent="random")
    _, info = env.reset(seed=rng.randrange(2**31))
    steps, done = 0, False
    while not done:
        action = int(rng.choice(list(np.flatnonzero(info["action_mask"]))))
        _, _, done, _, info = env.step(action)
        steps += 1
    return steps


def openspiel_episode(rng: random.Random) -> int:
    """One OpenSpiel game through ``rl_environment``."""
    game = pyspiel.load_game("python_sos", {"rows": SIZE, "cols": SIZE})
    env = rl_environment.Environment(game)
    step = env.reset()
    steps = 0
    while not step.last():
        player = step.observations["current_player"]
        step = env.step([rng.choice(step.observations["legal_actions"][player])])
        steps += 1
    return steps


def openspiel_state_episode(rng: random.Random) -> int:
    """One OpenSpiel game on the state alone (``legal_actions`` and ``apply_action``)."""
    state = pyspiel.load_game("python_sos", {"rows": SIZE, "cols": SIZE}).new_initial_state()
    steps = 0
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    return steps


def calls_per_second(call: Callable[[], object], seconds: float) -> float:
    """The best rate of five rounds of ``call()`` lasting about ``seconds / 5`` each."""
    best = 0.0
    for _ in range(5):
        calls = 0
        start = time.perf_counter()
        while (elapsed := time.perf_counter() - start) < seconds / 5:
            for _ in range(100):
                call()
            calls += 100
        best = max(best, calls / elapsed)
    return best


def openspiel_position(size: int) -> pyspiel.State:
    """A random position of ``size`` x ``size`` with a third of the cells filled."""
    state = pyspiel.load_game("python_sos", {"rows": size, "cols": size}).new_initial_state()
    rng = random.Random(0)
    for _ in range(size * size // 3):
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def mcts_seconds_per_move(size: int) -> float:
    """Mean seconds of ``MCTSBot.step`` over the first moves of a game against itself."""
    game = pyspiel.load_game("python_sos", {"rows": size, "cols": size})
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    bot = mcts.MCTSBot(game, 2.0, MCTS_SIMULATIONS, evaluator, random_state=rng)
    state = game.new_initial_state()
    start = time.perf_counter()
    for _ in range(MCTS_MOVES):
        state.apply_action(bot.step(state))
    return (time.perf_counter() - start) / MCTS_MOVES


def search_table(seconds: float) -> None:
    """Print clone and copy rates, serialised sizes and MCTS seconds per move."""
    print("\n| board | clone()/s | Game.copy()/s | ratio | serialize() bytes |")
    print("|---|---:|---:|---:|---:|")
    for size in (8, 15):
        state = openspiel_position(size)
        clones = calls_per_second(state.clone, seconds)
        copies = calls_per_second(state.game.copy, seconds)
        print(
            f"| {size}x{size} | {clones:,.0f} | {copies:,.0f} | {copies / clones:.1f}x"
            f" | {len(state.serialize()):,} |"
        )
    print(f"\n| board | MCTS ({MCTS_SIMULATIONS} simulations) seconds per move |")
    print("|---|---:|")
    for size in (5, 8):
        print(f"| {size}x{size} | {mcts_seconds_per_move(size):.3f} |")


def main() -> None:
    """Print a table of steps per second."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    arguments = parser.parse_args()
    rows = [
        ("PettingZoo AEC (wrapped), observe + step", pettingzoo_episode),
        ("Gymnasium vs random, agent steps", gymnasium_episode),
        ("OpenSpiel rl_environment", openspiel_episode),
        ("OpenSpiel state apply_action", openspiel_state_episode),
    ]
    print(f"8x8, general mode, 2 players, random legal actions, ~{arguments.seconds:g} s each")
    print("| environment | steps/s |")
    print("|---|---:|")
    for name, episode in rows:
        print(f"| {name} | {measure(episode, arguments.seconds):,.0f} |")
    search_table(arguments.seconds)
    print("\nPettingZoo performance_benchmark (random actions from the mask):")
    performance_benchmark(sos_v0.env(rows=SIZE, cols=SIZE))


if __name__ == "__main__":
    main()
