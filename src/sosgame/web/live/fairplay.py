"""Fair play between people, for a room: when the clocks start, aborting a game that has
barely begun, offers by consent (draw and takeback; rematches are made by
:mod:`sosgame.web.live.rematches`) and claims against a seat that left a game without a clock.

:class:`FairPlay` is a part of :class:`sosgame.web.live.room.Room`: it reads and changes the
room's game, seats, clock and offers, and writes its changes to the store with the same
version check as a move.

* **Honest clocks.** No clock runs until every seat has made its first move (or resigned);
  until then the clock's ``waiting`` is when the seat to move began to wait for its first
  move, and in an online game with a clock a seat that does not make it within
  ``ServerLimits.first_move_seconds`` aborts the game.
* **Abort.** Until every seat has made its first move, any player may abort: the game ends
  as ``aborted``, with no winner (and is never rated). Once every seat has moved the game
  has begun for good: a takeback of a first move opens neither the abort nor the first-move
  timer again (``games.begun`` remembers it).
* **Offers.** ``draw`` and ``takeback`` stand while the game does not change (they are
  stamped with the game's version and lapse with it); ``rematch`` stands once the game is
  over, until ``ServerLimits.rematch_offer_seconds`` pass. Every other seat concerned must
  accept; one that declines ends the offer; whoever made it may withdraw it.
* **Abandonment.** In an online game without a clock, once a seat has been disconnected for
  ``ServerLimits.abandon_seconds`` the players left may claim the win (with two seats; with
  more, the absent seats resign and the game goes on) or a draw.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, Final, NoReturn, TypeAlias

from sosgame.game import Game
from sosgame.snapshot import Snapshot, build_game
from sosgame.table import Table
from sosgame.web.live import clock as clocks
from sosgame.web.live import permissions
from sosgame.web.live.fanout import Connection, LocalChannel
from sosgame.web.live.host import RoomHost
from sosgame.web.live.protocol import (
    AbortMessage,
    AnswerMessage,
    ClaimMessage,
    OfferMessage,
    ProtocolError,
    WithdrawMessage,
)
from sosgame.web.storage.rows import HUMAN, Change, SeatRow, StoredGame
from sosgame.web.storage.writer import StaleWriteError

__all__ = ["ENDINGS", "FairMessage", "FairPlay", "ending_of", "live_offers", "stamped"]

ENDINGS: Final = ("aborted", "agreement", "abandoned")
"""Terminations the engine does not know: the room's result says them instead."""
FairMessage: TypeAlias = (
    OfferMessage | AnswerMessage | WithdrawMessage | AbortMessage | ClaimMessage
)
"""The client messages :meth:`FairPlay.act` carries out."""


def ending_of(result: dict[str, Any] | None) -> dict[str, Any] | None:
    """A stored result that the engine cannot tell from the moves (an abort, an agreement,
    an abandoned game), else ``None``."""
    if isinstance(result, dict) and result.get("termination") in ENDINGS:
        return result
    return None


def live_offers(
    offers: list[dict[str, Any]], *, version: int, playing: bool, finished: bool, now: int
) -> list[dict[str, Any]]:
    """The offers that still stand: draws and takebacks while the game is at the version
    they were made at, rematches while the game is over and they have not lapsed."""
    standing = []
    for item in offers:
        kind = item.get("offer")
        if kind == "rematch":
            if finished and now < int(item.get("lapses", 0)):
                standing.append(item)
        elif playing and item.get("version") == version:
            standing.append(item)
    return standing


def stamped(offers: list[dict[str, Any]], version: int) -> list[dict[str, Any]]:
    """The offers as stored at ``version`` (a draw or takeback stands while it lasts)."""
    return [item if item["offer"] == "rematch" else {**item, "version": version} for item in offers]


class FairPlay:
    """The room's side of fair play (a mixin of :class:`~sosgame.web.live.room.Room`)."""

    hub: RoomHost
    id: str
    kind: str
    seats: list[SeatRow]
    status: str
    start: dict[str, Any] | None
    table: Table
    clock: dict[str, Any] | None
    version: int
    channel: LocalChannel
    lock: asyncio.Lock
    rematch_id: str | None
    offers: list[dict[str, Any]]
    ending: dict[str, Any] | None
    rated: bool
    away_since: dict[int, int]
    came_back: dict[int, tuple[int, int]]
    """Per seat that came back in time: the ply and how long it had been away."""
    seen_here: set[int]
    """The seats that have been connected since the room was opened."""
    _moved: tuple[int, frozenset[int]]
    _last: tuple[tuple[int, int], tuple[dict[int, int], int]]
    _begun: bool
    """Every seat had made its first move before a takeback undid one."""

    @property
    def game(self) -> Game:
        """The game, as the engine keeps it."""
        return self.table.game

    def start_fair(self, stored: StoredGame) -> None:
        """Take the stored game's offers, ending and rating choice; nobody is here yet."""
        self.take_fair(stored)
        self.rated = stored.rated is not False and stored.kind == "online"
        self.away_since = {}
        self.came_back = {}
        self.seen_here = set()
        self._moved = (-1, frozenset())
        self._last = ((-1, -1), ({}, -1))
        self.note_presence()

    def take_fair(self, stored: StoredGame) -> None:
        """Take the stored game's offers, ending and whether it has begun for good (when
        the room opens, and when it reads the game again)."""
        self.offers = list(stored.offers or [])
        self.ending = ending_of(stored.result) if stored.status == "finished" else None
        self._begun = stored.begun

    def rewind(self, keep: int) -> None:
        """Take the table back to its first ``keep`` actions (a takeback, here or heard
        from another process), remembering whether an online game had begun (a local
        game's undo may go back before it)."""
        self._begun = self.started and self.kind == "online"
        self.table.rewind(keep)

    @property
    def queues_computer_moves(self) -> bool:
        raise NotImplementedError

    # Carried out by the room.
    async def commit(self, text: str, *, flagged: int | None = None) -> None:
        raise NotImplementedError

    async def undo_to(self, keep: int) -> None:
        raise NotImplementedError

    async def reload(self) -> None:
        raise NotImplementedError

    def changed(self, state_text: str | None = None) -> None:
        raise NotImplementedError

    def forget_state(self) -> None:
        raise NotImplementedError

    def result(self) -> dict[str, Any] | None:
        raise NotImplementedError

    def _stored(self, change: Change) -> None:
        raise NotImplementedError

    def publish_state(self, text: str | None = None) -> None:
        raise NotImplementedError

    def arm_timer(self) -> None:
        raise NotImplementedError

    # ----------------------------------------------------------------------- who moved

    def moved_seats(self) -> frozenset[int]:
        """The seats that have made at least one move (resignations are not moves)."""
        ply = len(self.game.actions)
        if self._moved[0] == ply:
            return self._moved[1]
        game = self.game
        replay = build_game(Snapshot(game.rows, game.cols, game.players, game.mode, self.start, ()))
        moved: set[int] = set()
        for action in game.actions:
            text = str(action)
            if not text.startswith("resign:"):
                moved.add(replay.turn)
                if len(moved) == game.players:
                    break
            replay.apply(text)
        self._moved = (ply, frozenset(moved))
        return self._moved[1]

    @property
    def started(self) -> bool:
        """Whether every seat has made its first move (or resigned), now or before a
        takeback: the clocks run, and the game can no longer be aborted."""
        if self._begun:
            return True
        moved = self.moved_seats()
        active = set(self.game.active_seats)
        return all(seat in moved or seat not in active for seat in range(self.game.players))

    @property
    def days(self) -> int | None:
        """Days per move of a correspondence game, else ``None``."""
        return None if self.clock is None else self.clock.get("days")

    def deadline(self) -> int | None:
        """When the seat to move of a correspondence game that has started runs out of
        days, else ``None``."""
        if self.clock is None or self.clock.get("since") is None:
            return None
        if self.status != "playing" or self.game.is_over:
            return None
        return clocks.deadline_ms(self.clock)

    def settle_clock(self, clock: dict[str, Any], now: int) -> None:
        """After a change: the clock of the seat to move runs once every seat has made its
        first move; until then no clock runs and the seat to move waits from ``now``."""
        if self.game.is_over or self.status != "playing":
            clock["since"] = None
        elif self.started:
            clock["since"] = now
            clock["waiting"] = None
        else:
            clock["since"] = None
            clock["waiting"] = now

    # ------------------------------------------------------------------ the state shown

    def fair_state(self) -> dict[str, Any]:
        """What the state says of offers, rating and absent seats."""
        now = clocks.now_ms()
        standing = self.standing_offers(now)
        away = self.abandonment()
        return {
            "offers": [
                {
                    "offer": item["offer"],
                    "from": item["from"],
                    "accepted": list(item.get("accepted", [])),
                    "waiting": permissions.waiting_for(self, item),
                    **(
                        {"lapses": max(0, int(item["lapses"]) - now)}
                        if item["offer"] == "rematch"
                        else {}
                    ),
                }
                for item in standing
            ],
            "can_abort": self.status == "playing" and not self.game.is_over and not self.started,
            "first_move": self._first_move_left(now),
            "abandon": away,
        }

    @property
    def changes_with_time(self) -> bool:
        """Whether the state shows a countdown (so its text is not kept for newcomers)."""
        away = self.abandonment()
        return (
            bool(self.standing_offers())
            or (away is not None and any(item is not None for item in away["away"]))
            or self.first_move_deadline() is not None
        )

    def standing_offers(self, now: int | None = None) -> list[dict[str, Any]]:
        """The offers that still stand."""
        return live_offers(
            self.offers,
            version=self.version,
            playing=self.status == "playing" and not self.game.is_over,
            finished=self.status == "finished" and self.rematch_id is None,
            now=clocks.now_ms() if now is None else now,
        )

    # ------------------------------------------------------------------------ messages

    async def act(self, connection: Connection, message: FairMessage) -> None:
        """Carry out an ``offer``, ``answer``, ``withdraw``, ``abort`` or ``claim`` (under
        the room's lock; a rematch offer is :mod:`sosgame.web.live.rematches`' work), each
        once :mod:`~sosgame.web.live.permissions` allows it."""
        held = connection.seats
        match message:
            case AbortMessage(ply=ply):
                permissions.check_abort(self, held, ply)
                await self.finish("aborted", [])
            case ClaimMessage(claim=claim, ply=ply):
                await self._claim(held, claim, permissions.check_claim(self, held, ply))
            case OfferMessage(offer=kind, ply=ply):
                permissions.check_offer(self, held, kind, ply)
                await self._offer(held, kind)
            case AnswerMessage(offer=kind, accept=accept, ply=ply):
                permissions.check_answer(self, held, kind, ply)
                await self._answer(held, kind, accept)
            case WithdrawMessage(offer=kind, ply=ply):
                permissions.check_withdraw(self, held, kind, ply)
                await self._withdraw(held, kind)

    async def _offer(self, held: frozenset[int], kind: str) -> None:
        required = permissions.required_seats(self)
        mine = held & required
        same = permissions.standing(self, kind)
        if same is not None:  # the same offer, from another seat: accepted
            await self._answer(held, kind, True)
            return
        offer: dict[str, Any] = {"offer": kind, "from": min(mine), "accepted": sorted(mine)}
        if mine >= required:
            await self._carry_out(offer)
            return
        await self.store_offers([*self.standing_offers(), offer])

    async def _answer(self, held: frozenset[int], kind: str, accept: bool) -> None:
        standing = self.standing_offers()
        offer = next(item for item in standing if item["offer"] == kind)
        required = permissions.required_seats(self)
        mine = (held & required) - set(offer["accepted"])
        others = [item for item in standing if item is not offer]
        if not accept:
            await self.store_offers(others)
            return
        offer = {**offer, "accepted": sorted({*offer["accepted"], *mine})}
        if set(offer["accepted"]) >= required:
            await self._carry_out(offer)
            return
        await self.store_offers([*others, offer])

    async def _withdraw(self, held: frozenset[int], kind: str) -> None:
        standing = self.standing_offers()
        await self.store_offers([item for item in standing if item["offer"] != kind])

    def takeback_point(self, asker: int) -> int:
        """How many actions a takeback for ``asker`` keeps: those before its last move."""
        last_moves, last_resignation = self._last_actions()
        last = last_moves.get(asker)
        if last is None:
            raise ProtocolError("nothing_to_undo", f"seat {asker} has made no move to take back")
        if last_resignation > last:
            raise ProtocolError("not_allowed", "a resignation cannot be taken back")
        return last

    def _last_actions(self) -> tuple[dict[int, int], int]:
        """Per seat the index of its last move, and that of the last resignation (-1 if
        none); worked out once per version and ply, as each seat's flags ask for it."""
        game = self.game
        key = (self.version, len(game.actions))
        if self._last[0] == key:
            return self._last[1]
        replay = build_game(Snapshot(game.rows, game.cols, game.players, game.mode, self.start, ()))
        moves: dict[int, int] = {}
        resignation = -1
        for index, action in enumerate(game.actions):
            text = str(action)
            if text.startswith("resign:"):
                resignation = index
            else:
                moves[replay.turn] = index
            replay.apply(text)
        self._last = (key, (moves, resignation))
        return moves, resignation

    async def _carry_out(self, offer: dict[str, Any]) -> None:
        if offer["offer"] == "draw":
            await self.finish("agreement", list(self.game.active_seats))
            return
        point = self.takeback_point(int(offer["from"]))
        if self.started and not self._begun:
            # Stored first: the moves kept after the takeback may no longer show it.
            await self.hub.db(self.hub.store.mark_begun, self.id)
        await self.undo_to(point)

    async def _stale(self) -> NoReturn:
        """Another process changed the game first: read it again and say so."""
        await self.reload()
        self.changed()
        raise ProtocolError(
            "stale", "the game changed meanwhile (through another server); nothing was changed"
        )

    async def store_offers(self, offers: list[dict[str, Any]]) -> None:
        """Write the standing offers (version-checked) and tell everybody."""
        written = stamped(offers, self.version + 1)
        if not await self.hub.db(self.hub.store.set_offers, self.id, self.version, written):
            await self._stale()
        self.offers = written
        self.version += 1
        self.hub.bus.publish(self.id, {"reload": True, "version": self.version})
        self.changed()

    # --------------------------------------------------------------------------- abort

    def first_move_deadline(self) -> int | None:
        """When the seat to move aborts the game by not making its first move (online
        games with a clock), or ``None``."""
        clock = self.clock
        if clock is None or self.kind != "online" or self.status != "playing":
            return None
        if self.game.is_over or clock.get("waiting") is None or self.started:
            return None
        seat = self.game.turn
        if self.seats[seat].player != HUMAN or seat in self.moved_seats():
            return None
        if self.days:
            return int(clock["waiting"]) + int(clock["initial"])
        return int(clock["waiting"]) + int(self.hub.limits.first_move_seconds * 1000)

    def _first_move_left(self, now: int) -> dict[str, int] | None:
        deadline = self.first_move_deadline()
        if deadline is None:
            return None
        return {"seat": self.game.turn, "left": max(0, deadline - now)}

    def fair_timer(self) -> asyncio.Task[None] | None:
        """While no clock runs: the timer that aborts the game when the seat to move misses
        its first move, or the one that tells everybody when a rematch offer lapses (armed
        again after every change, in every process that has the game)."""
        deadline = self.first_move_deadline()
        if deadline is not None:
            return asyncio.get_running_loop().create_task(self._abort_at(deadline))
        moments = [int(item["lapses"]) for item in self.standing_offers() if "lapses" in item]
        moments += self._claimable_at(clocks.now_ms())
        if moments:
            return asyncio.get_running_loop().create_task(self._lapse_at(min(moments)))
        return None

    def _claimable_at(self, now: int) -> list[int]:
        """When seats away now may be claimed against, those still to come: the state's
        ``allowed`` changes then."""
        if not self.abandonable:
            return []
        limit = int(self.hub.limits.abandon_seconds * 1000)
        active = set(self.game.active_seats)
        moments = (since + limit for seat, since in self.away_since.items() if seat in active)
        return [moment for moment in moments if moment >= now]

    async def _lapse_at(self, when: int) -> None:
        await clocks.sleep_until(when + 1)
        self.publish_state()
        self.arm_timer()  # for the next moment, if any

    async def _abort_at(self, deadline: int) -> None:
        await clocks.sleep_until(deadline)
        async with self.lock:
            await self.end_overdue()

    async def end_overdue(self) -> None:
        """Under the room's lock: abort the game if the seat to move missed its first move
        in time, or put it out if it ran out of days per move (nothing if neither)."""
        now = clocks.now_ms()
        first = self.first_move_deadline()
        deadline = self.deadline()
        with contextlib.suppress(ProtocolError):  # another process ended it first
            if first is not None and first <= now:
                await self.finish("aborted", [])
            elif first is None and deadline is not None and deadline <= now:
                await self.commit(f"resign:{self.game.turn}", flagged=self.game.turn)

    # ----------------------------------------------------------------------- endings

    async def finish(self, termination: str, winners: list[int]) -> None:
        """End the game as the engine would not: aborted, agreed or abandoned."""
        now = clocks.now_ms()
        clock = None
        if self.clock is not None:
            clock = {**self.clock, "since": None, "waiting": None}
            view = clocks.view(self.clock, self.game.turn)
            if view is not None:
                clock["remaining"] = view["remaining"]
        ending = {
            "termination": termination,
            "winners": winners,
            "scores": list(self.game.scores),
            "flagged": [] if clock is None else list(clock.get("flagged", [])),
        }
        change = Change(
            self.id,
            status="finished",
            result=ending,
            clock=clock,
            now_ms=now,
            first_ply=len(self.game.actions) + 1,
            version=self.version,
            hands_over=self.queues_computer_moves,
        )
        try:
            await self.hub.database.write(change)
        except StaleWriteError:
            await self._stale()
        self.ending = ending
        self.clock = clock
        self.status = "finished"
        self._stored(change)
        self.changed()

    # ------------------------------------------------------------------ abandonment

    def note_presence(self) -> bool:
        """Note which seats are away since when; whether that changed a game in which it
        matters (the state is then sent again)."""
        connected = self.channel.connected_seats()
        now = clocks.now_ms()
        before = set(self.away_since)
        for row in self.seats:
            if row.player != HUMAN or row.seat in connected:
                since = self.away_since.pop(row.seat, None)
                if since is not None and row.seat in self.seen_here:
                    self.came_back[row.seat] = (len(self.game.actions), now - since)
                if row.player == HUMAN:
                    self.seen_here.add(row.seat)
            else:
                self.away_since.setdefault(row.seat, now)
        return set(self.away_since) != before and self.abandonable

    @property
    def abandonable(self) -> bool:
        return (
            self.kind == "online"
            and self.clock is None
            and self.status == "playing"
            and not self.game.is_over
        )

    def abandonment(self) -> dict[str, Any] | None:
        """In a game that can be abandoned (online, without a clock, going on): ``after``
        (ms away before a claim), per seat how long it has been away (``null``: here, or
        out of the game), and ``back``: per seat that came back in time since the last
        move, how long it was away."""
        if not self.abandonable:
            return None
        now = clocks.now_ms()
        active = set(self.game.active_seats)
        away = [
            now - self.away_since[seat] if seat in self.away_since and seat in active else None
            for seat in range(len(self.seats))
        ]
        ply = len(self.game.actions)
        back = [
            self.came_back[seat][1]
            if seat in self.came_back and self.came_back[seat][0] == ply
            else None
            for seat in range(len(self.seats))
        ]
        return {"after": int(self.hub.limits.abandon_seconds * 1000), "away": away, "back": back}

    async def _claim(self, held: frozenset[int], claim: str, absent: list[int]) -> None:
        """Carry out a claim allowed against the ``absent`` seats."""
        active = list(self.game.active_seats)
        if claim == "draw":
            await self.finish("abandoned", active)
            return
        left = [seat for seat in active if seat not in absent]
        for seat in absent:
            if len(left) == 1 and seat == absent[-1]:
                self.ending = {
                    "termination": "abandoned",
                    "winners": left,
                    "scores": list(self.game.scores),
                    "flagged": [],
                }
            try:
                await self.commit(f"resign:{seat}")
            except ProtocolError:
                self.ending = None
                raise
