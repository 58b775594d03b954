"""The ``tournaments`` extra: Arena pairing needs rustworkx, Swiss pairing caissify-pairings."""

from __future__ import annotations

from sosgame.extras import require

__all__ = ["require_tournaments"]


def require_tournaments(what: str) -> None:
    """Make sure the ``tournaments`` extra is installed before ``what`` runs.

    :raises MissingExtraError: naming the extra and its install command if it is not.
    """
    require("tournaments", what)
