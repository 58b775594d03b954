"""The full-screen terminal game, built with Textual (the ``tui`` extra).

``sosgame play`` opens it; :func:`run` does the same from Python. Nothing here decides a rule:
every move, undo and resignation is a call on :class:`sosgame.Game`.
"""

from __future__ import annotations

from typing import Any

__all__ = ["SosApp", "run"]


def run(**options: Any) -> int:
    """Run the game full-screen until the player quits; ``options`` go to :class:`SosApp`."""
    from sosgame.tui.app import SosApp

    status = SosApp(**options).run()
    return 0 if status is None else status


def __getattr__(name: str) -> Any:
    if name == "SosApp":
        from sosgame.tui.app import SosApp

        return SosApp
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
