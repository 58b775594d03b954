"""A Swiss's standings from its stored state alone: points, then Sonneborn-Berger, then
performance, as lichess ranks a Swiss (``modules/swiss/src/main/SwissScoring.scala``).

The Sonneborn-Berger tie-break adds up the points of each opponent beaten and half those of
each opponent drawn. A bye counts, as FIDE's C.02 says, as a game won against a virtual
opponent who had the player's points before that round, lost it and drew every round after.
Performance is the average of the opponents' ratings, 500 more for a win and 500 less for a
loss.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from sosgame.tournaments.swiss_state import POINTS, Outcome, SwissState

__all__ = ["SwissStanding", "sonneborn_berger", "swiss_performance", "swiss_standings"]


@dataclass(frozen=True)
class SwissStanding:
    """A line of a Swiss's standings; ``games`` holds each round's outcome."""

    rank: int
    id: str
    name: str
    rating: int
    score: Fraction
    tie_break: Fraction
    performance: int | None
    games: tuple[Outcome, ...]
    withdrawn: bool

    def as_json(self) -> dict[str, object]:
        """The line as ``GET /api/tournaments/{id}`` shows it (a Swiss is never on fire)."""
        return {
            "rank": self.rank,
            "name": self.name,
            "rating": self.rating,
            "score": float(self.score),
            "games": list(self.games),
            "fire": False,
            "win": 1.0,
            "tie_break": float(self.tie_break),
            "performance": self.performance,
            "withdrawn": self.withdrawn,
        }


def sonneborn_berger(state: SwissState, player: str) -> Fraction:
    """The player's Sonneborn-Berger tie-break."""
    total = Fraction(0)
    for number in range(1, state.round + 1):
        outcome = state.outcome(player, number)
        game = state.game_of(player, number)
        if game is not None and outcome != "ongoing":
            opponent = state.points(game.opponent_of(player))
            total += opponent * POINTS[outcome]
        elif outcome == "bye":
            draws = Fraction(state.round - number, 2)
            total += state.points(player, number - 1) + draws
    return total


def swiss_performance(state: SwissState, player: str) -> int | None:
    """The player's performance over their games (``None`` with none)."""
    games = [state.game_of(player, number) for number in range(1, state.round + 1)]
    played = [game for game in games if game is not None]
    if not played:
        return None
    total = 0
    for game in played:
        total += state.entrant(game.opponent_of(player)).rating
        outcome = game.outcome_for(player)
        total += 500 if outcome in ("win", "forfeit_win") else 0
        total -= 500 if outcome in ("loss", "forfeit_loss") else 0
    return int(total / len(played))


def swiss_standings(state: SwissState) -> list[SwissStanding]:
    """Every entrant, withdrawn ones too, best first; each rank is a player's own (ties go
    by rating, then by order of joining)."""
    lines = []
    for order, entrant in enumerate(state.entrants):
        perf = swiss_performance(state, entrant.id)
        line = SwissStanding(
            rank=0,
            id=entrant.id,
            name=entrant.name,
            rating=entrant.rating,
            score=state.points(entrant.id),
            tie_break=sonneborn_berger(state, entrant.id),
            performance=perf,
            games=tuple(state.outcomes(entrant.id)),
            withdrawn=entrant.withdrawn,
        )
        key = (-line.score, -line.tie_break, -(entrant.rating if perf is None else perf))
        lines.append((key, -entrant.rating, order, line))
    lines.sort(key=lambda item: item[:3])
    return [
        SwissStanding(
            place,
            line.id,
            line.name,
            line.rating,
            line.score,
            line.tie_break,
            line.performance,
            line.games,
            line.withdrawn,
        )
        for place, (*_, line) in enumerate(lines, start=1)
    ]
