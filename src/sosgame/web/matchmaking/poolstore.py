"""The pools' waiting entries in the database (the ``pool_entries`` table), which every
server process shares: entering, leaving, and pairing two entries into a new game in one
transaction, so that an entry is paired at most once however many processes pair at once,
and the game passes its players' caps (:mod:`sosgame.web.guards.gamecaps`).

Every call is one transaction and blocks, like :class:`~sosgame.web.storage.store.Store`'s.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, fields
from typing import Final

from sqlalchemy import Engine, func, select
from sqlalchemy.exc import DBAPIError, IntegrityError

from sosgame.web.guards.gamecaps import Caps, Party, lock_keys, refusal
from sosgame.web.storage.rows import StoredGame
from sosgame.web.storage.schema import player_seats, pool_entries
from sosgame.web.storage.store import insert_game
from sosgame.web.storage.turns import in_turn

__all__ = ["Entry", "Paired", "PoolStore"]


@dataclass(frozen=True)
class Entry:
    """A player waiting in a pool: its fields are the columns of its row (see
    :data:`~sosgame.web.storage.schema.pool_entries`)."""

    id: str
    pool: str
    player: str
    name: str
    account: int | None
    rating: float
    token_hash: str
    holder: str
    address: str
    entered_ms: int


@dataclass(frozen=True)
class Paired:
    """An entry that pairing put in a game, at a seat."""

    id: str
    game: str
    seat: int


_ENTRY_COLUMNS: Final = tuple(pool_entries.c[field.name] for field in fields(Entry))
"""The columns of an entry's row that make an :class:`Entry`, in its fields' order."""


class _TakenError(Exception):
    """One of the entries was paired or gone meanwhile: the transaction is undone."""


class PoolStore:
    """The pools' entries in the database behind ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def enter(self, entry: Entry, now_ms: int, *, per_address: int) -> str | None:
        """Store a new entry; ``None``, or why not: ``"already_waiting"`` (the player waits
        already) or ``"too_many"`` (its address has ``per_address`` entries)."""
        try:
            with in_turn(self._engine, f"pools:{entry.address}") as db:
                count = db.execute(
                    select(func.count())
                    .select_from(pool_entries)
                    .where(pool_entries.c.address == entry.address)
                ).scalar_one()
                if count >= per_address:
                    return "too_many"
                db.execute(pool_entries.insert().values(**asdict(entry), seen_ms=now_ms))
        except IntegrityError:
            return "already_waiting"
        return None

    def leave(self, entry_id: str) -> bool:
        """Take an entry out of its pool; ``False`` if it was paired already (or is gone)."""
        with self._engine.begin() as db:
            gone = db.execute(
                pool_entries.delete().where(
                    pool_entries.c.id == entry_id, pool_entries.c.game.is_(None)
                )
            )
            return gone.rowcount == 1

    def renew(self, holder: str, entry_ids: Sequence[str], now_ms: int) -> None:
        """Note that ``holder``'s connections of these entries are still there."""
        if not entry_ids:
            return
        with self._engine.begin() as db:
            db.execute(
                pool_entries.update()
                .where(pool_entries.c.holder == holder, pool_entries.c.id.in_(list(entry_ids)))
                .values(seen_ms=now_ms)
            )

    def waiting(self, pool: str, now_ms: int, stale_ms: int) -> list[Entry]:
        """The entries waiting in ``pool``, oldest first; entries not renewed for
        ``stale_ms`` (their process is gone) are deleted first."""
        with self._engine.begin() as db:
            db.execute(pool_entries.delete().where(pool_entries.c.seen_ms < now_ms - stale_ms))
            rows = db.execute(
                select(*_ENTRY_COLUMNS)
                .where(pool_entries.c.pool == pool, pool_entries.c.game.is_(None))
                .order_by(pool_entries.c.entered_ms, pool_entries.c.id)
            )
            return [Entry(*row) for row in rows]

    def counts(self, now_ms: int, stale_ms: int) -> dict[str, int]:
        """How many players wait in each pool (renewed within ``stale_ms``)."""
        with self._engine.begin() as db:
            rows = db.execute(
                select(pool_entries.c.pool, func.count())
                .where(pool_entries.c.game.is_(None), pool_entries.c.seen_ms >= now_ms - stale_ms)
                .group_by(pool_entries.c.pool)
            )
            return {pool: count for pool, count in rows}

    def pair(self, seated: Sequence[Entry], game: StoredGame, *, caps: Caps | None = None) -> bool:
        """Put these entries (in seat order) in ``game`` and store it, at once: ``False``,
        and nothing done, if any of them was paired or gone meanwhile, or (with ``caps``)
        if the game would take one of their players over a cap of games. The accounts are
        linked to their seats, rated game or not."""
        parties = [Party(entry.address, entry.account) for entry in seated]
        keys = [] if caps is None else lock_keys(parties)
        try:
            with in_turn(self._engine, *keys) if keys else self._engine.begin() as db:
                if caps is not None and any(refusal(db, caps, party) for party in parties):
                    raise _TakenError
                # Rows are taken in the order of their ids, so two processes pairing at
                # once wait for each other rather than lock each other out.
                for seat, entry in sorted(enumerate(seated), key=lambda item: item[1].id):
                    taken = db.execute(
                        pool_entries.update()
                        .where(pool_entries.c.id == entry.id, pool_entries.c.game.is_(None))
                        .values(game=game.id, seat=seat)
                    )
                    if taken.rowcount != 1:
                        raise _TakenError
                insert_game(db, game)
                links = [
                    {"game_id": game.id, "seat": seat, "player_id": entry.account}
                    for seat, entry in enumerate(seated)
                    if entry.account is not None
                ]
                # Casual games too: the account finds its game in My games and its profile
                # (the game's own ``rated`` decides whether it is rated, not these links).
                if links:
                    db.execute(player_seats.insert(), links)
        except (_TakenError, DBAPIError):
            return False
        return True

    def collect(self, holder: str) -> list[Paired]:
        """The entries of ``holder`` that were paired, deleted as they are handed over."""
        with self._engine.begin() as db:
            rows = db.execute(
                select(pool_entries.c.id, pool_entries.c.game, pool_entries.c.seat).where(
                    pool_entries.c.holder == holder, pool_entries.c.game.is_not(None)
                )
            ).all()
            if rows:
                db.execute(pool_entries.delete().where(pool_entries.c.id.in_([r.id for r in rows])))
            return [Paired(row.id, row.game, row.seat) for row in rows]
