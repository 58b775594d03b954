"""One game, played through its stream: the whole game first (``gameFull``), then a
``gameState`` at every change; the bot moves whenever its seat is to move.

The stream is the truth. A move is sent with the ply it was chosen at (``?ply=N``), so it is
never applied twice; when sending it fails on the network (it may or may not have arrived),
the stream is opened again and its ``gameFull`` decides: the move is chosen and sent again
only if the game is still at that ply. A stream that drops, or a server that restarts, is
followed by a new stream after a wait that grows (:class:`~sosgame.bot.backoff.Backoff`).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final

from sosgame.bot.backoff import Backoff
from sosgame.bot.players import BadMoveError, Mover, Turn, budget, fallback, legal
from sosgame.bot.session import Lost, RefusedError, Session, as_error
from sosgame.game import Game
from sosgame.notation import Move

__all__ = ["GameLoop", "GameReport", "Say"]

Say = Callable[..., None]
"""Where the client tells what it does: ``say(key, **values)``, ``key`` a catalog text."""

_WAITED: Final = ("stale", "wrong_turn", "game_over", "waiting")
"""Refusals of a move that the stream explains: the game moved on before the move came."""
_GONE: Final = ("no_game", "not_your_seat")
_CLAIM_TRIES: Final = 10


@dataclass
class GameReport:
    """What a bot saw of one game, for its ``on_game_end`` hook (and ``--log-games``)."""

    id: str
    seats: tuple[int, ...] = ()
    moves: list[str] = field(default_factory=list)
    """The game's actions in the last state the bot was shown."""
    sent: dict[int, str] = field(default_factory=dict)
    """The moves the server took from the bot, by the ply each was made at."""
    status: str = "unknown"
    result: dict[str, Any] | None = None
    views: int = 0
    """How many states the bot was shown."""
    consistent: bool = True
    """Whether each state's moves went on from the last one's (or a takeback cut them)."""
    reconnects: int = 0
    fallbacks: int = 0
    """Moves played for the player because it gave no legal one."""

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "seats": list(self.seats),
            "moves": self.moves,
            "sent": {str(ply): move for ply, move in sorted(self.sent.items())},
            "status": self.status,
            "result": self.result,
            "views": self.views,
            "consistent": self.consistent,
            "reconnects": self.reconnects,
            "fallbacks": self.fallbacks,
        }


class _ResyncError(Exception):
    """Open the stream again at once: a move may or may not have arrived."""


class GameLoop:
    """Plays the game ``game_id`` with ``mover`` until it is over."""

    def __init__(
        self,
        session: Session,
        game_id: str,
        mover: Mover,
        *,
        most_seconds: float,
        say: Say,
    ) -> None:
        self._session = session
        self._mover = mover
        self._most = most_seconds
        self._say = say
        self._path = f"/api/bot/game/{game_id}"
        self._settings: dict[str, Any] = {}
        self._claim: asyncio.Task[None] | None = None
        self.report = GameReport(game_id)

    async def run(self) -> GameReport:
        """Play until the game is over (or the server no longer has it for this bot)."""
        waits = Backoff()
        try:
            while True:
                try:
                    if await self._follow(waits):
                        return self.report
                except _ResyncError:
                    self.report.reconnects += 1
                    continue
                except RefusedError as refused:
                    if refused.code in _GONE:
                        self._say("bot.game_gone", game=self.report.id, code=refused.code)
                        return self.report
                    if refused.status in (401, 403):
                        raise as_error(refused) from None
                except Lost:
                    pass
                delay = waits.next()
                self.report.reconnects += 1
                self._say("bot.game_reconnect", game=self.report.id, seconds=f"{delay:.1f}")
                await asyncio.sleep(delay)
        finally:
            if self._claim is not None:
                self._claim.cancel()

    async def _follow(self, waits: Backoff) -> bool:
        """Read one stream to its end; whether the game is over."""
        async for line in self._session.lines(f"/api/bot/game/stream/{self.report.id}"):
            if line is None:
                continue
            waits.reset()
            kind = line.get("type")
            if kind == "gameFull":
                self._settings = line
                self.report.seats = tuple(line["seats"])
                state = line["state"]
            elif kind == "gameState":
                state = line
            elif kind == "opponentGone":
                self._opponent_gone(line)
                continue
            else:
                continue
            if await self._on_state(state, time.monotonic()):
                return True
        return False

    async def _on_state(self, state: dict[str, Any], received: float) -> bool:
        moves: list[str] = list(state["moves"])
        seen = self.report.moves
        if moves[: len(seen)] != seen and seen[: len(moves)] != moves:
            self.report.consistent = False
        if len(moves) < len(seen):  # a takeback: those plies may be played again
            self.report.sent = {p: m for p, m in self.report.sent.items() if p < len(moves)}
        self.report.moves = moves
        self.report.views += 1
        self.report.status = state["status"]
        self.report.result = state.get("result")
        if state["status"] == "finished":
            return True
        turn, ply = state["turn"], state["ply"]
        if state["status"] != "playing" or turn not in self.report.seats or ply in self.report.sent:
            return False
        allowed = state.get("allowed") or []
        if turn < len(allowed) and not allowed[turn].get("can_move", True):
            return False
        game = Game(
            self._settings["rows"],
            self._settings["cols"],
            players=len(self._settings["players"]),
            mode=self._settings["mode"],
            moves=moves,
        )
        clock = state.get("clock")
        seconds = None
        increment = 0.0
        if clock is not None and clock.get("remaining") is not None:
            seconds = clock["remaining"][turn] / 1000 - (time.monotonic() - received)
            increment = clock.get("increment", 0) / 1000
        chosen = Turn(turn, seconds, budget(game, seconds, increment, self._most))
        move = await _in_thread(self._choose, game, chosen)
        await self._send(ply, move)
        return False

    def _choose(self, game: Game, turn: Turn) -> Move:
        try:
            return legal(game, self._mover(game.copy(), turn))
        except BadMoveError as bad:
            self._say("bot.bad_move", game=self.report.id, move=bad.what, why=bad.why)
        except Exception as error:
            self._say("bot.player_failed", game=self.report.id, error=repr(error)[:200])
        self.report.fallbacks += 1
        return fallback(game)

    async def _send(self, ply: int, move: Move) -> None:
        try:
            await self._session.post(f"{self._path}/move/{move}?ply={ply}")
        except RefusedError as refused:
            if refused.status in (401, 403) and refused.code not in _GONE:
                raise as_error(refused) from None
            if refused.code not in _WAITED:
                self._say(
                    "bot.move_refused", game=self.report.id, move=str(move), code=refused.code
                )
            return
        except Lost:
            raise _ResyncError from None
        self.report.sent[ply] = str(move)

    def _opponent_gone(self, line: dict[str, Any]) -> None:
        if self._claim is not None:
            self._claim.cancel()
            self._claim = None
        if line.get("gone"):
            self._claim = asyncio.create_task(self._claim_after(line.get("claimWinInSeconds", 0)))

    async def _claim_after(self, seconds: float) -> None:
        """Claim the win once the opponent has been away long enough (again until the server
        agrees: it learns of a dropped stream only at its next keep-alive)."""
        await asyncio.sleep(seconds)
        for _ in range(_CLAIM_TRIES):
            with contextlib.suppress(RefusedError, *Lost):
                await self._session.post(f"{self._path}/claim-victory")
                return
            await asyncio.sleep(2)


async def _in_thread(work: Callable[..., Move], *arguments: Any) -> Move:
    """``work(*arguments)`` in a thread of its own, which a stop does not wait for (a
    daemon): a search under way never holds up Ctrl-C."""
    loop = asyncio.get_running_loop()
    answer: asyncio.Future[Move] = loop.create_future()

    def settle(result: Move | None, error: BaseException | None) -> None:
        if answer.done():
            return
        if error is not None:
            answer.set_exception(error)
        else:
            answer.set_result(result)  # type: ignore[arg-type]

    def run() -> None:
        try:
            result, error = work(*arguments), None
        except BaseException as failure:
            result, error = None, failure
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
            loop.call_soon_threadsafe(settle, result, error)

    threading.Thread(target=run, name="sosgame-bot-move", daemon=True).start()
    return await answer
