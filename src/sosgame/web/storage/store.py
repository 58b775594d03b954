"""Where games live between moves: a SQLAlchemy database, SQLite in a file by default.

Every call is one transaction, so a move is on disk before the server acknowledges it. The
calls block; the server makes them from one worker thread.
"""

from __future__ import annotations

import json
import sqlite3
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from importlib import resources
from pathlib import Path
from typing import Any, Final

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    Connection,
    Engine,
    RowMapping,
    Select,
    and_,
    bindparam,
    create_engine,
    event,
    func,
    or_,
    select,
    tuple_,
)
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool
from sqlalchemy.sql.elements import ColumnElement

from sosgame.web.computer.jobqueue import JobQueue, hand_over
from sosgame.web.defaults import DEFAULT_DATABASE
from sosgame.web.guards.gamecaps import CapError, Caps, Party, lock_keys, refusal
from sosgame.web.live import clock as clocks
from sosgame.web.storage.group_commit import (
    change_values,
    update_checked_at_once,
    write_moves_at_once,
)
from sosgame.web.storage.group_commit import dump_json as _dump
from sosgame.web.storage.rows import HUMAN, Change, GameSummary, MyGame, SeatRow, StoredGame
from sosgame.web.storage.schema import (
    actions,
    games,
    player_seats,
    players,
    seats,
    tournament_games,
    tournaments,
)
from sosgame.web.storage.turns import in_turn

__all__ = ["Store", "insert_game", "migrate", "seat_bots", "seat_names"]


def _load(text: str | None) -> dict[str, Any] | None:
    if text is None:
        return None
    value = json.loads(text)
    return value if isinstance(value, dict) else None


def _load_list(text: str | None) -> list[dict[str, Any]] | None:
    if text is None:
        return None
    value = json.loads(text)
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else None


def _dump_list(value: list[dict[str, Any]]) -> str:
    return json.dumps(value, separators=(",", ":"))


def _listed(row: RowMapping) -> dict[str, Any]:
    """What every list of games shows of a game, from its ``games`` row."""
    return {
        "id": row["id"],
        "rows": row["rows"],
        "cols": row["cols"],
        "mode": row["mode"],
        "status": row["status"],
        "result": _load(row["result"]),
        "updated_ms": row["updated_ms"],
    }


MIGRATION_LOCK: Final = 0x505F_6D69_6772_6174
"""The PostgreSQL advisory lock a process holds while it migrates the schema."""
CONNECT_SECONDS: Final = 10
"""How long opening a connection to a database server may take before it counts as down."""
LOCK_WAIT_SECONDS: Final = 300
"""How long a process waits for another one's migration of a SQLite file."""


def migrate(engine: Engine) -> None:
    """Bring the database's schema up to date with the migrations shipped in the package.

    The migrations run in one transaction that holds a lock on the database (a
    PostgreSQL advisory lock; SQLite's exclusive lock), so processes started together
    take turns: the first migrates, the others then find the schema up to date.
    """
    config = Config()
    # A database in memory is this process's own: nobody to take turns with.
    sqlite = engine.dialect.name == "sqlite" and engine.url.database not in (None, "", ":memory:")
    if sqlite:
        engine = _exclusive_engine(engine)
    try:
        with resources.as_file(resources.files("sosgame.web.storage") / "migrations") as folder:
            config.set_main_option("script_location", str(folder))
            with engine.begin() as connection:
                if engine.dialect.name == "postgresql":
                    connection.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK})")
                config.attributes["connection"] = connection
                command.upgrade(config, "head")
    finally:
        if sqlite:
            engine.dispose()


def _exclusive_engine(engine: Engine) -> Engine:
    """An engine on the same SQLite database whose transactions begin with an exclusive
    lock, DDL included (the driver on its own begins none before DDL)."""
    exclusive = create_engine(
        engine.url, poolclass=NullPool, connect_args={"timeout": LOCK_WAIT_SECONDS}
    )
    _sqlite_pragmas(exclusive)

    @event.listens_for(exclusive, "connect")
    def _no_implicit_transactions(connection: Any, _record: Any) -> None:
        connection.isolation_level = None

    @event.listens_for(exclusive, "begin")
    def _begin_exclusive(connection: Connection) -> None:
        connection.exec_driver_sql("BEGIN EXCLUSIVE")

    return exclusive


def _sqlite_pragmas(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _pragmas(connection: Any, _record: Any) -> None:
        # WAL with synchronous=NORMAL: a commit survives the process being killed (the OS
        # holds the write), which is what an acknowledged move needs.
        cursor = connection.cursor()
        # Switching to WAL is refused at once, not waited for, while another process starting
        # on the same file holds its lock (a new database being made, a migration): try again.
        deadline = time.monotonic() + LOCK_WAIT_SECONDS
        while True:
            try:
                cursor.execute("PRAGMA journal_mode=WAL")
                break
            except sqlite3.OperationalError as error:
                if "locked" not in str(error) or time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()


def _engine(url: str) -> Engine:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        # No ping before each use: it would double the round trips of every commit, and a
        # connection the server dropped fails its first statement, after which the pool
        # opens a new one (the writer retries the change once on its own).
        arguments = {"connect_timeout": CONNECT_SECONDS}
        if parsed.get_backend_name() != "postgresql":
            arguments = {}
        return create_engine(url, connect_args=arguments)
    if parsed.database and parsed.database != ":memory:":
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url)
    _sqlite_pragmas(engine)
    return engine


def seat_names(db: Connection, game_ids: Sequence[str]) -> dict[str, list[str]]:
    """The names in the seats of each of these games, in seat order."""
    names: dict[str, list[str]] = {game_id: [] for game_id in game_ids}
    for seat in db.execute(
        select(seats.c.game_id, seats.c.name)
        .where(seats.c.game_id.in_(list(game_ids)))
        .order_by(seats.c.seat)
    ):
        names[seat.game_id].append(seat.name)
    return names


def seat_bots(db: Connection, game_ids: Sequence[str]) -> dict[str, list[bool]]:
    """Whether a bot's account sits at each seat of each of these games, in seat order."""
    bots: dict[str, list[bool]] = {game_id: [] for game_id in game_ids}
    for seat in db.execute(
        _with_bots(select(seats.c.game_id)).where(seats.c.game_id.in_(list(game_ids)))
    ):
        bots[seat.game_id].append(bool(seat.bot))
    return bots


def _with_bots(query: Select[Any]) -> Select[Any]:
    """``query`` of the seats, each with ``bot``: whether a bot's account took it."""
    linked = seats.outerjoin(
        player_seats,
        and_(player_seats.c.game_id == seats.c.game_id, player_seats.c.seat == seats.c.seat),
    ).outerjoin(players, players.c.id == player_seats.c.player_id)
    return (
        query.add_columns(players.c.bot.label("bot"))
        .select_from(linked)
        .order_by(seats.c.game_id, seats.c.seat)
    )


def insert_game(db: Connection, game: StoredGame) -> None:
    """Insert a new game, its seats and the actions it starts with, in ``db``'s transaction."""
    db.execute(
        games.insert().values(
            id=game.id,
            kind=game.kind,
            rows=game.rows,
            cols=game.cols,
            mode=game.mode,
            players=len(game.seats),
            start=_dump(game.start),
            clock=_dump(game.clock),
            status=game.status,
            result=_dump(game.result),
            created_ms=game.created_ms,
            updated_ms=game.updated_ms,
            public=game.public,
            owner=game.owner,
            owner_player=game.owner_player,
            rated=game.rated,
            deadline_ms=clocks.deadline_ms(game.clock) if game.status == "playing" else None,
        )
    )
    db.execute(
        seats.insert(),
        [
            {
                "game_id": game.id,
                "seat": row.seat,
                "name": row.name,
                "player": row.player,
                "token_hash": row.token_hash,
                "invite": row.invite,
            }
            for row in game.seats
        ],
    )
    if game.actions:
        db.execute(
            actions.insert(),
            [
                {"game_id": game.id, "ply": ply, "action": text, "created_ms": 0}
                for ply, text in enumerate(game.actions, start=1)
            ],
        )


class Store:
    """Games, seats and actions in the database at ``url``; the schema is migrated on open."""

    def __init__(self, url: str = DEFAULT_DATABASE) -> None:
        self.url = url
        self._engine = _engine(url)
        self._server_database = self._engine.dialect.name == "postgresql"
        self._autocommit = self._engine.execution_options(isolation_level="AUTOCOMMIT")
        migrate(self._engine)
        self.queue = JobQueue(self._engine)
        """The computer moves waiting for a process to make them (with several processes)."""

    @property
    def engine(self) -> Engine:
        """The database (for the players' tables, :mod:`sosgame.web.people.players`)."""
        return self._engine

    def close(self) -> None:
        """Release the database connections."""
        self._engine.dispose()

    def ping(self) -> None:
        """Reach the database (raises if it cannot be reached)."""
        with self._engine.connect() as db:
            db.exec_driver_sql("SELECT 1")

    @contextmanager
    def _transaction(self) -> Iterator[Connection]:
        with self._engine.begin() as connection:
            yield connection

    def create(
        self, game: StoredGame, *, rematch_of: str | None = None, caps: Caps | None = None
    ) -> bool:
        """Store a new game with its seats and any actions it starts with.

        With ``rematch_of``, the new game is that game's rematch, unless it already has one:
        then nothing is stored and the answer is ``False``. With ``caps``, the game's owner
        must be within them (:func:`~sosgame.web.guards.gamecaps.refusal`), or :class:`CapError`.
        """
        owner = Party(game.owner or "", game.owner_player)
        computer = any(row.player != HUMAN for row in game.seats)
        keys = [] if caps is None else lock_keys([owner], computer=computer)
        with in_turn(self._engine, *keys) if keys else self._transaction() as db:
            if rematch_of is not None:
                linked = db.execute(
                    games.update()
                    .where(games.c.id == rematch_of, games.c.rematch.is_(None))
                    .values(rematch=game.id)
                )
                if linked.rowcount != 1:
                    return False
            if caps is not None:
                lobby = game.public and game.status == "open"
                finished = game.status == "finished"
                reason = refusal(db, caps, owner, computer=computer, lobby=lobby, finished=finished)
                if reason is not None:
                    raise CapError(reason)
            insert_game(db, game)
        return True

    def write(self, changes: Sequence[Change]) -> set[str]:
        """Carry out changes, from one game or many, in one transaction; returns the games
        whose change was refused because another change of theirs came first (nothing of
        those is written).

        A commit costs far more than a row, so a busy server gathers the moves of many games
        into one call (a group commit); each kind of statement then runs once for them all.
        """
        if not changes:
            return set()
        games_seen = {change.game_id for change in changes}
        if len(games_seen) != len(changes):
            refused: set[str] = set()
            for change in changes:
                refused |= self.write([change])
            return refused
        if self._server_database and all(
            change.version is not None and change.keep is None and not change.hands_over
            for change in changes
        ):
            # The usual group commit (moves of games of people): one statement, so one
            # round trip to the database server, atomic on its own.
            with self._autocommit.connect() as db:
                return write_moves_at_once(db, changes)
        with self._transaction() as db:
            refused = self._update_games(db, changes)
            changes = [change for change in changes if change.game_id not in refused]
            for change in changes:
                if change.keep is not None:
                    db.execute(
                        actions.delete().where(
                            actions.c.game_id == change.game_id, actions.c.ply > change.keep
                        )
                    )
            rows = [
                {
                    "game_id": change.game_id,
                    "ply": ply,
                    "action": text,
                    "created_ms": change.now_ms,
                }
                for change in changes
                for ply, text in enumerate(change.texts, start=change.first_ply)
            ]
            if rows:
                db.execute(actions.insert(), rows)
            hand_over(db, [change for change in changes if change.hands_over])
        return refused

    @staticmethod
    def _update_games(db: Connection, changes: Sequence[Change]) -> set[str]:
        """Write each change's game row; the games whose change was for a version that is
        no longer theirs (their rows are left alone)."""
        values: dict[str, Any] = {
            "status": bindparam("new_status"),
            "result": bindparam("new_result"),
            "clock": bindparam("new_clock"),
            "updated_ms": bindparam("now"),
            "deadline_ms": bindparam("new_deadline"),
        }
        unchecked = [change for change in changes if change.version is None]
        if unchecked:
            db.execute(
                games.update().where(games.c.id == bindparam("game")).values(**values),
                [change_values(change) for change in unchecked],
            )
        checked = [change for change in changes if change.version is not None]
        if not checked:
            return set()
        if db.dialect.name == "postgresql":
            return update_checked_at_once(db, checked)
        # In-process databases answer each statement at once: one per game costs little.
        refused: set[str] = set()
        statement = (
            games.update()
            .where(games.c.id == bindparam("game"), games.c.version == bindparam("seen"))
            .values(**values, version=bindparam("seen") + 1)
        )
        for change in checked:
            moved = db.execute(statement, change_values(change))
            if moved.rowcount != 1:
                refused.add(change.game_id)
        return refused

    def take_seat(self, game_id: str, seat: int, name: str | None, token_hash: str) -> bool:
        """Give a free seat its token (and a name); ``False`` if it was taken already.

        The game moves to its next version, so a change made without the seat is refused."""
        values: dict[str, Any] = {"token_hash": token_hash, "invite": None}
        if name is not None:
            values["name"] = name
        with self._transaction() as db:
            done = db.execute(
                seats.update()
                .where(
                    seats.c.game_id == game_id,
                    seats.c.seat == seat,
                    seats.c.token_hash.is_(None),
                )
                .values(**values)
            )
            if done.rowcount != 1:
                return False
            db.execute(
                games.update().where(games.c.id == game_id).values(version=games.c.version + 1)
            )
            return True

    def versions(self, game_ids: Sequence[str]) -> dict[str, int]:
        """The current version of each of these games (that exists)."""
        with self._transaction() as db:
            rows = db.execute(
                select(games.c.id, games.c.version).where(games.c.id.in_(list(game_ids)))
            )
            return {row.id: row.version for row in rows}

    def overdue(self, now_ms: int, limit: int = 100) -> list[str]:
        """Correspondence games whose seat to move ran out of days by ``now_ms``, the
        longest overdue first (at most ``limit``)."""
        with self._transaction() as db:
            rows = db.execute(
                select(games.c.id)
                .where(games.c.deadline_ms <= now_ms, games.c.status == "playing")
                .order_by(games.c.deadline_ms)
                .limit(limit)
            )
            return list(rows.scalars())

    def load(self, game_id: str) -> StoredGame | None:
        """The stored game, or ``None`` if there is none with this id."""
        with self._transaction() as db:
            row = db.execute(select(games).where(games.c.id == game_id)).mappings().first()
            if row is None:
                return None
            seat_rows = db.execute(
                _with_bots(select(seats)).where(seats.c.game_id == game_id)
            ).mappings()
            texts = db.execute(
                select(actions.c.action).where(actions.c.game_id == game_id).order_by(actions.c.ply)
            ).scalars()
            event = db.execute(
                select(tournaments.c.id, tournaments.c.name)
                .join(tournament_games, tournament_games.c.tournament_id == tournaments.c.id)
                .where(tournament_games.c.game_id == game_id)
            ).first()
            return StoredGame(
                id=row["id"],
                kind=row["kind"],
                rows=row["rows"],
                cols=row["cols"],
                mode=row["mode"],
                seats=[
                    SeatRow(
                        seat["seat"],
                        seat["name"],
                        seat["player"],
                        seat["token_hash"],
                        seat["invite"],
                        bool(seat["bot"]),
                    )
                    for seat in seat_rows
                ],
                status=row["status"],
                created_ms=row["created_ms"],
                updated_ms=row["updated_ms"],
                start=_load(row["start"]),
                clock=_load(row["clock"]),
                result=_load(row["result"]),
                actions=list(texts),
                public=bool(row["public"]),
                rematch=row["rematch"],
                version=row["version"],
                owner=row["owner"],
                owner_player=row["owner_player"],
                offers=_load_list(row["offers"]),
                rated=row["rated"],
                begun=bool(row["begun"]),
                tournament=None if event is None else {"id": event.id, "name": event.name},
            )

    def mark_begun(self, game_id: str) -> None:
        """Note that every seat of the game has made its first move (for good)."""
        with self._transaction() as db:
            db.execute(games.update().where(games.c.id == game_id).values(begun=True))

    def mark_berserk(self, game_id: str, seat: int) -> None:
        """Note in the game's tournament row that ``seat`` went berserk (its clock has it)."""
        column = "berserk_first" if seat == 0 else "berserk_second"
        with self._transaction() as db:
            db.execute(
                tournament_games.update()
                .where(tournament_games.c.game_id == game_id)
                .values({column: True})
            )

    def set_offers(self, game_id: str, seen: int, offers: list[dict[str, Any]]) -> bool:
        """Store the game's standing offers, if it is still at version ``seen`` (it then
        moves to the next version); ``False`` if another change came first."""
        with self._transaction() as db:
            moved = db.execute(
                games.update()
                .where(games.c.id == game_id, games.c.version == seen)
                .values(offers=_dump_list(offers), version=seen + 1)
            )
            return moved.rowcount == 1

    def set_clocks(self, clocks: Sequence[tuple[str, int, dict[str, Any]]]) -> list[int | None]:
        """Store each ``(game, seen, clock)``'s clock if the game is still at version ``seen``
        (it then moves to the next version; nothing else changes, not even when it was last
        changed): per game, its new version, or ``None`` if another change came first."""
        moved: list[int | None] = []
        with self._transaction() as db:
            for game_id, seen, clock in clocks:
                done = db.execute(
                    games.update()
                    .where(games.c.id == game_id, games.c.version == seen)
                    .values(clock=_dump(clock), version=seen + 1)
                )
                moved.append(seen + 1 if done.rowcount == 1 else None)
        return moved

    def summaries(
        self, statuses: Sequence[str], *, limit: int = 50, public_only: bool = False
    ) -> list[GameSummary]:
        """The latest games whose status is one of ``statuses``, newest first (only public
        games if ``public_only``, as every public list asks)."""
        query = select(games).where(games.c.status.in_(list(statuses)))
        if public_only:
            query = query.where(games.c.public.is_(True))
        with self._transaction() as db:
            rows = (
                db.execute(query.order_by(games.c.updated_ms.desc()).limit(limit)).mappings().all()
            )
            ids = [row["id"] for row in rows]
            seat_rows = db.execute(
                _with_bots(select(seats)).where(seats.c.game_id.in_(ids))
            ).mappings()
            names: dict[str, list[str]] = {game_id: [] for game_id in ids}
            bots: dict[str, list[bool]] = {game_id: [] for game_id in ids}
            free: dict[str, list[int]] = {game_id: [] for game_id in ids}
            for seat in seat_rows:
                names[seat["game_id"]].append(seat["name"])
                bots[seat["game_id"]].append(bool(seat["bot"]))
                if seat["player"] == HUMAN and seat["token_hash"] is None:
                    free[seat["game_id"]].append(seat["seat"])
            return [
                GameSummary(
                    **_listed(row),
                    kind=row["kind"],
                    names=names[row["id"]],
                    open_seats=free[row["id"]],
                    bots=bots[row["id"]],
                )
                for row in rows
            ]

    def games_of(
        self, token_hashes: Sequence[str], player: int | None, *, limit: int
    ) -> list[MyGame]:
        """The games whose seats one of ``token_hashes`` holds or the account ``player``
        took, the latest ``limit`` changed."""
        mine: ColumnElement[bool] = seats.c.token_hash.in_(list(token_hashes))
        if player is not None:
            taken = select(player_seats.c.game_id, player_seats.c.seat).where(
                player_seats.c.player_id == player
            )
            mine = or_(mine, tuple_(seats.c.game_id, seats.c.seat).in_(taken))
        with self._transaction() as db:
            held = db.execute(
                select(seats.c.game_id, seats.c.seat, seats.c.token_hash).where(mine)
            ).all()
            by_game: dict[str, list[int]] = {}
            hashes: dict[str, list[str]] = {}
            for game_id, seat, token_hash in held:
                by_game.setdefault(game_id, []).append(seat)
                if token_hash is not None:
                    hashes.setdefault(game_id, []).append(token_hash)
            rows = (
                db.execute(
                    select(games)
                    .where(games.c.id.in_(list(by_game)))
                    .order_by(games.c.updated_ms.desc())
                    .limit(limit)
                )
                .mappings()
                .all()
            )
            names = seat_names(db, [row["id"] for row in rows])
            bots = seat_bots(db, [row["id"] for row in rows])
        return [
            MyGame(
                **_listed(row),
                names=names[row["id"]],
                bots=bots[row["id"]],
                seats=sorted(by_game[row["id"]]),
                created_ms=row["created_ms"],
                token_hashes=tuple(hashes.get(row["id"], ())),
            )
            for row in rows
        ]

    def count(self) -> int:
        """How many games are stored."""
        with self._transaction() as db:
            return int(db.execute(select(func.count()).select_from(games)).scalar_one())
