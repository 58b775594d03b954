"""Seeks: a game one player offers in the lobby (size, mode, 2 to 8 players, clock, rated or
casual, a rating range), which fills as players join it and then starts for all of them.

A seek lives in the database (``seeks``, ``seek_members``), so every server process lists
and fills it. It belongs to its creator's lobby connection, named by the connection's secret
(``welcome``'s ``lobby``): the seek dies with that connection. Each member's seat token is
derived from their connection's secret and the seek's id (:func:`seat_token`), so the
process that fills a seek stores the tokens' hashes, and only each member's own process
can tell them their token.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Final

from sqlalchemy import Engine, and_, func, or_, select

from sosgame.web.guards.gamecaps import Caps, Party, lock_keys, refusal
from sosgame.web.live.clock import DAY_MS
from sosgame.web.live.protocol import ClockSettings, ProtocolError, check_name, parse_new_game
from sosgame.web.people.tokens import hash_token
from sosgame.web.storage.rows import StoredGame
from sosgame.web.storage.schema import player_seats, players, seek_members, seeks
from sosgame.web.storage.store import insert_game
from sosgame.web.storage.turns import in_turn

__all__ = [
    "CHALLENGES_PER_PLAYER",
    "CHALLENGE_MS",
    "LEFT",
    "Member",
    "Seek",
    "SeekSettings",
    "SeekStore",
    "member_of",
    "parse_seek",
    "seat_token",
    "seek_settings",
]

MAX_RATING: Final = 1000.0
CHALLENGE_MS: Final = 120_000
"""How long a challenge waits for its answer before it lapses."""
CHALLENGES_PER_PLAYER: Final = 3
"""Challenges one account may have waiting at once."""
LEFT: Final = "left"
"""The holder of a challenge whose challenger's page went (reloaded, say): nobody renews it,
nobody may accept it, and the challenger's next lobby connection takes it back
(:mod:`sosgame.web.matchmaking.challenges`)."""


@dataclass(frozen=True)
class SeekSettings:
    """A checked seek: the game, and who may take a seat in it."""

    rows: int
    cols: int
    mode: str
    players: int
    clock: ClockSettings | None
    rated: bool
    min_rating: float | None
    max_rating: float | None
    name: str | None
    days: int | None = None
    """Days per move of a correspondence seek (which lives a day, not with a connection)."""


@dataclass(frozen=True)
class Member:
    """A player in a seek: their connection's secret's hash, process, name and account (the
    columns of the same names of their ``seek_members`` row)."""

    member: str
    holder: str
    name: str
    account: int | None
    token_hash: str


@dataclass(frozen=True)
class Seek:
    """A seek as listed: its settings, its creator's name and how many have joined."""

    id: str
    settings: SeekSettings
    creator: str
    joined: int
    member: str = ""
    """The hash of its creator's lobby connection's secret."""
    account: int | None = None
    """Its creator's account."""
    seeker: tuple[float, float, int] | None = None
    """Its creator's ``mu``, ``sigma`` and established opponents, if they have an account."""
    target: int | None = None
    """The account a challenge is for."""
    target_name: str = ""
    created_ms: int = 0
    address: str = ""
    """The client address it was made from."""
    bot: bool = False
    """Whether its creator's account is a bot's."""
    target_bot: bool = False
    """Whether the account a challenge is for is a bot's."""

    def to_json(self) -> dict[str, Any]:
        """The seek as ``GET /api/seeks`` lists it."""
        given = self.settings
        clock = None
        if given.clock is not None:
            clock = {
                "initial": given.clock.initial_ms // 1000,
                "increment": given.clock.increment_ms // 1000,
            }
        rating = None
        if given.min_rating is not None or given.max_rating is not None:
            rating = {"min": given.min_rating, "max": given.max_rating}
        return {
            "id": self.id,
            "rows": given.rows,
            "cols": given.cols,
            "mode": given.mode,
            "players": given.players,
            "joined": self.joined,
            "clock": clock,
            "days": given.days,
            "rated": given.rated,
            "rating": rating,
            "name": self.creator,
        }

    def open_to(self, rating: float, account: bool) -> bool:
        """Whether a player of this (shown) rating, with an account or not, may join it."""
        given = self.settings
        if given.rated and not account:
            return False
        if given.min_rating is not None and rating < given.min_rating:
            return False
        return given.max_rating is None or rating <= given.max_rating


def _bound(value: object, where: str) -> float | None:
    if value is None:
        return None
    if not isinstance(value, int | float) or isinstance(value, bool) or abs(value) > MAX_RATING:
        raise ProtocolError("bad_field", f"field {where!r} must be a rating from -1000 to 1000")
    return float(value)


def parse_seek(data: object) -> SeekSettings:
    """Check the body of ``POST /api/seeks``."""
    if not isinstance(data, dict):
        raise ProtocolError("bad_field", "the seek must be a JSON object")
    known = ("rows", "cols", "mode", "players", "clock", "days", "rated", "rating", "name")
    for key in data:
        if key not in known:
            raise ProtocolError(
                "unknown_field", f"unknown field {key!r} in the seek (known: {', '.join(known)})"
            )
    players = data.get("players", 2)
    if not isinstance(players, int) or isinstance(players, bool) or not 2 <= players <= 8:
        raise ProtocolError("bad_field", "field 'players' must be a whole number from 2 to 8")
    # The game's own checks: size, mode and clock as for a new game.
    game = parse_new_game(
        {
            "rows": data.get("rows"),
            "cols": data.get("cols"),
            "mode": data.get("mode", "general"),
            "kind": "online",
            "seats": [{"name": "-"}] * players,
            "clock": data.get("clock"),
            "days": data.get("days"),
        }
    )
    rated = data.get("rated", False)
    if not isinstance(rated, bool):
        raise ProtocolError("bad_field", "field 'rated' must be true or false")
    low = high = None
    if data.get("rating") is not None:
        rating = data["rating"]
        if not isinstance(rating, dict) or set(rating) - {"min", "max"}:
            raise ProtocolError("bad_field", 'field \'rating\' must be {"min", "max"}')
        low, high = _bound(rating.get("min"), "rating.min"), _bound(rating.get("max"), "rating.max")
        if low is not None and high is not None and low > high:
            raise ProtocolError("bad_field", "field 'rating': min is above max")
    name = None if data.get("name") is None else check_name(data["name"], "name")
    return SeekSettings(
        game.rows, game.cols, game.mode, players, game.clock, rated, low, high, name, game.days
    )


def seat_token(secret: str, seek_id: str) -> str:
    """The seat token of the member whose lobby connection's secret is ``secret``."""
    return hmac.new(secret.encode(), seek_id.encode(), hashlib.sha256).hexdigest()


def seek_settings(row: Any) -> SeekSettings:
    """The settings a row of ``seeks`` holds."""
    clock = None
    if row["clock"] is not None:
        raw = json.loads(row["clock"])
        clock = ClockSettings(raw["initial"], raw["increment"])
    return SeekSettings(
        row["rows"],
        row["cols"],
        row["mode"],
        row["players"],
        clock,
        bool(row["rated"]),
        row["min_rating"],
        row["max_rating"],
        None,
        row["days"],
    )


def _columns(given: SeekSettings) -> dict[str, Any]:
    # The settings' columns of a seek's row, as _settings reads them back.
    clock = None
    if given.clock is not None:
        clock = json.dumps(
            {"initial": given.clock.initial_ms, "increment": given.clock.increment_ms}
        )
    return {
        "rows": given.rows,
        "cols": given.cols,
        "mode": given.mode,
        "players": given.players,
        "clock": clock,
        "days": given.days,
        "rated": given.rated,
        "min_rating": given.min_rating,
        "max_rating": given.max_rating,
    }


class SeekStore:
    """The seeks in the database behind ``engine``; every call is one transaction."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def create(
        self,
        seek_id: str,
        given: SeekSettings,
        creator: Member,
        address: str,
        now_ms: int,
        *,
        per_address: int,
        target: int | None = None,
    ) -> bool:
        """Store a new seek with its creator in it; ``False`` past ``per_address`` (for a
        challenge to the account ``target``: past that many open challenges of the creator's
        account)."""
        if target is not None:
            turn = f"challenges:{creator.account}"
            mine = (
                select(func.count())
                .select_from(seeks.join(seek_members, seek_members.c.seek_id == seeks.c.id))
                .where(
                    seek_members.c.member == seeks.c.creator,
                    seek_members.c.account == creator.account,
                    seeks.c.target.is_not(None),
                    seeks.c.game.is_(None),
                    seeks.c.answer.is_(None),
                    seeks.c.created_ms >= now_ms - CHALLENGE_MS,
                )
            )
        else:
            turn = f"seeks:{address}"
            mine = (
                select(func.count())
                .select_from(seeks)
                .where(seeks.c.address == address, seeks.c.game.is_(None))
            )
        with in_turn(self._engine, turn) as db:
            if db.execute(mine).scalar_one() >= per_address:
                return False
            db.execute(
                seeks.insert().values(
                    id=seek_id,
                    creator=creator.member,
                    holder=creator.holder,
                    address=address,
                    **_columns(given),
                    created_ms=now_ms,
                    seen_ms=now_ms,
                    game=None,
                    target=target,
                )
            )
            _add(db, seek_id, creator, now_ms)
        return True

    def renew(self, holder: str, now_ms: int) -> None:
        """Note that ``holder``'s lobby connections are still there (their seeks live on)."""
        with self._engine.begin() as db:
            db.execute(
                seeks.update()
                .where(seeks.c.holder == holder, seeks.c.game.is_(None))
                .values(seen_ms=now_ms)
            )

    def open_seeks(self, now_ms: int, stale_ms: int, limit: int = 100) -> list[Seek]:
        """The seeks (and challenges) not yet filled, oldest first; those whose process
        stopped renewing them for ``stale_ms`` (it is gone), correspondence seeks a day old
        and challenges past :data:`CHALLENGE_MS` are deleted first."""
        with self._engine.begin() as db:
            stale = select(seeks.c.id).where(
                or_(
                    and_(seeks.c.days.is_(None), seeks.c.seen_ms < now_ms - stale_ms),
                    and_(seeks.c.days.is_not(None), seeks.c.created_ms < now_ms - DAY_MS),
                    and_(seeks.c.target.is_not(None), seeks.c.created_ms < now_ms - CHALLENGE_MS),
                ),
                seeks.c.game.is_(None),
            )
            gone = [row.id for row in db.execute(stale)]
            if gone:
                db.execute(seek_members.delete().where(seek_members.c.seek_id.in_(gone)))
                db.execute(seeks.delete().where(seeks.c.id.in_(gone)))
            rows = (
                db.execute(
                    select(
                        seeks,
                        players.c.name.label("target_name"),
                        players.c.bot.label("target_bot"),
                    )
                    .outerjoin(players, players.c.id == seeks.c.target)
                    .where(seeks.c.game.is_(None), seeks.c.answer.is_(None))
                    .order_by(seeks.c.created_ms)
                    .limit(limit)
                )
                .mappings()
                .all()
            )
            ids = [row["id"] for row in rows]
            creators = {row["id"]: row["creator"] for row in rows}
            counts: dict[str, int] = {}
            found: dict[str, Any] = {}
            for member in db.execute(
                select(
                    seek_members.c.seek_id,
                    seek_members.c.member,
                    seek_members.c.name,
                    seek_members.c.account,
                    players.c.mu,
                    players.c.sigma,
                    players.c.opponents,
                    players.c.bot,
                )
                .outerjoin(players, players.c.id == seek_members.c.account)
                .where(seek_members.c.seek_id.in_(ids))
            ):
                counts[member.seek_id] = counts.get(member.seek_id, 0) + 1
                if member.member == creators[member.seek_id]:
                    found[member.seek_id] = member
        listed = []
        for row in rows:
            creator = found.get(row["id"])
            seeker = None
            if creator is not None and creator.mu is not None:
                seeker = (creator.mu, creator.sigma, creator.opponents)
            listed.append(
                Seek(
                    row["id"],
                    seek_settings(row),
                    "" if creator is None else creator.name,
                    counts.get(row["id"], 0),
                    member=row["creator"],
                    account=None if creator is None else creator.account,
                    seeker=seeker,
                    target=row["target"],
                    target_name=row["target_name"] or "",
                    created_ms=row["created_ms"],
                    address=row["address"],
                    bot=creator is not None and bool(creator.bot),
                    target_bot=bool(row["target_bot"]),
                )
            )
        return listed

    def decline(self, target: int, seek_id: str | None, reason: str = "generic") -> int:
        """The challenged player declines a challenge (``None``: every challenge to them)
        with ``reason``; how many were declined. Each keeps its answer until it lapses, so
        that the challenger's process can tell them why."""
        with self._engine.begin() as db:
            mine = and_(seeks.c.target == target, seeks.c.game.is_(None), seeks.c.answer.is_(None))
            if seek_id is not None:
                mine = and_(mine, seeks.c.id == seek_id)
            done = db.execute(seeks.update().where(mine).values(answer=f"declined:{reason}"))
            return int(done.rowcount)

    def withdraw(self, seek_id: str, creator: str) -> bool:
        """The challenger (``creator``, a lobby connection) withdraws a challenge not yet
        answered; it stays, ``canceled``, until it lapses, so that the challenged is told."""
        with self._engine.begin() as db:
            done = db.execute(
                seeks.update()
                .where(
                    seeks.c.id == seek_id,
                    seeks.c.creator == creator,
                    seeks.c.target.is_not(None),
                    seeks.c.game.is_(None),
                    seeks.c.answer.is_(None),
                )
                .values(answer="canceled")
            )
            return bool(done.rowcount)

    def answered(self, now_ms: int) -> list[tuple[Seek, str]]:
        """The challenges answered without a game and not yet lapsed, each with its answer
        (``canceled``, or ``declined:`` and the reason)."""
        creator = players.alias("creator")
        with self._engine.begin() as db:
            rows = (
                db.execute(
                    select(
                        seeks,
                        players.c.name.label("target_name"),
                        players.c.bot.label("target_bot"),
                        seek_members.c.name.label("creator_name"),
                        select(creator.c.bot)
                        .where(creator.c.id == seek_members.c.account)
                        .scalar_subquery()
                        .label("creator_bot"),
                    )
                    .join(
                        seek_members,
                        and_(
                            seek_members.c.seek_id == seeks.c.id,
                            seek_members.c.member == seeks.c.creator,
                        ),
                    )
                    .outerjoin(players, players.c.id == seeks.c.target)
                    .where(
                        seeks.c.target.is_not(None),
                        seeks.c.game.is_(None),
                        seeks.c.answer.is_not(None),
                        seeks.c.created_ms >= now_ms - CHALLENGE_MS,
                    )
                    .order_by(seeks.c.created_ms)
                )
                .mappings()
                .all()
            )
        return [
            (
                Seek(
                    row["id"],
                    seek_settings(row),
                    row["creator_name"],
                    1,
                    member=row["creator"],
                    target=row["target"],
                    target_name=row["target_name"] or "",
                    created_ms=row["created_ms"],
                    address=row["address"],
                    bot=bool(row["creator_bot"]),
                    target_bot=bool(row["target_bot"]),
                ),
                row["answer"],
            )
            for row in rows
        ]

    def delete(self, seek_id: str, creator: str) -> bool:
        """Withdraw a seek not yet filled, if ``creator`` made it."""
        with self._engine.begin() as db:
            found = db.execute(
                select(seeks.c.id).where(
                    seeks.c.id == seek_id, seeks.c.creator == creator, seeks.c.game.is_(None)
                )
            ).first()
            if found is None:
                return False
            db.execute(seek_members.delete().where(seek_members.c.seek_id == seek_id))
            db.execute(seeks.delete().where(seeks.c.id == seek_id))
            return True

    def join(
        self,
        seek_id: str,
        member: Member,
        rating: float,
        now_ms: int,
        make_game: Callable[[SeekSettings, Sequence[Member]], StoredGame],
        *,
        address: str = "",
        caps: Caps | None = None,
    ) -> str | None:
        """Add a member (from the client ``address``) to a seek; fill it (store its game,
        its creator's) once every seat is taken. ``None``, or why not: ``no_seek``,
        ``not_for_you`` (a rated seek is not for its creator's address either),
        ``already_joined``, or a cap of :func:`~sosgame.web.guards.gamecaps.refusal` the game would
        take its creator past (with ``caps``: the seek is withdrawn)."""
        owner = self._owner(seek_id)
        if owner is None:
            return "no_seek"
        keys = [] if caps is None else lock_keys([owner])
        with in_turn(self._engine, *keys) if keys else self._engine.begin() as db:
            # Locks the seek's row first, as every join does: joins of one seek take turns.
            locked = db.execute(
                seeks.update()
                .where(
                    seeks.c.id == seek_id,
                    seeks.c.game.is_(None),
                    seeks.c.answer.is_(None),
                    seeks.c.holder != LEFT,
                )
                .values(created_ms=seeks.c.created_ms)
            )
            if locked.rowcount != 1:
                return "no_seek"
            row = db.execute(select(seeks).where(seeks.c.id == seek_id)).mappings().one()
            given = seek_settings(row)
            if not Seek(seek_id, given, "", 0).open_to(rating, member.account is not None):
                return "not_for_you"
            if row["target"] is not None:
                if row["created_ms"] < now_ms - CHALLENGE_MS:
                    return "no_seek"
                if member.account != row["target"]:
                    return "not_for_you"
            if given.rated and address and address == owner.address:
                return "not_for_you"
            members = (
                db.execute(
                    select(seek_members)
                    .where(seek_members.c.seek_id == seek_id)
                    .order_by(seek_members.c.joined_ms, seek_members.c.member)
                )
                .mappings()
                .all()
            )
            if any(m["member"] == member.member for m in members) or (
                member.account is not None and any(m["account"] == member.account for m in members)
            ):
                return "already_joined"
            _add(db, seek_id, member, now_ms)
            seated = [
                Member(m["member"], m["holder"], m["name"], m["account"], m["token_hash"])
                for m in members
            ] + [member]
            if len(seated) < given.players:
                return None
            game = make_game(given, seated)
            game.owner, game.owner_player = owner.address, owner.account
            reason = None if caps is None else refusal(db, caps, owner)
            if reason is not None:
                db.execute(seek_members.delete().where(seek_members.c.seek_id == seek_id))
                db.execute(seeks.delete().where(seeks.c.id == seek_id))
                return reason
            insert_game(db, game)
            db.execute(seeks.update().where(seeks.c.id == seek_id).values(game=game.id))
            for seat, one in enumerate(seated):
                db.execute(
                    seek_members.update()
                    .where(seek_members.c.seek_id == seek_id, seek_members.c.member == one.member)
                    .values(seat=seat)
                )
            links = [
                {"game_id": game.id, "seat": seat, "player_id": one.account}
                for seat, one in enumerate(seated)
                if one.account is not None
            ]
            # Casual games too, so that each account finds its game (see poolstore.pair).
            if links:
                db.execute(player_seats.insert(), links)
            return None

    def _owner(self, seek_id: str) -> Party | None:
        """Whose the game of a seek is: its creator's address and account."""
        with self._engine.begin() as db:
            found = db.execute(
                select(seeks.c.address, seek_members.c.account)
                .join(seek_members, seek_members.c.seek_id == seeks.c.id)
                .where(seeks.c.id == seek_id, seek_members.c.member == seeks.c.creator)
            ).first()
        return None if found is None else Party(found.address, found.account)

    def gone(self, member: str) -> None:
        """A lobby connection closed: its seeks not yet filled die, and it leaves the others
        (correspondence seeks live on: they last a day)."""
        with self._engine.begin() as db:
            # A challenge left to its account's next connection is not the connection's.
            live = and_(seeks.c.game.is_(None), seeks.c.days.is_(None), seeks.c.holder != LEFT)
            mine = select(seeks.c.id).where(seeks.c.creator == member, live)
            db.execute(seek_members.delete().where(seek_members.c.seek_id.in_(mine)))
            db.execute(seeks.delete().where(seeks.c.creator == member, live))
            unfilled = select(seeks.c.id).where(live)
            db.execute(
                seek_members.delete().where(
                    seek_members.c.member == member, seek_members.c.seek_id.in_(unfilled)
                )
            )

    def collect(self, holder: str) -> list[tuple[str, str, str, int]]:
        """The filled seeks' members of ``holder``: (member, seek, game, seat) each, deleted
        as they are handed over."""
        with self._engine.begin() as db:
            rows = db.execute(
                select(
                    seek_members.c.member, seek_members.c.seek_id, seeks.c.game, seek_members.c.seat
                )
                .join(seeks, seeks.c.id == seek_members.c.seek_id)
                .where(seek_members.c.holder == holder, seeks.c.game.is_not(None))
            ).all()
            for row in rows:
                db.execute(
                    seek_members.delete().where(
                        seek_members.c.seek_id == row.seek_id, seek_members.c.member == row.member
                    )
                )
            # A filled seek goes once every member has been told.
            told = [row.seek_id for row in rows]
            waiting = select(seek_members.c.seek_id).where(seek_members.c.seek_id.in_(told))
            db.execute(seeks.delete().where(seeks.c.id.in_(told), seeks.c.id.not_in(waiting)))
            return [(row.member, row.seek_id, row.game, row.seat) for row in rows]


def _add(db: Any, seek_id: str, member: Member, now_ms: int) -> None:
    db.execute(
        seek_members.insert().values(seek_id=seek_id, **asdict(member), joined_ms=now_ms, seat=None)
    )


def member_of(secret: str, seek_id: str, name: str, account: int | None) -> Member:
    """The member a lobby connection's secret makes of its player, for a seek."""
    holder = secret.partition(".")[0]
    return Member(
        hash_token(secret), holder, name, account, hash_token(seat_token(secret, seek_id))
    )
