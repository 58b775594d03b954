"""An Arena's scores and standings, from its finished games alone.

As lichess scores its Arenas (``modules/tournament/src/main/arena/ArenaSheet.scala``): a win
is worth 2, a draw 1, a loss 0; after two wins in a row a player is *on fire* and every
result is worth double (a win 4, a draw 2) until a game that is not a win. A berserk win
(the winner halved their clock before their first move) earns one point more if the game
lasted long enough; a draw agreed too soon earns nothing, and so does a draw following a
draw (losses between them aside) unless the game was long.

lichess counts plies against a chess game's length (14 for a valid berserk, 20 for a quick
draw, 60 for a long game). An SOS board may be filled in fewer: each threshold here is the
smaller of lichess's number and the board's cells (half of them for a berserk), so that a
game played to the full board is always long, and its draw never quick.

Standings rank players by score, then, once the Arena is over, by performance (the average
of their opponents' ratings, 500 more for a win and 500 less for a loss, for players of
three games or more), and by rating while it runs, as lichess's ``magicScore`` does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal, TypeAlias

__all__ = [
    "BERSERK_PLIES",
    "DRAW_POINTS",
    "LONG_GAME_PLIES",
    "QUICK_DRAW_PLIES",
    "WIN_POINTS",
    "ArenaGame",
    "Entrant",
    "Result",
    "Score",
    "Sheet",
    "Standing",
    "arena_standings",
    "berserk_plies",
    "performance",
    "sheet_of",
]

WIN_POINTS: Final = 2
DRAW_POINTS: Final = 1
BERSERK_PLIES: Final = 14
QUICK_DRAW_PLIES: Final = 20
LONG_GAME_PLIES: Final = 60
PERFORMANCE_MIN_GAMES: Final = 3

Result: TypeAlias = Literal["win", "draw", "loss", "quick_draw"]
Flag: TypeAlias = Literal["double", "streak", "normal", "null"]
Berserk: TypeAlias = Literal["none", "valid", "invalid"]


@dataclass(frozen=True)
class ArenaGame:
    """A finished game of an Arena; ``winner`` is ``None`` for a draw."""

    id: str
    first: str
    second: str
    winner: str | None
    plies: int
    """Moves made in the game (each letter placed)."""
    cells: int
    berserk: frozenset[str] = frozenset()
    """The players who halved their clock before their first move."""
    finished_at: int = 0
    """When the game ended (ms): the order of a player's results."""

    def opponent_of(self, player: str) -> str:
        return self.second if player == self.first else self.first

    @property
    def quick_draw(self) -> bool:
        return self.winner is None and self.plies < min(QUICK_DRAW_PLIES, self.cells)

    @property
    def long(self) -> bool:
        return self.plies >= min(LONG_GAME_PLIES, self.cells)

    @property
    def berserk_counts(self) -> bool:
        return self.plies >= berserk_plies(self.cells)


def berserk_plies(cells: int) -> int:
    """The moves a game on a board of ``cells`` must last for a berserk win's extra point."""
    return min(BERSERK_PLIES, cells // 2)


@dataclass(frozen=True)
class Score:
    """One game's result for one player, and what it is worth."""

    game: str
    result: Result
    flag: Flag
    berserk: Berserk

    @property
    def points(self) -> int:
        base = {"win": WIN_POINTS, "draw": DRAW_POINTS}.get(self.result, 0)
        if self.flag == "double":
            base *= 2
        elif self.flag == "null" and self.result == "draw":
            base = 0
        return base + (self.result == "win" and self.berserk == "valid")


@dataclass(frozen=True)
class Sheet:
    """A player's results in the order played, and what they add up to."""

    scores: tuple[Score, ...]

    @property
    def total(self) -> int:
        return sum(score.points for score in self.scores)

    @property
    def fire(self) -> bool:
        """On fire: the last two games were wins, so the next is worth double."""
        return len(self.scores) >= 2 and all(s.result == "win" for s in self.scores[-2:])


def _draw_streak(scores: Sequence[Score]) -> bool:
    """A draw since the last win (losses do not end the streak)."""
    for score in reversed(scores):
        if score.result in ("draw", "quick_draw"):
            return True
        if score.result == "win":
            return False
    return False


def _in_order(games: Iterable[ArenaGame]) -> list[ArenaGame]:
    return sorted(games, key=lambda game: (game.finished_at, game.id))


def sheet_of(player: str, games: Iterable[ArenaGame]) -> Sheet:
    """The sheet of ``player`` from the Arena's finished games (others' games are ignored)."""
    scores: list[Score] = []
    for game in _in_order(g for g in games if player in (g.first, g.second)):
        berserk: Berserk = "none"
        if player in game.berserk:
            berserk = "valid" if game.berserk_counts else "invalid"
        fire = Sheet(tuple(scores)).fire
        result: Result
        flag: Flag
        if game.winner is None and game.quick_draw:
            result, flag = "quick_draw", "normal"
        elif game.winner is None:
            result = "draw"
            if fire:
                flag = "double"
            elif not game.long and _draw_streak(scores):
                flag = "null"
            else:
                flag = "normal"
        elif game.winner == player:
            result, flag = "win", "double" if fire else "streak"
        else:
            result, flag = "loss", "normal"
        # A win opens a streak only if the next game is won too.
        if scores and scores[-1].flag == "streak" and result != "win":
            last = scores[-1]
            scores[-1] = Score(last.game, last.result, "normal", last.berserk)
        scores.append(Score(game.id, result, flag, berserk))
    return Sheet(tuple(scores))


@dataclass(frozen=True)
class Entrant:
    """A player who joined the tournament."""

    id: str
    name: str
    rating: int


@dataclass(frozen=True)
class Standing:
    """A line of the standings; ``games`` holds the points of each game, in order."""

    rank: int
    id: str
    name: str
    rating: int
    score: int
    games: tuple[int, ...]
    fire: bool
    performance: int | None

    def as_json(self) -> dict[str, object]:
        """The line as ``GET /api/tournaments/{id}`` shows it."""
        return {
            "rank": self.rank,
            "name": self.name,
            "rating": self.rating,
            "score": self.score,
            "games": list(self.games),
            "fire": self.fire,
            # What the player's next win is worth (double on fire), berserk aside.
            "win": WIN_POINTS * (2 if self.fire else 1),
            "performance": self.performance,
        }


def performance(player: str, games: Iterable[ArenaGame], ratings: Mapping[str, int]) -> int | None:
    """The player's performance: their opponents' average rating, 500 more for each win and
    500 less for each loss; ``None`` under three games."""
    played = [g for g in games if player in (g.first, g.second)]
    if len(played) < PERFORMANCE_MIN_GAMES:
        return None
    total = 0
    for game in played:
        total += ratings.get(game.opponent_of(player), 0)
        if game.winner is not None:
            total += 500 if game.winner == player else -500
    return int(total / len(played))


def arena_standings(
    entrants: Iterable[Entrant], games: Iterable[ArenaGame], *, over: bool
) -> list[Standing]:
    """The standings from the entrants and the finished games alone, whatever their order.

    Ties are broken by performance once the Arena is ``over`` (by rating for those without
    one), by rating while it runs, then by id, so that every rank is a player's own.
    """
    everyone = list(entrants)
    finished = list(games)
    ratings = {entrant.id: entrant.rating for entrant in everyone}
    lines = []
    for entrant in everyone:
        sheet = sheet_of(entrant.id, finished)
        perf = performance(entrant.id, finished, ratings) if over else None
        lines.append((entrant, sheet, perf))
    lines.sort(
        key=lambda line: (
            -line[1].total,
            -(line[0].rating if line[2] is None else line[2]),
            line[0].id,
        )
    )
    return [
        Standing(
            rank=place,
            id=entrant.id,
            name=entrant.name,
            rating=entrant.rating,
            score=sheet.total,
            games=tuple(score.points for score in sheet.scores),
            fire=sheet.fire,
            performance=perf,
        )
        for place, (entrant, sheet, perf) in enumerate(lines, start=1)
    ]
