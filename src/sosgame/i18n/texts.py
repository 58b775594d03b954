"""Every text the interfaces show, in English, the source language of the catalogs: one
module per interface (``texts_game``, ``texts_tui``, ``texts_web``, ``texts_cli``), one for
the puzzles, which every interface shows (``texts_puzzles``), the tournaments' pages
(``texts_tournaments``), the engine's errors (``texts_errors``), the web server's
(``texts_web_errors``) and the bot client's (``texts_bot``).

Each entry is marked for extraction: ``make catalogs`` reads them with Babel into
``locale/sosgame.pot`` (the key is the message context, the English text the message id),
merges that into each language's ``.po`` file and compiles the ``.mo`` files read at run time.
Placeholders such as ``{name}`` are filled in by :func:`sosgame.i18n.translator`; a
:func:`plural` text is chosen by its ``{count}`` under each language's plural rule.
"""

from __future__ import annotations

from typing import Final

from sosgame.i18n import (
    texts_bot,
    texts_cli,
    texts_device,
    texts_errors,
    texts_game,
    texts_home,
    texts_lobby,
    texts_puzzles,
    texts_tournaments,
    texts_tui,
    texts_web,
    texts_web_errors,
)
from sosgame.i18n.marks import Source

__all__ = ["TEXTS"]

TEXTS: Final[dict[str, Source]] = dict(
    [
        *texts_game.ENTRIES,
        *texts_tui.ENTRIES,
        *texts_web.ENTRIES,
        *texts_web_errors.ENTRIES,
        *texts_lobby.ENTRIES,
        *texts_home.ENTRIES,
        *texts_device.ENTRIES,
        *texts_cli.ENTRIES,
        *texts_bot.ENTRIES,
        *texts_errors.ENTRIES,
        *texts_puzzles.ENTRIES,
        *texts_tournaments.ENTRIES,
    ]
)
