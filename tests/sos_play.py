"""Playing a game over its WebSocket in tests, whatever the client: moves, then a resignation."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

QUIET_MOVES = ("Sa1", "Sb1", "Sc1", "Sa2")
"""Two moves for each of two seats that make no line (S beside S): enough to rate a game."""


def play_then_resign(
    send: Callable[[str], None],
    receive: Callable[[], dict[str, Any]],
    tokens: list[str],
    moves: tuple[str, ...] = (),
) -> None:
    """Say hello with every seat's token, play ``moves`` one by one (each answered before the
    next), then resign seat 0; the game must then be over."""
    send(json.dumps({"v": 1, "type": "hello", "tokens": tokens}))
    actions = [{"type": "move", "move": move} for move in moves]
    message: dict[str, Any] = {}
    for ply, action in enumerate([*actions, {"type": "resign", "seat": 0}]):
        send(json.dumps({"v": 1, **action, "ply": ply}))
        for _ in range(20):
            message = receive()
            assert message["type"] != "error", message
            if message["type"] == "state" and message["game"]["ply"] == ply + 1:
                break
        else:
            raise AssertionError(f"action {ply + 1} was not played")
    assert message["game"]["status"] == "finished"
