"""What a challenge between two players may say, the same for the server and the bot client."""

from __future__ import annotations

from typing import Final

__all__ = ["DECLINE_REASONS"]

DECLINE_REASONS: Final = (
    "generic",
    "later",
    "tooFast",
    "tooSlow",
    "timeControl",
    "rated",
    "casual",
    "board",
    "noBot",
    "onlyBot",
)
"""The reasons a challenge is declined with: lichess's, with ``board`` (this board or mode)
where lichess says ``standard`` and ``variant`` (docs/protocol.md, "Challenges")."""
