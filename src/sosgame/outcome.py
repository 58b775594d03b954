"""Value types for what a game produces: completed lines and the final outcome."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Any, NamedTuple

from sosgame.geometry import LineCells

__all__ = ["OFF_THE_BOARD", "Line", "Outcome", "Termination"]


class Line(NamedTuple):
    """A completed S-O-S line.

    ``owner`` is the seat that completed it and ``ply`` the 1-based number of the move that did;
    both are ``None`` for a line that was already on a board set up with
    :meth:`sosgame.Game.from_position`.
    """

    owner: int | None
    ply: int | None
    cells: LineCells

    def __str__(self) -> str:
        return "-".join(str(cell) for cell in self.cells)

    def to_dict(self) -> dict[str, Any]:
        """The line as the JSON of the browser's protocol and ``replay --json``: its owner,
        ply and cells."""
        return {"owner": self.owner, "ply": self.ply, "cells": [str(cell) for cell in self.cells]}


class Termination(enum.Enum):
    """Why a game ended."""

    FULL_BOARD = "full-board"
    """The board is full (general mode: most points wins; simple mode: no SOS, a draw)."""
    SOS = "sos"
    """Simple mode: the mover completed the first SOS and wins."""
    RESIGNATION = "resignation"
    """Every other seat resigned."""
    TIMEOUT = "timeout"
    """Every other seat resigned, the last by running out of time (a game with a clock)."""
    AGREEMENT = "agreement"
    """The players agreed to end the game (a draw among the seats still in it)."""
    ABANDONED = "abandoned"
    """A seat left the game and the others claimed it (the win or a draw)."""
    ABORTED = "aborted"
    """The game was called off before every seat had made its first move: nobody wins."""


OFF_THE_BOARD: frozenset[Termination] = frozenset(
    {Termination.TIMEOUT, Termination.AGREEMENT, Termination.ABANDONED, Termination.ABORTED}
)
"""Endings the players or a server decide, which the engine never gives: a record may
state them (see :mod:`sosgame.record`)."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: ``winners`` holds the one winner, or every seat sharing a draw."""

    termination: Termination
    winners: tuple[int, ...]

    @property
    def winner(self) -> int | None:
        """The single winning seat, or ``None`` for a draw."""
        return self.winners[0] if len(self.winners) == 1 else None

    @property
    def is_draw(self) -> bool:
        """Whether two or more seats share the result."""
        return len(self.winners) != 1

    def to_dict(self) -> dict[str, Any]:
        """The outcome as the JSON of the browser's protocol: why the game ended and who won."""
        return {"termination": self.termination.value, "winners": list(self.winners)}
