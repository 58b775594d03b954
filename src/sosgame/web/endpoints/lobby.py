"""Quick pairing over HTTP and the lobby's WebSocket: ``GET /api/pools`` lists the pools,
``/ws/lobby`` enters and leaves them and hears when a game is made (see docs/protocol.md,
"Pools")."""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket

from sosgame.web.api import Answer, Model, declare, refused
from sosgame.web.endpoints.common import address, bearer, hub, read_json, server
from sosgame.web.endpoints.sockets import incoming, serve_socket
from sosgame.web.guards import gamecaps
from sosgame.web.guards.gamecaps import Party
from sosgame.web.live import clock as clocks
from sosgame.web.live.fanout import Connection
from sosgame.web.live.hub import TooManyError
from sosgame.web.live.protocol import (
    PROTOCOL_VERSION,
    ProtocolError,
    check_name,
    error_message,
    parse_envelope,
)
from sosgame.web.matchmaking import creation
from sosgame.web.matchmaking.challengelimits import DECLINE_REASONS, LimitStore
from sosgame.web.matchmaking.lobby import STALE_MS, Lobby, LobbyClient
from sosgame.web.matchmaking.seeks import SeekSettings, member_of, parse_seek, seat_token
from sosgame.web.people.names import guest_name
from sosgame.web.people.ratings import NEW_PLAYER
from sosgame.web.people.tokens import hash_token

__all__ = [
    "LOBBY_MESSAGES",
    "ROUTES",
    "LobbyMessage",
    "delete_seek",
    "list_seeks",
    "lobby_socket",
    "new_seek",
    "parse_lobby_message",
    "pools",
]

LOBBY_MESSAGES: Final[dict[str, tuple[str, ...]]] = {
    "hello": ("name",),
    "pool": ("pool",),
    "leave": (),
    "play_computer": (),
    "join_seek": ("seek",),
    "ping": (),
    "challenge": ("name", "rows", "cols", "mode", "clock", "days", "rated"),
    "accept": ("challenge",),
    "decline": ("challenge", "reason"),
    "cancel_challenge": ("challenge",),
}
"""The lobby socket's message types and the fields each takes (besides ``v`` and ``type``)."""
_NEW_SEEK: Final = Model(
    "NewSeek",
    {
        "type": "object",
        "description": "rows, cols, mode, players (2 to 8, default 2), clock (as for a new game,"
        " or null), days (days per move, as for a new game, instead of clock), rated (default"
        " false), rating ({min, max} of shown ratings, either may be null, or null) and name"
        " (a guest's); see docs/protocol.md, 'Seeks'",
    },
)
_SEEK_ID: Final = Model("SeekId", {"type": "object", "properties": {"id": {"type": "string"}}})
_SEEK_MADE: Final = Model(
    "SeekMade",
    {
        "type": "object",
        "properties": {"id": {"type": "string"}, "token": {"type": "string"}},
        "description": "token: the creator's seat token in the game the seek makes, once filled",
    },
)


@dataclass(frozen=True)
class LobbyMessage:
    """A checked lobby message."""

    type: str
    name: str | None = None
    pool: str | None = None
    seek: str | None = None
    challenge: str | None = None
    reason: str = "generic"
    """Why a challenge is declined (one of ``DECLINE_REASONS``)."""
    game: SeekSettings | None = None
    """A challenge's game (of two players)."""


def _id(data: dict[str, Any], field: str, what: str, *, needed: bool = True) -> str | None:
    value = data.get(field)
    if value is None and not needed:
        return None
    if not isinstance(value, str) or not 0 < len(value) <= 32:
        raise ProtocolError("bad_field", f"field {field!r} must be {what}'s id")
    return value


def parse_lobby_message(text: str) -> LobbyMessage:
    """Check one message of the lobby's socket."""
    kind, data = parse_envelope(text, LOBBY_MESSAGES)
    name = None
    if data.get("name") is not None:
        name = check_name(data["name"], "name")
    if kind == "challenge":
        if name is None:
            raise ProtocolError("bad_field", "field 'name' must be the challenged player's name")
        game = {key: value for key, value in data.items() if key not in ("v", "type", "name")}
        return LobbyMessage(kind, name, game=parse_seek(game))
    if kind in ("accept", "decline", "cancel_challenge"):
        challenge = _id(data, "challenge", "a challenge", needed=kind != "decline")
        reason = data.get("reason", "generic")
        if kind == "decline" and reason not in DECLINE_REASONS:
            raise ProtocolError(
                "bad_field", f"field 'reason' must be one of {', '.join(DECLINE_REASONS)}"
            )
        return LobbyMessage(kind, challenge=challenge, reason=str(reason))
    pool = data.get("pool")
    if kind == "pool" and (not isinstance(pool, str) or not 0 < len(pool) <= 32):
        raise ProtocolError("bad_field", "field 'pool' must be a pool's id")
    seek = data.get("seek")
    if kind == "join_seek" and (not isinstance(seek, str) or not 0 < len(seek) <= 32):
        raise ProtocolError("bad_field", "field 'seek' must be a seek's id")
    return LobbyMessage(kind, name, pool, seek)


def lobby(connection: Request | WebSocket) -> Lobby:
    """The pools of this server process (in ``app.state.lobby``)."""
    found: Lobby = connection.app.state.lobby
    return found


@declare(
    "The quick-pairing pools (entered on the /ws/lobby WebSocket)",
    responses={
        200: Answer(
            "The pools",
            Model(
                "Pools",
                {"type": "object", "description": "pools: id, rows, cols, mode, clock, rated"},
            ),
        )
    },
)
async def pools(request: Request) -> Response:
    """``GET /api/pools``: the pools a player may enter."""
    return JSONResponse({"pools": [pool.to_json() for pool in lobby(request).pools.values()]})


@declare(
    "Offer a game in the lobby for the lobby connection whose secret comes as the bearer; it"
    " dies with that connection",
    body=_NEW_SEEK,
    responses={
        201: Answer("The seek's id and the creator's seat token in its game", _SEEK_MADE),
        400: refused("A bad field (bad_field)"),
        401: refused("No lobby connection's secret (no_lobby)"),
        403: refused("A rated seek without an account (account_needed)"),
        429: refused(
            "Too many seeks from this address: over {limits.seeks_per_address} (too_many_seeks);"
            " or the creator may make no more games now (too_many_games)"
        ),
    },
)
async def new_seek(request: Request) -> Response:
    """``POST /api/seeks``: offer a game in the lobby, for the lobby connection whose secret
    comes as ``Authorization: Bearer``; 201 ``{"id", "token"}``: the creator's seat token in
    the game it makes, so that a correspondence seek filled after the connection closed is
    still the creator's to play."""
    secret = bearer(request)
    if secret is None or "." not in secret or len(secret) > 100:
        raise ProtocolError(
            "no_lobby", "send the lobby connection's secret as Authorization: Bearer"
        )
    given = parse_seek(await read_json(request))
    account = await server(request).accounts.current(request)
    if given.rated and account is None:
        raise ProtocolError("account_needed", "rated seeks are for players with an account")
    name = account.name if account is not None else given.name or guest_name()
    # The game it makes will be the creator's: refused now if they may make none.
    party = Party(address(request), None if account is None else account.id)
    caps = creation.caps_now(hub(request))
    reason = await hub(request).db(gamecaps.refused, hub(request).store.engine, caps, party)
    if reason is not None:
        raise creation.too_many(reason, server(request).limits)
    seek_id = secrets.token_urlsafe(9)
    member = member_of(secret, seek_id, name, None if account is None else account.id)
    limit = server(request).limits.seeks_per_address
    made = await hub(request).db(
        lobby(request).seeks.create,
        seek_id,
        given,
        member,
        address(request),
        clocks.now_ms(),
        per_address=limit,
    )
    if not made:
        raise TooManyError(
            "too_many_seeks",
            f"this address already has {limit} seeks in the lobby, the most one address may have",
        )
    token = seat_token(secret, seek_id)
    hub(request).bus.wake()  # every process's lobby sockets hear of it
    return JSONResponse({"id": seek_id, "token": token}, status_code=201)


@declare(
    "The seeks (games offered in the lobby) the caller may take",
    responses={
        200: Answer(
            "The seeks",
            Model(
                "Seeks",
                {
                    "type": "object",
                    "description": "seeks: id, rows, cols, mode, players, joined, clock, rated,"
                    " rating, name",
                },
            ),
        )
    },
)
async def list_seeks(request: Request) -> Response:
    """``GET /api/seeks``: the seeks the caller may take (rating range, account)."""
    account = await server(request).accounts.current(request)
    shown = NEW_PLAYER.shown if account is None else account.rating.shown
    found = await hub(request).db(lobby(request).seeks.open_seeks, clocks.now_ms(), STALE_MS)
    listed = [
        seek.to_json()
        for seek in found
        if seek.target is None and seek.open_to(shown, account is not None)
    ]
    return JSONResponse({"seeks": listed})


@declare(
    "Withdraw a seek (its creator's lobby connection's secret as the bearer)",
    responses={200: Answer("Withdrawn", _SEEK_ID), 404: refused("No such seek (no_seek)")},
)
async def delete_seek(request: Request) -> Response:
    """``DELETE /api/seeks/{id}``: withdraw a seek (its creator's lobby secret as Bearer)."""
    secret = bearer(request) or ""
    seek_id = str(request.path_params["seek_id"])
    if not await hub(request).db(lobby(request).seeks.delete, seek_id, hash_token(secret)):
        raise ProtocolError("no_seek", "you have no such seek waiting")
    hub(request).bus.wake()
    return JSONResponse({"id": seek_id})


async def _greet(websocket: WebSocket, connection: Connection, name: str | None) -> LobbyClient:
    """The client of a ``hello``: the account of the session cookie, or a guest."""
    client = LobbyClient(connection, address(websocket), name or guest_name())
    secret = websocket.cookies.get("sos_session")
    players = server(websocket).accounts.players
    account = None
    if secret and len(secret) <= 100:
        account = await hub(websocket).db(players.session_account, secret, clocks.now_ms())
    player: dict[str, Any] | None = None
    if account is not None:
        client.name, client.account = account.name, account.id
        client.rating, client.player = account.rating.mu, f"account:{account.id}"
        client.shown = account.rating.shown
        client.bot = account.bot
        player = account.to_json()
    secret = lobby(websocket).connect(client)
    await connection.send(
        {
            "v": PROTOCOL_VERSION,
            "type": "welcome",
            "player": player,
            "name": client.name,
            "lobby": secret,
        }
    )
    await lobby(websocket).greet(client)
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
                        raise ProtocolError("hello_first")
                    client = await _greet(websocket, connection, parsed.name)
                elif parsed.type == "pool":
                    assert parsed.pool is not None
                    await pools.enter(client, parsed.pool)
                elif parsed.type == "leave":
                    await pools.leave(client)
                elif parsed.type == "play_computer":
                    await pools.play_computer(client)
                elif parsed.type == "join_seek":
                    assert parsed.seek is not None
                    await pools.join_seek(client, parsed.seek)
                elif parsed.type == "ping":
                    await connection.send({"v": PROTOCOL_VERSION, "type": "pong"})
                elif parsed.type != "hello":
                    await _challenges(websocket, pools, client, parsed)
                else:
                    raise ProtocolError("hello_once")
            except ProtocolError as error:
                await connection.send(error_message(error.code, error.detail))
    finally:
        if client is not None:
            # Shielded: a handler cancelled while its database call still waits in the queue
            # would leave the client's seeks and pool entry behind until they went stale.
            await asyncio.shield(pools.gone(client))
        connection.stop()


async def _challenges(
    websocket: WebSocket, pools: Lobby, client: LobbyClient, parsed: LobbyMessage
) -> None:
    """A message about challenges: make, accept, decline or cancel one."""
    if parsed.type == "challenge":
        assert parsed.name is not None and parsed.game is not None
        if client.account is None:
            raise ProtocolError("account_needed", "challenges are between named players")
        players = server(websocket).accounts.players
        target = await hub(websocket).db(players.find, parsed.name)
        if target is None:
            raise ProtocolError("no_player", parsed.name)
        if target.id != client.account:
            challenger = await hub(websocket).db(players.get, client.account)
            store = LimitStore(hub(websocket).store.engine)
            await hub(websocket).db(store.check, challenger, target.id, parsed.game)
        await pools.challenge(client, parsed.game, target.id, target.name)
    elif parsed.type == "accept":
        assert parsed.challenge is not None
        if client.account is None:
            raise ProtocolError("account_needed", "challenges are between named players")
        await pools.join_seek(client, parsed.challenge, challenge=True)
    elif parsed.type == "decline":
        await pools.decline(client, parsed.challenge, parsed.reason)
    else:
        assert parsed.challenge is not None
        await pools.cancel(client, parsed.challenge)


ROUTES: Final = [
    Route("/api/pools", pools),
    Route("/api/seeks", list_seeks, methods=["GET"]),
    Route("/api/seeks", new_seek, methods=["POST"]),
    Route("/api/seeks/{seek_id}", delete_seek, methods=["DELETE"]),
    WebSocketRoute("/ws/lobby", lobby_socket),
]
"""This module's endpoints, for the app's routing table."""
