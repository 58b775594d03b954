"""The WebSocket of a game (``/ws/games/{game_id}``): admitted, counted against the caps,
rate limited, then every message checked and handed to the game's room."""

from __future__ import annotations

import contextlib
from typing import Final

from starlette.websockets import WebSocket, WebSocketDisconnect

from sosgame.web import rematches
from sosgame.web.admission import BusyError
from sosgame.web.endpoints.common import STORAGE_UNAVAILABLE, address, hub, server
from sosgame.web.fanout import Connection, dumps
from sosgame.web.hub import TooManyError
from sosgame.web.middleware import origin_allowed
from sosgame.web.protocol import (
    MAX_MESSAGE_BYTES,
    ClientMessage,
    ProtocolError,
    error_message,
    parse_client_message,
)
from sosgame.web.ratelimit import RATE, RateLimit
from sosgame.web.room import Room
from sosgame.web.writer import StorageUnavailableError

__all__ = ["FLOOD_LIMIT", "play"]

FLOOD_LIMIT: Final = 200
"""A connection that goes on past this many refused messages is closed."""
TOO_BIG: Final = f"message too big: at most {MAX_MESSAGE_BYTES} bytes"


async def play(websocket: WebSocket) -> None:
    """``/ws/games/{game_id}``: a game's WebSocket."""
    origin = websocket.headers.get("origin")
    host = websocket.headers.get("host", "")
    if origin is not None and not origin_allowed(origin, host, server(websocket).allowed_origins):
        await websocket.close(code=1008, reason="origin not allowed")
        return
    client = address(websocket)
    try:
        await hub(websocket).admission.enter(client)
    except BusyError as error:
        await websocket.accept()
        await websocket.send_text(dumps(error_message("server_busy", str(error))))
        await websocket.close(code=1013, reason="server busy: try again later")
        return
    await websocket.accept()
    game_id = str(websocket.path_params["game_id"])
    try:
        hub(websocket).admit(game_id, client)
    except TooManyError as error:
        await websocket.send_text(dumps(error_message(error.code, error.message)))
        await websocket.close(code=1013, reason=error.message[:120])
        return
    try:
        await _serve_socket(websocket, game_id, client)
    except StorageUnavailableError:
        # The client tries again later (the outage itself is logged once).
        with contextlib.suppress(Exception):
            await websocket.send_text(dumps(error_message(*STORAGE_UNAVAILABLE)))
            await websocket.close(code=1013, reason="storage unavailable: try again later")
    finally:
        hub(websocket).release(game_id, client)


async def _serve_socket(websocket: WebSocket, game_id: str, client: str) -> None:
    async def close(code: int, reason: str) -> None:
        await websocket.close(code=code, reason=reason)

    connection = hub(websocket).connection(websocket.send_text, close, client)
    room = await hub(websocket).room(game_id)
    if room is None:
        await connection.send(error_message("no_game", "there is no game with this id"))
        await connection.flush()
        await websocket.close(code=4404)
        return
    limit = RateLimit()
    refused = 0
    try:
        while not connection.closed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if not limit.allow():
                refused += 1
                if refused > FLOOD_LIMIT:
                    await websocket.close(code=1008, reason="too many messages")
                    break
                await connection.send(
                    error_message(
                        "rate_limited",
                        f"too many messages: at most {RATE:g} a second on average",
                    )
                )
                continue
            refused = 0
            if text is not None and len(text.encode("utf-8")) > MAX_MESSAGE_BYTES:
                # The same answer as the WebSocket transport gives a longer message.
                await websocket.close(code=1009, reason=TOO_BIG)
                break
            try:
                if text is None:
                    raise ProtocolError("bad_message", "send messages as text frames of JSON")
                parsed = parse_client_message(text)
                if not connection.greeted:
                    if parsed.type != "hello":
                        raise ProtocolError("hello_first", "say hello before anything else")
                    room = await hub(websocket).room_to_join(game_id) or room
                    room.join(connection, parsed.all_tokens)
                    continue
            except ProtocolError as error:
                await connection.send(error_message(error.code, error.message))
                continue
            if parsed.offer == "rematch":
                await _rematch(websocket, room, connection, parsed, client)
                continue
            await room.handle(connection, parsed)
    except WebSocketDisconnect:
        pass
    finally:
        room.leave(connection)
        connection.stop()


_REMATCH_STEPS: Final = {"offer": "offer", "withdraw": "withdraw"}


async def _rematch(
    websocket: WebSocket, room: Room, connection: Connection, message: ClientMessage, client: str
) -> None:
    """An ``offer``, ``answer`` or ``withdraw`` of the rematch (:mod:`sosgame.web.rematches`)."""
    step = _REMATCH_STEPS.get(message.type) or ("accept" if message.accept else "decline")
    try:
        await rematches.rematch(
            hub(websocket),
            room,
            connection.seats,
            step,
            links=server(websocket).accounts.copy_links,
            owner=client,
        )
    except ProtocolError as error:
        await connection.send(error_message(error.code, error.message))
