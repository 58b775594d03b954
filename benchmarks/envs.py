"""Steps per second of the research environments on 8x8, with random legal actions.

Run: ``python benchmarks/envs.py [--seconds S]`` (part of ``make bench``). Each figure counts
environment steps (one move each; the Gymnasium figure counts the agent's steps, each of
which also plays the random opponent's answer) over about ``--seconds`` of wall time, in one
process. PettingZoo's own ``performance_benchmark`` is run too and prints its figures.
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
from pettingzoo.test import performance_benchmark

import sosgame.envs.openspiel  # noqa: F401 (registers python_sos)
from sosgame.envs import GYMNASIUM_ID, sos_v0

SIZE = 8


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
    print("\nPettingZoo performance_benchmark (random actions from the mask):")
    performance_benchmark(sos_v0.env(rows=SIZE, cols=SIZE))


if __name__ == "__main__":
    main()
