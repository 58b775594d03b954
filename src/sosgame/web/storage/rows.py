"""The rows a game is stored as, and the changes written to them: what the store reads and
writes, the room keeps and the group commit sends.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from sosgame.table import PERSON

__all__ = [
    "HUMAN",
    "Change",
    "GameSummary",
    "Job",
    "MyGame",
    "SeatRow",
    "StoredGame",
]


HUMAN: Final = "human"
"""A seat's ``player`` when a person sits there (otherwise it names a computer level): how
the web's messages and its store write :data:`sosgame.table.PERSON`."""


@dataclass
class SeatRow:
    """A seat as stored: ``player`` is ``human`` or a computer level; ``bot``, whether a
    bot's account took it (read with the seat, never stored on it)."""

    seat: int
    name: str
    player: str
    token_hash: str | None = None
    invite: str | None = None
    bot: bool = False

    @property
    def kind(self) -> str:
        """Who plays the seat at the game's table: :data:`~sosgame.table.PERSON` or a level."""
        return PERSON if self.player == HUMAN else self.player


@dataclass
class StoredGame:
    """A game as stored: settings, seats and the text of every action in order."""

    id: str
    kind: str
    rows: int
    cols: int
    mode: str
    seats: list[SeatRow]
    status: str
    created_ms: int
    updated_ms: int
    start: dict[str, Any] | None = None
    clock: dict[str, Any] | None = None
    result: dict[str, Any] | None = None
    actions: list[str] = field(default_factory=list)
    public: bool = False
    rematch: str | None = None
    version: int = 0
    owner: str | None = None
    """The client address that created the game (``None`` for games stored before owners
    were): the per-client caps and the computer players' fair queue go by it."""
    owner_player: int | None = None
    """The account (player id) that created the game, if logged in."""
    offers: list[dict[str, Any]] | None = None
    """The offers standing (draw, takeback, rematch), as :mod:`sosgame.web.offers` keeps
    them."""
    rated: bool | None = None
    """Whether the game was asked to be rated (``None`` for games stored before it was
    asked: rated if they qualify)."""
    begun: bool = False
    """Whether every seat had made its first move before a takeback undid one (the moves
    kept no longer show it)."""
    tournament: dict[str, str] | None = None
    """The tournament the game belongs to, ``{"id", "name"}``, if any."""


@dataclass(frozen=True)
class Job:
    """A computer move the change hands over: to be made at the game's new version, not
    before ``ready_ms``, by ``holder`` (leased until ``lease_ms``) or by whoever claims it;
    ``watched_ms`` for a game with only computer seats (until when someone watches)."""

    ready_ms: int
    holder: str | None
    lease_ms: int
    watched_ms: int | None = None


@dataclass(frozen=True)
class Change:
    """A game's new status, result and clock, with actions added from ``first_ply`` on;
    ``keep``, if set, first drops every action after that many (an undo).

    With ``version`` set, the change is made only if the game is still at that version (no
    other change came first); it then moves the game to the next version. ``job`` is the
    computer move the new position waits for, if any: with ``hands_over``, it replaces the
    game's queued job (a change without one removes it).
    """

    game_id: str
    status: str
    result: dict[str, Any] | None
    clock: dict[str, Any] | None
    now_ms: int
    first_ply: int = 1
    texts: tuple[str, ...] = ()
    keep: int | None = None
    version: int | None = None
    job: Job | None = None
    hands_over: bool = False
    """Whether the game may have a computer move queued, which ``job`` replaces (so a game
    of people only costs no statement for it)."""


@dataclass(frozen=True)
class GameSummary:
    """What a list of games shows about each."""

    id: str
    kind: str
    rows: int
    cols: int
    mode: str
    status: str
    names: list[str]
    open_seats: list[int]
    result: dict[str, Any] | None
    updated_ms: int
    bots: list[bool]
    """Whether a bot's account sits at each seat, in seat order."""


@dataclass(frozen=True)
class MyGame:
    """A game of the caller's, as "my games" lists it: ``seats`` are the caller's."""

    id: str
    rows: int
    cols: int
    mode: str
    status: str
    names: list[str]
    seats: list[int]
    result: dict[str, Any] | None
    created_ms: int
    updated_ms: int
    token_hashes: tuple[str, ...]
    """The hashes of the tokens of the caller's seats."""
    bots: list[bool]
    """Whether a bot's account sits at each seat, in seat order."""
