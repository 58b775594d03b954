"""SOS as a PettingZoo AEC environment, in the style of PettingZoo's classic games.

>>> from sosgame.envs import sos_v0
>>> env = sos_v0.env(rows=3, cols=3, players=2, mode="general")
>>> env.reset(seed=1)
>>> env.agent_selection
'player_0'

* Agents ``player_0`` .. ``player_{n-1}``, in seat order. One action per (cell, letter):
  ``2 * cell + letter`` with letter 0 = S, 1 = O (see :mod:`sosgame.envs.encoding`).
* Observation per agent: ``observation``, planes ``(rows, cols, 3)`` for S, O and empty;
  ``scores``, every seat's points seen from the agent (its own first, then the seats after it
  in turn order); ``action_mask``, the legal actions (all zero for agents not selected).
* A scoring move keeps the same agent selected (the extra turn).
* Rewards: ``reward="result"`` (the default), ``"margin"`` or ``"points"``, as defined in
  :mod:`sosgame.envs.encoding`: after every move each agent gets the change in its value, so
  its return is its value at the end. ``"result"`` sums to zero: +1 for a sole winner and
  ``-1/(n-1)`` for each loser; seats sharing a draw split the win (with two players: +1/-1,
  and 0 each for a draw).
* When the game ends every agent's info holds ``winners``, one flag per seat.
* Not parallelisable (``metadata["is_parallelizable"]`` is False): turns are sequential and a
  scoring move keeps the turn, so use ``turn_based_aec_to_parallel``, not ``aec_to_parallel``.
* ``render()``: ``"ansi"`` returns the text drawing, ``"human"`` prints it, ``"rgb_array"``
  returns a picture with each line in its owner's colour.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from sosgame.envs import encoding
from sosgame.envs.encoding import DEFAULT_REWARD, Reward
from sosgame.envs.render import RENDER_MODES, check_render_mode, render
from sosgame.game import Game, Mode

__all__ = ["env", "raw_env"]

Observation = dict[str, np.ndarray[Any, Any]]


def env(**kwargs: Any) -> AECEnv[str, Observation, int]:
    """The environment with PettingZoo's usual wrappers: an illegal move ends the game with
    reward -1 for its agent, actions outside the space fail, and the call order is checked."""
    environment: AECEnv[str, Observation, int] = raw_env(**kwargs)
    environment = wrappers.TerminateIllegalWrapper(environment, illegal_reward=-1)
    environment = wrappers.AssertOutOfBoundsWrapper(environment)
    return wrappers.OrderEnforcingWrapper(environment)


class raw_env(AECEnv[str, Observation, int], EzPickle):  # type: ignore[misc]  # noqa: N801
    """The unwrapped AEC environment; an illegal move raises ``IllegalMoveError``."""

    metadata = {  # noqa: RUF012 (PettingZoo reads it as a class attribute)
        "render_modes": list(RENDER_MODES),
        "name": "sos_v0",
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        rows: int = 5,
        cols: int = 5,
        players: int = 2,
        mode: Mode = "general",
        render_mode: str | None = None,
        *,
        reward: Reward = DEFAULT_REWARD,
    ) -> None:
        EzPickle.__init__(self, rows, cols, players, mode, render_mode, reward=reward)
        super().__init__()
        self.game = Game(rows, cols, players=players, mode=mode)
        self.reward = encoding.check_reward(reward)
        self.render_mode = check_render_mode(render_mode)
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents = self.possible_agents[:]
        actions = encoding.action_count(rows, cols)
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self.observation_spaces = {
            agent: encoding.observation_space(rows, cols, players) for agent in self.possible_agents
        }
        self._reset_bookkeeping()

    def _reset_bookkeeping(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[self.game.turn]

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The observation space of ``agent``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The action space of ``agent``."""
        return self.action_spaces[agent]

    def observe(self, agent: str) -> Observation:
        """What ``agent`` sees now."""
        seat = self.possible_agents.index(agent)
        return encoding.observation(self.game, seat, moving=agent == self.agent_selection)

    def step(self, action: int | None) -> None:
        """Play ``action`` for the selected agent."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must choose an action; None is only for finished agents")
        before = encoding.reward_values(self.game, self.reward)
        lines = self.game.play(encoding.action_to_move(action, self.game.rows, self.game.cols))
        after = encoding.reward_values(self.game, self.reward)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {
            name: after[seat] - before[seat] for seat, name in enumerate(self.possible_agents)
        }
        over = self.game.is_over
        if over:
            self.terminations = dict.fromkeys(self.agents, True)
        for name in self.agents:
            self.infos[name] = {"extra_turn": self.game.extra_turn, "lines": len(lines)}
            if over:
                self.infos[name]["winners"] = encoding.winner_flags(self.game)
        self.agent_selection = self.possible_agents[self.game.turn]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new game (SOS has no chance: ``seed`` changes nothing)."""
        self.game = Game(
            self.game.rows, self.game.cols, players=self.game.players, mode=self.game.mode
        )
        self._reset_bookkeeping()

    def render(self) -> Any:
        """Draw the board as ``render_mode`` asks."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() was called without a render_mode")
            return None
        return render(self.game, self.render_mode)

    def close(self) -> None:
        """Nothing to release."""
