"""What the machine takes in (a client's message with the seats its sender holds, or an
input of the server's own) and what it gives back (:class:`Outcome`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from sosgame.web.live.machine.state import LiveState
from sosgame.web.live.protocol import (
    AbortMessage,
    AnswerMessage,
    BerserkMessage,
    ClaimMessage,
    MoveMessage,
    OfferMessage,
    RedoMessage,
    ResignMessage,
    UndoMessage,
    WithdrawMessage,
)
from sosgame.web.storage.rows import Change

__all__ = [
    "Arrived",
    "Command",
    "Fire",
    "GameMessage",
    "OffersWrite",
    "Outcome",
    "Play",
    "Presence",
    "Sent",
    "Timer",
    "TimerKind",
    "Write",
]

GameMessage: TypeAlias = (
    MoveMessage
    | ResignMessage
    | UndoMessage
    | RedoMessage
    | OfferMessage
    | AnswerMessage
    | WithdrawMessage
    | AbortMessage
    | BerserkMessage
    | ClaimMessage
)
"""The client messages that change a live game."""

TimerKind = Literal["flag", "overdue", "refresh"]
"""``flag``: the running clock runs out; ``overdue``: a first move or a correspondence move
is due; ``refresh``: what the state shows changes (an offer lapses, a claim opens)."""


@dataclass(frozen=True)
class Sent:
    """A client's message, from a connection holding ``held``."""

    message: GameMessage
    held: frozenset[int]


@dataclass(frozen=True)
class Play:
    """An action the server itself plays: a computer's move."""

    text: str


@dataclass(frozen=True)
class Timer:
    """A moment the game waits for, set at ply ``ply``."""

    kind: TimerKind
    when: int
    ply: int


@dataclass(frozen=True)
class Fire:
    """A timer went off (or the sweep of correspondence games found the game due)."""

    timer: Timer


@dataclass(frozen=True)
class Presence:
    """The seats connected now changed (or may have)."""

    connected: frozenset[int]


@dataclass(frozen=True)
class Arrived:
    """Players holding ``seats`` opened the game (said hello on its socket)."""

    seats: frozenset[int]


Command: TypeAlias = Sent | Play | Fire | Presence | Arrived
"""Everything that may change a live game."""


@dataclass(frozen=True)
class OffersWrite:
    """The standing offers to store, if the game is still at ``version``."""

    game_id: str
    version: int
    offers: tuple[dict[str, Any], ...]


Write: TypeAlias = Change | OffersWrite
"""What an outcome stores: a change of the game, or its offers."""


@dataclass(frozen=True)
class Outcome:
    """What a command did: the new state, what to store first, whom to tell, what to wait for.

    ``begun`` asks the store to remember that the game had begun for good before ``write``
    (a takeback about to undo a first move). ``announce`` is what the other server
    processes hear of the change (the shell adds the state's text); ``publish``, whether
    the state is sent to every follower again; ``timer``, the next moment the game waits for.
    """

    state: LiveState
    write: Write | None = None
    begun: bool = False
    announce: dict[str, Any] | None = None
    publish: bool = False
    timer: Timer | None = None
