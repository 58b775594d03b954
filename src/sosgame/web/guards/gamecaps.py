"""The caps every new game passes, however it is made (a new game, an uploaded record, a
rematch, a pool's pairing, a filled seek), counted in the store.

A game counts for its owner: the client address (and account) that made it; a pool's game
for the player of the pair who waited longer, a seek's for its creator. The count and the
game's insert are one transaction that takes turns (:func:`sosgame.web.storage.turns.in_turn`) with
every other counting for the same address or account (and, for a game with a computer seat,
with every other such game), so two server processes never both pass a cap.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from sqlalchemy import Connection, Engine, and_, case, func, select
from sqlalchemy.sql.elements import ColumnElement

from sosgame.web.config import ServerLimits
from sosgame.web.storage.rows import HUMAN
from sosgame.web.storage.schema import games, seats

__all__ = ["REASONS", "CapError", "Caps", "Party", "capped", "lock_keys", "refusal", "refused"]

REASONS: Final = (
    "computer_total",
    "computer_address",
    "address",
    "player",
    "lobby_address",
    "lobby_player",
    "made_address",
    "made_player",
)
"""The caps a new game can pass, as :func:`refusal` names them."""


class CapError(Exception):
    """A new game would pass a cap (``reason``, one of :data:`REASONS`): nothing is stored."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Party:
    """Who makes a game: a client address, and its account if logged in."""

    address: str
    account: int | None = None


@dataclass(frozen=True)
class Caps:
    """The caps of :class:`~sosgame.web.config.ServerLimits` as of one moment."""

    limits: ServerLimits
    recent_ms: int
    """Unfinished games changed since then count (abandoned ones stop counting)."""
    made_ms: int
    """Games made since then count for the caps of games made."""
    live_computer: int = 0
    """Unfinished games with a computer seat this process has in memory (the count in the
    store is at least that: such a game may go unchanged for long while played)."""
    live_computer_mine: int = 0
    """The same, of the owner's address."""

    @classmethod
    def now(cls, limits: ServerLimits, now_ms: int, **live: int) -> Caps:
        """The caps at ``now_ms``."""
        recent = now_ms - int(limits.recent_games_seconds * 1000)
        made = now_ms - int(limits.new_games_seconds * 1000)
        return cls(limits, recent, made, **live)


def lock_keys(parties: Iterable[Party], *, computer: bool = False) -> list[str]:
    """The :func:`~sosgame.web.storage.turns.in_turn` keys a new game of ``parties`` takes
    turns on."""
    keys = []
    for party in parties:
        keys.append(f"games:{party.address}")
        if party.account is not None:
            keys.append(f"games:player:{party.account}")
    if computer:
        keys.append("games:computer")
    return keys


def _has_computer() -> ColumnElement[bool]:
    return (
        select(seats.c.game_id)
        .where(seats.c.game_id == games.c.id, seats.c.player != HUMAN)
        .exists()
    )


def _unfinished(caps: Caps) -> ColumnElement[bool]:
    return and_(games.c.status != "finished", games.c.updated_ms >= caps.recent_ms)


def _lately(caps: Caps) -> ColumnElement[bool]:
    # Every game either count takes was changed since the earlier of the two moments.
    return games.c.updated_ms >= min(caps.recent_ms, caps.made_ms)


def _counts(db: Connection, mine: ColumnElement[bool], caps: Caps) -> tuple[int, int, int, int]:
    """Unfinished games (changed lately), those with a computer seat, public ones waiting
    for players, and games made lately, of the owner ``mine`` selects."""
    unfinished = _unfinished(caps)
    lobby = and_(unfinished, games.c.status == "open", games.c.public.is_(True))

    def total(condition: ColumnElement[bool]) -> ColumnElement[int]:
        return func.coalesce(func.sum(case((condition, 1), else_=0)), 0)

    row = db.execute(
        select(
            total(unfinished),
            total(and_(unfinished, _has_computer())),
            total(lobby),
            total(games.c.created_ms >= caps.made_ms),
        ).where(mine, _lately(caps))
    ).one()
    return int(row[0]), int(row[1]), int(row[2]), int(row[3])


def refusal(
    db: Connection,
    caps: Caps,
    party: Party,
    *,
    computer: bool = False,
    lobby: bool = False,
    finished: bool = False,
) -> str | None:
    """Which cap a new game of ``party`` (with a computer seat, or a public one waiting for
    players, or one ``finished`` already, which only the caps of games made count) would
    pass, counted in ``db``'s transaction; ``None`` if none."""
    limits = caps.limits
    if finished:
        computer = lobby = False
    if computer:
        total = db.execute(
            select(func.count()).select_from(games).where(_unfinished(caps), _has_computer())
        ).scalar_one()
        if max(int(total), caps.live_computer) >= limits.computer_games_total:
            return "computer_total"
    unfinished, with_computer, waiting, made = _counts(db, games.c.owner == party.address, caps)
    with_computer = max(with_computer, caps.live_computer_mine)
    if computer and with_computer >= limits.computer_games_per_address:
        return "computer_address"
    if unfinished >= limits.games_per_address and not finished:
        return "address"
    if made >= limits.new_games_per_address:
        return "made_address"
    if lobby and waiting >= limits.lobby_games_per_address:
        return "lobby_address"
    if party.account is None:
        return None
    unfinished, _computer, waiting, made = _counts(db, games.c.owner_player == party.account, caps)
    if unfinished >= limits.games_per_player and not finished:
        return "player"
    if made >= limits.new_games_per_player:
        return "made_player"
    if lobby and waiting >= limits.lobby_games_per_player:
        return "lobby_player"
    return None


def refused(engine: Engine, caps: Caps, party: Party) -> str | None:
    """:func:`refusal` of a game of people, in a transaction of its own: whether ``party``
    may still make one (the transaction that stores it checks again)."""
    with engine.begin() as db:
        return refusal(db, caps, party)


def capped(engine: Engine, caps: Caps, parties: Sequence[Party]) -> set[Party]:
    """Which of ``parties`` are over a cap of games of people (unfinished or made lately):
    two queries however many there are, for a pool's sweep."""
    limits = caps.limits
    found: set[Party] = set()
    with engine.begin() as db:
        for column, keys, most, most_made in (
            (
                games.c.owner,
                {party.address for party in parties},
                limits.games_per_address,
                limits.new_games_per_address,
            ),
            (
                games.c.owner_player,
                {party.account for party in parties if party.account is not None},
                limits.games_per_player,
                limits.new_games_per_player,
            ),
        ):
            if not keys:
                continue
            rows = db.execute(
                select(
                    column,
                    func.coalesce(func.sum(case((_unfinished(caps), 1), else_=0)), 0),
                    func.coalesce(
                        func.sum(case((games.c.created_ms >= caps.made_ms, 1), else_=0)), 0
                    ),
                )
                .where(column.in_(list(keys)), _lately(caps))
                .group_by(column)
            )
            over = {row[0] for row in rows if int(row[1]) >= most or int(row[2]) >= most_made}
            found |= {
                party
                for party in parties
                if (party.address if column is games.c.owner else party.account) in over
            }
    return found
