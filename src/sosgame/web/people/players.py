"""Named players in the store: claimed names, the seats they take, their ratings and history,
the lobby, their sessions and the login rate limit.

Every call is one transaction and blocks, like :class:`~sosgame.web.storage.store.Store`'s (the
server makes them from its database thread). Finished games are rated by
:class:`~sosgame.web.people.rater.Rater`, once each.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, and_, func, or_, select, true
from sqlalchemy.exc import IntegrityError

from sosgame.web.people.names import normal_name, skeleton
from sosgame.web.people.rater import Rater
from sosgame.web.people.ratings import COMPUTER_RATINGS, NEW_PLAYER, Rating
from sosgame.web.storage.rows import HUMAN
from sosgame.web.storage.schema import (
    games,
    login_attempts,
    player_seats,
    players,
    rated_games,
    rating_history,
    seats,
    sessions,
)
from sosgame.web.storage.store import Store, seat_bots, seat_names
from sosgame.web.storage.turns import in_turn
from sosgame.web.tournaments.store import tournaments_of_games

__all__ = [
    "Account",
    "NameConfusableError",
    "NameTakenError",
    "Players",
    "name_key",
    "session_id",
]


class NameTakenError(Exception):
    """Somebody has claimed that name already."""


class NameConfusableError(Exception):
    """The name looks like one somebody has claimed (the same confusables skeleton)."""


@dataclass(frozen=True)
class Account:
    """A claimed name, its password's hash, its rating and whether it is provisional (see
    :mod:`sosgame.web.people.rater`)."""

    id: int
    name: str
    password_hash: str
    rating: Rating
    games: int
    provisional: bool = False
    bot: bool = False
    """Whether the account is a bot's (:mod:`sosgame.web.people.apitokens`)."""

    def to_json(self) -> dict[str, Any]:
        """What the API tells about the player (never the hash)."""
        return {
            "name": self.name,
            **self.rating.to_json(),
            "rated_games": self.games,
            "provisional": self.provisional,
            "bot": self.bot,
        }


def name_key(name: str) -> str:
    """The form in which two names count as the same ("Ann", "ANN" and "ann")."""
    return name.casefold()


def _keys(name: str) -> list[str]:
    """The keys a name may be stored under: of its normal form (as claimed now), and of the
    name as written (a name claimed before names were normalised)."""
    return list(dict.fromkeys([name_key(normal_name(name)), name_key(name)]))


def session_id(secret: str) -> str:
    """The key a session is stored under: the SHA-256 of its cookie's secret, so the table
    alone opens no session."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


class Players:
    """The players' tables of the store's database."""

    def __init__(
        self,
        store: Store,
        *,
        rated_per_pair: int = 3,
        established_opponents: int = 5,
        provisional_weight: float = 0.1,
    ) -> None:
        """``rated_per_pair``: rated games two players may have together in any 24 hours;
        ``established_opponents``: distinct established opponents (or computer levels) a
        player must have met in rated games to be provisional no more (0: nobody is);
        ``provisional_weight``: the share of a game's change a provisional opponent brings
        (:mod:`sosgame.web.people.rater`)."""
        self._engine = store.engine
        self._established = established_opponents
        self._rater = Rater(
            self._engine,
            rated_per_pair=rated_per_pair,
            established=established_opponents,
            weight=provisional_weight,
        )

    def _account(self, row: Any) -> Account:
        return Account(
            row["id"],
            row["name"],
            row["password_hash"],
            Rating(row["mu"], row["sigma"]),
            row["games"],
            row["opponents"] < self._established,
            bool(row["bot"]),
        )

    # ------------------------------------------------------------------------ accounts

    def claim(self, name: str, password_hash: str, now_ms: int) -> Account:
        """Claim ``name`` (in its normal form, :func:`~sosgame.web.people.names.normal_name`);
        :class:`NameTakenError` if it is somebody's already, :class:`NameConfusableError` if
        it looks like somebody's."""
        name = normal_name(name)
        shape = skeleton(name)
        try:
            # One claim at a time: two look-alike names claimed at the same moment must not
            # both pass the checks below (claims are few, rate limited per address).
            with in_turn(self._engine, "claim") as db:
                if db.execute(select(players.c.id).where(players.c.key == name_key(name))).first():
                    raise NameTakenError(name)
                if db.execute(select(players.c.id).where(players.c.skeleton == shape)).first():
                    raise NameConfusableError(name)
                key = db.execute(
                    players.insert().values(
                        key=name_key(name),
                        name=name,
                        password_hash=password_hash,
                        mu=NEW_PLAYER.mu,
                        sigma=NEW_PLAYER.sigma,
                        games=0,
                        created_ms=now_ms,
                        skeleton=shape,
                        opponents=0,
                    )
                ).inserted_primary_key
        except IntegrityError:
            raise NameTakenError(name) from None
        assert key is not None
        return Account(int(key[0]), name, password_hash, NEW_PLAYER, 0, self._established > 0)

    def fill_skeletons(self) -> int:
        """Store the skeleton of every name that has none (claimed before they were kept);
        how many were filled."""
        with self._engine.begin() as db:
            rows = db.execute(
                select(players.c.id, players.c.name).where(players.c.skeleton.is_(None))
            ).all()
            for row in rows:
                db.execute(
                    players.update()
                    .where(players.c.id == row.id)
                    .values(skeleton=skeleton(row.name))
                )
        return len(rows)

    def find(self, name: str) -> Account | None:
        """The account of ``name`` (in any case, and in its normal form), if claimed."""
        with self._engine.begin() as db:
            for key in _keys(name):
                found = db.execute(select(players).where(players.c.key == key)).mappings().first()
                if found is not None:
                    return self._account(found)
        return None

    def get(self, player_id: int) -> Account | None:
        """The account with this id."""
        with self._engine.begin() as db:
            found = db.execute(select(players).where(players.c.id == player_id)).mappings().first()
            return None if found is None else self._account(found)

    # ------------------------------------------------------------------------ sessions

    def start_session(self, player_id: int, now_ms: int, lifetime_ms: int) -> str:
        """A new session of the player, until ``now_ms + lifetime_ms``: the secret its cookie
        carries (only its hash is stored). Sessions that have expired go at the same time."""
        with self._engine.begin() as db:
            db.execute(sessions.delete().where(sessions.c.expires_ms <= now_ms))
            return self._new_session(db, player_id, now_ms, lifetime_ms)

    @staticmethod
    def _new_session(db: Connection, player_id: int, now_ms: int, lifetime_ms: int) -> str:
        secret = secrets.token_urlsafe(32)
        db.execute(
            sessions.insert().values(
                id=session_id(secret),
                player_id=player_id,
                created_ms=now_ms,
                expires_ms=now_ms + lifetime_ms,
            )
        )
        return secret

    def session_account(self, secret: str, now_ms: int) -> Account | None:
        """The player whose unexpired session this secret opens, if any."""
        query = (
            select(players)
            .join(sessions, sessions.c.player_id == players.c.id)
            .where(sessions.c.id == session_id(secret), sessions.c.expires_ms > now_ms)
        )
        with self._engine.begin() as db:
            found = db.execute(query).mappings().first()
            return None if found is None else self._account(found)

    def end_session(self, secret: str) -> None:
        """Log out the session this secret opens (nothing if there is none)."""
        with self._engine.begin() as db:
            db.execute(sessions.delete().where(sessions.c.id == session_id(secret)))

    def end_sessions(self, player_id: int) -> int:
        """Log the player out everywhere; how many sessions ended."""
        with self._engine.begin() as db:
            ended = db.execute(sessions.delete().where(sessions.c.player_id == player_id))
            return int(ended.rowcount)

    def change_password(
        self, player_id: int, password_hash: str, now_ms: int, lifetime_ms: int
    ) -> str:
        """Store the player's new password hash, end all their sessions and start a new one
        (its secret is returned), all at once."""
        with self._engine.begin() as db:
            db.execute(
                players.update()
                .where(players.c.id == player_id)
                .values(password_hash=password_hash)
            )
            db.execute(sessions.delete().where(sessions.c.player_id == player_id))
            return self._new_session(db, player_id, now_ms, lifetime_ms)

    # ------------------------------------------------------------------- login attempts

    def attempt(self, address: str, now_ms: int, window_ms: int, most: int) -> int:
        """Count a login attempt from ``address``; 0 if allowed, else the milliseconds until
        the oldest attempt in the window expires (the attempt is then not counted)."""
        since = now_ms - window_ms
        with in_turn(self._engine, f"login:{address}") as db:
            db.execute(login_attempts.delete().where(login_attempts.c.at_ms < since))
            times = (
                db.execute(
                    select(login_attempts.c.at_ms)
                    .where(login_attempts.c.address == address)
                    .order_by(login_attempts.c.at_ms)
                )
                .scalars()
                .all()
            )
            if len(times) >= most:
                return max(1, int(times[len(times) - most]) - since)
            db.execute(login_attempts.insert().values(address=address, at_ms=now_ms))
            return 0

    # --------------------------------------------------------------------------- seats

    def link(self, game_id: str, seat: int, player_id: int) -> None:
        """Note that the player took this seat."""
        with self._engine.begin() as db:
            db.execute(
                player_seats.insert().values(game_id=game_id, seat=seat, player_id=player_id)
            )

    def copy_links(self, old_id: str, new_id: str) -> None:
        """A rematch: the same players, their seats rotated as the rematch rotates them
        (each one seat back, the first to the last; those not linked yet)."""
        with self._engine.begin() as db:
            count = db.execute(select(games.c.players).where(games.c.id == old_id)).scalar_one()
            done = set(
                db.execute(
                    select(player_seats.c.seat).where(player_seats.c.game_id == new_id)
                ).scalars()
            )
            rows = [
                {"game_id": new_id, "seat": (row.seat - 1) % count, "player_id": row.player_id}
                for row in db.execute(select(player_seats).where(player_seats.c.game_id == old_id))
                if (row.seat - 1) % count not in done
            ]
            if rows:
                db.execute(player_seats.insert(), rows)

    # -------------------------------------------------------------------------- rating

    def rate(self, game_id: str, now_ms: int) -> bool:
        """Rate a finished game if it is a rated one and not yet rated
        (:meth:`~sosgame.web.people.rater.Rater.rate`); whether this call rated it."""
        return self._rater.rate(game_id, now_ms)

    def unrated(self, limit: int = 1000) -> list[str]:
        """Finished games with a named player that are not rated yet (oldest first)."""
        return self._rater.unrated(limit)

    def catch_up(self, now_ms: int) -> int:
        """Rate every finished game left unrated (a process stopped before it did); how
        many were rated."""
        return self._rater.catch_up(now_ms)

    # ------------------------------------------------------------------------- reading

    def leaderboard(self, limit: int = 100, *, bots: bool | None = None) -> list[Account]:
        """Established players with rated games (provisional ones are left off), best
        rating (``mu - 3 sigma``) first; with ``bots``, only bots' accounts (or only
        people's)."""
        kind = or_(players.c.bot.is_(None), players.c.bot.is_(False))
        query = (
            select(players)
            .where(
                players.c.games > 0,
                players.c.opponents >= self._established,
                true() if bots is None else players.c.bot.is_(True) if bots else kind,
            )
            .order_by((players.c.mu - 3 * players.c.sigma).desc(), players.c.key)
            .limit(limit)
        )
        with self._engine.begin() as db:
            return [self._account(row) for row in db.execute(query).mappings()]

    def history(
        self, player_id: int, limit: int = 200, *, private_ids: bool = True
    ) -> list[dict[str, Any]]:
        """The player's games, newest first: each with its seat, names, result, whether it
        was rated (``None`` until decided), if it was, the rating after it, and its
        tournament's ``{"id", "name"}`` (or ``None``). A private game's ``id`` (the link to
        watch it) is ``None`` unless ``private_ids`` (for the player themselves)."""
        with self._engine.begin() as db:
            rows = (
                db.execute(
                    select(games, player_seats.c.seat.label("my_seat"))
                    .join(player_seats, player_seats.c.game_id == games.c.id)
                    .where(player_seats.c.player_id == player_id)
                    .order_by(games.c.updated_ms.desc())
                    .limit(limit)
                )
                .mappings()
                .all()
            )
            ids = [row["id"] for row in rows]
            names = seat_names(db, ids)
            bots = seat_bots(db, ids)
            after = {
                row.game_id: Rating(row.mu, row.sigma)
                for row in db.execute(
                    select(rating_history).where(
                        rating_history.c.player_id == player_id,
                        rating_history.c.game_id.in_(ids),
                    )
                )
            }
            events = tournaments_of_games(db, ids)
            judged = {
                row.game_id: bool(row.rated)
                for row in db.execute(
                    select(rated_games.c.game_id, rated_games.c.rated).where(
                        rated_games.c.game_id.in_(ids)
                    )
                )
            }
        return [
            {
                "id": row["id"] if row["public"] or private_ids else None,
                "public": bool(row["public"]),
                "rows": row["rows"],
                "cols": row["cols"],
                "mode": row["mode"],
                "status": row["status"],
                "seat": row["my_seat"],
                "names": names[row["id"]],
                "bots": bots[row["id"]],
                "result": None if row["result"] is None else json.loads(row["result"]),
                "rating": None if row["id"] not in after else after[row["id"]].to_json(),
                "rated": judged.get(row["id"]),
                "tournament": events.get(row["id"]),
                "updated": row["updated_ms"],
            }
            for row in rows
        ]

    def ratings_over_time(
        self, player_id: int, limit: int = 500, *, private_ids: bool = True
    ) -> list[dict[str, Any]]:
        """The player's rating after each rated game, oldest first (``game`` is ``None`` for
        a private game, as in :meth:`history`)."""
        with self._engine.begin() as db:
            rows = db.execute(
                select(rating_history, games.c.public)
                .join(games, games.c.id == rating_history.c.game_id)
                .where(rating_history.c.player_id == player_id)
                .order_by(rating_history.c.rated_ms.desc(), rating_history.c.game_id)
                .limit(limit)
            ).all()
        return [
            {
                "game": row.game_id if row.public or private_ids else None,
                "at": row.rated_ms,
                **Rating(row.mu, row.sigma).to_json(),
            }
            for row in reversed(rows)
        ]

    def game_ratings(self, game_id: str) -> dict[str, Any]:
        """What a finished game did to its players' ratings: ``rated`` (``None`` until
        decided) and, for each seat an account played, its rating ``before`` and ``after``
        the game (``after`` is ``None`` unless the game was rated)."""
        with self._engine.begin() as db:
            judged = db.execute(
                select(rated_games.c.rated).where(rated_games.c.game_id == game_id)
            ).scalar_one_or_none()
            seated = db.execute(
                select(player_seats.c.seat, player_seats.c.player_id)
                .where(player_seats.c.game_id == game_id)
                .order_by(player_seats.c.seat)
            ).all()
            after = {
                row.player_id: row
                for row in db.execute(
                    select(rating_history).where(rating_history.c.game_id == game_id)
                )
            }
            found = []
            for seat, player_id in seated:
                rated = after.get(player_id)
                earlier = select(rating_history).where(rating_history.c.player_id == player_id)
                if rated is not None:
                    earlier = earlier.where(rating_history.c.rated_ms < rated.rated_ms)
                last = db.execute(
                    earlier.order_by(rating_history.c.rated_ms.desc()).limit(1)
                ).first()
                before = NEW_PLAYER if last is None else Rating(last.mu, last.sigma)
                found.append(
                    {
                        "seat": seat,
                        "before": before.to_json(),
                        "after": None if rated is None else Rating(rated.mu, rated.sigma).to_json(),
                    }
                )
        return {"rated": None if judged is None else bool(judged), "seats": found}

    def lobby(self, limit: int = 50) -> list[dict[str, Any]]:
        """Public online games waiting for players, newest first: settings, clock, and each
        seat with its player's rating (a named player's, or a computer level's)."""
        with self._engine.begin() as db:
            rows = (
                db.execute(
                    select(games)
                    .where(
                        games.c.status == "open",
                        games.c.public.is_(True),
                        games.c.kind == "online",
                    )
                    .order_by(games.c.updated_ms.desc())
                    .limit(limit)
                )
                .mappings()
                .all()
            )
            ids = [row["id"] for row in rows]
            seat_rows = db.execute(
                select(seats, players.c.mu, players.c.sigma, players.c.opponents, players.c.bot)
                .select_from(
                    seats.outerjoin(
                        player_seats,
                        and_(
                            player_seats.c.game_id == seats.c.game_id,
                            player_seats.c.seat == seats.c.seat,
                        ),
                    ).outerjoin(players, players.c.id == player_seats.c.player_id)
                )
                .where(seats.c.game_id.in_(ids))
                .order_by(seats.c.game_id, seats.c.seat)
            ).mappings()
            listed: dict[str, list[dict[str, Any]]] = {game_id: [] for game_id in ids}
            for seat in seat_rows:
                listed[seat["game_id"]].append(_lobby_seat(seat, self._established))
        return [
            {
                "id": row["id"],
                "rows": row["rows"],
                "cols": row["cols"],
                "mode": row["mode"],
                "clock": _clock(row["clock"]),
                "rated": bool(row["rated"]),
                "seats": listed[row["id"]],
                "open_seats": [seat["seat"] for seat in listed[row["id"]] if seat["free"]],
                "created": row["created_ms"],
            }
            for row in rows
        ]

    def count_players(self) -> int:
        """How many names are claimed."""
        with self._engine.begin() as db:
            return int(db.execute(select(func.count()).select_from(players)).scalar_one())


def _lobby_seat(seat: Any, established: int) -> dict[str, Any]:
    rating: Rating | None = None
    if seat["player"] != HUMAN:
        rating = COMPUTER_RATINGS.get(seat["player"])
    elif seat["mu"] is not None:
        rating = Rating(seat["mu"], seat["sigma"])
    return {
        "seat": seat["seat"],
        "name": seat["name"],
        "player": seat["player"],
        "free": seat["player"] == HUMAN and seat["token_hash"] is None,
        "named": seat["mu"] is not None,
        "provisional": seat["mu"] is not None and seat["opponents"] < established,
        "rating": None if rating is None else rating.to_json(),
        "bot": bool(seat["bot"]),
    }


def _clock(text: str | None) -> dict[str, int] | None:
    """A clock's settings, in seconds (as a new game gives them)."""
    if text is None:
        return None
    clock = json.loads(text)
    return {"initial": clock["initial"] // 1000, "increment": clock["increment"] // 1000}
