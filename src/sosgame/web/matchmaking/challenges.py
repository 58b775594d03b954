"""Challenges made and answered over HTTP with an API token (docs/protocol.md, "Bots").

They are the lobby's challenges (seeks with a ``target``, :mod:`~sosgame.web.matchmaking.seeks`),
so a person sees a bot's challenge in the lobby and a bot sees a person's on its event stream.
Their members belong to no lobby connection: they are held by :data:`API_HOLDER`, which every
process renews at its sweeps, so a challenge lives its ``CHALLENGE_MS`` whichever process
made it. One answered through the API without a game keeps its ``answer``
until it lapses, so that every event stream can say how it ended.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import ColumnElement, Engine, and_, or_, select
from sqlalchemy.orm import aliased

from sosgame.web.matchmaking.seeks import CHALLENGE_MS, LEFT, Seek, seat_token, seek_settings
from sosgame.web.people.tokens import hash_token
from sosgame.web.storage.schema import players, seek_members, seeks

__all__ = ["API_HOLDER", "Challenge", "ChallengeStore"]

API_HOLDER: Final = "api"
"""The holder of the members of challenges made or accepted over HTTP."""


@dataclass(frozen=True)
class Challenge:
    """A challenge from or to an account, as its event stream sees it."""

    seek: Seek
    challenger: int | None
    """The challenger's account."""
    game: str | None
    """The game it made, once accepted."""
    answer: str | None
    """``canceled``, or ``declined:`` and the reason, if answered through the API."""

    def to_json(self) -> dict[str, Any]:
        """The challenge as the API shows it."""
        shown = self.seek.to_json()
        return {
            **{key: shown[key] for key in ("id", "rows", "cols", "mode", "clock", "days", "rated")},
            "challenger": self.seek.creator,
            "destUser": self.seek.target_name,
            "lapses_ms": self.seek.created_ms + CHALLENGE_MS,
        }


class ChallengeStore:
    """The challenges of the database behind ``engine``, as the API reads and answers them."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def involving(self, account: int, now_ms: int) -> list[Challenge]:
        """The challenges from or to ``account`` not yet lapsed, oldest first."""
        return self._found(now_ms, account=account)

    def by_id(self, seek_id: str, now_ms: int) -> Challenge | None:
        """The challenge ``seek_id``, if it has not lapsed."""
        found = self._found(now_ms, seek_id=seek_id)
        return found[0] if found else None

    def _found(
        self, now_ms: int, *, account: int | None = None, seek_id: str | None = None
    ) -> list[Challenge]:
        creator = aliased(seek_members)
        target = aliased(players)
        whose: ColumnElement[bool] = (
            seeks.c.id == seek_id
            if account is None
            else or_(seeks.c.target == account, creator.c.account == account)
        )
        query = (
            select(
                seeks,
                creator.c.account.label("creator_account"),
                creator.c.name.label("creator_name"),
                target.c.name.label("target_name"),
            )
            .join(
                creator, and_(creator.c.seek_id == seeks.c.id, creator.c.member == seeks.c.creator)
            )
            .outerjoin(target, target.c.id == seeks.c.target)
            .where(
                seeks.c.target.is_not(None),
                whose,
                seeks.c.created_ms >= now_ms - CHALLENGE_MS,
            )
            .order_by(seeks.c.created_ms, seeks.c.id)
        )
        with self._engine.begin() as db:
            rows = db.execute(query).mappings().all()
        return [
            Challenge(
                Seek(
                    row["id"],
                    seek_settings(row),
                    row["creator_name"],
                    1,
                    target=row["target"],
                    target_name=row["target_name"] or "",
                    created_ms=row["created_ms"],
                    address=row["address"],
                ),
                row["creator_account"],
                row["game"],
                row["answer"],
            )
            for row in rows
        ]

    def answer(self, seek_id: str, account: int, answer: str, *, mine: bool) -> bool:
        """Mark a challenge not yet filled nor answered as ``answer``: ``mine``, one the
        account made (to cancel it), else one to it (to decline it); whether there was one."""
        with self._engine.begin() as db:
            if mine:
                owner = select(seek_members.c.seek_id).where(
                    seek_members.c.seek_id == seek_id,
                    seek_members.c.member == seeks.c.creator,
                    seek_members.c.account == account,
                )
                whose: ColumnElement[bool] = seeks.c.id.in_(owner.scalar_subquery())
            else:
                whose = seeks.c.target == account
            done = db.execute(
                seeks.update()
                .where(
                    seeks.c.id == seek_id,
                    seeks.c.target.is_not(None),
                    seeks.c.game.is_(None),
                    seeks.c.answer.is_(None),
                    whose,
                )
                .values(answer=answer)
            )
        return bool(done.rowcount)

    def leave(self, member: str, now_ms: int, grace_ms: int, stale_ms: int) -> list[str]:
        """The lobby connection ``member`` closed: its challenges still waiting (those with
        a clock or none; a correspondence one lives on) are :data:`LEFT` for its account's
        next connection, for ``grace_ms`` (then stale to every process's lobby, which reads
        a seek as gone ``stale_ms`` after it was last seen); their ids."""
        with self._engine.begin() as db:
            ids = list(
                db.execute(
                    select(seeks.c.id).where(
                        seeks.c.creator == member,
                        seeks.c.target.is_not(None),
                        seeks.c.game.is_(None),
                        seeks.c.answer.is_(None),
                        seeks.c.days.is_(None),
                    )
                ).scalars()
            )
            if ids:
                db.execute(
                    seeks.update()
                    .where(seeks.c.id.in_(ids))
                    .values(holder=LEFT, seen_ms=now_ms + grace_ms - stale_ms)
                )
        return ids

    def take_back(self, account: int, secret: str, now_ms: int) -> list[str]:
        """The challenges :data:`LEFT` by the account's page, taken back by its lobby
        connection of ``secret``: its own from now on (its member, its seat token); their
        ids."""
        member = hash_token(secret)
        holder = secret.partition(".")[0]
        with self._engine.begin() as db:
            rows = db.execute(
                select(seeks.c.id, seeks.c.creator)
                .join(
                    seek_members,
                    and_(
                        seek_members.c.seek_id == seeks.c.id,
                        seek_members.c.member == seeks.c.creator,
                    ),
                )
                .where(
                    seeks.c.holder == LEFT,
                    seek_members.c.account == account,
                    seeks.c.game.is_(None),
                    seeks.c.answer.is_(None),
                )
            ).all()
            for row in rows:
                db.execute(
                    seek_members.update()
                    .where(seek_members.c.seek_id == row.id, seek_members.c.member == row.creator)
                    .values(
                        member=member,
                        holder=holder,
                        token_hash=hash_token(seat_token(secret, row.id)),
                    )
                )
                db.execute(
                    seeks.update()
                    .where(seeks.c.id == row.id)
                    .values(creator=member, holder=holder, seen_ms=now_ms)
                )
        return [row.id for row in rows]

    def drop_left(self, seek_ids: list[str]) -> None:
        """Withdraw those of these challenges still :data:`LEFT` (nobody took them back)."""
        with self._engine.begin() as db:
            still = select(seeks.c.id).where(seeks.c.id.in_(seek_ids), seeks.c.holder == LEFT)
            ids = list(db.execute(still).scalars())
            if ids:
                db.execute(seek_members.delete().where(seek_members.c.seek_id.in_(ids)))
                db.execute(seeks.delete().where(seeks.c.id.in_(ids)))

    def game_of(self, seek_id: str) -> str | None:
        """The game a challenge made, once accepted."""
        with self._engine.begin() as db:
            row = db.execute(select(seeks.c.game).where(seeks.c.id == seek_id)).first()
        return None if row is None else row.game

    def sweep(self, now_ms: int) -> None:
        """Keep the API's challenges alive, and forget those past their time (answered,
        filled or not)."""
        with self._engine.begin() as db:
            db.execute(
                seeks.update()
                .where(seeks.c.holder == API_HOLDER, seeks.c.game.is_(None))
                .values(seen_ms=now_ms)
            )
            old = [
                row.id
                for row in db.execute(
                    select(seeks.c.id)
                    .join(seek_members, seek_members.c.seek_id == seeks.c.id)
                    .where(
                        seek_members.c.holder == API_HOLDER,
                        seeks.c.target.is_not(None),
                        seeks.c.created_ms < now_ms - CHALLENGE_MS,
                    )
                )
            ]
            if old:
                db.execute(seek_members.delete().where(seek_members.c.seek_id.in_(old)))
                db.execute(seeks.delete().where(seeks.c.id.in_(old)))
