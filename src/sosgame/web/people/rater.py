"""Rating finished games, once each: which games count, the new OpenSkill ratings they
bring, and the provisional period of new players.

A named player is **provisional** until they have had rated games against
``established`` distinct opponents that count: named players past their own provisional
period, and the computer levels (each level one opponent, fixed ratings measured by
``sosgame arena``: the anchors the first established players grow from). A provisional
player is left off the leaderboard, and weighs little on others' ratings: a game moves each
player's rating by the share ``weight`` of its change for each provisional opponent. So
accounts made to throw games to another neither lift it (they weigh little) nor end its
provisional period (they do not count).

Every call is one transaction and blocks (the server makes them from its database thread).
Rating is once per game whatever happens: the ``rated_games`` row goes in with the new
ratings, so a second attempt (another process, or the catch-up at start) finds it and fails
as a whole.
"""

from __future__ import annotations

import json
from typing import Any, Final

from sqlalchemy import Connection, Engine, func, select
from sqlalchemy.exc import IntegrityError, OperationalError

from sosgame.game import Mode
from sosgame.snapshot import Snapshot
from sosgame.web.people.ratings import (
    COMPUTER_RATINGS,
    DAY_MS,
    MIN_MOVES,
    NEW_PLAYER,
    Rating,
    moves_per_seat,
    new_ratings,
    places,
    weighted,
)
from sosgame.web.storage.rows import HUMAN
from sosgame.web.storage.schema import (
    actions,
    games,
    player_opponents,
    player_seats,
    players,
    rated_games,
    rating_history,
    seats,
)

__all__ = ["Rater"]

_TRIES: Final = 5


class Rater:
    """Rates the finished games of one store's database."""

    def __init__(
        self, engine: Engine, *, rated_per_pair: int, established: int, weight: float
    ) -> None:
        """``rated_per_pair``: rated games two players may have together in any 24 hours;
        ``established``: distinct opponents that count a player needs to be established (0:
        everyone is); ``weight``: the share of a game's change a provisional opponent
        brings."""
        self._engine = engine
        self._locks = engine.dialect.name == "postgresql"
        self._rated_per_pair = rated_per_pair
        self._established = established
        self._weight = weight

    def rate(self, game_id: str, now_ms: int) -> bool:
        """Rate a finished game if it is a rated one and not yet rated; whether this call
        rated it. A game is rated when it was played online, every person in it took their
        seat as a named player (each a different one) and at least one did, every seat made
        at least :data:`~sosgame.web.people.ratings.MIN_MOVES` moves, and no two of its players have
        ``rated_per_pair`` rated games together that ended within 24 hours of it; computer
        seats count with their fixed ratings, which do not change. A game that is not rated
        is noted as such (``rated_games.rated`` false).

        Each player's rating takes the share of the game's change that their opponents
        weigh: all of it from established players and computer levels, ``weight`` of it
        from provisional players (the mean over several opponents); and each established
        opponent or computer level met is noted, once, towards ending the player's
        provisional period."""
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
        linked: dict[int, int] = dict(
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
        accounts: dict[int, Any] = {}
        if rated:
            query = select(players).where(players.c.id.in_(linked.values())).order_by(players.c.id)
            if self._locks:
                # Two games of one player rated at once: one waits, then counts the other.
                query = query.with_for_update()
            accounts = {row["id"]: row for row in db.execute(query).mappings()}
            rated = self._pair_games(db, game_id, sorted(accounts), game["updated_ms"]) < (
                self._rated_per_pair
            )
        # The row that says it is done, before any rating: a second attempt stops here (on
        # PostgreSQL it waits for this transaction, then fails on the key).
        db.execute(rated_games.insert().values(game_id=game_id, rated=rated, rated_ms=now_ms))
        if not rated:
            return False
        before: list[Rating] = []
        opponents: list[str | None] = []  # who each seat is as an opponent that counts
        for row in seat_rows:
            if row.player != HUMAN:
                before.append(COMPUTER_RATINGS.get(row.player, NEW_PLAYER))
                opponents.append(row.player)
            else:
                account = accounts[linked[row.seat]]
                before.append(Rating(account["mu"], account["sigma"]))
                established = account["opponents"] >= self._established
                opponents.append(f"#{account['id']}" if established else None)
        resigned = [int(text.split(":")[1]) for text in texts if text.startswith("resign:")]
        after = new_ratings(before, places(json.loads(game["result"]), resigned))
        for seat in people:
            others = [opponents[row.seat] for row in seat_rows if row.seat != seat]
            share = sum(1.0 if other else self._weight for other in others) / len(others)
            rating = weighted(before[seat], after[seat], share)
            player_id = linked[seat]
            met = self._meet(db, player_id, [other for other in others if other])
            db.execute(
                players.update()
                .where(players.c.id == player_id)
                .values(
                    mu=rating.mu,
                    sigma=rating.sigma,
                    games=players.c.games + 1,
                    opponents=players.c.opponents + met,
                )
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
    def _meet(db: Connection, player_id: int, opponents: list[str]) -> int:
        """Note that the player has met these opponents that count (established players
        and computer levels) in a rated game; how many of them are new."""
        known = set(
            db.execute(
                select(player_opponents.c.opponent).where(
                    player_opponents.c.player_id == player_id,
                    player_opponents.c.opponent.in_(opponents),
                )
            ).scalars()
        )
        new = sorted(set(opponents) - known)
        if new:
            db.execute(
                player_opponents.insert(),
                [{"player_id": player_id, "opponent": opponent} for opponent in new],
            )
        return len(new)

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
