"""The bot API's games (docs/protocol.md, "Bots"): a move and every other action of a
seat over HTTP, through ``/api/bot/`` for a bot account and ``/api/board/`` for anyone's.

Each is the message the game's WebSocket takes from that seat, checked by the same parser
and carried out by the room's machine (:mod:`sosgame.web.live.machine`), so the rules of
fair play are the same for a bot as for a person.
"""

from __future__ import annotations

import json
from functools import partial
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from sosgame.web.api import Answer, Model, declare, refused
from sosgame.web.endpoints.bots import OK, authorized, bots
from sosgame.web.endpoints.common import address, cold_load, hub, read_json, server
from sosgame.web.guards.ratelimit import RateLimit
from sosgame.web.live.chat import keep_message, seat_share, send_chat
from sosgame.web.live.errors import error_response
from sosgame.web.live.fanout import Connection
from sosgame.web.live.hub import Hub
from sosgame.web.live.machine.commands import Sent
from sosgame.web.live.protocol import (
    PROTOCOL_VERSION,
    ChatMessage,
    ProtocolError,
    parse_client_message,
)
from sosgame.web.live.room import Room
from sosgame.web.people.players import Account

__all__ = ["RETRY_AFTER", "ROUTES", "seated"]

RETRY_AFTER: Final = "1"
"""Seconds a client refused for its rate waits (a token comes back every tenth of one)."""
_OK: Final = OK


def _answers(
    bad: str | None = None, forbidden: str = "not_your_seat, missing_scope, not_a_bot"
) -> dict[int, Answer]:
    """The answers of a game action: done, refused as ``bad`` (400) or ``forbidden`` (403),
    or past the rate."""
    answers = {200: Answer("Done: ok", _OK)}
    if bad is not None:
        answers[400] = refused(bad)
    answers[403] = refused(forbidden)
    answers[429] = refused("Past 10 requests a second (rate_limited), with Retry-After")
    return answers


async def seated(
    request: Request, *, newcomer: bool = False
) -> tuple[Account, Room, frozenset[int]]:
    """The token's account, the game's room and the seats the account holds in it (a bot's
    through ``/api/bot/``, anyone's through ``/api/board/``): ``no_game``, or
    ``not_your_seat`` for another's game.

    Only a ``newcomer`` (a stream that starts with the whole game) waits for the room's
    version to be compared with the store's: an action needs no such check, since its
    write is refused (``stale``) if another process changed the game first."""
    is_bot = request.url.path.startswith("/api/bot/")
    account, _ = await authorized(request, "bot:play" if is_bot else "board:play")
    if is_bot and not account.bot:
        raise ProtocolError("not_a_bot")
    game_id = str(request.path_params["game_id"])
    await cold_load(request, game_id)
    running = hub(request)
    room = await (running.room_to_join(game_id) if newcomer else running.room(game_id))
    if room is None:
        raise ProtocolError("no_game")
    memory = bots(request).seats
    seats = memory.get(account.id, game_id)
    if seats is None:
        found = await running.db_aside(bots(request).tokens.seats, account.id, game_id)
        seats = frozenset(one.seat for one in found)
        memory.keep(account.id, game_id, seats)
    if not seats:
        raise ProtocolError("not_your_seat", "the token's account plays no seat of this game")
    return account, room, seats


def _message(room: Room, kind: str, **fields: Any) -> Any:
    """A game's WebSocket message, checked as one from a socket, at the room's ply."""
    text = json.dumps({"v": PROTOCOL_VERSION, "type": kind, **fields})
    return parse_client_message(text)


def _flooded() -> Response:
    response = error_response("rate_limited", "too many requests for games: wait a little")
    response.headers["Retry-After"] = RETRY_AFTER
    return response


async def _run(request: Request, kind: str, **fields: Any) -> Response:
    """Carry out one message for the token's seats; a move its seat may make now is never
    charged to the token's rate, anything else is (past it: 429 with ``Retry-After``)."""
    account, room, seats = await seated(request)
    ply = request.query_params.get("ply")
    mover = room.playable and room.game.turn in seats
    free = kind == "move" and mover
    rates = bots(request).rates
    if not free and not await rates.allow(str(account.id)):
        return _flooded()
    message = _message(
        room, kind, **fields, ply=int(ply) if ply and ply.isdigit() else room.live.ply
    )
    try:
        async with room.lock:
            await room.run(Sent(message, seats))
    except ProtocolError as error:
        # A refused move counts: a flood of bad moves meets the rate like anything else.
        if free and not await rates.allow(str(account.id)):
            return _flooded()
        if error.code == "not_your_turn":
            # The WebSocket's code; the bot API's one name for it is wrong_turn.
            raise ProtocolError("wrong_turn", error.detail) from None
        raise
    return JSONResponse({"ok": True})


@declare(
    "Play a move such as Sb3 for the token's seat (a move its seat may make now is never"
    " refused for the rate)",
    bearer=True,
    query={"ply": {"type": "integer"}},
    responses=_answers("bad_move, illegal_move, wrong_turn, stale, game_over, waiting"),
)
async def move(request: Request) -> Response:
    """``POST /api/bot/game/{id}/move/{move}``: a move such as ``Sb3`` (``?ply=`` optional:
    refused with ``stale`` if the game is at another)."""
    return await _run(request, "move", move=str(request.path_params["move"])[:16])


@declare(
    "Resign the token's seat (at any time: not only on its turn)",
    bearer=True,
    responses=_answers("game_over"),
)
async def resign(request: Request) -> Response:
    """``POST .../resign``: resign the account's seat."""
    _, _, seats = await seated(request)
    return await _run(request, "resign", seat=min(seats))


@declare(
    "Abort the game, before every seat has made its first move",
    bearer=True,
    responses=_answers(None, forbidden="not_allowed, not_your_seat, missing_scope, not_a_bot"),
)
async def abort(request: Request) -> Response:
    """``POST .../abort``: end the game as aborted, before every seat has moved."""
    return await _run(request, "abort")


@declare(
    "Go berserk: halve the token's seat's clock before its first move, in an Arena's game"
    " (a win is worth a point more)",
    bearer=True,
    responses=_answers(None, forbidden="not_allowed, not_your_seat, missing_scope, not_a_bot"),
)
async def berserk(request: Request) -> Response:
    """``POST .../berserk``: halve the account's clock before its first move (an Arena's
    game with a clock)."""
    return await _run(request, "berserk")


@declare(
    "Claim the win against a seat away long enough",
    bearer=True,
    responses=_answers("not_abandoned"),
)
async def claim_victory(request: Request) -> Response:
    """``POST .../claim-victory``: against a seat away long enough."""
    return await _run(request, "claim", claim="win")


@declare(
    "Claim a draw against a seat away long enough",
    bearer=True,
    responses=_answers("not_abandoned"),
)
async def claim_draw(request: Request) -> Response:
    """``POST .../claim-draw``: against a seat away long enough."""
    return await _run(request, "claim", claim="draw")


@declare(
    "Offer (or accept) a draw or takeback: yes; decline it: no",
    bearer=True,
    responses=_answers("no_offer, not_allowed"),
)
async def offer(request: Request) -> Response:
    """``POST .../draw/{yes|no}``, ``.../takeback/{yes|no}``: offer (or accept the other's
    offer), or decline it."""
    kind = "draw" if "/draw/" in request.url.path else "takeback"
    answer = str(request.path_params["answer"])
    if answer not in ("yes", "no"):
        raise ProtocolError("bad_field", "say yes or no")
    if answer == "yes":
        return await _run(request, "offer", offer=kind)
    return await _run(request, "answer", offer=kind, accept=False)


@declare(
    "Say something in the players' or the spectators' chat",
    bearer=True,
    body=Model(
        "BotChat",
        {
            "type": "object",
            "properties": {"room": {"enum": ["player", "spectator"]}, "text": {"type": "string"}},
        },
    ),
    responses=_answers("bad_field, chat_full"),
)
async def chat(request: Request) -> Response:
    """``POST .../chat`` with ``{"room": "player" | "spectator", "text"}``."""
    account, room, seats = await seated(request)
    data = await read_json(request)
    if not isinstance(data, dict) or data.get("room") not in ("player", "spectator"):
        raise ProtocolError("bad_field", "field 'room' must be 'player' or 'spectator'")
    if not await bots(request).rates.allow(str(account.id)):
        return _flooded()
    parsed = _message(room, "chat", text=data.get("text"))
    assert isinstance(parsed, ChatMessage)

    async def nowhere(_text: str) -> None:
        return None

    speaker = Connection(nowhere, address=address(request))
    speaker.seats = seats if data["room"] == "player" else frozenset()
    limits = hub(request).limits

    async def who() -> str:
        return account.name

    await send_chat(
        room.id,
        [row.name for row in room.seats],
        room.channel,
        hub(request).bus,
        speaker,
        parsed.text,
        parsed.phrase,
        account=who,
        limit=RateLimit(limits.chat_per_second, limits.chat_burst),
        rates=server(request).chat,
        keep=partial(_keep, hub(request), room.id, seat_share(limits, len(room.seats))),
        bot=account.bot,
    )
    speaker.stop()
    return JSONResponse({"ok": True})


async def _keep(running: Hub, game_id: str, most: int, message: dict[str, Any]) -> bool:
    kept: bool = await running.db(keep_message, running.store.engine, game_id, message, most=most)
    return kept


def _game_routes(prefix: str) -> list[Route]:
    base = f"{prefix}/game/{{game_id}}"
    return [
        Route(f"{base}/move/{{move}}", move, methods=["POST"]),
        Route(f"{base}/resign", resign, methods=["POST"]),
        Route(f"{base}/abort", abort, methods=["POST"]),
        Route(f"{base}/berserk", berserk, methods=["POST"]),
        Route(f"{base}/claim-victory", claim_victory, methods=["POST"]),
        Route(f"{base}/claim-draw", claim_draw, methods=["POST"]),
        Route(f"{base}/chat", chat, methods=["POST"]),
        Route(f"{base}/draw/{{answer}}", offer, methods=["POST"]),
        Route(f"{base}/takeback/{{answer}}", offer, methods=["POST"]),
    ]


ROUTES: Final = [*_game_routes("/api/bot"), *_game_routes("/api/board")]
"""This module's endpoints, for the app's routing table."""
