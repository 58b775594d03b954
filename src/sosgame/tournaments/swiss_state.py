"""A Swiss tournament as stored: its entrants, games and byes, and each round's outcomes.

Everything else (pairings, standings, the TRF file) is worked out from this value alone. As
lichess records a Swiss (``modules/swiss/src/main/SwissSheet.scala``), a player's round is a
win (1 point), a draw (1/2), a loss (0), a forfeit won or lost (1 or 0: the opponent did not
play), the bye an odd player gets (1), *late* for a first round missed (1/2), *absent* for
any other round missed (0), or still *ongoing*.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Final, Literal, TypeAlias

__all__ = [
    "POINTS",
    "Outcome",
    "SwissEntrant",
    "SwissGame",
    "SwissState",
]

Outcome: TypeAlias = Literal[
    "win", "draw", "loss", "forfeit_win", "forfeit_loss", "bye", "late", "absent", "ongoing"
]
POINTS: Final[dict[Outcome, Fraction]] = {
    "win": Fraction(1),
    "forfeit_win": Fraction(1),
    "bye": Fraction(1),
    "draw": Fraction(1, 2),
    "late": Fraction(1, 2),
    "loss": Fraction(0),
    "forfeit_loss": Fraction(0),
    "absent": Fraction(0),
    "ongoing": Fraction(0),
}
PLAYED: Final = frozenset({"win", "draw", "loss"})


@dataclass(frozen=True)
class SwissEntrant:
    """A player who joined; ``withdrawn`` players are paired no more but keep their points."""

    id: str
    name: str
    rating: int
    withdrawn: bool = False


@dataclass(frozen=True)
class SwissGame:
    """A round's game: ``first`` moves first. ``finished`` with ``winner`` ``None`` is a
    draw; ``forfeit`` marks a game the loser never started."""

    round: int
    first: str
    second: str
    winner: str | None = None
    finished: bool = False
    forfeit: bool = False

    def opponent_of(self, player: str) -> str:
        return self.second if player == self.first else self.first

    def outcome_for(self, player: str) -> Outcome:
        if not self.finished:
            return "ongoing"
        if self.winner is None:
            return "draw"
        won = self.winner == player
        if self.forfeit:
            return "forfeit_win" if won else "forfeit_loss"
        return "win" if won else "loss"


@dataclass(frozen=True)
class SwissState:
    """A Swiss after ``round`` rounds have been paired (0 before the first)."""

    rounds: int
    entrants: tuple[SwissEntrant, ...]
    games: tuple[SwissGame, ...] = ()
    byes: frozenset[tuple[str, int]] = frozenset()
    """(player, round) for each bye given to an odd player."""
    absent: frozenset[str] = frozenset()
    """Players not to be paired in the next round (they missed a game and have not come back)."""
    round: int = 0
    first_moves_to_top: bool = True
    """Whether the top seed moves first in round 1 (lichess draws it from the tournament's id)."""
    name: str = field(default="Swiss")

    @cached_property
    def _games_by_player(self) -> dict[str, dict[int, SwissGame]]:
        found: dict[str, dict[int, SwissGame]] = {e.id: {} for e in self.entrants}
        for game in self.games:
            found.setdefault(game.first, {})[game.round] = game
            found.setdefault(game.second, {})[game.round] = game
        return found

    def game_of(self, player: str, round_number: int) -> SwissGame | None:
        return self._games_by_player.get(player, {}).get(round_number)

    def outcome(self, player: str, round_number: int) -> Outcome:
        """What ``player`` got in ``round_number`` (one of the rounds paired so far)."""
        game = self.game_of(player, round_number)
        if game is not None:
            return game.outcome_for(player)
        if (player, round_number) in self.byes:
            return "bye"
        return "late" if round_number == 1 else "absent"

    def outcomes(self, player: str, until: int | None = None) -> list[Outcome]:
        """The player's outcomes in rounds 1 to ``until`` (every round paired by default)."""
        last = self.round if until is None else until
        return [self.outcome(player, number) for number in range(1, last + 1)]

    def points(self, player: str, until: int | None = None) -> Fraction:
        return sum((POINTS[outcome] for outcome in self.outcomes(player, until)), Fraction(0))

    @cached_property
    def seeds(self) -> dict[str, int]:
        """Each entrant's pairing number: by rating, best first, then in order of joining."""
        order = sorted(range(len(self.entrants)), key=lambda i: (-self.entrants[i].rating, i))
        return {self.entrants[i].id: seed for seed, i in enumerate(order, start=1)}

    def entrant(self, player: str) -> SwissEntrant:
        return next(e for e in self.entrants if e.id == player)

    def met(self) -> Iterator[tuple[str, str]]:
        """The pairs who have played each other (a forfeit does not count: they may meet)."""
        for game in self.games:
            if game.outcome_for(game.first) in PLAYED:
                yield game.first, game.second
