"""SOS as a single-agent Gymnasium environment against one of our computer players.

``gymnasium.make("sosgame/SOS-v0", rows=5, cols=5, mode="general", opponent="medium")``
(registered when :mod:`sosgame.envs` is imported).

* The agent holds seat ``seat`` (default 0); every other seat is played by ``make_player(
  opponent, seconds=opponent_seconds)``, seeded from ``reset(seed=...)`` so an episode is
  reproducible. After the agent's move, the opponents move (extra turns included) until it is
  the agent's turn again or the game ends.
* Actions and observations as in :mod:`sosgame.envs.sos_v0`: ``2 * cell + letter``; a dict of
  ``observation`` planes (S, O, empty), ``scores`` seen from the agent, and ``action_mask``.
  The mask is also in ``info["action_mask"]`` and from :meth:`SOSEnv.action_masks`.
* Reward per step: in general mode the agent's points minus the opponents' points made since
  the agent's previous action; at the end, plus the result (+1 for a sole win, ``-1/(n-1)``
  for a loss, a share for a draw; see :func:`sosgame.envs.encoding.result_rewards`). In simple
  mode only the result counts.
* An action inside the action space that the position forbids (an occupied cell) ends the
  episode with reward -1 and ``info["illegal_action"] = True``, leaving the board unchanged;
  a value outside the action space raises ``ValueError``.
"""

from __future__ import annotations

from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from sosgame.ai import make_player
from sosgame.envs.encoding import (
    PLANES,
    action_count,
    action_mask,
    action_to_move,
    planes,
    relative_scores,
    result_rewards,
)
from sosgame.envs.render import rgb_array
from sosgame.game import Game, Mode
from sosgame.geometry import geometry

__all__ = ["SOSEnv"]

Observation = dict[str, Any]
ILLEGAL_REWARD = -1.0


class SOSEnv(gymnasium.Env[Observation, np.int64]):
    """One agent against computer opponents; see the module's description."""

    metadata = {"render_modes": ["human", "ansi", "rgb_array"], "render_fps": 2}  # noqa: RUF012

    def __init__(
        self,
        rows: int = 5,
        cols: int = 5,
        mode: Mode = "general",
        opponent: str = "medium",
        *,
        players: int = 2,
        seat: int = 0,
        opponent_seconds: float | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.game = Game(rows, cols, players=players, mode=mode)
        make_player(opponent, seconds=opponent_seconds)  # checks the level and budget now
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players:
            raise ValueError(f"seat must be from 0 to {players - 1}, not {seat!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of human, ansi, rgb_array, not {render_mode!r}"
            )
        self.opponent = opponent
        self.opponent_seconds = opponent_seconds
        self.seat = seat
        self.render_mode = render_mode
        actions = action_count(rows, cols)
        self.action_space = spaces.Discrete(actions)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0, 1, (rows, cols, PLANES), np.int8),
                "scores": spaces.Box(0, len(geometry(rows, cols).lines), (players,), np.float32),
                "action_mask": spaces.Box(0, 1, (actions,), np.int8),
            }
        )
        self._player = make_player(opponent, seconds=opponent_seconds, seed=0)

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        """The legal actions now (1) and the others (0)."""
        return action_mask(self.game)

    def _observation(self) -> Observation:
        return {
            "observation": planes(self.game),
            "scores": relative_scores(self.game, self.seat),
            "action_mask": self.action_masks(),
        }

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), "scores": self.game.scores, **extra}

    def _opponents_move(self) -> None:
        while not self.game.is_over and self.game.turn != self.seat:
            self.game.play(self._player.choose_move(self.game))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Start a new game; the opponents move first if the agent's seat comes later."""
        super().reset(seed=seed)
        game = self.game
        self.game = Game(game.rows, game.cols, players=game.players, mode=game.mode)
        opponent_seed = int(self.np_random.integers(2**31))
        self._player = make_player(self.opponent, seconds=self.opponent_seconds, seed=opponent_seed)
        self._opponents_move()
        return self._observation(), self._info()

    def step(
        self, action: np.int64 | int
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play ``action`` for the agent, then let the opponents answer."""
        if self.game.is_over:
            raise RuntimeError("the episode is over: call reset() first")
        move = action_to_move(int(action), self.game.rows, self.game.cols)
        if move not in self.game.legal_moves:
            return self._observation(), ILLEGAL_REWARD, True, False, self._info(illegal_action=True)
        before = self.game.scores
        self.game.play(move)
        self._opponents_move()
        reward = 0.0
        if self.game.mode == "general":
            gained = [now - then for now, then in zip(self.game.scores, before, strict=True)]
            reward = float(gained[self.seat] - (sum(gained) - gained[self.seat]))
        outcome = self.game.outcome
        if outcome is not None:
            reward += result_rewards(outcome, self.game.players)[self.seat]
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, outcome is not None, False, self._info()

    def render(self) -> Any:
        """Draw the board as ``render_mode`` asks."""
        if self.render_mode == "rgb_array":
            return rgb_array(self.game)
        if self.render_mode == "ansi":
            return str(self.game)
        if self.render_mode == "human":
            print(self.game)
        return None
