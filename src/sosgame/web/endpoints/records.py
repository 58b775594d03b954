"""What is made from a game's moves on request: its record, replay, move list and analysis.

Each costs the server work, so a client's rate of them is limited, and the first three are
made once per game version, off the event loop, and kept.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from functools import partial
from typing import Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from sosgame.outcome import OFF_THE_BOARD, Outcome, Termination
from sosgame.record import Record
from sosgame.snapshot import Snapshot, build_game
from sosgame.table import SEATS_TAG
from sosgame.web.api import Answer, declare, refused
from sosgame.web.endpoints.common import (
    NO_GAME,
    READS,
    address,
    bearer,
    costly,
    hub,
    room_or_404,
    server,
)
from sosgame.web.live.chat import CHAT_TAG, plays_in, record_tag
from sosgame.web.live.replay import move_list, replay_frames, to_json_bytes
from sosgame.web.live.room import Room
from sosgame.web.people.names import distinct_names

DAYS_TAG: Final = "sosgame.days"
"""The record's tag for a correspondence game's days per move (records without it had none)."""
BOTS_TAG: Final = "sosgame.bots"
"""The record's tag for the seats a bot played, by number, separated by commas (as a chess
game's record gives a bot its title "BOT"); absent when no bot played."""
TOURNAMENT_TAG: Final = "sosgame.tournament"
"""The record's tag for a tournament's game: its tournament's ``{"id", "name"}`` as JSON text
(a tag's value is text); the name is the record's ``event`` too."""

__all__ = ["ROUTES", "analysis", "moves", "record", "replay"]


async def _costly_room(request: Request) -> Room:
    """The room of a request for work (a replay, record, move list or analysis), once
    the client's rate allows it."""
    await costly(request)
    return await room_or_404(request)


async def _made(
    request: Request, room: Room, kind: str, make: Callable[[Snapshot], bytes]
) -> Response:
    """The JSON ``make`` gives for the room's game as it stands, made once per game version in
    a thread (from a snapshot of its moves) and kept."""
    snapshot = room.snapshot()
    key = (kind, room.id, room.version, len(snapshot.actions))
    made = await server(request).answers.get(key, lambda: make(snapshot))
    return Response(made, media_type="application/json")


@declare(
    "Download the game as a sosgame-record/1 JSON record; for its players (a seat token as"
    " the bearer, or the session of an account that took a seat) with the players' chat",
    bearer=True,
    responses={200: Answer("The record"), 404: NO_GAME, 429: READS},
)
async def record(request: Request) -> Response:
    """``GET /api/games/{game_id}/record``: the game as a record file, with the players'
    chat in its tag ``sosgame.chat`` for the game's players only."""
    room = await _costly_room(request)
    created = datetime.fromtimestamp(room.created_ms / 1000, tz=UTC).date().isoformat()
    # Someone may take a seat under a name another seat has; a record may hold no two alike.
    names = distinct_names([row.name for row in room.seats])
    kinds = ",".join(seat.kind for seat in room.table.seats)
    tags = {"game": room.id, SEATS_TAG: kinds}
    if room.days is not None:
        tags[DAYS_TAG] = str(room.days)
    bots = [str(number) for number, row in enumerate(room.seats) if row.bot]
    if bots:
        tags[BOTS_TAG] = ",".join(bots)
    meta: dict[str, object] = {"date": created, "tags": tags}
    if room.tournament is not None:
        event = {"id": room.tournament["id"], "name": room.tournament["name"]}
        tags[TOURNAMENT_TAG] = json.dumps(event, ensure_ascii=False)
        meta["event"] = event["name"]
    result = room.result()
    decided = None  # an ending the engine does not give (a flag, an agreement, ...)
    if result is not None and result["termination"] in {item.value for item in OFF_THE_BOARD}:
        decided = Outcome(Termination(result["termination"]), tuple(result["winners"]))

    def make(snapshot: Snapshot) -> bytes:
        game = build_game(snapshot)
        record = Record.from_game(game, players=names, meta=meta)
        if decided is not None:
            record.result = (decided, game.scores)
        return record.to_json().encode()

    response = await _made(request, room, "record", make)
    if await _plays(request, room):
        said = await hub(request).db(record_tag, hub(request).store.engine, room.id)
        if said is not None:
            response = Response(_tagged(response.body, said), media_type="application/json")
        response.headers["cache-control"] = "no-store"
    response.headers["content-disposition"] = f'attachment; filename="sos-{room.id}.json"'
    return response


async def _plays(request: Request, room: Room) -> bool:
    """Whether the request is a player's of the room's game: one of its seat tokens as the
    bearer, or the session of an account that took one of its seats."""
    if room.controlled(bearer(request)):
        return True
    account = await server(request).accounts.current(request)
    if account is None:
        return False
    found: bool = await hub(request).db(plays_in, hub(request).store.engine, room.id, account.id)
    return found


def _tagged(made: bytes | memoryview, said: str) -> bytes:
    """The record ``made`` (as :meth:`Record.to_json` wrote it) with the chat tag ``said``."""
    data = json.loads(bytes(made))
    data.setdefault("meta", {}).setdefault("tags", {})[CHAT_TAG] = said
    return json.dumps(data, indent=2, ensure_ascii=False).encode()


def _made_from_moves(
    kind: str, summary: str, answer: str, make: Callable[[str, Snapshot], bytes]
) -> Callable[[Request], Awaitable[Response]]:
    """The endpoint ``GET /api/games/{game_id}/KIND``: ``make`` of the game's id and snapshot."""

    @declare(summary, responses={200: Answer(answer), 404: NO_GAME, 429: READS})
    async def endpoint(request: Request) -> Response:
        room = await _costly_room(request)
        return await _made(request, room, kind, partial(make, room.id))

    endpoint.__name__ = endpoint.__qualname__ = kind
    endpoint.__doc__ = f"``GET /api/games/{{game_id}}/{kind}``: {summary[0].lower()}{summary[1:]}."
    return endpoint


def _frames(_game_id: str, snapshot: Snapshot) -> bytes:
    return to_json_bytes(replay_frames(build_game(snapshot), snapshot.start))


def _moves(game_id: str, snapshot: Snapshot) -> bytes:
    return to_json_bytes({"id": game_id, "moves": move_list(build_game(snapshot), snapshot.start)})


replay = _made_from_moves(
    "replay", "The game ply by ply, every frame worked out by the engine", "Frames", _frames
)
moves = _made_from_moves(
    "moves", "Every action with the seat that made it and the points it scored", "Moves", _moves
)


@declare(
    "What each move cost and the best move, exact where the solver finishes: the result once"
    " done, else the progress (starting the analysis if none of this game is under way)",
    responses={
        200: Answer("status queued, running, done or failed"),
        404: NO_GAME,
        429: refused(
            "Too many requests from this address (rate_limited: over"
            " {limits.reads_per_second:g} a second on average or {limits.read_burst} at once),"
            " another analysis of this address under way (analysis_busy) or over"
            " {limits.analysis_queue} waiting (analysis_queue_full)"
        ),
    },
)
async def analysis(request: Request) -> Response:
    """``GET /api/games/{game_id}/analysis``: the analysis, or how far it has got."""
    room = await _costly_room(request)
    return JSONResponse(
        server(request).analyses.request(
            room.id, room.snapshot(), version=room.version, client=address(request)
        )
    )


ROUTES: Final = [
    Route("/api/games/{game_id}/record", record),
    Route("/api/games/{game_id}/replay", replay),
    Route("/api/games/{game_id}/moves", moves),
    Route("/api/games/{game_id}/analysis", analysis),
]
"""This module's endpoints, for the app's routing table."""
