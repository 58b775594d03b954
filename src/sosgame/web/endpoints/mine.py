"""``GET /api/my-games``: the caller's own games, found by the seat tokens the browser holds
and by its account's session; games where it is the caller's turn first."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from sosgame.web.api import Answer, Model, declare, refused
from sosgame.web.endpoints.common import READS, address, hub, server
from sosgame.web.live import clock as clocks
from sosgame.web.live.protocol import ProtocolError
from sosgame.web.people.tokens import hash_token
from sosgame.web.storage.rows import MyGame
from sosgame.web.tournaments.runner import TournamentRunner

__all__ = [
    "MAX_TOKENS",
    "PAGE_SIZE",
    "ROUTES",
    "my_games",
]

MAX_TOKENS: Final = 100
"""The most seat tokens one request may bring."""
PAGE_SIZE: Final = 20
"""Games per page."""
MAX_GAMES: Final = 200
"""The latest games of the caller's that are ordered and paged (older ones are not listed)."""
MAX_PAGE: Final = MAX_GAMES // PAGE_SIZE
_TOKEN: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")
_UNFINISHED: Final = ("open", "playing")


def tokens_of(request: Request) -> list[str]:
    """The seat tokens of the request's ``Authorization: Bearer`` headers (several headers,
    or one with the tokens on lines or after commas); ``bad_field`` for anything else."""
    found: list[str] = []
    for header in request.headers.getlist("authorization"):
        for part in re.split(r"[\r\n,]+", header):
            if not part.strip():
                continue
            scheme, _, token = part.strip().partition(" ")
            token = token.strip()
            if scheme.lower() != "bearer" or not _TOKEN.fullmatch(token):
                raise ProtocolError(
                    "bad_field", "Authorization must be lines of 'Bearer <seat token>'"
                )
            found.append(token)
            if len(found) > MAX_TOKENS:
                raise ProtocolError(
                    "bad_field", f"Authorization may bring at most {MAX_TOKENS} seat tokens"
                )
    return found


def _page(request: Request) -> int:
    text = request.query_params.get("page", "1")
    if not re.fullmatch(r"[0-9]{1,3}", text) or not 1 <= int(text) <= MAX_PAGE:
        raise ProtocolError("bad_field", f"query 'page' must be a number from 1 to {MAX_PAGE}")
    return int(text)


async def _listed(request: Request, game: MyGame, sent: dict[str, str]) -> dict[str, Any]:
    """One game as listed (``sent``: the request's tokens by their hashes); an unfinished
    one's turn and time left come from its room."""
    item: dict[str, Any] = {
        "id": game.id,
        "rows": game.rows,
        "cols": game.cols,
        "mode": game.mode,
        "players": game.names,
        "bots": game.bots,
        "seat": game.seats[0],
        "seats": game.seats,
        "state": game.status,
        "your_turn": False,
        "result": game.result,
        "created": game.created_ms,
        "updated": game.updated_ms,
        "time_left": None,
        "deadline": None,
        # The tokens sent that open its seats: a token kept for a seek learns its game here.
        "tokens": [sent[held] for held in game.token_hashes if held in sent],
    }
    room = await hub(request).room(game.id) if game.status in _UNFINISHED else None
    if room is None:
        return item
    state = room.state()["game"]
    item["state"] = state["status"]
    turn = state["turn"]
    if state["status"] == "playing" and turn in game.seats:
        item["your_turn"] = True
        clock = state["clock"]
        if clock is not None:
            item["time_left"] = clock["remaining"][turn]
        deadline = state.get("deadline")
        if deadline is not None:
            item["deadline"] = deadline
            until = datetime.fromisoformat(deadline).timestamp() * 1000
            item["time_left"] = max(0, int(until) - clocks.now_ms())
    return item


def _order(item: dict[str, Any]) -> tuple[int, int]:
    """Your turn first, then the other unfinished games, then the finished; newest first."""
    rank = 0 if item["your_turn"] else 1 if item["state"] in _UNFINISHED else 2
    return rank, -item["updated"]


@declare(
    "The caller's games: by its account's session and the seat tokens it sends",
    bearer=True,
    query={"page": {"type": "integer", "minimum": 1, "maximum": MAX_PAGE, "default": 1}},
    responses={
        200: Answer(
            f"Those where it is your turn first, then unfinished, then finished, newest first;"
            f" {PAGE_SIZE} a page",
            Model(
                "MyGames",
                {
                    "type": "object",
                    "properties": {
                        "games": {"type": "array", "items": {"type": "object"}},
                        "page": {"type": "integer"},
                        "more": {"type": "boolean"},
                        "your_turn": {"type": "integer"},
                    },
                },
            ),
        ),
        400: refused("A bad Authorization header or page (bad_field)"),
        429: READS,
    },
)
async def my_games(request: Request) -> Response:
    """``GET /api/my-games?page=N``: a page of the caller's games."""
    tokens = tokens_of(request)
    page = _page(request)
    if not await server(request).reads.allow(address(request)):
        raise ProtocolError("rate_limited", "too many requests from this address: try again soon")
    account = await server(request).accounts.current(request)
    if not tokens and account is None:
        return JSONResponse({"games": [], "page": page, "more": False, "your_turn": 0})
    sent = {hash_token(token): token for token in tokens}
    found = await hub(request).db(
        hub(request).store.games_of,
        list(sent),
        None if account is None else account.id,
        limit=MAX_GAMES,
    )
    listed = sorted([await _listed(request, game, sent) for game in found], key=_order)
    start = (page - 1) * PAGE_SIZE
    shown = listed[start : start + PAGE_SIZE]
    # The page's games only: a tournament's name is for the rows on screen.
    runner: TournamentRunner = request.app.state.tournaments
    events = await hub(request).db(runner.store.of_games, [item["id"] for item in shown])
    for item in shown:
        item["tournament"] = events.get(item["id"])
    return JSONResponse(
        {
            "games": shown,
            "page": page,
            "more": len(listed) > start + PAGE_SIZE,
            "your_turn": sum(item["your_turn"] for item in listed),
        }
    )


ROUTES: Final = [
    Route("/api/my-games", my_games),
]
"""This module's endpoints, for the app's routing table."""
