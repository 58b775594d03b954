"""The lobby of one hub: its players waiting in the pools, paired at each sweep.

The entries live in the store (:mod:`sosgame.web.matchmaking.poolstore`),
so every process sees every
player waiting; each process holds its own players' connections. Entering a pool wakes the
hubs on the bus; at its next sweep each hub with players waiting pairs their pools
(:func:`sosgame.web.matchmaking.pools.pairings`),
stores each new game with its seats taken in the same
transaction as the entries, wakes the others again, and hands its own paired players their
game, seat and token. A player alone for ``pool_fallback_seconds`` is offered a computer
opponent of about their rating, in a casual game. Each game passes the caps of games of its
players (:mod:`sosgame.web.guards.gamecaps`), and a rated pool never pairs a client address with
itself.

Every lobby connection is kept up to date (:meth:`Lobby.push`): at a sweep, at most every
:data:`PUSH_MS`, the hub reads the open seeks and the pools' counts once, and sends each of
its connections its own view of them (the seeks it may take, the challenges to or from it)
when that view changed. A change on any process wakes the bus, so every hub pushes at once.

The time comes from ``now`` (milliseconds), which the tests replace.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from sosgame.ratings import Rating
from sosgame.web.guards import gamecaps
from sosgame.web.guards.gamecaps import Party
from sosgame.web.live import clock as clocks
from sosgame.web.live.fanout import Connection
from sosgame.web.live.hub import Hub
from sosgame.web.live.protocol import (
    PROTOCOL_VERSION,
    ClockSettings,
    NewGame,
    ProtocolError,
    SeatSettings,
)
from sosgame.web.matchmaking import creation
from sosgame.web.matchmaking.challenges import ChallengeStore
from sosgame.web.matchmaking.pools import Pool, Waiting, computer_level, pairings
from sosgame.web.matchmaking.poolstore import Entry, PoolStore
from sosgame.web.matchmaking.seeks import (
    CHALLENGE_MS,
    CHALLENGES_PER_PLAYER,
    Member,
    Seek,
    SeekSettings,
    SeekStore,
    member_of,
    seat_token,
)
from sosgame.web.people.tokens import hash_token, new_token
from sosgame.web.storage.rows import HUMAN, SeatRow, StoredGame

__all__ = ["PUSH_MS", "STALE_MS", "Lobby", "LobbyClient", "seek_game"]

STALE_MS: Final = 15_000
"""An entry whose process has not renewed it for this long is gone with that process."""
PUSH_MS: Final = 500
"""The least time between two pushes of the lobby's lists by one hub (so to one socket):
a burst of changes is sent as one push, at the next sweep."""
LEFT_GRACE_MS: Final = 20_000
"""How long a challenge waits for its challenger's page to come back (reloaded, say) once
its lobby connection closed: lichess's 20 s, after which a challenge whose challenger is
not seen is withdrawn."""


@dataclass
class LobbyClient:
    """One lobby connection: who it is, and its entry while it waits in a pool."""

    connection: Connection
    address: str
    name: str
    account: int | None = None
    rating: float = 25.0
    player: str = field(default_factory=lambda: "guest:" + secrets.token_hex(8))
    entry: Entry | None = None
    token: str = ""
    offered: str | None = None
    """The computer level offered, once the wait ran out."""
    shown: float = 0.0
    """The rating the lobby shows (``mu - 3 sigma``), which seeks' ranges are of."""
    secret: str = ""
    """The connection's secret (``welcome``'s ``lobby``): it names the seeks it makes."""
    sent: dict[str, Any] = field(default_factory=dict)
    """The lists last pushed to it, by message type (each sent again only once changed)."""
    bot: bool = False
    """Whether its account is a bot's: bots play by challenge, never in the people's pools."""
    told: set[str] = field(default_factory=set)
    """The answered challenges it was told of (``challengeDeclined``, ``challengeCanceled``)."""


def _message(kind: str, **fields: Any) -> dict[str, Any]:
    return {"v": PROTOCOL_VERSION, "type": kind, **fields}


class Lobby:
    """The pools as one hub serves them (``pools``: the configured list)."""

    def __init__(
        self, hub: Hub, pools: tuple[Pool, ...], *, now: Callable[[], int] = clocks.now_ms
    ) -> None:
        self.hub = hub
        self.pools = {pool.id: pool for pool in pools}
        self.entries = PoolStore(hub.store.engine)
        self.now = now
        self.holder = hub.bus.origin
        self.waiting: dict[str, LobbyClient] = {}
        """This hub's clients in a pool, by entry id (until told they are paired)."""
        self.seeks = SeekStore(hub.store.engine)
        self.challenges = ChallengeStore(hub.store.engine)
        self._leaving: set[asyncio.Task[None]] = set()
        """The challenges left by a page that went, each withdrawn unless taken back."""
        self.clients: dict[str, LobbyClient] = {}
        """This hub's lobby connections, by the hash of their secret."""
        self.listed: tuple[list[Seek], dict[str, int]] | None = None
        """The open seeks and the pools' counts as last read (for every connection)."""
        self.answered: list[tuple[Seek, str]] = []
        """The challenges answered without a game, as last read."""
        self.pushed_ms = -PUSH_MS

    def connect(self, client: LobbyClient) -> str:
        """A new lobby connection: its secret (which names this process)."""
        client.secret = f"{self.holder}.{new_token()}"
        self.clients[hash_token(client.secret)] = client
        return client.secret

    async def greet(self, client: LobbyClient) -> None:
        """Send a new connection the lists as last read (the next sweep reads them anew);
        a named player's connection takes back the challenges their page left."""
        if client.account is not None:
            taken = await self.hub.db(
                self.challenges.take_back, client.account, client.secret, self.now()
            )
            if taken:
                self.pushed_ms = -PUSH_MS  # shown as theirs again at once
                await self.push()
                return
        if self.listed is not None:
            await self._show(client)

    # ------------------------------------------------------------------ live lists

    async def push(self) -> None:
        """Read the seeks and the counts once, and send each connection its view if it
        changed; at most once in :data:`PUSH_MS` (the next sweep sends what waits)."""
        now = self.now()
        if not self.clients or now - self.pushed_ms < PUSH_MS:
            return
        self.pushed_ms = now
        found = await self.hub.db(self.seeks.open_seeks, now, STALE_MS)
        counts = await self.hub.db(self.entries.counts, now, STALE_MS)
        self.answered = await self.hub.db(self.seeks.answered, now)
        self.listed = (found, counts)
        for client in list(self.clients.values()):
            await self._show(client)

    async def _show(self, client: LobbyClient) -> None:
        assert self.listed is not None
        found, counts = self.listed
        mine = hash_token(client.secret)
        await self._tell_answers(client, mine)
        seeks = [
            self._seek(seek, mine)
            for seek in found
            if seek.target is None and (seek.member == mine or self._open(seek, client))
        ]
        challenges = [
            self._challenge(seek, self._own(seek, client, mine))
            for seek in found
            if seek.target is not None
            and (
                self._own(seek, client, mine)
                or (client.account is not None and seek.target == client.account)
            )
        ]
        views: dict[str, dict[str, Any]] = {
            "seeks": {"seeks": seeks},
            "pool_counts": {"counts": {pool: counts.get(pool, 0) for pool in self.pools}},
            "challenges": {"challenges": challenges},
        }
        for kind, view in views.items():
            if client.sent.get(kind) != view:
                client.sent[kind] = view
                await client.connection.send(_message(kind, **view))

    async def _tell_answers(self, client: LobbyClient, mine: str) -> None:
        # Before the lists: the challenger learns why before the challenge leaves its list.
        for seek, answer in self.answered:
            if seek.id in client.told:
                continue
            if answer.startswith("declined:") and self._own(seek, client, mine):
                shown = {**self._challenge(seek, True), "declineReason": answer.partition(":")[2]}
                kind = "challengeDeclined"
            elif (
                answer == "canceled"
                and client.account is not None
                and seek.target == client.account
            ):
                shown, kind = self._challenge(seek, False), "challengeCanceled"
            else:
                continue
            client.told.add(seek.id)
            await client.connection.send(_message(kind, challenge=shown))

    @staticmethod
    def _open(seek: Seek, client: LobbyClient) -> bool:
        # As join_seek refuses them: out of range, rated for a guest, rated from one's address.
        if seek.settings.rated and seek.address == client.address:
            return False
        return seek.open_to(client.shown, client.account is not None)

    def _seeker(self, seek: Seek) -> dict[str, Any] | None:
        if seek.seeker is None:
            return None
        mu, sigma, opponents = seek.seeker
        return {
            "rating": Rating(mu, sigma).shown,
            "provisional": opponents < self.hub.limits.established_opponents,
        }

    def _seek(self, seek: Seek, mine: str) -> dict[str, Any]:
        return {**seek.to_json(), "seeker": self._seeker(seek), "mine": seek.member == mine}

    @staticmethod
    def _own(seek: Seek, client: LobbyClient, mine: str) -> bool:
        """Whether the connection's player made the challenge (from this page, or another
        of their account's: every page of theirs shows it, and may withdraw it)."""
        return seek.member == mine or (
            client.account is not None and seek.account == client.account
        )

    def _challenge(self, seek: Seek, own: bool) -> dict[str, Any]:
        shown = seek.to_json()
        return {
            **{key: shown[key] for key in ("id", "rows", "cols", "mode", "clock", "days", "rated")},
            "from": seek.creator,
            "to": seek.target_name,
            "from_bot": seek.bot,
            "to_bot": seek.target_bot,
            "seeker": self._seeker(seek),
            "mine": own,
            "lapses_ms": seek.created_ms + CHALLENGE_MS,
        }

    # ------------------------------------------------------------------ challenges

    async def challenge(
        self, client: LobbyClient, given: SeekSettings, target: int, name: str = ""
    ) -> None:
        """Challenge the player of the account ``target`` (called ``name``) to a game of two."""
        if client.account is None:
            raise ProtocolError("account_needed", "challenges are between named players")
        if target == client.account:
            raise ProtocolError("no_player", "not yourself")
        party = Party(client.address, client.account)
        caps = creation.caps_now(self.hub)
        reason = await self.hub.db(gamecaps.refused, self.hub.store.engine, caps, party)
        if reason is not None:
            raise creation.too_many(reason, self.hub.limits)
        seek_id = secrets.token_urlsafe(9)
        member = member_of(client.secret, seek_id, client.name, client.account)
        made = await self.hub.db(
            self.seeks.create,
            seek_id,
            given,
            member,
            client.address,
            self.now(),
            per_address=CHALLENGES_PER_PLAYER,
            target=target,
        )
        if not made:
            raise ProtocolError("too_many_challenges", f"at most {CHALLENGES_PER_PLAYER}")
        token = seat_token(client.secret, seek_id)
        await client.connection.send(
            _message("challenge_sent", challenge=seek_id, token=token, to=name)
        )
        self.hub.bus.wake()
        await self.hub.notices.challenge(seek_id)

    async def cancel(self, client: LobbyClient, seek_id: str) -> None:
        """The challenger withdraws a challenge not yet answered."""
        async with self.hub.notices.closing(client.account):
            withdrawn = await self.hub.db(self.seeks.withdraw, seek_id, hash_token(client.secret))
            if not withdrawn and client.account is not None:
                # Made from another page of the player's (one that reloaded, say).
                withdrawn = await self.hub.db(
                    self.challenges.answer, seek_id, client.account, "canceled", mine=True
                )
        if not withdrawn:
            raise ProtocolError("no_challenge")
        self.hub.bus.wake()

    async def decline(
        self, client: LobbyClient, seek_id: str | None, reason: str = "generic"
    ) -> None:
        """The challenged player declines a challenge, or every one (``None``), with
        ``reason``."""
        if client.account is None:
            raise ProtocolError("account_needed", "challenges are between named players")
        async with self.hub.notices.closing(client.account, f"declined:{reason}"):
            declined = await self.hub.db(self.seeks.decline, client.account, seek_id, reason)
        if seek_id is not None and not declined:
            raise ProtocolError("no_challenge")
        self.hub.bus.wake()

    async def join_seek(
        self, client: LobbyClient, seek_id: str, *, challenge: bool = False
    ) -> None:
        """Take a seat in a seek (or accept a challenge); the game starts for all once the
        last seat is taken."""
        member = member_of(client.secret, seek_id, client.name, client.account)
        async with self.hub.notices.closing(client.account if challenge else None):
            refused = await self.hub.db(
                self.seeks.join,
                seek_id,
                member,
                client.shown,
                self.now(),
                seek_game,
                address=client.address,
                caps=creation.caps_now(self.hub),
            )
        if refused in gamecaps.REASONS:
            raise ProtocolError(
                "too_many_games",
                "the seek's creator has made as many games as one may for now: the seek is"
                " withdrawn",
            )
        if refused == "no_seek" and challenge:
            raise ProtocolError("no_challenge")
        if refused == "no_seek":
            raise ProtocolError("no_seek", "there is no such seek (filled or withdrawn?)")
        if refused == "not_for_you" and challenge:
            raise ProtocolError("not_for_you", "a challenge to another, or rated from your address")
        if refused == "not_for_you":
            raise ProtocolError(
                "not_for_you", "this seek is for other players (rating, account, address)"
            )
        if refused == "already_joined":
            raise ProtocolError("already_joined")
        # The seat's token now, as the seek's creator has it: a correspondence seek may
        # fill after this connection is gone.
        token = seat_token(client.secret, seek_id)
        await client.connection.send(_message("joined", seek=seek_id, token=token))
        self.hub.bus.wake()
        await self.hub.notices.filled(seek_id)

    async def enter(self, client: LobbyClient, pool_id: str) -> None:
        """Put the client in a pool (out of the one it was in)."""
        pool = self.pools.get(pool_id)
        if pool is None:
            raise ProtocolError("no_pool", f"there is no pool {pool_id!r}; see GET /api/pools")
        if pool.rated and client.account is None:
            raise ProtocolError("account_needed", "rated pools are for players with an account")
        if client.bot:
            raise ProtocolError("no_bots")
        if client.entry is not None:
            await self.leave(client)
            if client.entry is not None:
                return  # paired meanwhile: told at the next sweep
        party = Party(client.address, client.account)
        engine = self.hub.store.engine
        reason = await self.hub.db(gamecaps.refused, engine, creation.caps_now(self.hub), party)
        if reason is not None:
            raise creation.too_many(reason, self.hub.limits)
        token = new_token()
        entry = Entry(
            id=secrets.token_urlsafe(12),
            pool=pool.id,
            player=client.player,
            name=client.name,
            account=client.account,
            rating=client.rating,
            token_hash=hash_token(token),
            holder=self.holder,
            address=client.address,
            entered_ms=self.now(),
        )
        limit = self.hub.limits.pool_entries_per_address
        refused = await self.hub.db(self.entries.enter, entry, self.now(), per_address=limit)
        if refused == "already_waiting":
            raise ProtocolError("already_waiting", "you are waiting in a pool already")
        if refused == "too_many":
            raise ProtocolError(
                "too_many_entries",
                f"this address already has {limit} players waiting in pools, the most one"
                " address may have",
            )
        client.entry, client.token, client.offered = entry, token, None
        self.waiting[entry.id] = client
        await client.connection.send(_message("waiting", pool=pool.id))
        self.hub.bus.wake()

    async def leave(self, client: LobbyClient) -> None:
        """Take the client out of its pool (unless it has just been paired)."""
        entry = client.entry
        if entry is None:
            return
        if await self.hub.db(self.entries.leave, entry.id):
            self.waiting.pop(entry.id, None)
            client.entry, client.offered = None, None
            await client.connection.send(_message("left", pool=entry.pool))

    async def gone(self, client: LobbyClient) -> None:
        """The client's connection closed: its entry and its seeks go, and it leaves the
        seeks it joined (a game it was just paired into is already stored)."""
        if client.secret:
            mine = hash_token(client.secret)
            self.clients.pop(mine, None)
            if client.account is not None:
                await self._leave(client.account, mine)
            async with self.hub.notices.closing(client.account):
                await self.hub.db(self.seeks.gone, mine)
        entry = client.entry
        if entry is not None:
            self.waiting.pop(entry.id, None)
            client.entry = None
            await self.hub.db(self.entries.leave, entry.id)

    async def _leave(self, account: int, member: str) -> None:
        """A named player's connection closed: its challenges waiting go to another
        connection of theirs here, or wait :data:`LEFT_GRACE_MS` for one (a page reloaded)
        and are withdrawn then if none came (lichess keeps a challenge as long as its
        challenger is seen)."""
        now = self.now()
        # Stale to every process's lobby later than this one withdraws them (with notices):
        # only if this process is gone by then.
        later = LEFT_GRACE_MS + STALE_MS
        left = await self.hub.db(self.challenges.leave, member, now, later, STALE_MS)
        if not left:
            return
        other = next((one for one in self.clients.values() if one.account == account), None)
        if other is not None:
            await self.hub.db(self.challenges.take_back, account, other.secret, now)
            self.hub.bus.wake()
            return
        task = asyncio.get_running_loop().create_task(self._withdraw_later(account, left))
        self._leaving.add(task)
        task.add_done_callback(self._leaving.discard)

    async def _withdraw_later(self, account: int, left: list[str]) -> None:
        await asyncio.sleep(LEFT_GRACE_MS / 1000)
        async with self.hub.notices.closing(account):
            await self.hub.db(self.challenges.drop_left, left)
        self.hub.bus.wake()

    async def play_computer(self, client: LobbyClient) -> None:
        """Take the offer of a computer opponent: a casual game against it, at once."""
        entry, level = client.entry, client.offered
        if entry is None or level is None:
            raise ProtocolError("no_offer", "no computer opponent was offered")
        if not await self.hub.db(self.entries.leave, entry.id):
            return  # a person came meanwhile: told at the next sweep
        self.waiting.pop(entry.id, None)
        client.entry, client.offered = None, None
        pool = self.pools[entry.pool]
        settings = NewGame(
            rows=pool.rows,
            cols=pool.cols,
            mode="simple" if pool.mode == "simple" else "general",
            kind="online",
            seats=(SeatSettings(client.name, HUMAN), SeatSettings(level.capitalize(), level)),
            clock=_clock_of(pool),
            days=pool.days,
        )
        room, token, _seats = await creation.create(
            self.hub, settings, owner=client.address, player=client.account
        )
        await client.connection.send(_message("paired", game=room.id, seat=0, token=token))

    # -------------------------------------------------------------------------- sweeps

    async def sweep(self) -> None:
        """Pair this hub's pools, tell its paired players (of pools and seeks), and offer
        computer opponents."""
        if self.clients:
            await self.hub.db(self.seeks.renew, self.holder, self.now())
            for member, seek_id, game, seat in await self.hub.db(self.seeks.collect, self.holder):
                client = self.clients.get(member)
                if client is not None:
                    token = seat_token(client.secret, seek_id)
                    await client.connection.send(
                        _message("paired", game=game, seat=seat, token=token)
                    )
            await self.push()
        if not self.waiting:
            return
        now = self.now()
        await self.hub.db(self.entries.renew, self.holder, list(self.waiting), now)
        made = 0
        for pool_id in self._pools_waited_in():
            made += await self._pair(self.pools[pool_id], now)
        if made:
            self.hub.bus.wake()  # the other players' hubs tell them
        for paired in await self.hub.db(self.entries.collect, self.holder):
            client = self.waiting.pop(paired.id, None)
            if client is None or client.entry is None:
                continue
            client.entry, client.offered = None, None
            await client.connection.send(
                _message("paired", game=paired.game, seat=paired.seat, token=client.token)
            )
        fallback_ms = int(self.hub.limits.pool_fallback_seconds * 1000)
        for client in self._clients():
            assert client.entry is not None
            if client.offered is None and now - client.entry.entered_ms >= fallback_ms:
                client.offered = computer_level(client.rating)
                await client.connection.send(_message("offer_computer", level=client.offered))

    def _clients(self) -> list[LobbyClient]:
        return [client for client in self.waiting.values() if client.entry is not None]

    def _pools_waited_in(self) -> list[str]:
        return sorted({client.entry.pool for client in self.waiting.values() if client.entry})

    async def _pair(self, pool: Pool, now: int) -> int:
        entries = await self.hub.db(self.entries.waiting, pool.id, now, STALE_MS)
        caps = creation.caps_now(self.hub)
        # Players over a cap of games wait unpaired (rather than fail every pairing).
        over = await self.hub.db(
            gamecaps.capped, self.hub.store.engine, caps, [_party(entry) for entry in entries]
        )
        by_id = {entry.id: entry for entry in entries if _party(entry) not in over}
        waiting = [
            Waiting(entry.id, entry.rating, entry.entered_ms, entry.address if pool.rated else "")
            for entry in by_id.values()
        ]
        made = 0
        for first, second in pairings(waiting, now):
            # The game is the one who waited longer's (for the caps).
            owner = by_id[first.id]
            seated = [by_id[first.id], by_id[second.id]]
            if secrets.randbelow(2):
                seated.reverse()
            game = creation.stored_game(
                kind="online",
                rows=pool.rows,
                cols=pool.cols,
                mode=pool.mode,
                seats=[
                    SeatRow(seat, entry.name, HUMAN, entry.token_hash)
                    for seat, entry in enumerate(seated)
                ],
                clock=creation.clock_spec(_clock_of(pool), pool.days),
                rated=pool.rated,
                owner=owner.address,
                owner_player=owner.account,
            )
            if await self.hub.db(self.entries.pair, seated, game, caps=caps):
                made += 1
                await self.hub.notices.game(game.id)
        return made


def _party(entry: Entry) -> Party:
    return Party(entry.address, entry.account)


def _clock_of(pool: Pool) -> ClockSettings | None:
    """The pool's clock (its seconds in milliseconds), if it has one."""
    return None if pool.clock is None else ClockSettings(*(s * 1000 for s in pool.clock))


def seek_game(given: SeekSettings, seated: Sequence[Member]) -> StoredGame:
    """The game of a filled seek (its clock starts once every seat has made its first move)."""
    return creation.stored_game(
        kind="online",
        rows=given.rows,
        cols=given.cols,
        mode=given.mode,
        seats=[SeatRow(seat, one.name, HUMAN, one.token_hash) for seat, one in enumerate(seated)],
        clock=creation.clock_spec(given.clock, given.days),
        rated=given.rated,
    )
