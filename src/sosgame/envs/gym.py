"""SOS as a single-agent Gymnasium environment against computer or learned opponents.

``gymnasium.make("sosgame/SOS-v0", rows=5, cols=5, mode="general", opponent="medium")`` once
:mod:`sosgame.envs` is imported, or ``gymnasium.make("sosgame.envs:sosgame/SOS-v0", ...)``,
which imports it (Gymnasium 1.x loads no plugins by itself).

* The agent holds seat ``seat`` (default 0; ``"random"`` draws it at every reset from the
  reset's seed). Every other seat is played by ``opponent``:

  - a level name (``"random"`` .. ``"perfect"``): ``make_player(opponent, ...)``, seeded from
    ``reset(seed=...)``. The searching levels (``hard``, ``perfect``) get
    ``opponent_nodes`` positions per move (:data:`DEFAULT_OPPONENT_NODES` when neither budget
    is given): the same seed and actions then give the same episode. ``opponent_seconds``
    bounds them by wall time instead, which is not reproducible;
  - a player object with ``choose_move(game) -> Move`` (:class:`sosgame.ai.Player`);
  - a callable ``policy(observation) -> action`` given the observation dict from the seat it
    plays (its own scores first, its mask set): a frozen copy of the learner for self-play.

  ``reset(options={"opponent": ...})`` swaps the opponent from that episode on (leagues).
  After the agent's move, the opponents move (extra turns included) until it is the agent's
  turn again or the game ends.
* Observations: a dict of ``observation`` planes ``(rows, cols, 3)`` (S, O, empty),
  ``scores`` seen from the agent, and ``action_mask`` (all zero once the game is over). The
  mask is also ``info["action_mask"]`` and :meth:`SOSEnv.action_masks`.
* Rewards: ``reward="result"`` (default), ``"margin"`` or ``"points"``, as defined in
  :mod:`sosgame.envs.encoding`; each step pays the change in the agent's value since the
  previous step (the opponents' moves included), so an episode's return is the agent's value
  at the end.
* ``info``: ``action_mask``, ``scores`` (a NumPy array, in seat order), ``seat`` (the
  agent's), and at the end ``winners`` (one flag per seat).
* Actions are Python or NumPy integers: anything else (``3.0``, ``True``) or a value outside
  the action space raises ``ValueError``. An action the position forbids (an occupied cell)
  ends the episode with reward -1 and ``info["illegal_action"] = True``, leaving the board
  unchanged. Stepping after any end raises ``RuntimeError`` until ``reset()``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Literal, SupportsFloat, TypeAlias

import gymnasium
import numpy as np
from gymnasium import spaces

from sosgame.ai import Player, make_player
from sosgame.envs import encoding
from sosgame.envs.encoding import DEFAULT_REWARD, Reward
from sosgame.envs.render import RENDER_MODES, check_render_mode, render
from sosgame.errors import InvalidSettingsError
from sosgame.game import Game, Mode

__all__ = ["DEFAULT_OPPONENT_NODES", "REDEALS", "Opponent", "OpponentPolicy", "SOSEnv"]

Observation = dict[str, Any]
OpponentPolicy: TypeAlias = Callable[[Observation], Any]
"""An opponent that maps the observation from its own seat to an action."""
Opponent: TypeAlias = str | Player | OpponentPolicy
ILLEGAL_REWARD = -1.0
REDEALS: Final = 100
"""Games dealt at most by one reset before the agent gets a move."""
DEFAULT_OPPONENT_NODES: Final = 500
"""Positions per move for a searching opponent given no budget: tens of milliseconds."""


class SOSEnv(gymnasium.Env[Observation, np.int64]):
    """One agent against opponents in every other seat; see the module's description."""

    metadata = {"render_modes": list(RENDER_MODES), "render_fps": 2}  # noqa: RUF012

    def __init__(
        self,
        rows: int = 5,
        cols: int = 5,
        mode: Mode = "general",
        opponent: Opponent = "medium",
        *,
        players: int = 2,
        seat: int | Literal["random"] = 0,
        opponent_seconds: float | None = None,
        opponent_nodes: int | None = None,
        reward: Reward = DEFAULT_REWARD,
        render_mode: str | None = None,
    ) -> None:
        self.game = Game(rows, cols, players=players, mode=mode)
        self.reward = encoding.check_reward(reward)
        if seat != "random" and (
            not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < players
        ):
            raise InvalidSettingsError(
                f"seat must be from 0 to {players - 1} or 'random', not {seat!r}"
            )
        self.opponent_seconds = opponent_seconds
        self.opponent_nodes = opponent_nodes
        self.opponent = opponent
        # Built now so a bad opponent or budget fails here; reset() builds a seeded one.
        self._player: Player | OpponentPolicy = self._opponent_for(opponent, 0)
        self.seat_option = seat
        self.seat = 0 if seat == "random" else seat
        """The agent's seat in the current episode."""
        self.render_mode = check_render_mode(render_mode)
        self.action_space = spaces.Discrete(encoding.action_count(rows, cols))
        self.observation_space = encoding.observation_space(rows, cols, players)
        self._paid = 0.0
        self._over = True  # until the first reset

    def _opponent_for(self, opponent: Opponent, seed: int) -> Player | OpponentPolicy:
        if isinstance(opponent, str):
            seconds, nodes = self.opponent_seconds, self.opponent_nodes
            if seconds is None and nodes is None:
                nodes = DEFAULT_OPPONENT_NODES
            return make_player(opponent, seconds=seconds, nodes=nodes, seed=seed)
        if self.opponent_seconds is not None or self.opponent_nodes is not None:
            raise InvalidSettingsError(
                "opponent_seconds and opponent_nodes apply to a level name only, not to"
                f" {opponent!r}"
            )
        if callable(getattr(opponent, "choose_move", None)) or callable(opponent):
            return opponent
        raise InvalidSettingsError(
            "opponent must be a level name, a player with choose_move(game) or a callable"
            f" policy(observation) -> action, not {opponent!r}"
        )

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        """The legal actions now (1) and the others (0)."""
        return encoding.action_mask(self.game)

    def _observation(self, seat: int | None = None) -> Observation:
        return encoding.observation(self.game, self.seat if seat is None else seat)

    def _info(self, **extra: Any) -> dict[str, Any]:
        info = {
            "action_mask": self.action_masks(),
            "scores": np.array(self.game.scores, dtype=np.int64),
            "seat": self.seat,
            **extra,
        }
        if self.game.is_over:
            info["winners"] = encoding.winner_flags(self.game)
        return info

    def _opponents_move(self) -> None:
        game = self.game
        player = self._player
        chooser = getattr(player, "choose_move", None)
        while not game.is_over and game.turn != self.seat:
            seat = game.turn
            try:
                if chooser is not None:
                    move = chooser(game)
                else:
                    choice = player(self._observation(seat))  # type: ignore[operator]
                    move = encoding.action_to_move(choice, game.rows, game.cols)
                game.play(move)
            except ValueError as error:
                raise type(error)(f"the opponent in seat {seat} chose: {error}") from None

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """Start a new game; the opponents move first if the agent's seat comes later.

        An episode always gives the agent a move: if the opponents end a game before the
        agent's first move (simple mode, three or more seats), another game is dealt, with
        the opponents' seeds drawn anew.

        ``options={"opponent": ...}`` replaces the opponent from this episode on.

        :raises RuntimeError: if the opponents end :data:`REDEALS` games in a row before the
            agent moves (a policy that always opens with the same SOS).
        """
        super().reset(seed=seed)
        options = dict(options or {})
        opponent = options.pop("opponent", self.opponent)
        if options:
            raise ValueError(f"reset() takes the option 'opponent' only, not {sorted(options)}")
        game = self.game
        if self.seat_option == "random":
            self.seat = int(self.np_random.integers(game.players))
        self.opponent = opponent
        self._paid = 0.0
        self._over = False
        for _ in range(REDEALS):
            self._player = self._opponent_for(opponent, int(self.np_random.integers(2**31)))
            self.game = Game(game.rows, game.cols, players=game.players, mode=game.mode)
            self._opponents_move()
            if not self.game.is_over:
                return self._observation(), self._info()
        raise RuntimeError(
            f"the opponents ended {REDEALS} games in a row before seat {self.seat} could move"
        )

    def step(
        self, action: np.int64 | int
    ) -> tuple[Observation, SupportsFloat, bool, bool, dict[str, Any]]:
        """Play ``action`` for the agent, then let the opponents answer.

        :raises RuntimeError: after the episode has ended, until :meth:`reset`.
        :raises ValueError: for an action that is not an integer of the action space, or an
            opponent policy's bad action (the game is then left as it was before this step).
        """
        if self._over:
            raise RuntimeError("the episode is over: call reset() first")
        game = self.game
        move = encoding.action_to_move(action, game.rows, game.cols)
        if move not in game.legal_moves:
            self._over = True
            return self._observation(), ILLEGAL_REWARD, True, False, self._info(illegal_action=True)
        ply = game.ply
        game.play(move)
        try:
            self._opponents_move()
        except Exception:
            while game.ply > ply:
                game.undo()
            raise
        value = encoding.reward_values(game, self.reward)[self.seat]
        reward, self._paid = value - self._paid, value
        self._over = game.is_over
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, self._over, False, self._info()

    def render(self) -> Any:
        """Draw the board as ``render_mode`` asks."""
        return render(self.game, self.render_mode)
