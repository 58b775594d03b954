"""The bot API's NDJSON streams (docs/protocol.md, "Bots"): an account's events and a
game's changes, one JSON object a line, and an empty line after every
:data:`KEEP_ALIVE_SECONDS` of silence to keep the connection open.

A game's stream is one more follower of the game's room, as a WebSocket is: it hears every
change the room sends its channel, from this process or (over the bus) from any other. An
account's stream is pushed the notices to the account (:mod:`sosgame.web.live.notices`), here
or over the bus; it reads the account's games and challenges from the store only when it
opens and after the bus lost messages. Both start with the whole present, so a stream opened
again after a lost connection misses nothing. A client that goes away is noticed at once
(the server's ``http.disconnect``), not at the next write: its stream leaves the game then.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import time
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route
from starlette.types import Receive, Scope, Send

from sosgame.web.api import Answer, declare, refused
from sosgame.web.endpoints.botevents import Said
from sosgame.web.endpoints.botgames import seated
from sosgame.web.endpoints.bots import ANY_PLAY, authorized, bots
from sosgame.web.endpoints.common import address, hub
from sosgame.web.live import clock as clocks
from sosgame.web.live.room import Room
from sosgame.web.live.waiting import next_within

__all__ = ["KEEP_ALIVE_SECONDS", "ROUTES", "NdjsonResponse", "event_stream", "game_stream"]

KEEP_ALIVE_SECONDS: Final = 6.0
"""Seconds of silence after which a stream sends an empty line (lichess's event stream's
figure): it tells a client that the connection lives; a client gone is noticed without it."""
NDJSON: Final = "application/x-ndjson"


def _line(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False) + "\n"


class NdjsonResponse(StreamingResponse):
    """A stream that ends as soon as the client disconnects: it listens for the server's
    ``http.disconnect`` while it writes (Starlette does so only for servers of an older
    ASGI version; otherwise a client gone would be noticed at the next failed write)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        writing = asyncio.ensure_future(self.stream_response(send))
        gone = asyncio.ensure_future(self.listen_for_disconnect(receive))
        try:
            await asyncio.wait({writing, gone}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (writing, gone):
                task.cancel()
            for task in (writing, gone):
                with contextlib.suppress(asyncio.CancelledError, OSError):
                    await task
        if writing.done() and not writing.cancelled() and writing.exception() is not None:
            error = writing.exception()
            if not isinstance(error, OSError):
                raise error  # type: ignore[misc]


@declare(
    "The account's events as NDJSON: gameStart, gameFinish, challenge, challengeCanceled,"
    " challengeDeclined; an empty line every few seconds",
    bearer=True,
    responses={
        200: Answer("One JSON object a line", None),
        401: refused("no_token, bad_token"),
        403: refused("missing_scope"),
        429: refused("too_many_connections"),
    },
)
async def event_stream(request: Request) -> Response:
    """``GET /api/stream/event``: the account's games starting and finishing and the
    challenges to and from it, pushed as they happen; first a ``gameStart`` for each game
    in progress and a ``challenge`` for each open challenge to or from it."""
    account, _ = await authorized(request, *ANY_PLAY)
    parts = bots(request)
    running = hub(request)

    async def present(said: Said) -> list[dict[str, Any]]:
        seats = await running.db_aside(parts.tokens.seats, account.id)
        found = await running.db_aside(parts.challenges.involving, account.id, clocks.now_ms())
        ended = {}
        for game_id in said.running_ids():
            if game_id not in {seat.game_id for seat in seats}:
                rows = await running.db_aside(parts.tokens.seats, account.id, game_id)
                if rows:
                    ended[game_id] = rows[0]
        return said.present(seats, found, ended)

    async def lines() -> AsyncGenerator[str, None]:
        # Following first, then reading: no notice can fall in between (one heard twice
        # is said once).
        inbox = await running.notices.open(account.id)
        said = Said()
        try:
            for line in await present(said):
                yield _line(line)
            spoke = time.monotonic()
            while True:
                wait = KEEP_ALIVE_SECONDS - (time.monotonic() - spoke)
                lapse = said.next_lapse_ms()
                if lapse is not None:
                    wait = min(wait, max(0.0, (lapse - clocks.now_ms()) / 1000))
                out: list[dict[str, Any]] = []
                notice = await next_within(inbox.queue, wait)
                if notice is not None:
                    if inbox.lost:
                        inbox.lost = False
                        out += await present(said)
                    out += said.take(notice)
                out += said.lapsed(clocks.now_ms())
                for line in out:
                    yield _line(line)
                if out:
                    spoke = time.monotonic()
                elif time.monotonic() - spoke >= KEEP_ALIVE_SECONDS:
                    spoke = time.monotonic()
                    yield "\n"
        finally:
            await running.notices.close(inbox)

    return _streamed(request, f"events:{account.id}", lines())


def _streamed(request: Request, place: str, lines: AsyncGenerator[str, None]) -> Response:
    """``lines`` as NDJSON, counted as one of the client's connections (and of ``place``'s)
    while it lasts: 429 ``too_many_connections`` now if it would pass a cap."""
    running, client = hub(request), address(request)
    running.admit(place, client)  # past a cap: refused before the answer starts
    running.release(place, client)

    async def counted() -> AsyncIterator[str]:
        # Counted from the stream's first line: a client gone before it never entered.
        running.admit(place, client)
        try:
            async for line in lines:
                yield line
        finally:
            running.release(place, client)
            await lines.aclose()

    return NdjsonResponse(counted(), media_type=NDJSON)


def _players(room: Room) -> list[dict[str, Any]]:
    return [
        {"seat": row.seat, "name": row.name, "player": row.player, "bot": row.bot}
        for row in room.seats
    ]


def _state(game: dict[str, Any]) -> dict[str, Any]:
    """A ``gameState`` line made of the room's ``state`` message's game."""
    return {
        "type": "gameState",
        "moves": game["actions"],
        "ply": game["ply"],
        "board": game["board"],
        "scores": game["scores"],
        "turn": game["turn"],
        "clock": game["clock"],
        "days": game["days"],
        "status": game["status"],
        "result": game["result"],
        "offers": game.get("offers", []),
        "allowed": game["allowed"],
    }


@functools.lru_cache(maxsize=256)
def _heard(text: str) -> tuple[dict[str, Any], str | None]:
    """A message of a room's channel, parsed, and its ``gameState`` line if it is a
    ``state``: once per message, however many of the game's streams hear it (the dict is
    shared: read, never changed)."""
    message = json.loads(text)
    if message.get("type") != "state":
        return message, None
    return message, _line(_state(message["game"]))


def _key(game: dict[str, Any]) -> tuple[Any, ...]:
    """What a ``gameState`` line is sent again for (presence alone changes none of it)."""
    return game["ply"], game["status"], game.get("offers"), game["result"]


def _gone(game: dict[str, Any], mine: frozenset[int]) -> dict[str, Any] | None:
    """``opponentGone`` of a state: whether another seat is away, and the seconds until a
    claim may be made against it (0: now)."""
    abandon = game.get("abandon")
    if not abandon:
        return None
    away = [ms for seat, ms in enumerate(abandon["away"]) if seat not in mine and ms is not None]
    if not away:
        return {"type": "opponentGone", "gone": False}
    left = max(0, abandon["after"] - max(away))
    return {"type": "opponentGone", "gone": True, "claimWinInSeconds": -(-left // 1000)}


@declare(
    "A game as NDJSON: gameFull, then gameState at every change, chatLine and opponentGone;"
    " an empty line every few seconds",
    bearer=True,
    responses={
        200: Answer("One JSON object a line", None),
        401: refused("no_token, bad_token"),
        403: refused("not_your_seat, missing_scope, not_a_bot"),
        404: refused("no_game"),
        429: refused("too_many_connections"),
    },
)
async def game_stream(request: Request) -> Response:
    """``GET /api/bot/game/stream/{id}``: ``gameFull`` first, then ``gameState`` at every
    change, ``chatLine`` and ``opponentGone``; it ends once the game is over."""
    _, room, seats = await seated(request, newcomer=True)
    queue: asyncio.Queue[str] = asyncio.Queue()

    async def heard(text: str) -> None:
        queue.put_nowait(text)

    connection = hub(request).connection(heard, None, address(request))

    async def lines() -> AsyncGenerator[str, None]:
        # Joined only once the stream runs: a client gone before leaves nothing behind.
        room.join(connection, (), seats)
        try:
            first = room.state()["game"]
            yield _line(
                {
                    "type": "gameFull",
                    "id": room.id,
                    "rows": first["rows"],
                    "cols": first["cols"],
                    "mode": first["mode"],
                    "rated": first["rated"],
                    "players": _players(room),
                    "seats": sorted(seats),
                    "state": _state(first),
                }
            )
            last = _key(first)
            gone = _gone(first, seats)
            if first["status"] == "finished":
                return
            while not connection.closed:
                text = await next_within(queue, KEEP_ALIVE_SECONDS)
                if text is None:
                    yield "\n"
                    continue
                message, state_line = _heard(text)
                if message.get("type") == "chat":
                    yield _line(
                        {
                            "type": "chatLine",
                            **{k: v for k, v in message.items() if k not in ("v", "type")},
                        }
                    )
                    continue
                if message.get("type") != "state":
                    continue
                game = message["game"]
                now = _gone(game, seats)
                if now is not None and now != gone:
                    yield _line(now)
                gone = now
                if _key(game) != last and state_line is not None:
                    last = _key(game)
                    yield state_line
                if game["status"] == "finished":
                    return
        finally:
            room.leave(connection)
            connection.stop()

    return _streamed(request, room.id, lines())


ROUTES: Final = [
    Route("/api/stream/event", event_stream, methods=["GET"]),
    Route("/api/bot/game/stream/{game_id}", game_stream, methods=["GET"]),
    Route("/api/board/game/stream/{game_id}", game_stream, methods=["GET"]),
]
"""This module's endpoints, for the app's routing table."""
