"""Players for the bot client's tests, loaded by ``sosgame bot --player sos_bots:NAME``."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path
from typing import Any

from sosgame import Game, Move


def first_legal(game: Game) -> Move:
    """The first legal move: instant, and the same on every run."""
    return next(iter(game.legal_moves))


def occupied(game: Game, seat: int, seconds: float | None) -> str:
    """A move on a taken cell whenever there is one (else the first legal move)."""
    if game.moves:
        return f"S{game.moves[0].cell}"
    return str(first_legal(game))


NOT_CALLABLE = 3


def slow(game: Game) -> Move:
    """The first legal move, after a fifth of a second: a game lasts long enough to be cut."""
    import time

    time.sleep(0.2)
    return first_legal(game)


def stuck(game: Game) -> Move:
    """A player that thinks for a minute."""
    import time

    time.sleep(60)
    return first_legal(game)


def example(name: str) -> dict[str, Any]:
    """The namespace of ``examples/NAME.py`` (its folder importable, as when run)."""
    folder = str(Path(__file__).resolve().parent.parent / "examples")
    sys.path.insert(0, folder)
    try:
        return runpy.run_path(f"{folder}/{name}.py", run_name="example")
    finally:
        sys.path.remove(folder)
