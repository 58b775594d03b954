"""Notices to accounts: what an account's event stream says (a game started or finished, a
challenge made or answered), pushed as it happens to every stream of the account, in this
process and, over the bus, in every other.

Whoever changes a game or a challenge tells its accounts (:meth:`AccountNotices.tell`, or
:meth:`AccountNotices.game`, which reads a game's accounts and seats once); a stream reads
the store only when it opens and after the bus lost messages (:attr:`Inbox.lost`), and keeps
what it said so that a notice heard twice is said once.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from typing import Any, Final

from sqlalchemy import Engine, select

from sosgame.web.live.clock import now_ms
from sosgame.web.matchmaking.challenges import ChallengeStore
from sosgame.web.network.bus import Bus
from sosgame.web.storage.schema import games, player_seats, tournament_games

__all__ = ["ACCEPTED", "GAME_FIELDS", "AccountNotices", "Inbox", "answer_line", "game_line"]

ACCEPTED: Final = "challengeAccepted"
"""A notice the streams take (the challenge waits no longer) but do not send: the game's
``gameStart`` says it."""

GAME_FIELDS: Final = ("id", "rows", "cols", "mode", "rated", "seat", "status")
"""The fields of a game in ``gameStart`` and ``gameFinish``."""


def game_line(game: dict[str, Any]) -> dict[str, Any]:
    """``gameStart`` or ``gameFinish`` of a game as the event stream shows it."""
    kind = "gameFinish" if game["status"] == "finished" else "gameStart"
    shown = {key: game[key] for key in GAME_FIELDS}
    if game.get("tournament") is not None:
        shown["tournament"] = game["tournament"]
    return {"type": kind, "game": shown}


def answer_line(shown: dict[str, Any], answer: str) -> dict[str, Any]:
    """The line of a challenge answered ``answer`` (``canceled``, or ``declined:`` and the
    reason)."""
    if answer.startswith("declined:"):
        reason = answer.partition(":")[2]
        return {"type": "challengeDeclined", "challenge": {**shown, "declineReason": reason}}
    return {"type": "challengeCanceled", "challenge": shown}


def _seats_of(engine: Engine, game_id: str) -> list[tuple[int, dict[str, Any]]]:
    """Each account seated in the game, with its seat as the event stream shows it."""
    query = (
        select(
            player_seats.c.player_id,
            player_seats.c.seat,
            games.c.id,
            games.c.status,
            games.c.rows,
            games.c.cols,
            games.c.mode,
            games.c.rated,
            tournament_games.c.tournament_id,
        )
        .join(games, games.c.id == player_seats.c.game_id)
        .outerjoin(tournament_games, tournament_games.c.game_id == games.c.id)
        .where(player_seats.c.game_id == game_id)
    )
    with engine.begin() as db:
        rows = db.execute(query).all()
    return [
        (
            row.player_id,
            {
                "id": row.id,
                "rows": row.rows,
                "cols": row.cols,
                "mode": row.mode,
                "rated": bool(row.rated),
                "seat": row.seat,
                "status": row.status,
                "tournament": row.tournament_id,
            },
        )
        for row in rows
    ]


class Inbox:
    """One event stream's notices, in the order they came."""

    def __init__(self, account: int) -> None:
        self.account = account
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.lost = False
        """The bus lost messages since the stream last read the store: read it again."""


class AccountNotices:
    """The event streams of this process, by account, and the notices to them."""

    def __init__(self, bus: Bus, engine: Engine, aside: Callable[..., Awaitable[Any]]) -> None:
        self.bus = bus
        self._engine = engine
        self._aside = aside
        self._challenges = ChallengeStore(engine)
        self._inboxes: dict[int, set[Inbox]] = {}
        self._listeners: dict[int, set[Callable[[dict[str, Any]], None]]] = {}
        self._following: Counter[int] = Counter()
        bus.on_notice(self.heard)

    async def open(self, account: int) -> Inbox:
        """An inbox for a new stream of ``account``; once this returns, no notice to the
        account is missed (read the store after it, never before)."""
        inbox = Inbox(account)
        self._inboxes.setdefault(account, set()).add(inbox)
        await self._follow(account)
        return inbox

    async def watch(self, account: int, listener: Callable[[dict[str, Any]], None]) -> None:
        """Call ``listener`` with every notice to ``account`` from now on (a lobby socket
        of the account: it takes the ``paired`` of its tournament games)."""
        self._listeners.setdefault(account, set()).add(listener)
        await self._follow(account)

    async def unwatch(self, account: int, listener: Callable[[dict[str, Any]], None]) -> None:
        """Stop calling ``listener``."""
        found = self._listeners.get(account)
        if found is None or listener not in found:
            return
        found.discard(listener)
        if not found:
            del self._listeners[account]
        await self._unfollow(account)

    async def _follow(self, account: int) -> None:
        self._following[account] += 1
        # Every follower waits until the account is followed, not only the first: a second
        # one coming while the first's subscription is under way would otherwise read the
        # store before it, and miss a notice published in between.
        await self.bus.follow_account(account)

    async def _unfollow(self, account: int) -> None:
        self._following[account] -= 1
        if self._following[account] <= 0:
            del self._following[account]
            await self.bus.unfollow_account(account)

    async def close(self, inbox: Inbox) -> None:
        """The stream ended."""
        account = inbox.account
        found = self._inboxes.get(account)
        if found is None or inbox not in found:
            return
        found.discard(inbox)
        if not found:
            del self._inboxes[account]
        await self._unfollow(account)

    def tell(self, accounts: Iterable[int | None], notice: dict[str, Any]) -> None:
        """Push ``notice`` to every stream of each of ``accounts``, here and elsewhere."""
        for account in dict.fromkeys(accounts):
            if account is None:
                continue
            self.heard(account, notice)
            self.bus.notify(account, notice)

    def heard(self, account: int, notice: dict[str, Any]) -> None:
        """A notice to ``account`` (told here, or heard from another process)."""
        for inbox in self._inboxes.get(account, ()):
            inbox.queue.put_nowait(notice)
        for listener in list(self._listeners.get(account, ())):
            listener(notice)

    def lost(self) -> None:
        """The bus dropped messages: every stream reads the store again."""
        for inboxes in self._inboxes.values():
            for inbox in inboxes:
                inbox.lost = True
                inbox.queue.put_nowait({"type": "lost"})

    async def game(self, game_id: str) -> None:
        """Tell each account seated in a game that it started, or finished (one read of
        its seats, on the store's side thread; a stream says each once, however often it
        is told)."""
        for account, seat in await self._aside(_seats_of, self._engine, game_id):
            self.tell([account], game_line(seat))

    async def challenge(self, seek_id: str) -> None:
        """Tell both accounts of a challenge just made."""
        one = await self._aside(self._challenges.by_id, seek_id, now_ms())
        if one is not None and one.game is None and one.answer is None:
            notice = {"type": "challenge", "challenge": one.to_json()}
            self.tell([one.challenger, one.seek.target], notice)

    async def filled(self, seek_id: str) -> None:
        """Tell the accounts of a seek's game that it started, once the seek is filled."""
        game_id = await self._aside(self._challenges.game_of, seek_id)
        if game_id is not None:
            await self.game(game_id)

    @contextlib.asynccontextmanager
    async def closing(self, account: int | None, answer: str = "canceled") -> AsyncIterator[None]:
        """Around a change to ``account``'s challenges (answered, withdrawn, accepted, gone
        with their lobby connection): tell both accounts of each one that waited before and
        waits no longer what became of it (``answer`` for one gone without an answer)."""
        if account is None:
            yield
            return
        before = await self._aside(self._challenges.involving, account, now_ms())
        waiting = [one for one in before if one.game is None and one.answer is None]
        yield
        if not waiting:
            return
        after = await self._aside(self._challenges.involving, account, now_ms())
        now = {one.seek.id: one for one in after}
        for one in waiting:
            found = now.get(one.seek.id)
            parties = [one.challenger, one.seek.target]
            if found is not None and found.game is None and found.answer is None:
                continue
            if found is not None and found.game is not None:
                self.tell(parties, {"type": ACCEPTED, "challenge": {"id": one.seek.id}})
                await self.game(found.game)
                continue
            ended = found.answer if found is not None and found.answer else answer
            self.tell(parties, answer_line(one.to_json(), ended))

    @property
    def streams(self) -> int:
        """Event streams open here."""
        return sum(len(inboxes) for inboxes in self._inboxes.values())
