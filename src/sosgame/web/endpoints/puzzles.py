"""Puzzles over HTTP: the next puzzle near the player's rating, one puzzle by id, the day's
puzzle, and the verdict on the moves found so far.

The server judges every move with the puzzle's stored proof (:func:`sosgame.ai.puzzles.judge`)
and never sends the solution before the puzzle is over; a named player's first attempt at a
puzzle changes both ratings (unless the solution was shown to them or their address lately,
or they are past the pace of rated attempts), a guest plays unrated.
"""

from __future__ import annotations

import random
from typing import Any, Final

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from sosgame.ai import puzzles
from sosgame.ai.puzzles import Puzzle, PuzzleError
from sosgame.glicko import NEW_RATING
from sosgame.web.api import Answer, Model, declare, refused
from sosgame.web.endpoints.common import address, hub, read_json, server
from sosgame.web.live import clock as clocks
from sosgame.web.live.protocol import ProtocolError
from sosgame.web.people.puzzles import PuzzleRatings, RatedAttempt, Unrated, viewers

__all__ = ["ROUTES", "daily", "get_puzzle", "moves", "next_puzzle"]

MAX_MOVE_TEXT: Final = 8
"""The longest text a move may be (``Sa10`` and the like are 4)."""
_DAY_MS: Final = 24 * 3600 * 1000
_PUZZLE: Final = Answer(
    "The puzzle",
    Model(
        "Puzzle",
        {
            "type": "object",
            "description": "id, rows, cols, mode, position, turn, scores, goal (win, draw or"
            " points), rating, themes, moves (how many moves to find)",
        },
    ),
)
_NO_PUZZLE: Final = refused("There is no puzzle with this id (no_puzzle)")
_MOVES: Final = Model(
    "PuzzleMoves",
    {
        "type": "object",
        "required": ["moves"],
        "properties": {
            "moves": {
                "type": "array",
                "items": {"type": "string", "maxLength": MAX_MOVE_TEXT},
                "description": "the solving side's moves so far, such as Sb2",
            },
            "give_up": {"type": "boolean", "default": False},
        },
        "additionalProperties": False,
    },
)
_VERDICT: Final = Model(
    "PuzzleVerdict",
    {
        "type": "object",
        "description": "correct, reply, done, solution (once done or wrong), rated (a named"
        " player's new rating after a first attempt), unrated (why a first attempt was not"
        " rated: solution_seen or too_fast; else null) and board (position, turn, scores and"
        " lines after the moves)",
    },
)


async def _loaded() -> None:
    """Read the puzzle set once, off the event loop."""
    await run_in_threadpool(puzzles.puzzle_set)


def _ratings(request: Request) -> PuzzleRatings:
    return PuzzleRatings(hub(request).store)


async def _puzzle_or_404(request: Request) -> Puzzle:
    await _loaded()
    found = puzzles.find_puzzle(str(request.path_params["puzzle_id"]))
    if found is None:
        raise ProtocolError("no_puzzle")
    return found


async def _json(request: Request, puzzle: Puzzle) -> dict[str, Any]:
    """The puzzle as sent, its rating as it stands now."""
    rating = await hub(request).db(_ratings(request).puzzle, puzzle)
    return {**puzzle.to_json(), "rating": round(rating.rating)}


@declare(
    "A puzzle near the player's puzzle rating that they have not tried, with their rating as"
    " player (null for a guest)",
    responses={200: _PUZZLE, 404: refused("Every puzzle has been tried (no_puzzle)")},
)
async def next_puzzle(request: Request) -> Response:
    """``GET /api/puzzles/next``: a puzzle near the player's puzzle rating that they have not
    tried (a guest: near the starting rating, at random)."""
    await _loaded()
    account = await server(request).accounts.current(request)
    rating, tried = NEW_RATING, set[str]()
    if account is not None:
        rating, tried = await hub(request).db(_ratings(request).player, account.id)
    chosen = puzzles.choose_puzzle(rating.rating, solved=tried, seed=random.randrange(1 << 30))
    if chosen is None:
        raise ProtocolError("no_puzzle", "every puzzle has been tried")
    player = None if account is None else rating.to_json()
    return JSONResponse({**await _json(request, chosen), "player": player})


@declare("One puzzle, without its solution", responses={200: _PUZZLE, 404: _NO_PUZZLE})
async def get_puzzle(request: Request) -> Response:
    """``GET /api/puzzles/{puzzle_id}``: one puzzle, without its solution."""
    return JSONResponse(await _json(request, await _puzzle_or_404(request)))


@declare("The day's puzzle (by the UTC date)", responses={200: _PUZZLE})
async def daily(request: Request) -> Response:
    """``GET /api/puzzles/daily``: the day's puzzle (UTC), the same for everyone."""
    await _loaded()
    return JSONResponse(await _json(request, puzzles.daily_puzzle(clocks.now_ms() // _DAY_MS)))


def _moves(body: object) -> tuple[list[str], bool]:
    if not isinstance(body, dict) or set(body) - {"moves", "give_up"}:
        raise ProtocolError(
            "bad_moves", 'the body must be {"moves": [...]}, with "give_up" at most besides'
        )
    found = body.get("moves")
    if not isinstance(found, list) or not all(
        isinstance(move, str) and len(move) <= MAX_MOVE_TEXT for move in found
    ):
        raise ProtocolError("bad_moves", '"moves" must be a list of moves such as "Sb2"')
    give_up = body.get("give_up", False)
    if not isinstance(give_up, bool):
        raise ProtocolError("bad_moves", '"give_up" must be true or false')
    return found, give_up


@declare(
    "The verdict on the moves found so far",
    body=_MOVES,
    responses={
        200: Answer("The verdict", _VERDICT),
        400: refused("Not moves of this puzzle (bad_moves)"),
        404: _NO_PUZZLE,
    },
)
async def moves(request: Request) -> Response:
    """``POST /api/puzzles/{puzzle_id}/moves``: the verdict on the solving side's moves so
    far; the first attempt that ends (solved, wrong, or given up) rates a named player."""
    puzzle = await _puzzle_or_404(request)
    played, give_up = _moves(await read_json(request))
    try:
        verdict = puzzles.judge(puzzle, played, reveal=give_up)
        board = puzzles.board_after(puzzle, played)
    except PuzzleError as error:
        raise ProtocolError("bad_moves", str(error)) from None
    over = verdict.done or not verdict.correct or give_up
    solved = verdict.correct and verdict.done
    answer = verdict.to_json()
    if give_up:
        answer.update(correct=False, reply=None, done=True)
    answer["rated"] = answer["unrated"] = None
    answer["board"] = board
    account = await server(request).accounts.current(request)
    limits = server(request).limits
    day_ms = int(limits.puzzle_unrated_seconds * 1000)
    client = address(request)
    if over and account is not None:
        rated = await hub(request).db(
            _ratings(request).record,
            account.id,
            client,
            puzzle,
            solved,
            clocks.now_ms(),
            unrated_ms=day_ms,
            per_minute=limits.puzzle_rated_per_minute,
        )
        if isinstance(rated, RatedAttempt):
            answer["rated"] = rated.to_json()
        elif isinstance(rated, Unrated):
            answer["unrated"] = rated.reason
    if answer["solution"] is not None:
        # Shown now: unrated for this address and player for a while (after their own
        # attempt above, which it does not touch).
        shown_to = viewers(client, None if account is None else account.id)
        await hub(request).db(
            _ratings(request).reveal, puzzle.id, shown_to, clocks.now_ms(), day_ms
        )
    return JSONResponse(answer)


ROUTES: Final = [
    Route("/api/puzzles/next", next_puzzle),
    Route("/api/puzzles/daily", daily),
    Route("/api/puzzles/{puzzle_id}", get_puzzle),
    Route("/api/puzzles/{puzzle_id}/moves", moves, methods=["POST"]),
]
"""This module's endpoints, for the app's routing table."""
