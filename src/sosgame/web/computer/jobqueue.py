"""The queue of computer moves in the database (the ``jobs`` table), which every hub serving
the database's games shares (one server process or several): each move a computer seat owes
is a job that one hub holds under a lease while it thinks, and any other takes over once the
lease runs out.

Every call is one transaction and blocks, like :class:`~sosgame.web.storage.store.Store`'s.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlalchemy import ColumnElement, Connection, Engine, and_, case, or_, select

from sosgame.web.storage.rows import Change, Job
from sosgame.web.storage.schema import games, jobs

__all__ = ["JobQueue", "hand_over"]


def _row(game_id: str, version: int, job: Job) -> dict[str, object]:
    """The ``jobs`` row of ``job``, the computer move of a game at ``version``."""
    return {
        "game_id": game_id,
        "version": version,
        "ready_ms": job.ready_ms,
        "holder": job.holder,
        "lease_ms": job.lease_ms,
        "watched_ms": job.watched_ms,
    }


def hand_over(db: Connection, changes: Sequence[Change]) -> None:
    """Replace the jobs of the changed games by the ones the changes bring."""
    if not changes:
        return
    db.execute(jobs.delete().where(jobs.c.game_id.in_([c.game_id for c in changes])))
    rows = [
        _row(change.game_id, (change.version or 0) + 1, change.job)
        for change in changes
        if change.job is not None
    ]
    if rows:
        db.execute(jobs.insert(), rows)


class JobQueue:
    """The jobs of the games in the database behind ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def offer(self, game_id: str, version: int, job: Job) -> bool:
        """Put up the computer move of a game at ``version`` (if it has none and is still
        at that version); ``False`` if the game has changed or already has its job (which
        an offer that is watched marks watched as long)."""
        with self._engine.begin() as db:
            # The game's row is locked first, as every change of the game locks it: no
            # change can slip in between the checks and the insertion.
            locked = db.execute(
                games.update()
                .where(games.c.id == game_id, games.c.version == version)
                .values(version=games.c.version)
            )
            if locked.rowcount != 1:
                return False
            if db.execute(select(jobs.c.game_id).where(jobs.c.game_id == game_id)).first():
                if job.watched_ms:
                    _mark_watched(db, [game_id], job.watched_ms, version)
                return False
            db.execute(jobs.insert().values(_row(game_id, version, job)))
            return True

    def claim(
        self,
        game_id: str,
        version: int,
        holder: str,
        now: int,
        lease_ms: int,
        *,
        watching: bool = False,
    ) -> bool:
        """Take the computer move of a game at ``version`` for ``holder`` until ``now +
        lease_ms``, if it is free (or already ``holder``'s) and watched if it must be
        (``watching``: ``holder`` watches it, and marks it watched as long)."""
        values: dict[str, object] = {"holder": holder, "lease_ms": now + lease_ms}
        conditions = [
            jobs.c.game_id == game_id,
            jobs.c.version == version,
            or_(jobs.c.lease_ms < now, jobs.c.holder == holder),
        ]
        if watching:
            values["watched_ms"] = case((jobs.c.watched_ms.is_(None), None), else_=now + lease_ms)
        else:
            conditions.append(or_(jobs.c.watched_ms.is_(None), jobs.c.watched_ms >= now))
        with self._engine.begin() as db:
            taken = db.execute(jobs.update().where(*conditions).values(**values))
            return taken.rowcount == 1

    def claim_due(self, holder: str, now: int, lease_ms: int, limit: int) -> list[tuple[str, int]]:
        """Take up to ``limit`` computer moves that are due and that nobody holds (or whose
        holder stopped renewing its lease): each game's id and version, games with a person
        in them first. On PostgreSQL, rows another process is taking are skipped."""
        due = and_(
            jobs.c.ready_ms <= now,
            jobs.c.lease_ms < now,
            or_(jobs.c.watched_ms.is_(None), jobs.c.watched_ms >= now),
        )
        query = (
            select(jobs.c.game_id, jobs.c.version)
            .where(due)
            .order_by(jobs.c.watched_ms.is_(None).desc(), jobs.c.ready_ms)
            .limit(limit)
        )
        if self._engine.dialect.name == "postgresql":
            query = query.with_for_update(skip_locked=True)
        with self._engine.begin() as db:
            found = [(row.game_id, row.version) for row in db.execute(query)]
            taken = []
            for game_id, version in found:
                claimed = db.execute(
                    jobs.update()
                    .where(jobs.c.game_id == game_id, jobs.c.version == version, due)
                    .values(holder=holder, lease_ms=now + lease_ms)
                )
                if claimed.rowcount == 1:
                    taken.append((game_id, version))
            return taken

    def renew(
        self, holder: str, held: Sequence[str], watched: Sequence[str], now: int, lease_ms: int
    ) -> None:
        """Extend ``holder``'s leases on the ``held`` games' jobs, and mark the ``watched``
        games (with only computer seats) as watched until ``now + lease_ms``."""
        with self._engine.begin() as db:
            if held:
                db.execute(
                    jobs.update()
                    .where(jobs.c.holder == holder, jobs.c.game_id.in_(list(held)))
                    .values(lease_ms=now + lease_ms)
                )
            if watched:
                _mark_watched(db, watched, now + lease_ms)

    def release(self, game_id: str, holder: str) -> None:
        """Give back ``holder``'s lease on a game's job (another process may take it)."""
        with self._engine.begin() as db:
            db.execute(
                jobs.update()
                .where(jobs.c.game_id == game_id, jobs.c.holder == holder)
                .values(holder=None, lease_ms=0)
            )


def _mark_watched(
    db: Connection, game_ids: Sequence[str], until: int, version: int | None = None
) -> None:
    """Mark the jobs of games with only computer seats watched until ``until`` (of the
    games at ``version`` only, if given)."""
    where: list[ColumnElement[bool]] = [
        jobs.c.game_id.in_(list(game_ids)),
        jobs.c.watched_ms.is_not(None),
    ]
    if version is not None:
        where.append(jobs.c.version == version)
    db.execute(jobs.update().where(*where).values(watched_ms=until))
