"""The bot client: the account's event stream drives everything.

Challenges to the bot are answered as its :class:`~sosgame.bot.filters.ChallengeFilter` says
(and declined with ``later`` while it plays as many games as it may); each game gets a task of
its own on the game's stream (:class:`~sosgame.bot.game.GameLoop`); a dropped event stream is
opened again after a wait that grows, and tells again of every game under way and every open
challenge, so nothing is missed. With :class:`ChallengeSpec` the bot also challenges a player
itself, game after game; with ``tournaments`` it joins them at the start (their games come
on the event stream as any other) and pauses in them when it stops, so that none of its
games there is lost unplayed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import quote

from sosgame.bot.backoff import Backoff
from sosgame.bot.errors import BotError, english
from sosgame.bot.filters import ChallengeFilter
from sosgame.bot.game import GameLoop, GameReport, Say
from sosgame.bot.players import Mover, callable_mover, level_mover
from sosgame.bot.session import Lost, RefusedError, Session, as_error, player_path
from sosgame.game import Mode
from sosgame.levels import DEFAULT_SECONDS

__all__ = ["NEEDED_SCOPES", "BotClient", "ChallengeSpec"]

NEEDED_SCOPES: Final = ("bot:play", "challenge:write")
_TOURNAMENT_REFUSALS: Final = frozenset(
    {"no_tournament", "not_invited", "bots_not_allowed", "tournament_over", "tournament_full"}
)
_LOG = logging.getLogger("sosgame.bot")


def _log(key: str, **values: object) -> None:
    _LOG.info(english(key, **values))


@dataclass(frozen=True)
class ChallengeSpec:
    """A challenge the bot makes: to the player ``name``, of these settings (``clock`` is
    the initial and added seconds; ``days`` a correspondence game's days a move)."""

    name: str
    rows: int = 5
    cols: int = 5
    mode: Mode = "general"
    clock: tuple[int, int] | None = None
    days: int | None = None
    rated: bool = False

    def body(self) -> dict[str, Any]:
        clock = None
        if self.clock is not None:
            clock = {"initial": self.clock[0], "increment": self.clock[1]}
        return {
            "rows": self.rows,
            "cols": self.cols,
            "mode": self.mode,
            "clock": clock,
            "days": self.days,
            "rated": self.rated,
        }


class BotClient:
    """A bot on the server ``server`` with the API token ``token``.

    ``player`` chooses the moves: a callable given the game (and ``seat`` and ``seconds`` if it
    takes them, see :mod:`sosgame.bot.players`), else the computer level ``level`` spending at
    most ``seconds`` a move. ``concurrency`` games are played at once. ``games`` stops the bot
    once that many games are over (it takes no more challenges once that many have started).
    ``tournaments`` are the ids of tournaments to join at the start and pause in at the stop.
    ``on_game_end`` is given each game's :class:`~sosgame.bot.game.GameReport`; ``say`` is
    told what the bot does (a catalog key and its values; by default logged in English).
    """

    def __init__(
        self,
        server: str,
        token: str,
        *,
        player: Callable[..., Any] | None = None,
        level: str = "hard",
        seconds: float = DEFAULT_SECONDS,
        accept: ChallengeFilter | None = None,
        concurrency: int = 1,
        challenge: ChallengeSpec | None = None,
        games: int | None = None,
        tournaments: tuple[str, ...] = (),
        upgrade: bool = False,
        on_game_end: Callable[[GameReport], None] | None = None,
        say: Say | None = None,
        transport: Any = None,
    ) -> None:
        if concurrency < 1:
            raise BotError("bad_count", option="concurrency", value=concurrency)
        if games is not None and games < 1:
            raise BotError("bad_count", option="games", value=games)
        if not 0 < seconds <= 3600:
            raise BotError("bad_seconds", value=seconds)
        if player is not None and not callable(player):
            raise BotError(
                "player_not_callable", spec=repr(player)[:80], kind=type(player).__name__
            )
        self.mover: Mover = (
            callable_mover(player) if player is not None else level_mover(level, seconds=seconds)
        )
        self.name = ""
        self._server, self._token, self._transport = server, token, transport
        self._seconds = seconds
        self._accept = accept or ChallengeFilter()
        self._concurrency = concurrency
        self._challenge = challenge
        self._games_wanted = games
        self._tournaments = tournaments
        self._joined: list[str] = []
        self._upgrade = upgrade
        self._on_game_end = on_game_end
        self._say: Say = say or _log
        self._session: Session | None = None
        self._games: dict[str, asyncio.Task[GameReport]] = {}
        self._known: set[str] = set()
        self._answered: set[str] = set()
        self._waiting: list[dict[str, Any]] = []
        self._accepting = 0
        self._heard_while_accepting: set[str] = set()
        """Games first heard of on the event stream while an accept was on its way: one may
        be that accept's own, which must not count twice until its answer names it."""
        self._later = False
        self._pending: list[str] = []
        self._orphans = 0
        self._started_by_me = 0
        self._finished = 0
        self._challenging = challenge is not None
        self._changed = asyncio.Event()
        self._done = asyncio.Event()
        self._failure: BaseException | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.reports: list[GameReport] = []
        """The reports of the games played to their end."""
        self.left: list[str] = []
        """The games still under way when the client stopped (they go on on the server)."""

    # ------------------------------------------------------------------ running

    async def run(self) -> None:
        """Play until :meth:`stop` (or ``games`` are over).

        :raises BotError: for a token refused, a scope missing, a server out of reach at the
            start, or a player to challenge who does not exist.
        """
        self._session = Session(self._server, self._token, transport=self._transport)
        try:
            await self._connect()
            self._spawn(self._events())
            if self._challenge is not None:
                self._spawn(self._challenges(self._challenge))
            await self._done.wait()
        finally:
            await self._close()
        if self._failure is not None:
            raise self._failure

    @property
    def under_way(self) -> list[str]:
        """The games the bot is playing now."""
        return sorted(self._games)

    def stop(self) -> None:
        """Take no more challenges, drop the streams and return from :meth:`run` (the games
        under way go on on the server: the next start plays them on)."""
        self._done.set()

    async def _close(self) -> None:
        self._done.set()
        self.left = sorted(self._games)
        running = [*self._tasks, *self._games.values()]
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)
        if self._session is not None:
            # Withdraw the bot's own challenges still waiting, and pause in its tournaments:
            # nobody would play a game made for it from now on.
            leaving = [
                *(self.session.post(f"/api/challenge/{one}/cancel") for one in self._pending),
                *(
                    self.session.post(f"/api/tournaments/{quote(one, safe='')}/pause")
                    for one in self._joined
                ),
            ]
            if leaving:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(2):
                        await asyncio.gather(*leaving, return_exceptions=True)
            await self._session.close()

    def _spawn(self, work: Any) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._ended)
        return task

    def _ended(self, task: asyncio.Task[Any]) -> None:
        self._tasks.discard(task)
        if task.cancelled():
            return
        error = task.exception()
        if error is not None and self._failure is None:
            self._failure = error
            self._done.set()

    def _wake(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    @property
    def session(self) -> Session:
        assert self._session is not None
        return self._session

    async def _connect(self) -> None:
        """Check the token (and the player to challenge) before anything else."""
        try:
            if self._upgrade:
                await self.session.post("/api/bot/account/upgrade")
            account = await self.session.get("/api/account")
            missing = [scope for scope in NEEDED_SCOPES if scope not in account.get("scopes", ())]
            if missing:
                raise BotError("missing_scope", scopes=", ".join(missing))
            if not account.get("bot"):
                raise BotError("not_a_bot")
            if self._challenge is not None:
                await self.session.get(player_path(self._challenge.name))
        except Lost as error:
            raise BotError("unreachable", server=self.session.server, error=str(error)) from None
        except RefusedError as refused:
            if refused.code == "no_player" and self._challenge is not None:
                raise BotError("no_player", name=self._challenge.name) from None
            raise as_error(refused) from None
        self.name = str(account["name"])
        self._say("bot.connected", name=self.name, server=self.session.server)
        for tournament in self._tournaments:
            await self._join(tournament)

    async def _join(self, tournament: str) -> None:
        """Join a tournament (or come back to it after a pause)."""
        path = f"/api/tournaments/{quote(tournament, safe='')}"
        try:
            shown = await self.session.get(path)
            await self.session.post(f"{path}/join")
        except Lost as error:
            raise BotError("unreachable", server=self.session.server, error=str(error)) from None
        except RefusedError as refused:
            if refused.status in (401, 403) and refused.code not in _TOURNAMENT_REFUSALS:
                raise as_error(refused) from None
            raise BotError(
                "tournament_refused", tournament=tournament, answer=refused.code
            ) from None
        self._joined.append(tournament)
        self._say("bot.tournament_joined", name=shown.get("name", ""), tournament=tournament)

    # ------------------------------------------------------------------ the event stream

    async def _events(self) -> None:
        waits = Backoff()
        while True:
            try:
                async for event in self.session.lines("/api/stream/event"):
                    waits.reset()
                    if event is not None:
                        await self._on_event(event)
            except RefusedError as refused:
                if refused.status in (401, 403):
                    raise as_error(refused) from None
            except Lost:
                pass
            delay = waits.next()
            self._say("bot.events_reconnect", seconds=f"{delay:.1f}")
            await asyncio.sleep(delay)

    async def _on_event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "gameStart":
            game = event["game"]
            if game["id"] not in self._known and game.get("status") != "finished":
                if game.get("seat") == 0 and self._challenging:
                    self._claimed_by_challenge()
                self._start_game(game["id"], heard=True)
        elif kind == "challenge":
            challenge = event["challenge"]
            if challenge.get("destUser") == self.name and challenge["id"] not in self._answered:
                self._answered.add(challenge["id"])
                self._spawn(self._answer(challenge))
        elif kind in ("challengeDeclined", "challengeCanceled"):
            self._challenge_over(event["challenge"], kind == "challengeDeclined")

    def _closed(self) -> bool:
        """Whether the bot takes no more games: stopping, or ``games`` reached."""
        wanted = self._games_wanted
        started = len(self._known) + self._accepting - len(self._heard_while_accepting)
        return self._done.is_set() or (wanted is not None and started >= wanted)

    def _room(self) -> bool:
        return len(self._games) + self._accepting < self._concurrency

    async def _answer(self, challenge: dict[str, Any]) -> None:
        """Decline a challenge the bot does not take; take one it does now, or as soon as a
        game of its ends (a challenge waits two minutes: a bot as busy as its concurrency
        keeps it, as lichess-bot does, rather than send the challenger away)."""
        shown = f"{challenge['challenger']} ({_settings(challenge)})"
        try:
            reason = "later" if self._closed() else None
            if reason is None:
                from_bot = False
                if self._accept.needs_kind:
                    found = await self.session.get(player_path(challenge["challenger"]))
                    from_bot = bool(found.get("bot"))
                reason = self._accept.reason(challenge, from_bot=from_bot)
            if reason is not None:
                await self._decline(challenge, reason)
                return
        except RefusedError as refused:
            self._say("bot.answer_refused", challenge=shown, code=refused.code)
            return
        except Lost:
            return  # the event stream, opened again, lists it again if it is still open
        self._waiting.append(challenge)
        self._take_waiting()

    async def _decline(self, challenge: dict[str, Any], reason: str) -> None:
        await self.session.post(f"/api/challenge/{challenge['id']}/decline", {"reason": reason})
        shown = f"{challenge['challenger']} ({_settings(challenge)})"
        self._say("bot.declined", challenge=shown, reason=reason)

    def _take_waiting(self) -> None:
        """Accept the challenges waiting for room, oldest first, while there is room."""
        while self._waiting and (self._closed() or self._room()):
            challenge = self._waiting.pop(0)
            if self._closed():
                self._spawn(self._quietly(self._decline(challenge, "later")))
                continue
            self._accepting += 1
            self._spawn(self._accept_now(challenge))

    async def _quietly(self, work: Any) -> None:
        with contextlib.suppress(RefusedError, *Lost):
            await work

    async def _accept_now(self, challenge: dict[str, Any]) -> None:
        shown = f"{challenge['challenger']} ({_settings(challenge)})"
        try:
            accepted = await self.session.post(f"/api/challenge/{challenge['id']}/accept")
        except RefusedError as refused:
            self._say("bot.answer_refused", challenge=shown, code=refused.code)
            return
        except Lost:
            return  # the event stream, opened again, lists it again if it is still open
        finally:
            self._accepting -= 1
            if not self._accepting:
                self._heard_while_accepting.clear()  # every answer is in
        self._heard_while_accepting.discard(accepted["game"]["id"])
        self._say("bot.accepted", challenge=shown)
        self._start_game(accepted["game"]["id"])

    # ------------------------------------------------------------------ games

    def _start_game(self, game_id: str, *, heard: bool = False) -> None:
        """Play the game ``game_id`` (``heard``: first heard of on the event stream)."""
        if game_id in self._known:
            return
        self._known.add(game_id)
        if heard and self._accepting:
            self._heard_while_accepting.add(game_id)
        loop = GameLoop(
            self.session, game_id, self.mover, most_seconds=self._seconds, say=self._say
        )
        task = asyncio.create_task(loop.run())
        self._games[game_id] = task
        task.add_done_callback(lambda done: self._game_over(game_id, done))
        self._say("bot.game_started", game=game_id)
        self._wake()

    def _game_over(self, game_id: str, task: asyncio.Task[GameReport]) -> None:
        self._games.pop(game_id, None)
        if task.cancelled():
            return
        error = task.exception()
        if isinstance(error, BotError):  # the token refused: no game can go on
            if self._failure is None:
                self._failure = error
            self._done.set()
            return
        if error is not None:
            # One game the bot cannot follow stops only that game, not the others.
            self._say("bot.game_failed", game=game_id, error=repr(error)[:200])
            self._take_waiting()
            self._wake()
            return
        report = task.result()
        self._finished += 1
        self.reports.append(report)
        self._say(_outcome(report), game=game_id, status=report.status)
        if self._on_game_end is not None:
            self._on_game_end(report)
        self._check_done()
        self._take_waiting()
        self._wake()

    def _check_done(self) -> None:
        """Stop once ``games`` games are over, or once the bot's own challenges are over
        (declined, refused) with no game left."""
        wanted = self._games_wanted
        if wanted is not None and self._finished >= wanted:
            self._done.set()
        given_up = self._challenge is not None and not self._challenging
        if given_up and not self._games and not self._pending:
            self._done.set()

    # ------------------------------------------------------------------ its own challenges

    def _claimed_by_challenge(self) -> None:
        if self._pending:
            self._pending.pop(0)
        else:
            self._orphans += 1  # its challenge's answer is still on its way
        self._started_by_me += 1

    def _challenge_over(self, challenge: dict[str, Any], declined: bool) -> None:
        self._waiting = [one for one in self._waiting if one["id"] != challenge["id"]]
        if challenge["id"] not in self._pending:
            return
        self._pending.remove(challenge["id"])
        if declined:
            reason = challenge.get("declineReason", "generic")
            self._say("bot.challenge_declined", name=challenge["destUser"], reason=reason)
            if reason == "later":
                self._later = True  # ask again, after a wait
            else:
                self._challenging = False
                self._check_done()
        self._wake()

    async def _challenges(self, spec: ChallengeSpec) -> None:
        """Challenge ``spec.name`` again whenever the bot has room, until ``games`` games
        have started (one if not given)."""
        wanted = self._games_wanted or 1
        waits = Backoff(first=0.5, most=10.0)
        while self._challenging and self._started_by_me + len(self._pending) < wanted:
            if self._later:
                self._later = False
                await asyncio.sleep(waits.next())
                continue
            if len(self._games) + len(self._pending) >= self._concurrency:
                await self._changed.wait()
                continue
            try:
                made = await self.session.post(f"/api/challenge/{quote(spec.name)}", spec.body())
            except RefusedError as refused:
                if refused.code == "no_player":
                    raise BotError("no_player", name=spec.name) from None
                if refused.code not in ("too_many_challenges", "too_many_games"):
                    self._say("bot.challenge_refused", name=spec.name, code=refused.code)
                    self._challenging = False
                    self._check_done()
                    return
                await asyncio.sleep(waits.next())
                continue
            except Lost:
                await asyncio.sleep(waits.next())
                continue
            waits.reset()
            if self._orphans:
                self._orphans -= 1
            else:
                self._pending.append(made["challenge"]["id"])
            self._say("bot.challenged", name=spec.name, challenge=_settings(made["challenge"]))


def _outcome(report: GameReport) -> str:
    """The text that tells how a game ended for the bot."""
    winners = (report.result or {}).get("winners")
    if not winners:
        return "bot.game_ended"
    if not set(winners) & set(report.seats):
        return "bot.game_lost"
    return "bot.game_won" if len(winners) == 1 else "bot.game_drawn"


def _settings(challenge: dict[str, Any]) -> str:
    """A challenge's settings in short: ``5x5 general 60+1 casual``."""
    clock = challenge.get("clock")
    timing = "-"
    if clock is not None:
        timing = f"{clock['initial']}+{clock['increment']}"
    elif challenge.get("days") is not None:
        timing = f"{challenge['days']}d"
    rated = "rated" if challenge.get("rated") else "casual"
    return f"{challenge['rows']}x{challenge['cols']} {challenge['mode']} {timing} {rated}"
