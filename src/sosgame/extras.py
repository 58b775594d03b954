"""The optional extras: which packages each brings, and one clear error when one is missing.

The core (engine, records, drawings, solver, computer players and the line-mode game) needs
nothing beyond Python. Each heavier part belongs to an extra of ``pyproject.toml``; a command
that needs one calls :func:`require` first, so a missing package is reported in one line that
says what to install instead of as a traceback.
"""

from __future__ import annotations

import importlib.util
from typing import Final, Literal, TypeAlias

from sosgame.errors import SosError

__all__ = ["EXTRAS", "Extra", "MissingExtraError", "install_command", "missing", "require"]

Extra: TypeAlias = Literal["fast", "tui", "web", "envs", "cluster", "tournaments", "bot"]

EXTRAS: Final[dict[Extra, tuple[str, ...]]] = {
    "fast": ("numba", "numpy", "tqdm", "openskill"),
    "tui": ("textual",),
    "web": (
        "starlette",
        "uvicorn",
        "sqlalchemy",
        "alembic",
        "redis",
        "argon2",
        "confusable_homoglyphs",
        "openskill",
        "rustworkx",
        "caissify_pairings",
    ),
    "envs": ("numpy", "gymnasium", "pettingzoo", "pyspiel", "PIL"),
    "cluster": ("distributed",),
    "bot": ("httpx",),
    "tournaments": ("rustworkx", "caissify_pairings"),
}
"""The modules each extra brings that the code imports by name: one for each package of the
extra in ``pyproject.toml`` but psycopg, which SQLAlchemy loads for a ``postgresql://`` URL."""


class MissingExtraError(SosError):
    """``what`` needs the optional ``extra``, whose modules ``absent`` cannot be imported."""

    def __init__(self, what: str, extra: Extra, absent: tuple[str, ...]) -> None:
        super().__init__(
            f"{what} needs the {extra} extra: {install_command(extra)}"
            f" (missing: {', '.join(absent)})"
        )
        self.what = what
        self.extra = extra
        self.absent = absent


def install_command(extra: Extra) -> str:
    """The pip command that installs ``extra``."""
    return f"pip install 'sosgame[{extra}]'"


def missing(extra: Extra) -> tuple[str, ...]:
    """The modules of ``extra`` that cannot be found here (empty when it is installed).

    They are looked up, not imported: a command then loads only the modules it uses (a
    server on SQLite never loads Redis's client or the tournaments' pairing)."""
    return tuple(module for module in EXTRAS[extra] if not _found(module))


def _found(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a finder that refuses it; a module without a spec
        return False


def require(extra: Extra, what: str) -> None:
    """Make sure ``extra`` is installed before ``what`` (such as ``sosgame serve``) runs.

    :raises MissingExtraError: naming the extra and its install command, if any of its
        modules cannot be imported.
    """
    absent = missing(extra)
    if absent:
        raise MissingExtraError(what, extra, absent)
