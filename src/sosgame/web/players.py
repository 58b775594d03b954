"""Named players in the store: claimed names, the seats they take, their ratings and history,
the lobby, their sessions and the login rate limit.

Every call is one transaction and blocks, like :class:`~sosgame.web.store.Store`'s (the
server makes them from its database thread). Rating is once per game whatever happens: the
``rated_games`` row goes in with the new ratings, so a second attempt (another process, or the
catch-up at start) finds it and fails as a whole.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import Connection, and_, func, select
from sqlalchemy.exc import IntegrityError, OperationalError

from sosgame.game import Mode
from sosgame.snapshot import Snapshot
from sosgame.web.names import normal_name, skeleton
from sosgame.web.ratings import (
    COMPUTER_RATINGS,
    DAY_MS,
    MIN_MOVES,
    NEW_PLAYER,
    Rating,
    moves_per_seat,
    new_ratings,
    places,
)
from sosgame.web.rows import HUMAN
from sosgame.web.schema import (
    actions,
    games,
    login_attempts,
    player_seats,
    players,
    rated_games,
    rating_history,
    seats,
    sessions,
)
from sosgame.web.store import Store, seat_names
from sosgame.web.turns import in_turn

__all__ = [
    "Account",
    "NameConfusableError",
    "NameTakenError",
    "Players",
    "name_key",
    "session_id",
]

_TRIES: Final = 5


class NameTakenError(Exception):
    """Somebody has claimed that name already."""


class NameConfusableError(Exception):
    """The name looks like one somebody has claimed (the same confusables skeleton)."""


@dataclass(frozen=True)
class Account:
    """A claimed name, its password's hash and its rating."""

    id: int
    name: str
    password_hash: str
    rating: Rating
    games: int

    def to_json(self) -> dict[str, Any]:
        """What the API tells about the player (never the hash)."""
        return {"name": self.name, **self.rating.to_json(), "rated_games": self.games}


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


def _account(row: Any) -> Account:
    return Account(
        row["id"], row["name"], row["password_hash"], Rating(row["mu"], row["sigma"]), row["games"]
    )


class Players:
    """The players' tables of the store's database."""

    def __init__(self, store: Store, *, rated_per_pair: int = 3) -> None:
        """``rated_per_pair``: rated games two players may have together in any 24 hours."""
        self._engine = store.engine
        self._locks = self._engine.dialect.name == "postgresql"
        self._rated_per_pair = rated_per_pair

    # ------------------------------------------------------------------------ accounts

    def claim(self, name: str, password_hash: str, now_ms: int) -> Account:
        """Claim ``name`` (in its normal form, :func:`~sosgame.web.names.normal_name`);
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
                    )
                ).inserted_primary_key
        except IntegrityError:
            raise NameTakenError(name) from None
        assert key is not None
        return Account(int(key[0]), name, password_hash, NEW_PLAYER, 0)

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
                    return _account(found)
        return None

    def get(self, player_id: int) -> Account | None:
        """The account with this id."""
        with self._engine.begin() as db:
            found = db.execute(select(players).where(players.c.id == player_id)).mappings().first()
            return None if found is None else _account(found)

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
            return None if found is None else _account(found)

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
        """Rate a finished game if it is a rated one and not yet rated; whether this call
        rated it. A game is rated when it was played online, every person in it took their
        seat as a named player (each a different one) and at least one did, every seat made
        at least :data:`~sosgame.web.ratings.MIN_MOVES` moves, and no two of its players have
        ``rated_per_pair`` rated games together that ended within 24 hours of it; computer
        seats count with their fixed ratings, which do not change. A game that is not rated
        is noted as such (``rated_games.rated`` false)."""
        for attempt in range(_TRIES):
            try:
                with self._engine.begin() as db:
                    if db.dialect.name == "sqlite":
                        # Python's sqlite3 begins a transaction only at the first write, so
                        # the counts read before it would come from no transaction at all:
                        # take the write lock first, and rating processes take turns.
                        db.exec_driver_sql("BEGIN IMMEDIATE")
                    return self._rate(db, game_id, now_ms)
            except IntegrityError:
                return False  # rated meanwhile, by another process
            except OperationalError:
                # SQLite refuses a transaction that read before another's write; again.
                if attempt == _TRIES - 1:
                    raise
        return False

    def _rate(self, db: Connection, game_id: str, now_ms: int) -> bool:
        game = db.execute(select(games).where(games.c.id == game_id)).mappings().first()
        if game is None or game["status"] != "finished" or game["result"] is None:
            return False
        done = db.execute(select(rated_games.c.game_id).where(rated_games.c.game_id == game_id))
        if done.first() is not None:
            return False
        seat_rows = db.execute(
            select(seats.c.seat, seats.c.player).where(seats.c.game_id == game_id).order_by("seat")
        ).all()
        linked = dict(
            db.execute(
                select(player_seats.c.seat, player_seats.c.player_id).where(
                    player_seats.c.game_id == game_id
                )
            ).all()
        )
        texts = list(
            db.execute(
                select(actions.c.action).where(actions.c.game_id == game_id).order_by(actions.c.ply)
            ).scalars()
        )
        people = [row.seat for row in seat_rows if row.player == HUMAN]
        ids = [linked.get(seat) for seat in people]
        ending = json.loads(game["result"]).get("termination")
        rated = (
            game["kind"] == "online"
            and game["rated"] is not False
            and ending != "aborted"
            and bool(people)
            and None not in ids
            and len(set(ids)) == len(ids)
            and len(seat_rows) >= 2
            and min(_moves(game, texts)) >= MIN_MOVES
        )
        accounts: dict[int, Account] = {}
        if rated:
            query = select(players).where(players.c.id.in_(linked.values())).order_by(players.c.id)
            if self._locks:
                # Two games of one player rated at once: one waits, then counts the other.
                query = query.with_for_update()
            accounts = {row["id"]: _account(row) for row in db.execute(query).mappings()}
            rated = self._pair_games(db, game_id, sorted(accounts), game["updated_ms"]) < (
                self._rated_per_pair
            )
        # The row that says it is done, before any rating: a second attempt stops here (on
        # PostgreSQL it waits for this transaction, then fails on the key).
        db.execute(rated_games.insert().values(game_id=game_id, rated=rated, rated_ms=now_ms))
        if not rated:
            return False
        before = [
            accounts[linked[row.seat]].rating
            if row.player == HUMAN
            else COMPUTER_RATINGS.get(row.player, NEW_PLAYER)
            for row in seat_rows
        ]
        resigned = [int(text.split(":")[1]) for text in texts if text.startswith("resign:")]
        after = new_ratings(before, places(json.loads(game["result"]), resigned))
        for seat in people:
            rating = after[seat]
            player_id = linked[seat]
            db.execute(
                players.update()
                .where(players.c.id == player_id)
                .values(mu=rating.mu, sigma=rating.sigma, games=players.c.games + 1)
            )
            db.execute(
                rating_history.insert().values(
                    player_id=player_id,
                    game_id=game_id,
                    mu=rating.mu,
                    sigma=rating.sigma,
                    rated_ms=now_ms,
                )
            )
        return True

    @staticmethod
    def _pair_games(db: Connection, game_id: str, ids: list[int], ended_ms: int) -> int:
        """The most rated games any two of these players had together that ended less than
        24 hours before or after ``ended_ms`` (other than ``game_id``). Both sides, so that
        games rated out of order (a catch-up, two processes) still keep every 24 hours to
        the limit."""
        most = 0
        one, other = rating_history.alias("one"), rating_history.alias("other")
        for index, first in enumerate(ids):
            for second in ids[index + 1 :]:
                count = db.execute(
                    select(func.count())
                    .select_from(
                        one.join(other, other.c.game_id == one.c.game_id).join(
                            games, games.c.id == one.c.game_id
                        )
                    )
                    .where(
                        one.c.player_id == first,
                        other.c.player_id == second,
                        one.c.game_id != game_id,
                        games.c.updated_ms > ended_ms - DAY_MS,
                        games.c.updated_ms < ended_ms + DAY_MS,
                    )
                ).scalar_one()
                most = max(most, int(count))
        return most

    def unrated(self, limit: int = 1000) -> list[str]:
        """Finished games with a named player that are not rated yet (oldest first)."""
        query = (
            select(games.c.id)
            .where(
                games.c.status == "finished",
                games.c.id.in_(select(player_seats.c.game_id)),
                ~games.c.id.in_(select(rated_games.c.game_id)),
            )
            .order_by(games.c.updated_ms)
            .limit(limit)
        )
        with self._engine.begin() as db:
            return list(db.execute(query).scalars())

    def catch_up(self, now_ms: int) -> int:
        """Rate every finished game left unrated (a process stopped before it did); how
        many were rated."""
        return sum(self.rate(game_id, now_ms) for game_id in self.unrated())

    # ------------------------------------------------------------------------- reading

    def leaderboard(self, limit: int = 100) -> list[Account]:
        """Players with rated games, best rating (``mu - 3 sigma``) first."""
        query = (
            select(players)
            .where(players.c.games > 0)
            .order_by((players.c.mu - 3 * players.c.sigma).desc(), players.c.key)
            .limit(limit)
        )
        with self._engine.begin() as db:
            return [_account(row) for row in db.execute(query).mappings()]

    def history(
        self, player_id: int, limit: int = 200, *, private_ids: bool = True
    ) -> list[dict[str, Any]]:
        """The player's games, newest first: each with its seat, names, result, whether it
        was rated (``None`` until decided) and, if it was, the rating after it. A private
        game's ``id`` (the link to watch it) is ``None`` unless ``private_ids`` (for the
        player themselves)."""
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
            after = {
                row.game_id: Rating(row.mu, row.sigma)
                for row in db.execute(
                    select(rating_history).where(
                        rating_history.c.player_id == player_id,
                        rating_history.c.game_id.in_(ids),
                    )
                )
            }
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
                "result": None if row["result"] is None else json.loads(row["result"]),
                "rating": None if row["id"] not in after else after[row["id"]].to_json(),
                "rated": judged.get(row["id"]),
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
                select(seats, players.c.mu, players.c.sigma, players.c.games)
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
                listed[seat["game_id"]].append(_lobby_seat(seat))
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


def _moves(game: Any, texts: list[str]) -> list[int]:
    """How many moves each seat of a stored game made (none, for a game the engine cannot
    replay: it is then not rated, rather than tried again at every start)."""
    start = None if game["start"] is None else json.loads(game["start"])
    mode: Mode = "simple" if game["mode"] == "simple" else "general"
    snapshot = Snapshot(game["rows"], game["cols"], game["players"], mode, start, tuple(texts))
    try:
        return moves_per_seat(snapshot)
    except (KeyError, TypeError, ValueError):  # the engine's errors are ValueErrors
        return [0]


def _lobby_seat(seat: Any) -> dict[str, Any]:
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
        "rating": None if rating is None else rating.to_json(),
    }


def _clock(text: str | None) -> dict[str, int] | None:
    """A clock's settings, in seconds (as a new game gives them)."""
    if text is None:
        return None
    clock = json.loads(text)
    return {"initial": clock["initial"] // 1000, "increment": clock["increment"] // 1000}
