"""The bot client's errors: each names its text in the catalogs (``error.bot_CODE``)."""

from __future__ import annotations

from sosgame.errors import SosError

__all__ = ["BotError", "english"]


def english(key: str, **values: object) -> str:
    """The catalogs' text ``key`` in English, with ``values`` filled in."""
    from sosgame.i18n import translator

    return translator("en")(key, **values)


class BotError(SosError):
    """A setting the client cannot run with, or an answer of the server it cannot go on
    after (a token refused, a scope missing): ``code`` names the text ``error.bot_CODE``."""

    def __init__(self, code: str, **values: object) -> None:
        super().__init__(english(f"error.bot_{code}", **values), code=f"bot_{code}", values=values)
