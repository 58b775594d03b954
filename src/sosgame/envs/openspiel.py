"""SOS as an OpenSpiel Python game, registered as ``python_sos`` on import.

>>> import pyspiel
>>> import sosgame.envs.openspiel
>>> game = pyspiel.load_game("python_sos", {"rows": 3, "cols": 3, "players": 2, "mode": "simple"})
>>> game.num_distinct_actions(), game.num_players()
(18, 2)

Parameters: ``rows``, ``cols`` (default 5), ``players`` (2 to 8, default 2), ``mode``
(``"general"`` or ``"simple"``). Actions are ``2 * cell + letter`` (letter 0 = S, 1 = O). A
scoring move keeps ``current_player()`` on the same seat. ``returns()`` is each seat's result
at the end, summing to zero (+1 for a sole winner, ``-1/(n-1)`` for each loser, a share for a
draw); in general mode the points decide the winner. The observation tensor holds, per cell,
planes for S, O and empty, then one plane per seat set where it is that seat's turn, then one
plane per seat holding its score divided by the number of lines the board can hold.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pyspiel

from sosgame.envs.encoding import (
    PLANES,
    action_count,
    action_to_move,
    legal_actions,
    planes,
    result_rewards,
)
from sosgame.game import MAX_PLAYERS, MIN_PLAYERS, Game
from sosgame.geometry import geometry

__all__ = ["SosGame", "SosObserver", "SosState"]

_DEFAULTS: dict[str, Any] = {"rows": 5, "cols": 5, "players": 2, "mode": "general"}

_GAME_TYPE = pyspiel.GameType(
    short_name="python_sos",
    long_name="Python SOS",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=MIN_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


class SosGame(pyspiel.Game):  # type: ignore[misc]
    """The game ``python_sos`` with its parameters."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        options = {**_DEFAULTS, **(params or {})}
        self.template = Game(
            options["rows"], options["cols"], players=options["players"], mode=options["mode"]
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=action_count(self.template.rows, self.template.cols),
            max_chance_outcomes=0,
            num_players=self.template.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=self.template.rows * self.template.cols,
        )
        super().__init__(_GAME_TYPE, info, options)

    def new_initial_state(self) -> SosState:
        """A new game from the empty board."""
        return SosState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> SosObserver:
        """The observer behind the observation tensor and string."""
        return SosObserver(self, params)


class SosState(pyspiel.State):  # type: ignore[misc]
    """A position of ``python_sos``: a thin wrapper around :class:`sosgame.Game`."""

    def __init__(self, game: SosGame) -> None:
        super().__init__(game)
        self.game = game.template.copy()

    def current_player(self) -> int:
        """The seat to move, or ``pyspiel.PlayerId.TERMINAL``."""
        return int(pyspiel.PlayerId.TERMINAL) if self.game.is_over else self.game.turn

    def _legal_actions(self, player: int) -> list[int]:
        return legal_actions(self.game)

    def _apply_action(self, action: int) -> None:
        self.game.play(action_to_move(action, self.game.rows, self.game.cols))

    def _action_to_string(self, player: int, action: int) -> str:
        return str(action_to_move(action, self.game.rows, self.game.cols))

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.game.is_over

    def returns(self) -> list[float]:
        """Each seat's result: zero until the end."""
        outcome = self.game.outcome
        if outcome is None:
            return [0.0] * self.game.players
        return result_rewards(outcome, self.game.players)

    def __str__(self) -> str:
        return self.game.position()


class SosObserver:
    """Fills the observation tensor (see the module's description) and string."""

    def __init__(self, game: SosGame, params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"python_sos observations take no parameters; got {params}")
        template = game.template
        self.players = template.players
        self.most_lines = max(1, len(geometry(template.rows, template.cols).lines))
        shape = (PLANES + 2 * self.players, template.rows, template.cols)
        self.tensor = np.zeros(int(np.prod(shape)), np.float32)
        view = np.reshape(self.tensor, shape)
        self.dict = {
            "board": view[:PLANES],
            "turn": view[PLANES : PLANES + self.players],
            "scores": view[PLANES + self.players :],
        }

    def set_from(self, state: SosState, player: int) -> None:
        """Describe ``state`` (the same for every player: SOS has no hidden information)."""
        game = state.game
        self.tensor.fill(0)
        self.dict["board"][:] = np.moveaxis(planes(game), -1, 0)
        if not game.is_over:
            self.dict["turn"][game.turn] = 1
        for seat, score in enumerate(game.scores):
            self.dict["scores"][seat] = score / self.most_lines

    def string_from(self, state: SosState, player: int) -> str:
        """The position, scores and seat to move as text."""
        game = state.game
        scores = " ".join(str(score) for score in game.scores)
        return f"{game.position()} scores {scores} turn {state.current_player()}"


pyspiel.register_game(_GAME_TYPE, SosGame)
