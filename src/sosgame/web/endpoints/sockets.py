"""What every WebSocket of the app does before and around its own messages: the origin
check, the pace of new sessions, the caps on connections, the rate of messages, their size,
and the answer when the storage is away."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Final

from starlette.websockets import WebSocket, WebSocketDisconnect

from sosgame.web.endpoints.common import address, hub, server
from sosgame.web.guards.admission import BusyError
from sosgame.web.guards.middleware import origin_allowed
from sosgame.web.guards.ratelimit import RATE, RateLimit
from sosgame.web.live.fanout import Connection, dumps
from sosgame.web.live.hub import TooManyError
from sosgame.web.live.protocol import MAX_MESSAGE_BYTES, error_message
from sosgame.web.storage.writer import StorageUnavailableError

__all__ = ["FLOOD_LIMIT", "TOO_BIG", "incoming", "serve_socket"]

FLOOD_LIMIT: Final = 200
"""A connection that goes on past this many refused messages is closed."""
TOO_BIG: Final = f"message too big: at most {MAX_MESSAGE_BYTES} bytes"


async def serve_socket(
    websocket: WebSocket, place: str, serve: Callable[[str], Awaitable[None]]
) -> None:
    """Admit a WebSocket (its origin, the pace of new sessions, the caps, counted under
    ``place``: a game's id), accept it and run ``serve(client_address)`` on it."""
    origin = websocket.headers.get("origin")
    host = websocket.headers.get("host", "")
    allowed = server(websocket).allowed_origins
    scheme = websocket.url.scheme
    if origin is not None and not origin_allowed(origin, host, allowed, scheme):
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
    try:
        hub(websocket).admit(place, client)
    except TooManyError as error:
        await websocket.send_text(dumps(error_message(error.code, error.detail)))
        await websocket.close(code=1013, reason=(error.detail or error.message)[:120])
        return
    try:
        await serve(client)
    except StorageUnavailableError:
        # The client tries again later (the outage itself is logged once).
        with contextlib.suppress(Exception):
            await websocket.send_text(dumps(error_message("storage_unavailable")))
            await websocket.close(code=1013, reason="storage unavailable: try again later")
    finally:
        hub(websocket).release(place, client)


async def incoming(websocket: WebSocket, connection: Connection) -> AsyncIterator[str | None]:
    """The messages of a connection within its rate and size (``None``: a binary frame),
    until it closes; past the rate each is refused, and a flood or a message too big
    closes it."""
    limit = RateLimit()
    refused = 0
    with contextlib.suppress(WebSocketDisconnect):
        while not connection.closed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            if not limit.allow():
                refused += 1
                if refused > FLOOD_LIMIT:
                    await websocket.close(code=1008, reason="too many messages")
                    return
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
                return
            yield text
