"""The games: the lobby's lists, new games and uploaded records, a game's state, its seats
and invites, and rematches."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from sosgame.errors import RecordError
from sosgame.limits import WEB_MAX_NAME
from sosgame.record import Record
from sosgame.web.api import Answer, Model, declare, refused
from sosgame.web.endpoints.common import (
    FORBIDDEN,
    NO_GAME,
    TOO_MANY,
    address,
    bearer,
    costly,
    hub,
    read_json,
    room_or_404,
    server,
)
from sosgame.web.guards import limits
from sosgame.web.guards.bodies import MAX_BODY_BYTES
from sosgame.web.live import rematches
from sosgame.web.live.protocol import NEW_GAME, ProtocolError, check_name, parse_new_game
from sosgame.web.live.room import Room
from sosgame.web.matchmaking import creation
from sosgame.web.storage.rows import HUMAN

__all__ = [
    "ROUTES",
    "get_game",
    "invites",
    "list_games",
    "new_game",
    "rematch",
    "take_seat",
    "upload",
]

MAX_INVITE: Final = 64
"""The longest invite secret a seat's body may bring."""
_LISTS: Final = {"open": ["open"], "archive": ["finished"], "playing": ["playing"]}
_SEATS: Final = {"type": "array", "items": {"type": "integer"}}
CREATED: Final = Model(
    "Created",
    {
        "type": "object",
        "properties": {
            "id": {"type": "string"},
            "token": {"type": "string"},
            "seats": _SEATS,
            "links": {"type": "object", "description": "game, seats (invite links), spectator"},
        },
    },
)
TAKE_SEAT: Final = Model(
    "TakeSeat",
    {
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 1, "maxLength": WEB_MAX_NAME},
            "invite": {"type": "string", "maxLength": MAX_INVITE},
        },
        "additionalProperties": False,
    },
)
SEAT: Final = Model(
    "Seat",
    {
        "type": "object",
        "properties": {"id": {"type": "string"}, "token": {"type": "string"}, "seats": _SEATS},
    },
)


@declare(
    "Public games open for players, being played, or finished (private games are listed nowhere)",
    query={"list": {"enum": list(_LISTS), "default": "open"}},
    responses={
        200: Answer(
            "Newest first",
            Model(
                "GameList",
                {
                    "type": "object",
                    "properties": {"games": {"type": "array", "items": {"type": "object"}}},
                },
            ),
        ),
        400: refused("No such list (bad_field)"),
    },
)
async def list_games(request: Request) -> Response:
    """``GET /api/games?list=open|playing|archive``: the public games in that state."""
    which = request.query_params.get("list", "open")
    if which not in _LISTS:
        raise ProtocolError("bad_field", "query 'list' must be open, playing or archive")
    # Only games created public are listed, in any state: a private game's id is the
    # link to watch it, and its players choose whom they give it to.
    summaries = await hub(request).db(hub(request).store.summaries, _LISTS[which], public_only=True)
    return JSONResponse(
        {
            "games": [
                {
                    "id": item.id,
                    "kind": item.kind,
                    "rows": item.rows,
                    "cols": item.cols,
                    "mode": item.mode,
                    "status": item.status,
                    "names": item.names,
                    "bots": item.bots,
                    "open_seats": item.open_seats,
                    "result": item.result,
                    "updated": item.updated_ms,
                }
                for item in summaries
            ]
        }
    )


@declare(
    "Start a new game",
    body=NEW_GAME,
    responses={
        201: Answer("The new game, the creator's seat token and the links", CREATED),
        429: TOO_MANY,
    },
)
async def new_game(request: Request) -> Response:
    """``POST /api/games``: a new game; the creator's token and the seats it opens."""
    settings = parse_new_game(await read_json(request))
    account = await server(request).accounts.current(request)
    player = account if settings.kind == "online" else None
    mine = next((n for n, row in enumerate(settings.seats) if row.player == HUMAN), None)
    if player is not None and mine is not None:
        # A named player's seat carries their name (and, linked, their rating).
        named = replace(settings.seats[mine], name=player.name)
        settings = replace(
            settings, seats=(*settings.seats[:mine], named, *settings.seats[mine + 1 :])
        )
    room, token, seats = await creation.create(
        hub(request),
        settings,
        owner=address(request),
        player=None if account is None else account.id,
    )
    if mine is not None:
        await server(request).accounts.link(room.id, mine, player)
    return _created(request, room, token, seats)


@declare(
    "A game's state, as the WebSocket 'state' message holds it",
    responses={
        200: Answer(
            "The game",
            Model("Game", {"type": "object", "description": "See docs/protocol.md, 'state'"}),
        ),
        404: NO_GAME,
    },
)
async def get_game(request: Request) -> Response:
    """``GET /api/games/{game_id}``: the game's state and its links."""
    room = await room_or_404(request)
    return JSONResponse({**room.state()["game"], "links": _links(request, room, secret=False)})


@declare(
    "What a finished game did to its players' ratings",
    responses={
        200: Answer(
            "Whether it was rated, and each account's rating before and after it",
            Model(
                "GameRatings",
                {
                    "type": "object",
                    "description": "'rated': true, false or null (not decided yet); 'seats': for"
                    " each seat an account played, seat, before and after (rating, mu, sigma;"
                    " after is null unless the game was rated)",
                },
            ),
        ),
        404: NO_GAME,
    },
)
async def game_ratings(request: Request) -> Response:
    """``GET /api/games/{game_id}/ratings``: the game's effect on its players' ratings."""
    room = await room_or_404(request)
    found = await hub(request).db(server(request).accounts.players.game_ratings, room.id)
    return JSONResponse(found)


@declare(
    "The invite links of the free seats, for the game's players",
    bearer=True,
    responses={
        200: Answer(
            "One link per seat, null if not free",
            Model(
                "Invites",
                {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string"},
                        "seats": {"type": "array", "items": {"type": ["string", "null"]}},
                    },
                },
            ),
        ),
        403: FORBIDDEN,
        404: NO_GAME,
    },
)
async def invites(request: Request) -> Response:
    """``GET /api/games/{game_id}/invites``: the free seats' invite links, for its players."""
    room = await room_or_404(request)
    if not room.controlled(bearer(request)):
        raise ProtocolError("not_your_seat", "invite links are for the game's players")
    return JSONResponse({"id": room.id, "seats": _seat_links(request, room)})


@declare(
    "Take a free seat of an online game",
    path_types={"seat": "integer"},
    body=TAKE_SEAT,
    body_required=False,
    body_description="Optional: an empty body takes the seat under the name it has. A game"
    " that is not public needs the invite link's secret.",
    responses={
        200: Answer("The seat token: keep it secret", SEAT),
        400: refused("A bad seat number or body (bad_field)"),
        403: FORBIDDEN,
        404: NO_GAME,
        409: refused("The seat is taken (seat_taken)"),
    },
)
async def take_seat(request: Request) -> Response:
    """``POST /api/games/{game_id}/seats/{seat}``: take a free seat (with its invite)."""
    room = await room_or_404(request)
    seat_text = str(request.path_params["seat"])
    # ASCII digits only: "²".isdigit() is true but int() refuses it.
    if not (seat_text.isascii() and seat_text.isdigit() and len(seat_text) <= 3):
        raise ProtocolError("bad_field", "the seat must be a seat number")
    body = await read_json(request, optional=True)
    if not isinstance(body, dict) or set(body) - set(TAKE_SEAT.fields):
        raise ProtocolError(
            "bad_field", "the body must be an object with at most 'name' and 'invite'"
        )
    name = None if body.get("name") is None else check_name(body["name"], "name")
    invite = body.get("invite")
    if invite is not None and (not isinstance(invite, str) or len(invite) > MAX_INVITE):
        raise ProtocolError("bad_field", "field 'invite' must be the invite link's secret")
    player = await server(request).accounts.current(request)
    if player is not None:
        name = player.name
    token = await creation.take_seat(hub(request), room, int(seat_text), name, invite)
    await server(request).accounts.link(room.id, int(seat_text), player)
    return JSONResponse({"id": room.id, "token": token, "seats": [int(seat_text)]})


@declare(
    "Offer (or accept) the rematch: the same settings and players, the seats rotated, made"
    " once every player has accepted",
    bearer=True,
    responses={
        200: Answer("The rematch someone had already started", CREATED),
        201: Answer("The new game, the creator's seat token and the links", CREATED),
        202: Answer(
            "The offer, until every player has accepted",
            Model(
                "RematchOffer",
                {
                    "type": "object",
                    "properties": {
                        "id": {"type": "string"},
                        "offer": {
                            "type": "object",
                            "description": "offer, from, accepted, lapses",
                        },
                    },
                },
            ),
        ),
        403: FORBIDDEN,
        404: NO_GAME,
        429: TOO_MANY,
    },
)
async def rematch(request: Request) -> Response:
    """``POST /api/games/{game_id}/rematch``: offer (or accept) the rematch; 202 with the
    offer until every player has accepted, then the rematch (201 when just made)."""
    room = await room_or_404(request)
    token = bearer(request)
    if token is None or not room.controlled(token):
        raise ProtocolError("not_your_seat", "a rematch needs a seat token of this game")
    account = await server(request).accounts.current(request)
    new, offer, fresh = await rematches.rematch(
        hub(request),
        room,
        room.controlled(token),
        "offer",
        links=server(request).accounts.copy_links,
        owner=address(request),
        player=None if account is None else account.id,
    )
    if new is None:
        return JSONResponse({"id": room.id, "offer": offer}, status_code=202)
    response = _created(request, new, token, sorted(new.controlled(token)))
    response.status_code = 201 if fresh else 200
    return response


@declare(
    "Upload a sosgame-record/1 record to replay or continue it",
    body=Model("Record", {"type": "object", "description": "A sosgame-record/1 record"}),
    responses={
        201: Answer("The new game, the creator's seat token and the links", CREATED),
        400: refused("Not a record, or one past the limits of a new game (bad_record)"),
        429: refused(
            "Too many games made (too_many_games), or too many uploads, replays and analyses"
            " from this address: over {limits.reads_per_second:g} a second on average or"
            " {limits.read_burst} at once (rate_limited)"
        ),
    },
)
async def upload(request: Request) -> Response:
    """``POST /api/records``: a local game from an uploaded record."""
    await costly(request)  # before the body is read: an upload is work like a replay
    body = await read_json(request, MAX_BODY_BYTES)
    try:
        loaded = Record.from_dict(body)  # no deeper than a record file may be, as a file's
        # The same limits as a new game: board sides, seat count and names.
        limits.check_board(loaded.rows, loaded.cols)
        limits.check_seat_count(len(loaded.players), "players")
        players = [
            limits.check_name(name, f"players[{number}]")
            for number, name in enumerate(loaded.players)
        ]
    except (RecordError, limits.SettingsError) as error:
        raise ProtocolError("bad_record", str(error)) from None
    loaded.players = players
    account = await server(request).accounts.current(request)
    room, token, seats = await creation.create_from_record(
        hub(request), loaded, owner=address(request), player=None if account is None else account.id
    )
    return _created(request, room, token, seats)


def _seat_links(request: Request, room: Room) -> list[str | None]:
    """Each free seat's invite link (with its secret), for the game's players only."""
    base = str(request.base_url).rstrip("/")
    links: list[str | None] = []
    for row in room.seats:
        link = None
        if row.player == HUMAN and row.token_hash is None:
            if row.invite is not None:
                link = f"{base}/#/join/{room.id}/{row.seat}/{row.invite}"
            elif room.public:
                link = f"{base}/#/join/{room.id}/{row.seat}"
        links.append(link)
    return links


def _links(request: Request, room: Room, *, secret: bool) -> dict[str, Any]:
    base = str(request.base_url).rstrip("/")
    seats = _seat_links(request, room) if secret or room.public else [None] * len(room.seats)
    return {
        "game": f"{base}/#/game/{room.id}",
        "seats": seats,
        "spectator": f"{base}/#/game/{room.id}",
    }


def _created(request: Request, room: Room, token: str, seats: list[int]) -> JSONResponse:
    return JSONResponse(
        {
            "id": room.id,
            "token": token,
            "seats": seats,
            "links": _links(request, room, secret=True),
        },
        status_code=201,
    )


ROUTES: Final = [
    Route("/api/games", list_games, methods=["GET"]),
    Route("/api/games", new_game, methods=["POST"]),
    Route("/api/games/{game_id}", get_game),
    Route("/api/games/{game_id}/seats/{seat}", take_seat, methods=["POST"]),
    Route("/api/games/{game_id}/rematch", rematch, methods=["POST"]),
    Route("/api/games/{game_id}/invites", invites),
    Route("/api/games/{game_id}/ratings", game_ratings),
    Route("/api/records", upload, methods=["POST"]),
]
"""This module's endpoints, for the app's routing table."""
