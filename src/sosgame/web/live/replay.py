"""A finished (or unfinished) game as frames, one per ply, each worked out by the engine;
and :class:`Answers`, which makes a game version's replay, record or move list once, off the
event loop, and keeps it for the next asker.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Final

from sosgame.game import Game
from sosgame.notation import Resignation
from sosgame.snapshot import Snapshot, build_game

__all__ = ["Answers", "move_list", "replay_frames", "to_json_bytes"]

CACHE_BYTES: Final = 32 * 1024 * 1024
"""Answers kept in memory (a 26x26 game's replay is about 600 KiB)."""
MAKERS: Final = 1
"""Answers made at once (each holds a core; more would only slow the event loop down)."""


def to_json_bytes(value: Any) -> bytes:
    """``value`` as compact UTF-8 JSON, as the server's JSON responses are."""
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


class Answers:
    """Answers (bytes) that cost work to make, each made once per key, in a thread.

    Askers of a key that is being made wait for that one making (single flight), and a made
    answer is kept, least recently asked for dropped first, up to ``most_bytes`` in all. A
    key names everything the answer depends on (a game's id and version, say), so a kept
    answer is never stale.
    """

    def __init__(self, most_bytes: int = CACHE_BYTES, makers: int = MAKERS) -> None:
        self._kept: OrderedDict[Hashable, bytes] = OrderedDict()
        self._bytes = 0
        self._most = most_bytes
        self._making: dict[Hashable, asyncio.Future[bytes]] = {}
        self._makers = asyncio.Semaphore(makers)
        self.made = 0
        """How many answers were made (the rest were kept or shared)."""

    async def get(self, key: Hashable, make: Callable[[], bytes]) -> bytes:
        """The answer for ``key``: kept, being made, or made now by ``make`` in a thread."""
        kept = self._kept.get(key)
        if kept is not None:
            self._kept.move_to_end(key)
            return kept
        making = self._making.get(key)
        if making is None:
            making = asyncio.ensure_future(self._make(key, make))
            self._making[key] = making
            making.add_done_callback(lambda _done: self._making.pop(key, None))
        # An asker who goes away does not stop the making others wait for.
        return await asyncio.shield(making)

    async def _make(self, key: Hashable, make: Callable[[], bytes]) -> bytes:
        async with self._makers:
            answer = await asyncio.to_thread(make)
        self.made += 1
        if len(answer) <= self._most:
            self._kept[key] = answer
            self._bytes += len(answer)
            while self._bytes > self._most:
                _, dropped = self._kept.popitem(last=False)
                self._bytes -= len(dropped)
        return answer


def move_list(game: Game, start: dict[str, Any] | None) -> list[dict[str, Any]]:
    """Every action with the seat that made it and the points it scored, worked out by the
    engine: ``[{"action": "Sc1", "seat": 0, "points": 1}, ...]``."""
    replaying = build_game(Snapshot(game.rows, game.cols, game.players, game.mode, start, ()))
    moves = []
    for action in game.actions:
        seat = action.seat if isinstance(action, Resignation) else replaying.turn
        lines = replaying.apply(action)
        moves.append({"action": str(action), "seat": seat, "points": len(lines)})
    return moves


def replay_frames(game: Game, start: dict[str, Any] | None) -> dict[str, Any]:
    """Frame 0 is the start; frame ``n`` is the game after its ``n``-th action.

    Each frame gives the board, scores, turn, extra-turn flag, result and how many of
    ``lines`` (every line, in the order made) are on the board by then; ``moves`` is
    :func:`move_list`.
    """
    replaying = build_game(Snapshot(game.rows, game.cols, game.players, game.mode, start, ()))
    actions = [str(action) for action in game.actions]
    frames = [_frame(replaying, None)]
    for text in actions:
        replaying.apply(text)
        frames.append(_frame(replaying, text))
    return {
        "rows": game.rows,
        "cols": game.cols,
        "mode": game.mode,
        "actions": actions,
        "moves": move_list(game, start),
        "lines": [line.to_dict() for line in replaying.lines],
        "frames": frames,
    }


def _frame(game: Game, action: str | None) -> dict[str, Any]:
    outcome = game.outcome
    return {
        "action": action,
        "board": game.position().split("/"),
        "scores": list(game.scores),
        "turn": game.turn,
        "extra_turn": game.extra_turn,
        "lines": len(game.lines),
        "result": None if outcome is None else outcome.to_dict(),
    }
