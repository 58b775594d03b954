"""The bot API's NDJSON streams (docs/protocol.md, "Bots"): an account's events and a
game's changes, one JSON object a line, and an empty line every few seconds to keep the
connection open.

A game's stream is one more follower of the game's room, as a WebSocket is: it hears every
change the room sends its channel, from this process or (over the bus) from any other. An
account's stream reads its games and challenges from the store when woken (each sweep, which
a wake on the bus starts at once) and at least every :data:`EVENT_POLL_SECONDS`. Both start
with the whole present, so a stream opened again after a lost connection misses nothing.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from sosgame.web.api import Answer, declare, refused
from sosgame.web.endpoints.botgames import seated
from sosgame.web.endpoints.bots import ANY_PLAY, authorized, bots
from sosgame.web.endpoints.common import address, hub
from sosgame.web.live import clock as clocks
from sosgame.web.live.room import Room
from sosgame.web.matchmaking.challenges import Challenge
from sosgame.web.people.apitokens import GameSeat

__all__ = ["EVENT_POLL_SECONDS", "KEEP_ALIVE_SECONDS", "ROUTES", "event_stream", "game_stream"]

KEEP_ALIVE_SECONDS: Final = 5.0
"""Seconds of silence after which a stream sends an empty line."""
EVENT_POLL_SECONDS: Final = 1.0
"""The longest an account's stream goes without reading its games and challenges."""
NDJSON: Final = "application/x-ndjson"


def _line(message: dict[str, Any]) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False) + "\n"


def _game(seat: GameSeat) -> dict[str, Any]:
    return {
        "id": seat.game_id,
        "rows": seat.rows,
        "cols": seat.cols,
        "mode": seat.mode,
        "rated": seat.rated,
        "seat": seat.seat,
        "status": seat.status,
    }


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
    challenges to and from it; first a ``gameStart`` for each game in progress and a
    ``challenge`` for each open challenge to it."""
    account, _ = await authorized(request, *ANY_PLAY)
    parts = bots(request)
    running = hub(request)

    async def lines() -> AsyncGenerator[str, None]:
        games: dict[str, GameSeat] = {}
        challenges: dict[str, Challenge] = {}
        quiet = 0.0
        while True:
            seats = await running.db_aside(parts.tokens.seats, account.id)
            found = await running.db_aside(parts.challenges.involving, account.id, clocks.now_ms())
            sent = False
            now_games = {seat.game_id: seat for seat in seats}
            for game_id, seat in now_games.items():
                if game_id not in games:
                    sent = True
                    yield _line({"type": "gameStart", "game": _game(seat)})
            for game_id in [game_id for game_id in games if game_id not in now_games]:
                ended = await running.db_aside(parts.tokens.seats, account.id, game_id)
                finished = ended[0] if ended else games[game_id]
                sent = True
                yield _line({"type": "gameFinish", "game": _game(finished)})
            games = now_games
            by_id = {one.seek.id: one for one in found}
            for seek_id, one in by_id.items():
                if one.game is None and one.answer is None and seek_id not in challenges:
                    challenges[seek_id] = one
                    sent = True
                    yield _line({"type": "challenge", "challenge": one.to_json()})
            for seek_id in list(challenges):
                now = by_id.get(seek_id)
                if now is not None and now.answer is None:
                    continue
                before = challenges.pop(seek_id)
                if now is not None and now.game is not None:
                    continue  # accepted: its gameStart says so
                answer = "canceled" if now is None else now.answer or "canceled"
                shown = before.to_json()
                sent = True
                if answer.startswith("declined:"):
                    reason = answer.partition(":")[2]
                    yield _line(
                        {
                            "type": "challengeDeclined",
                            "challenge": {**shown, "declineReason": reason},
                        }
                    )
                else:
                    yield _line({"type": "challengeCanceled", "challenge": shown})
            quiet = 0.0 if sent else quiet + EVENT_POLL_SECONDS
            if quiet >= KEEP_ALIVE_SECONDS:
                quiet = 0.0
                yield "\n"
            await parts.changed.wait(EVENT_POLL_SECONDS)

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

    return StreamingResponse(counted(), media_type=NDJSON)


def _players(room: Room) -> list[dict[str, Any]]:
    return [{"seat": row.seat, "name": row.name, "player": row.player} for row in room.seats]


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
    _, room, seats = await seated(request)
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
                try:
                    text = await asyncio.wait_for(queue.get(), KEEP_ALIVE_SECONDS)
                except TimeoutError:
                    yield "\n"
                    continue
                message = json.loads(text)
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
                if _key(game) != last:
                    last = _key(game)
                    yield _line(_state(game))
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
