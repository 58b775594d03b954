"""The WebSocket of a game (``/ws/games/{game_id}``): admitted, counted against the caps,
rate limited (:mod:`sosgame.web.endpoints.sockets`), then every message checked and handed
to the game's room."""

from __future__ import annotations

from functools import partial
from typing import Any, Final

from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket

from sosgame.web.endpoints.common import cold_load, hub, server
from sosgame.web.endpoints.sockets import FLOOD_LIMIT, incoming, serve_socket
from sosgame.web.guards.ratelimit import RateLimit
from sosgame.web.live import rematches
from sosgame.web.live.chat import keep_message, seat_share, send_chat
from sosgame.web.live.clock import now_ms
from sosgame.web.live.fanout import Connection
from sosgame.web.live.machine.permissions import RematchStep
from sosgame.web.live.protocol import (
    AnswerMessage,
    ChatMessage,
    HelloMessage,
    OfferMessage,
    ProtocolError,
    WithdrawMessage,
    error_message,
    parse_client_message,
)
from sosgame.web.live.room import Room, RoomMessage
from sosgame.web.people.accounts import COOKIE

__all__ = [
    "FLOOD_LIMIT",
    "ROUTES",
    "play",
]


async def play(websocket: WebSocket) -> None:
    """``/ws/games/{game_id}``: a game's WebSocket."""
    game_id = str(websocket.path_params["game_id"])

    async def serve(client: str) -> None:
        await _serve_socket(websocket, game_id, client)

    await serve_socket(websocket, game_id, serve)


async def _serve_socket(websocket: WebSocket, game_id: str, client: str) -> None:
    async def close(code: int, reason: str) -> None:
        await websocket.close(code=code, reason=reason)

    connection = hub(websocket).connection(websocket.send_text, close, client)
    try:
        await cold_load(websocket, game_id)
    except ProtocolError as error:
        await connection.send(error_message(error.code, error.detail))
        await connection.flush()
        await websocket.close(code=1013, reason="too many games opened: try again later")
        return
    room = await hub(websocket).room(game_id)
    if room is None:
        await connection.send(error_message("no_game"))
        await connection.flush()
        await websocket.close(code=4404)
        return
    chat_limit = RateLimit(hub(websocket).limits.chat_per_second, hub(websocket).limits.chat_burst)
    try:
        async for text in incoming(websocket, connection):
            try:
                if text is None:
                    raise ProtocolError("bad_message", "send messages as text frames of JSON")
                parsed = parse_client_message(text)
                if not connection.greeted:
                    if not isinstance(parsed, HelloMessage):
                        raise ProtocolError("hello_first")
                    room = await hub(websocket).room_to_join(game_id) or room
                    room.join(connection, parsed.all_tokens)
                    continue
                if isinstance(parsed, ChatMessage):
                    names = [row.name for row in room.seats]
                    await send_chat(
                        room.id,
                        names,
                        room.channel,
                        hub(websocket).bus,
                        connection,
                        parsed.text,
                        parsed.phrase,
                        account=partial(_account_name, websocket),
                        limit=chat_limit,
                        rates=server(websocket).chat,
                        keep=partial(_keep, websocket, room.id, len(names)),
                    )
                    continue
            except ProtocolError as error:
                await connection.send(error_message(error.code, error.detail))
                continue
            step = _rematch_step(parsed)
            if step is not None:
                await _rematch(websocket, room, connection, step, client)
                continue
            await room.handle(connection, parsed)
    finally:
        room.leave(connection)
        connection.stop()


def _rematch_step(message: RoomMessage) -> RematchStep | None:
    """The step of the rematch an ``offer``, ``answer`` or ``withdraw`` of it takes."""
    match message:
        case OfferMessage(offer="rematch"):
            return "offer"
        case AnswerMessage(offer="rematch", accept=accept):
            return "accept" if accept else "decline"
        case WithdrawMessage(offer="rematch"):
            return "withdraw"
    return None


async def _rematch(
    websocket: WebSocket, room: Room, connection: Connection, step: RematchStep, client: str
) -> None:
    """A step of the rematch (:mod:`sosgame.web.live.rematches`)."""
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
        await connection.send(error_message(error.code, error.detail))


async def _keep(websocket: WebSocket, game_id: str, seats: int, message: dict[str, Any]) -> bool:
    """Store a message of the game's players' chat (``False`` if its seat's share is full)."""
    kept: bool = await hub(websocket).db(
        keep_message,
        hub(websocket).store.engine,
        game_id,
        message,
        most=seat_share(hub(websocket).limits, seats),
    )
    return kept


async def _account_name(websocket: WebSocket) -> str | None:
    """The name of the player whose session cookie came with the socket, if any."""
    secret = websocket.cookies.get(COOKIE)
    if not secret or len(secret) > 100:
        return None
    players = server(websocket).accounts.players
    found = await hub(websocket).db(players.session_account, secret, now_ms())
    return None if found is None else str(found.name)


ROUTES: Final = [
    WebSocketRoute("/ws/games/{game_id}", play),
]
"""This module's endpoints, for the app's routing table."""
