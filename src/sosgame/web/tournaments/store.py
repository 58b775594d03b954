"""The tournaments in the database (migration 0019), which every server process shares.

Every call is one transaction and blocks, like :class:`~sosgame.web.storage.store.Store`'s.
A tick of an Arena or a round of a Swiss is made in its turn (:meth:`TournamentStore.turn`):
the games are planned from the state read, then the tournament's lock is taken and they are
stored with the turn's row if the state is still the one they were planned from, so that
the process whose insert wins makes it and no other.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from collections.abc import Callable, Sequence
from typing import Any, Final

from sqlalchemy import Connection, Engine, and_, func, select, true
from sqlalchemy.exc import IntegrityError

from sosgame.tournaments.settings import SWISS_MAX_PLAYERS, Clock, TournamentSettings
from sosgame.web.storage.schema import (
    actions,
    games,
    player_seats,
    players,
    server_secrets,
    tournament_byes,
    tournament_entrants,
    tournament_games,
    tournament_invitations,
    tournament_turns,
    tournaments,
)
from sosgame.web.storage.store import insert_game
from sosgame.web.storage.turns import in_turn
from sosgame.web.tournaments.rows import (
    EntrantRow,
    Planned,
    Snapshot,
    TournamentGameRow,
    TournamentRow,
)

__all__ = [
    "ENTERED_SHOWN",
    "FINISHED_LISTED",
    "TURN_TRIES",
    "UPCOMING_PER_CREATOR",
    "EntrantRow",
    "Planned",
    "Snapshot",
    "TournamentGameRow",
    "TournamentRow",
    "TournamentStore",
    "seat_token",
    "tournaments_of_games",
]

UPCOMING_PER_CREATOR: Final = 5
"""Tournaments one player may have created that have not started yet."""
FINISHED_LISTED: Final = 20
"""The finished tournaments ``GET /api/tournaments`` lists, the latest first."""
LISTED: Final = 100
"""The most upcoming or playing tournaments listed (soonest first)."""


ENTERED_SHOWN: Final = 20
"""The tournaments a player entered that their page shows, the latest first."""
TURN_TRIES: Final = 3
"""Plans of a turn made outside the lock and found stale in it before one is made in it."""
SEAT_SECRET: Final = "tournament_seats"
"""The server secret the seat tokens of tournament games are made from."""


def seat_token(secret: str, game_id: str, seat: int) -> str:
    """The token of a seat of a tournament game: made from the secret every process shares,
    so that whichever process holds a player's lobby socket can hand it again (a page
    opened anew finds its game); the store keeps only its hash, as for every seat."""
    digest = hmac.new(secret.encode(), f"{game_id}:{seat}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest[:24]).decode()


def _settings(row: Any) -> TournamentSettings:
    clock = None
    if row.clock_initial is not None:
        clock = Clock(row.clock_initial, row.clock_increment or 0)
    return TournamentSettings(
        kind=row.kind,
        name=row.name,
        rows=row.rows,
        cols=row.cols,
        mode=row.mode,
        clock=clock,
        days=row.days,
        rated=bool(row.rated),
        starts_at=row.starts_at_ms,
        minutes=row.minutes,
        rounds=row.rounds,
        bots=bool(row.bots),
        open=bool(row.open),
    )


def _tournament(row: Any) -> TournamentRow:
    return TournamentRow(
        id=row.id,
        settings=_settings(row),
        creator_id=row.creator_id,
        status=row.status,
        round=row.round,
        first_moves_to_top=bool(row.first_moves_to_top),
        created_ms=row.created_ms,
    )


def _entrants(db: Connection, tournament_id: str) -> tuple[EntrantRow, ...]:
    rows = db.execute(
        select(tournament_entrants, players.c.name, players.c.bot)
        .join(players, players.c.id == tournament_entrants.c.player_id)
        .where(tournament_entrants.c.tournament_id == tournament_id)
        .order_by(tournament_entrants.c.joined_ms, tournament_entrants.c.player_id)
    ).all()
    return tuple(
        EntrantRow(
            player_id=row.player_id,
            name=row.name,
            rating=row.rating,
            joined_ms=row.joined_ms,
            withdrawn=bool(row.withdrawn),
            paused=bool(row.paused),
            absent=bool(row.absent),
            waiting_since_ms=row.waiting_since_ms,
            bot=bool(row.bot),
        )
        for row in rows
    )


def tournaments_of_games(db: Connection, game_ids: Sequence[str]) -> dict[str, dict[str, str]]:
    """The tournament, ``{"id", "name"}``, of each of these games that is a tournament's."""
    rows = db.execute(
        select(tournament_games.c.game_id, tournaments.c.id, tournaments.c.name)
        .join(tournaments, tournaments.c.id == tournament_games.c.tournament_id)
        .where(tournament_games.c.game_id.in_(list(game_ids)))
    ).all()
    return {row.game_id: {"id": row.id, "name": row.name} for row in rows}


def _games(db: Connection, tournament_id: str) -> tuple[TournamentGameRow, ...]:
    # Counted for this tournament's games alone: every game's count would read every action.
    mine = select(tournament_games.c.game_id).where(
        tournament_games.c.tournament_id == tournament_id
    )
    moves = (
        select(actions.c.game_id, func.count().label("plies"))
        .where(actions.c.game_id.in_(mine), ~actions.c.action.like("resign%"))
        .group_by(actions.c.game_id)
        .subquery()
    )
    rows = db.execute(
        select(
            tournament_games,
            games.c.status,
            games.c.result,
            games.c.updated_ms,
            func.coalesce(moves.c.plies, 0).label("plies"),
        )
        .join(games, games.c.id == tournament_games.c.game_id)
        .outerjoin(moves, moves.c.game_id == tournament_games.c.game_id)
        .where(tournament_games.c.tournament_id == tournament_id)
        .order_by(games.c.created_ms, tournament_games.c.game_id)
    ).all()
    found = []
    for row in rows:
        result = json.loads(row.result) if row.result else {}
        found.append(
            TournamentGameRow(
                game_id=row.game_id,
                round=row.round,
                first_id=row.first_id,
                second_id=row.second_id,
                forfeit=row.forfeit,
                berserk=frozenset(
                    player
                    for player, went in (
                        (row.first_id, row.berserk_first),
                        (row.second_id, row.berserk_second),
                    )
                    if went
                ),
                status=row.status,
                termination=result.get("termination"),
                winners=tuple(result.get("winners", ())),
                plies=row.plies,
                updated_ms=row.updated_ms,
            )
        )
    return tuple(found)


def _snapshot(db: Connection, row: Any) -> Snapshot:
    byes = db.execute(
        select(tournament_byes.c.player_id, tournament_byes.c.round).where(
            tournament_byes.c.tournament_id == row.id
        )
    ).all()
    turns = db.execute(
        select(func.max(tournament_turns.c.number)).where(
            tournament_turns.c.tournament_id == row.id
        )
    ).scalar_one()
    return Snapshot(
        tournament=_tournament(row),
        entrants=_entrants(db, row.id),
        games=_games(db, row.id),
        byes=frozenset((player, number) for player, number in byes),
        turns=turns or 0,
    )


def _insert(
    db: Connection,
    tournament_id: str,
    settings: TournamentSettings,
    creator: int | None,
    now_ms: int,
) -> None:
    clock = settings.clock
    db.execute(
        tournaments.insert().values(
            id=tournament_id,
            kind=settings.kind,
            name=settings.name,
            rows=settings.rows,
            cols=settings.cols,
            mode=settings.mode,
            clock_initial=None if clock is None else clock.initial,
            clock_increment=None if clock is None else clock.increment,
            days=settings.days,
            rated=settings.rated,
            starts_at_ms=settings.starts_at,
            minutes=settings.minutes,
            rounds=settings.rounds,
            bots=settings.bots,
            open=settings.open,
            creator_id=creator,
            status="created",
            round=0,
            # lichess draws it from the tournament's id: a coin nobody can steer.
            first_moves_to_top=bool(secrets.randbelow(2)),
            created_ms=now_ms,
            updated_ms=now_ms,
        )
    )


def _unmade(db: Connection, tournament_id: str, number: int) -> Snapshot | None:
    """The tournament's snapshot, if it is under way and its turn ``number`` not made."""
    row = db.execute(select(tournaments).where(tournaments.c.id == tournament_id)).first()
    if row is None or row.status != "started":
        return None
    made = db.execute(
        select(tournament_turns.c.number).where(
            tournament_turns.c.tournament_id == tournament_id,
            tournament_turns.c.number == number,
        )
    ).first()
    return None if made is not None else _snapshot(db, row)


class TournamentStore:
    """The tournaments in the database behind ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self._secret: str | None = None

    def seat_secret(self) -> str:
        """The secret of the seat tokens (:func:`seat_token`), made by the first process
        that asks."""
        if self._secret is None:
            find = select(server_secrets.c.value).where(server_secrets.c.name == SEAT_SECRET)
            try:
                with self._engine.begin() as db:
                    if db.execute(find).first() is None:
                        made = secrets.token_urlsafe(32)
                        db.execute(server_secrets.insert().values(name=SEAT_SECRET, value=made))
            except IntegrityError:
                pass  # made by another process meanwhile
            with self._engine.begin() as db:
                self._secret = db.execute(find).scalar_one()
        return self._secret

    def playing(self, player_id: int) -> list[tuple[str, int, str]]:
        """The player's tournament games not finished: (game, seat, tournament)."""
        with self._engine.begin() as db:
            rows = db.execute(
                select(
                    player_seats.c.game_id, player_seats.c.seat, tournament_games.c.tournament_id
                )
                .join(tournament_games, tournament_games.c.game_id == player_seats.c.game_id)
                .join(games, games.c.id == player_seats.c.game_id)
                .where(player_seats.c.player_id == player_id, games.c.status != "finished")
                .order_by(games.c.created_ms)
            ).all()
        return [(row.game_id, row.seat, row.tournament_id) for row in rows]

    # ----------------------------------------------------------------------- tournaments

    def create(self, settings: TournamentSettings, creator: int | None, now_ms: int) -> str | None:
        """Store a new tournament; its id, or ``None`` if ``creator`` has
        :data:`UPCOMING_PER_CREATOR` tournaments that have not started."""
        key = f"tournaments:creator:{creator}"
        with in_turn(self._engine, key) as db:
            if creator is not None:
                upcoming = db.execute(
                    select(func.count())
                    .select_from(tournaments)
                    .where(tournaments.c.creator_id == creator, tournaments.c.status == "created")
                ).scalar_one()
                if upcoming >= UPCOMING_PER_CREATOR:
                    return None
            tournament_id = secrets.token_urlsafe(8)
            _insert(db, tournament_id, settings, creator, now_ms)
        return tournament_id

    def create_scheduled(
        self, tournament_id: str, settings: TournamentSettings, now_ms: int
    ) -> bool:
        """Store one of the server's own tournaments under the id its schedule gives it;
        ``False`` if it is there already (made by this process or another)."""
        try:
            with self._engine.begin() as db:
                _insert(db, tournament_id, settings, None, now_ms)
        except IntegrityError:
            return False  # the key lets one insert in
        return True

    def get(self, tournament_id: str) -> TournamentRow | None:
        with self._engine.begin() as db:
            row = db.execute(select(tournaments).where(tournaments.c.id == tournament_id)).first()
        return None if row is None else _tournament(row)

    def snapshot(self, tournament_id: str) -> Snapshot | None:
        """The tournament and everything stored of it, read in one transaction."""
        with self._engine.begin() as db:
            row = db.execute(select(tournaments).where(tournaments.c.id == tournament_id)).first()
            return None if row is None else _snapshot(db, row)

    def entered(self, player_id: int, limit: int = ENTERED_SHOWN) -> list[Snapshot]:
        """The latest ``limit`` tournaments the player is in (the latest start first), each
        read whole, in one transaction: one query finds them, then one snapshot each."""
        with self._engine.begin() as db:
            rows = db.execute(
                select(tournaments)
                .join(tournament_entrants, tournament_entrants.c.tournament_id == tournaments.c.id)
                .where(tournament_entrants.c.player_id == player_id)
                .order_by(tournaments.c.starts_at_ms.desc(), tournaments.c.id)
                .limit(limit)
            ).all()
            return [_snapshot(db, row) for row in rows]

    def of_games(self, game_ids: Sequence[str]) -> dict[str, dict[str, str]]:
        """The tournament, ``{"id", "name"}``, of each of these games that is a tournament's."""
        with self._engine.begin() as db:
            return tournaments_of_games(db, game_ids)

    def listed(self, *, only_open: bool = False) -> dict[str, list[tuple[TournamentRow, int]]]:
        """The tournaments by status (upcoming, playing, finished), each with its number of
        entrants: the upcoming soonest first, the finished latest first. ``only_open``: none
        by invitation (the public lists: their players reach them by their id)."""
        counts = (
            select(tournament_entrants.c.tournament_id, func.count().label("entrants"))
            .group_by(tournament_entrants.c.tournament_id)
            .subquery()
        )
        shown: dict[str, list[tuple[TournamentRow, int]]] = {}
        with self._engine.begin() as db:
            for status, name, order, limit in (
                ("created", "upcoming", tournaments.c.starts_at_ms, LISTED),
                ("started", "playing", tournaments.c.starts_at_ms, LISTED),
                ("finished", "finished", tournaments.c.updated_ms.desc(), FINISHED_LISTED),
            ):
                rows = db.execute(
                    select(tournaments, func.coalesce(counts.c.entrants, 0).label("entrants"))
                    .outerjoin(counts, counts.c.tournament_id == tournaments.c.id)
                    .where(
                        tournaments.c.status == status,
                        tournaments.c.open.is_(True) if only_open else true(),
                    )
                    .order_by(order, tournaments.c.id)
                    .limit(limit)
                ).all()
                shown[name] = [(_tournament(row), row.entrants) for row in rows]
        return shown

    def due(self, now_ms: int) -> list[str]:
        """Start the tournaments whose time has come; every tournament under way, by id."""
        with self._engine.begin() as db:
            db.execute(
                tournaments.update()
                .where(tournaments.c.status == "created", tournaments.c.starts_at_ms <= now_ms)
                .values(status="started", updated_ms=now_ms)
            )
            return list(
                db.execute(
                    select(tournaments.c.id)
                    .where(tournaments.c.status == "started")
                    .order_by(tournaments.c.id)
                ).scalars()
            )

    def finish(self, tournament_id: str, now_ms: int) -> bool:
        """Mark a tournament finished; ``False`` if it was already."""
        with self._engine.begin() as db:
            done = db.execute(
                tournaments.update()
                .where(tournaments.c.id == tournament_id, tournaments.c.status != "finished")
                .values(status="finished", updated_ms=now_ms)
            )
            return done.rowcount == 1

    def invite_by(self, tournament_id: str, creator: int, player_id: int) -> str | None:
        """The creator lets a player join their tournament that is not open; ``None``, or
        why not: ``no_tournament``, ``not_your_tournament``, ``tournament_open`` or
        ``tournament_over``."""
        row = self.get(tournament_id)
        if row is None:
            return "no_tournament"
        if row.creator_id != creator:
            return "not_your_tournament"
        if row.settings.open:
            return "tournament_open"
        if row.status == "finished":
            return "tournament_over"
        self.invite(tournament_id, [player_id])
        return None

    def invite(self, tournament_id: str, player_ids: Sequence[int]) -> None:
        """Let these players join a tournament that is not open."""
        with self._engine.begin() as db:
            for player_id in player_ids:
                try:
                    with db.begin_nested():
                        db.execute(
                            tournament_invitations.insert().values(
                                tournament_id=tournament_id, player_id=player_id
                            )
                        )
                except IntegrityError:
                    pass  # invited already

    # -------------------------------------------------------------------------- players

    def join(
        self, tournament_id: str, player_id: int, rating: int, *, bot: bool, now_ms: int
    ) -> str | None:
        """Enter the player (or bring them back from a pause, an absence or a withdrawal);
        ``None``, or why not: ``no_tournament``, ``tournament_over``, ``not_invited``,
        ``bots_not_allowed`` or ``tournament_full``."""
        with in_turn(self._engine, f"tournament:{tournament_id}") as db:
            row = db.execute(select(tournaments).where(tournaments.c.id == tournament_id)).first()
            if row is None:
                return "no_tournament"
            if row.status == "finished":
                return "tournament_over"
            if bot and not row.bots:
                return "bots_not_allowed"
            mine = and_(
                tournament_entrants.c.tournament_id == tournament_id,
                tournament_entrants.c.player_id == player_id,
            )
            back = tournament_entrants.update().where(mine)
            back = back.values(withdrawn=False, paused=False, absent=False)
            if db.execute(back.values(waiting_since_ms=now_ms)).rowcount == 1:
                return None
            if not row.open and row.creator_id != player_id:
                invited = db.execute(
                    select(tournament_invitations.c.player_id).where(
                        tournament_invitations.c.tournament_id == tournament_id,
                        tournament_invitations.c.player_id == player_id,
                    )
                ).first()
                if invited is None:
                    return "not_invited"
            if row.kind == "swiss":
                count = db.execute(
                    select(func.count())
                    .select_from(tournament_entrants)
                    .where(tournament_entrants.c.tournament_id == tournament_id)
                ).scalar_one()
                if count >= SWISS_MAX_PLAYERS:
                    return "tournament_full"
            db.execute(
                tournament_entrants.insert().values(
                    tournament_id=tournament_id,
                    player_id=player_id,
                    rating=rating,
                    joined_ms=now_ms,
                    withdrawn=False,
                    paused=False,
                    absent=False,
                    waiting_since_ms=now_ms,
                )
            )
        return None

    def leave(
        self, tournament_id: str, player_id: int, *, withdraw: bool, now_ms: int
    ) -> str | None:
        """Withdraw the player (before the start: take them out), or pause them; ``None``,
        or why not: ``no_tournament``, ``tournament_over`` or ``not_entered``."""
        with in_turn(self._engine, f"tournament:{tournament_id}") as db:
            row = db.execute(select(tournaments).where(tournaments.c.id == tournament_id)).first()
            if row is None:
                return "no_tournament"
            if row.status == "finished":
                return "tournament_over"
            mine = and_(
                tournament_entrants.c.tournament_id == tournament_id,
                tournament_entrants.c.player_id == player_id,
            )
            if withdraw and row.status == "created":
                gone = db.execute(tournament_entrants.delete().where(mine))
            elif withdraw:
                gone = db.execute(tournament_entrants.update().where(mine).values(withdrawn=True))
            else:
                gone = db.execute(
                    tournament_entrants.update()
                    .where(mine)
                    .values(paused=True, absent=row.kind == "swiss")
                )
            return None if gone.rowcount == 1 else "not_entered"

    def forfeit(self, game_id: str, loser: int, *, swiss: bool) -> bool:
        """Count a game not started as lost by ``loser``, and pause them (a Swiss: absent
        from the next rounds) until they come back; ``False`` if it was counted already."""
        with self._engine.begin() as db:
            tournament_id = db.execute(
                select(tournament_games.c.tournament_id).where(
                    tournament_games.c.game_id == game_id
                )
            ).scalar_one_or_none()
            done = db.execute(
                tournament_games.update()
                .where(tournament_games.c.game_id == game_id, tournament_games.c.forfeit.is_(None))
                .values(forfeit=loser)
            )
            if tournament_id is None or done.rowcount != 1:
                return False
            db.execute(
                tournament_entrants.update()
                .where(
                    tournament_entrants.c.tournament_id == tournament_id,
                    tournament_entrants.c.player_id == loser,
                )
                .values(paused=True, absent=swiss)
            )
            return True

    # ---------------------------------------------------------------------------- turns

    def turn(
        self, tournament_id: str, number: int, now_ms: int, plan: Callable[[Snapshot], Planned]
    ) -> Planned | None:
        """Make turn ``number`` of a tournament under way, once, with the games ``plan``
        works out from what is stored; ``None`` (nothing stored) if the turn was made
        already, the tournament is not under way, or ``plan`` makes nothing.

        ``plan`` runs outside the tournament's lock (a pairing takes a while, and SQLite's
        lock holds up every writer): in the lock, the state is read again and the games
        are stored with the turn's row only if what they were planned from is unchanged;
        else they are planned again, and after :data:`TURN_TRIES` tries in the lock."""
        for attempt in range(TURN_TRIES + 1):
            planned = read = None
            if attempt < TURN_TRIES:
                with self._engine.begin() as db:
                    read = _unmade(db, tournament_id, number)
                if read is None:
                    return None
                planned = plan(read)
                if planned.empty:
                    return None
            try:
                with in_turn(self._engine, f"tournament:{tournament_id}") as db:
                    found = _unmade(db, tournament_id, number)
                    if found is None:
                        return None
                    if read is not None and found.basis != read.basis:
                        continue  # changed meanwhile: plan again
                    planned = planned or plan(found)
                    if planned.empty:
                        return None
                    db.execute(
                        tournament_turns.insert().values(
                            tournament_id=tournament_id, number=number, made_ms=now_ms
                        )
                    )
                    self._store(db, tournament_id, planned, now_ms)
            except IntegrityError:
                return None  # made by another process meanwhile
            return planned
        return None

    @staticmethod
    def _store(db: Connection, tournament_id: str, planned: Planned, now_ms: int) -> None:
        for game, first, second in planned.games:
            insert_game(db, game)
            db.execute(
                player_seats.insert(),
                [
                    {"game_id": game.id, "seat": 0, "player_id": first},
                    {"game_id": game.id, "seat": 1, "player_id": second},
                ],
            )
            db.execute(
                tournament_games.insert().values(
                    game_id=game.id,
                    tournament_id=tournament_id,
                    round=planned.round,
                    first_id=first,
                    second_id=second,
                    berserk_first=False,
                    berserk_second=False,
                    forfeit=None,
                )
            )
        if planned.bye is not None and planned.round is not None:
            db.execute(
                tournament_byes.insert().values(
                    tournament_id=tournament_id, player_id=planned.bye, round=planned.round
                )
            )
        if planned.round is not None:
            db.execute(
                tournaments.update()
                .where(tournaments.c.id == tournament_id)
                .values(round=planned.round, updated_ms=now_ms)
            )
