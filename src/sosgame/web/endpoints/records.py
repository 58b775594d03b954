"""What is made from a game's moves on request: its record, replay, move list and analysis.

Each costs the server work, so a client's rate of them is limited, and the first three are
made once per game version, off the event loop, and kept.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from sosgame.outcome import OFF_THE_BOARD, Outcome, Termination
from sosgame.position import Position, build_game
from sosgame.record import Record
from sosgame.web.endpoints.common import address, room_or_404, server
from sosgame.web.protocol import ProtocolError
from sosgame.web.replay import move_list, replay_frames, to_json_bytes
from sosgame.web.room import Room

__all__ = ["analysis", "moves", "record", "replay"]


async def _costly_room(request: Request) -> Room:
    """The room of a request for work (a replay, record, move list or analysis), once
    the client's rate allows it."""
    if not server(request).reads.allow(address(request)):
        raise ProtocolError(
            "rate_limited",
            f"too many replays, records and analyses asked for: at most"
            f" {server(request).limits.reads_per_second:g} a second from one address on average",
        )
    return await room_or_404(request)


async def _cached(
    request: Request, room: Room, kind: str, make: Callable[[Position], bytes]
) -> bytes:
    """The answer ``make`` gives for the room's game as it stands, made once per game
    version in a thread (from a copy of its moves) and kept."""
    position = room.position()
    key = (kind, room.id, room.version, len(position.actions))
    return await server(request).answers.get(key, lambda: make(position))


async def record(request: Request) -> Response:
    """``GET /api/games/{game_id}/record``: the game as a record file."""
    room = await _costly_room(request)
    created = datetime.fromtimestamp(room.created_ms / 1000, tz=UTC).date().isoformat()
    names = [row.name for row in room.seats]
    meta = {"date": created, "tags": {"game": room.id}}
    result = room.result()
    decided = None  # an ending the engine does not give (a flag, an agreement, ...)
    if result is not None and result["termination"] in {item.value for item in OFF_THE_BOARD}:
        decided = Outcome(Termination(result["termination"]), tuple(result["winners"]))

    def make(position: Position) -> bytes:
        game = build_game(position)
        record = Record.from_game(game, players=names, meta=meta)
        if decided is not None:
            record.result = (decided, game.scores)
        return record.to_json().encode()

    return Response(
        await _cached(request, room, "record", make),
        media_type="application/json",
        headers={"content-disposition": f'attachment; filename="sos-{room.id}.json"'},
    )


async def replay(request: Request) -> Response:
    """``GET /api/games/{game_id}/replay``: the game's frames, one per ply."""
    room = await _costly_room(request)

    def make(position: Position) -> bytes:
        return to_json_bytes(replay_frames(build_game(position), position.start))

    return Response(await _cached(request, room, "replay", make), media_type="application/json")


async def moves(request: Request) -> Response:
    """``GET /api/games/{game_id}/moves``: each action with its seat and points."""
    room = await _costly_room(request)

    def make(position: Position) -> bytes:
        found = move_list(build_game(position), position.start)
        return to_json_bytes({"id": room.id, "moves": found})

    return Response(await _cached(request, room, "moves", make), media_type="application/json")


async def analysis(request: Request) -> Response:
    """``GET /api/games/{game_id}/analysis``: the analysis, or how far it has got."""
    room = await _costly_room(request)
    return JSONResponse(
        server(request).analyses.request(
            room.id, room.position(), version=room.version, client=address(request)
        )
    )
