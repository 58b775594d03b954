"""A tournament as the store reads it back (:mod:`sosgame.web.tournaments.store`): its row,
its entrants, its games with what their ``games`` rows say, and everything together as one
:class:`Snapshot`, from which a turn is planned (:class:`Planned`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from sosgame.tournaments.settings import TournamentSettings
from sosgame.web.storage.rows import StoredGame

__all__ = ["EntrantRow", "Planned", "Snapshot", "TournamentGameRow", "TournamentRow"]


@dataclass(frozen=True)
class TournamentRow:
    """A tournament as stored."""

    id: str
    settings: TournamentSettings
    creator_id: int | None
    status: str
    round: int
    first_moves_to_top: bool
    created_ms: int


@dataclass(frozen=True)
class EntrantRow:
    """A player who joined, with their account's name."""

    player_id: int
    name: str
    rating: int
    joined_ms: int
    withdrawn: bool
    paused: bool
    absent: bool
    waiting_since_ms: int | None
    bot: bool


@dataclass(frozen=True)
class TournamentGameRow:
    """A tournament's game, with what its ``games`` row says of it now."""

    game_id: str
    round: int | None
    first_id: int
    second_id: int
    forfeit: int | None
    berserk: frozenset[int]
    """The players who went berserk."""
    status: str
    termination: str | None
    winners: tuple[int, ...]
    """The seats that won (0: the first); none, or both, for a draw."""
    plies: int
    """Letters placed (resignations are no moves)."""
    updated_ms: int

    @property
    def finished(self) -> bool:
        return self.status == "finished"

    @property
    def aborted(self) -> bool:
        return self.finished and self.termination == "aborted"


@dataclass(frozen=True)
class Snapshot:
    """A tournament and everything stored of it."""

    tournament: TournamentRow
    entrants: tuple[EntrantRow, ...]
    games: tuple[TournamentGameRow, ...]
    byes: frozenset[tuple[int, int]]
    turns: int
    """The last turn made (0 before the first)."""

    @property
    def basis(self) -> tuple[Any, ...]:
        """What a turn is planned from: all of it but the moves of the games that go on
        (a move changes no pairing; a game's end does)."""
        games = tuple(
            game if game.finished else (game.game_id, game.first_id, game.second_id)
            for game in self.games
        )
        return (self.tournament, self.entrants, games, self.byes, self.turns)


@dataclass
class Planned:
    """What a turn makes: its games (each with the players moving first and second), a
    Swiss's bye and the round it pairs."""

    games: list[tuple[StoredGame, int, int]] = field(default_factory=list)
    tokens: list[tuple[str, str]] = field(default_factory=list)
    """Each game's seat tokens (first, second): only their hashes are stored."""
    bye: int | None = None
    round: int | None = None

    @property
    def empty(self) -> bool:
        """Whether it makes nothing."""
        return not self.games and self.bye is None and self.round is None
