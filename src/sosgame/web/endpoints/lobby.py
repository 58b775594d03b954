"""Quick pairing over HTTP and the lobby's WebSocket: ``GET /api/pools`` lists the pools,
``/ws/lobby`` enters and leaves them and hears when a game is made (see docs/protocol.md,
"Pools")."""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.websockets import WebSocket

from sosgame.web import clock as clocks
from sosgame.web.endpoints.common import address, hub, server
from sosgame.web.endpoints.sockets import incoming, serve_socket
from sosgame.web.fanout import Connection
from sosgame.web.lobby import Lobby, LobbyClient
from sosgame.web.protocol import (
    PROTOCOL_VERSION,
    ProtocolError,
    check_name,
    error_message,
    parse_envelope,
)

__all__ = ["LOBBY_MESSAGES", "LobbyMessage", "lobby_socket", "parse_lobby_message", "pools"]

LOBBY_MESSAGES: Final[dict[str, tuple[str, ...]]] = {
    "hello": ("name",),
    "pool": ("pool",),
    "leave": (),
    "play_computer": (),
    "ping": (),
}
"""The lobby socket's message types and the fields each takes (besides ``v`` and ``type``)."""
GUEST: Final = "Guest"


@dataclass(frozen=True)
class LobbyMessage:
    """A checked lobby message."""

    type: str
    name: str | None = None
    pool: str | None = None


def parse_lobby_message(text: str) -> LobbyMessage:
    """Check one message of the lobby's socket."""
    kind, data = parse_envelope(text, LOBBY_MESSAGES)
    name = None
    if data.get("name") is not None:
        name = check_name(data["name"], "name")
    pool = data.get("pool")
    if kind == "pool" and (not isinstance(pool, str) or not 0 < len(pool) <= 32):
        raise ProtocolError("bad_field", "field 'pool' must be a pool's id")
    return LobbyMessage(kind, name, pool)


def lobby(connection: Request | WebSocket) -> Lobby:
    """The pools of this server process (in ``app.state.lobby``)."""
    found: Lobby = connection.app.state.lobby
    return found


async def pools(request: Request) -> Response:
    """``GET /api/pools``: the pools a player may enter."""
    return JSONResponse({"pools": [pool.to_json() for pool in lobby(request).pools.values()]})


async def _greet(websocket: WebSocket, connection: Connection, name: str | None) -> LobbyClient:
    """The client of a ``hello``: the account of the session cookie, or a guest."""
    client = LobbyClient(connection, address(websocket), name or GUEST)
    secret = websocket.cookies.get("sos_session")
    players = server(websocket).accounts.players
    account = None
    if secret and len(secret) <= 100:
        account = await hub(websocket).db(players.session_account, secret, clocks.now_ms())
    player: dict[str, Any] | None = None
    if account is not None:
        client.name, client.account = account.name, account.id
        client.rating, client.player = account.rating.mu, f"account:{account.id}"
        player = account.to_json()
    await connection.send(
        {"v": PROTOCOL_VERSION, "type": "welcome", "player": player, "name": client.name}
    )
    return client


async def lobby_socket(websocket: WebSocket) -> None:
    """``/ws/lobby``: the lobby's WebSocket."""

    async def serve(client: str) -> None:
        await _serve(websocket, client)

    # Counted against the client's connections; the lobby itself has no cap of a game's.
    await serve_socket(websocket, f"lobby:{secrets.token_hex(8)}", serve)


async def _serve(websocket: WebSocket, address: str) -> None:
    async def close(code: int, reason: str) -> None:
        await websocket.close(code=code, reason=reason)

    connection = hub(websocket).connection(websocket.send_text, close, address)
    pools = lobby(websocket)
    client: LobbyClient | None = None
    try:
        async for text in incoming(websocket, connection):
            try:
                if text is None:
                    raise ProtocolError("bad_message", "send messages as text frames of JSON")
                parsed = parse_lobby_message(text)
                if client is None:
                    if parsed.type != "hello":
                        raise ProtocolError("hello_first", "say hello before anything else")
                    client = await _greet(websocket, connection, parsed.name)
                elif parsed.type == "pool":
                    assert parsed.pool is not None
                    await pools.enter(client, parsed.pool)
                elif parsed.type == "leave":
                    await pools.leave(client)
                elif parsed.type == "play_computer":
                    await pools.play_computer(client)
                elif parsed.type == "ping":
                    await connection.send({"v": PROTOCOL_VERSION, "type": "pong"})
                else:
                    raise ProtocolError("hello_once", "say hello only once")
            except ProtocolError as error:
                await connection.send(error_message(error.code, error.message))
    finally:
        if client is not None:
            await pools.gone(client)
        connection.stop()
