"""The browser's texts of the home page's first choices and of "My games" with its badge
(sent with the others by ``GET /api/i18n``).

In English, the source language of the catalogs (see :mod:`sosgame.i18n.texts`)."""

from __future__ import annotations

from typing import Final

from sosgame.i18n.marks import Source, plural, text

__all__ = ["ENTRIES"]

ENTRIES: Final[list[tuple[str, Source]]] = [
    text("web.choice.title", "How do you want to play?"),
    text("web.choice.computer", "Play the computer"),
    text("web.choice.computer_note", "5x5, general mode, medium level; casual"),
    text("web.choice.friend", "Play a friend"),
    text("web.choice.friend_note", "An online game with an invite link to send"),
    text("web.choice.online", "Play online"),
    text("web.choice.online_note", "Be paired with a player in seconds"),
    text(
        "web.rated_note_local", "Games at one screen or against the computer are casual: not rated."
    ),
    text("web.my_games", "My games"),
    text("web.my_games.none", "You have no games yet."),
    text("web.my_games.more", "More"),
    text("web.my_games.your_turn", "Your turn"),
    text("web.my_games.your_turn_left", "Your turn: {time} left"),
    text("web.my_games.waiting", "Waiting for the other players"),
    text("web.my_games.open", "Waiting for players to join"),
    plural(
        "web.my_games.badge",
        "{count} game where it is your turn",
        "{count} games where it is your turn",
    ),
]
