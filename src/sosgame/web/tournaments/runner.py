"""The tournaments as the server runs them: every ``tournament_tick_seconds``, each process
starts the tournaments whose time has come, counts a game not started as lost (its player
paused), creates the server's own scheduled tournaments ahead of their start
(:mod:`sosgame.web.tournaments.schedule`), pairs an Arena's waiting players or a Swiss's
next round, and ends the tournaments that are over.

Every step is a pure function of what is stored (:mod:`sosgame.web.tournaments.views`), and
each tick or round is made in its turn in the store
(:meth:`~sosgame.web.tournaments.store.TournamentStore.turn`), so one process or several
make the same tournament. The process that makes a game tells its players: ``paired`` (with
the seat's token, which only it ever knows) on their lobby sockets, through the account
notices that reach every process, and ``gameStart`` on their event streams.

The time comes from ``now`` (milliseconds), which the tests replace.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable
from functools import partial
from typing import Any

from sosgame.tournaments.arena_pairing import pair_arena
from sosgame.tournaments.swiss_pairing import pair_swiss
from sosgame.web.live import clock as clocks
from sosgame.web.live.hub import Hub
from sosgame.web.matchmaking import creation
from sosgame.web.people.tokens import hash_token
from sosgame.web.storage.rows import HUMAN, SeatRow
from sosgame.web.storage.writer import StorageUnavailableError
from sosgame.web.tournaments import views
from sosgame.web.tournaments.schedule import Scheduled, upcoming
from sosgame.web.tournaments.store import (
    EntrantRow,
    Planned,
    Snapshot,
    TournamentStore,
    seat_token,
)

__all__ = ["SMALL_TOURNAMENT", "TournamentRunner"]

_log = logging.getLogger(__name__)

SMALL_TOURNAMENT = 12
"""The most active players of an Arena whose pairing counts them (see ``pair_arena``)."""


class TournamentRunner:
    """The tournaments as one hub runs them."""

    def __init__(
        self,
        hub: Hub,
        *,
        now: Callable[[], int] = clocks.now_ms,
        schedule: tuple[Scheduled, ...] = (),
    ) -> None:
        self.hub = hub
        self.schedule = schedule
        """The server's own tournaments, created ahead of their start."""
        self._scheduled: set[str] = set()
        """The scheduled ones this process knows are stored."""
        self.store = TournamentStore(hub.store.engine)
        self.now = now
        self.speed = hub.limits.tournament_speed
        self.tick_ms = max(1, round(hub.limits.tournament_tick_seconds * 1000))
        self.secret = ""
        """The seat tokens' secret (:func:`~sosgame.web.tournaments.store.seat_token`)."""
        self._task: asyncio.Task[None] | None = None

    def results(self, player_id: int) -> list[dict[str, Any]]:
        """The latest tournaments the player is in, each with their rank and score there
        (blocks: for the hub's store thread)."""
        return [
            views.result_of(snapshot, player_id, self.speed)
            for snapshot in self.store.entered(player_id)
        ]

    def start(self) -> None:
        """Run the tournaments every tick (call once the event loop runs)."""
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._loop())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.tick_ms / 1000)
            try:
                await self.run()
            except StorageUnavailableError:
                pass  # logged once by the database, for the whole outage
            except Exception:  # the next tick tries again
                _log.exception("a tournament tick failed")

    async def run(self) -> None:
        """One tick of every tournament under way."""
        now = self.now()
        self.secret = await self.hub.db(self.store.seat_secret)
        for tournament_id, settings in upcoming(self.schedule, now):
            if tournament_id not in self._scheduled:
                await self.hub.db(self.store.create_scheduled, tournament_id, settings, now)
                self._scheduled.add(tournament_id)
        for tournament_id in await self.hub.db(self.store.due, now):
            await self._run(tournament_id, now)

    async def _run(self, tournament_id: str, now: int) -> None:
        snapshot = await self.hub.db(self.store.snapshot, tournament_id)
        if snapshot is None:
            return
        settings = snapshot.tournament.settings
        swiss = settings.kind == "swiss"
        forfeited = False
        for game in snapshot.games:
            loser = views.forfeit_loser(game)
            if loser is not None and game.forfeit is None:
                forfeited |= await self.hub.db(self.store.forfeit, game.game_id, loser, swiss=swiss)
        if forfeited:
            snapshot = await self.hub.db(self.store.snapshot, tournament_id)
            assert snapshot is not None
        if swiss:
            await self._swiss(snapshot, now)
        else:
            await self._arena(snapshot, now)

    async def _arena(self, snapshot: Snapshot, now: int) -> None:
        tournament = snapshot.tournament
        ends = views.ends_at(tournament.settings, self.speed)
        assert ends is not None
        if now >= ends:
            await self.hub.db(self.store.finish, tournament.id, now)
            return
        number = (now - tournament.settings.starts_at) // self.tick_ms + 1
        plan = partial(self._plan_arena, now=now)
        made = await self.hub.db(self.store.turn, tournament.id, number, now, plan)
        if made is not None:
            await self._tell(tournament.id, made)

    async def _swiss(self, snapshot: Snapshot, now: int) -> None:
        tournament = snapshot.tournament
        if any(not views.counted(game) for game in snapshot.games):
            return  # the round goes on
        rounds = tournament.settings.rounds or 0
        present = [one for one in snapshot.entrants if not one.withdrawn]
        if tournament.round >= rounds or (tournament.round == 0 and len(present) < 2):
            await self.hub.db(self.store.finish, tournament.id, now)
            return
        made = await self.hub.db(
            self.store.turn, tournament.id, tournament.round + 1, now, self._plan_swiss
        )
        if made is not None:
            await self._tell(tournament.id, made)

    # ------------------------------------------------------------- plans (in the store)

    def _plan_arena(self, snapshot: Snapshot, *, now: int) -> Planned:
        settings = snapshot.tournament.settings
        assert settings.clock is not None
        ends = settings.starts_at + (settings.minutes or 0) * 60_000
        waiting = views.waiting_players(snapshot, now, self.speed)
        active = sum(1 for one in snapshot.entrants if not one.withdrawn and not one.paused)
        pairs = pair_arena(
            waiting,
            clock=settings.clock,
            cells=settings.cells,
            now=views.scaled(settings, now, self.speed),
            starts_at=settings.starts_at,
            ends_at=ends,
            active=active if active <= SMALL_TOURNAMENT else None,
            coin=random.Random(),
        )
        by_id = {str(one.player_id): one for one in snapshot.entrants}
        planned = Planned()
        for pair in pairs:
            self._game(snapshot, planned, by_id[pair.first], by_id[pair.second])
        return planned

    def _plan_swiss(self, snapshot: Snapshot) -> Planned:
        paired = pair_swiss(views.swiss_state(snapshot))
        by_id = {str(one.player_id): one for one in snapshot.entrants}
        planned = Planned(round=paired.number)
        for game in paired.games:
            self._game(snapshot, planned, by_id[game.first], by_id[game.second])
        planned.bye = None if paired.bye is None else by_id[paired.bye].player_id
        return planned

    def _game(
        self, snapshot: Snapshot, planned: Planned, first: EntrantRow, second: EntrantRow
    ) -> None:
        settings = snapshot.tournament.settings
        clock = settings.clock
        spec: creation.ClockSpec | None = (0, 0, settings.days)
        if clock is not None:
            spec = (clock.initial * 1000, clock.increment * 1000, None)
        game = creation.stored_game(
            kind="online",
            rows=settings.rows,
            cols=settings.cols,
            mode=settings.mode,
            # Taken (the tokens, made from the game's id, replace these below).
            seats=[SeatRow(seat, one.name, HUMAN, "-") for seat, one in enumerate((first, second))],
            clock=spec,
            rated=settings.rated,
        )
        if settings.kind == "arena" and game.clock is not None:
            game.clock[clocks.BERSERK] = []  # its players may go berserk
        tokens = (seat_token(self.secret, game.id, 0), seat_token(self.secret, game.id, 1))
        for row, token in zip(game.seats, tokens, strict=True):
            row.token_hash = hash_token(token)
        planned.games.append((game, first.player_id, second.player_id))
        planned.tokens.append(tokens)

    async def _tell(self, tournament_id: str, planned: Planned) -> None:
        notices = self.hub.notices
        for (game, first, second), tokens in zip(planned.games, planned.tokens, strict=True):
            for seat, (account, token) in enumerate(zip((first, second), tokens, strict=True)):
                notice = {
                    "type": "paired",
                    "game": game.id,
                    "seat": seat,
                    "token": token,
                    "tournament": tournament_id,
                }
                notices.tell([account], notice)
            await notices.game(game.id)
