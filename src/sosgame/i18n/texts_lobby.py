"""The browser's texts of quick pairing, seeks and the game's chat (sent with the others by
``GET /api/i18n``).

In English, the source language of the catalogs (see :mod:`sosgame.i18n.texts`)."""

from __future__ import annotations

from typing import Final

from sosgame.i18n.marks import Source, text

__all__ = ["ENTRIES"]

ENTRIES: Final[list[tuple[str, Source]]] = [
    text("web.play_now", "Play now"),
    text("web.pool.waiting", "Looking for an opponent…"),
    text("web.pool.leave", "Stop looking"),
    text("web.pool.nobody", "Nobody has come yet."),
    text("web.pool.play_computer", "Play the computer instead ({level})"),
    text("web.pool.account_needed", "Rated games need an account: log in first."),
    text("web.pool.rated", "rated"),
    text("web.pool.casual", "casual"),
    text("web.seek.title", "Offer a game"),
    text("web.seek.create", "Offer it"),
    text("web.seek.waiting", "Your game is offered; it starts once every seat is taken."),
    text("web.seek.joined", "You have a seat; the game starts once every seat is taken."),
    text("web.seek.filled_title", "Your game starts! · SOS"),
    text("web.seek.filled", "Every seat of the game you offered is taken."),
    text("web.seek.min_rating", "Lowest rating (optional)"),
    text("web.seek.max_rating", "Highest rating (optional)"),
    text("web.seek.players", "{joined} of {players} players"),
    text("web.seek.join", "Take a seat"),
    text("web.seek.none", "No game is offered for you now."),
    text("web.seek.guest", "guest"),
    text("web.seek.any_rating", "any rating"),
    text("web.seek.range_max", "ratings up to {max}"),
    text("web.seek.range_min", "ratings from {min}"),
    text("web.seek.range", "ratings {min} to {max}"),
    text("web.seek.yours", "your offer"),
    text("web.pool.count", "{count} waiting"),
    text("web.challenge.title", "Challenge a player"),
    text("web.challenge.title_list", "Challenges"),
    text("web.challenge.new_title", "A challenge! · SOS"),
    text(
        "web.challenge.account_needed",
        "Log in to challenge a player: guests can neither challenge nor be challenged.",
    ),
    text("web.challenge.name", "Player's name"),
    text("web.challenge.send", "Challenge"),
    text("web.challenge.send_to", "Challenge {name}"),
    text(
        "web.challenge.sent",
        "Your challenge is sent; it lapses after two minutes without an answer.",
    ),
    text("web.challenge.not_accepted", "{name} did not take up your challenge."),
    text("web.challenge.to", "To {name}"),
    text("web.challenge.from", "From {name} ({rating})"),
    text("web.challenge.accept", "Accept"),
    text("web.challenge.decline", "Decline"),
    text("web.challenge.decline_all", "Decline them all"),
    text("web.challenge.cancel", "Withdraw"),
    text("web.playing.title", "Games being played"),
    text("web.playing.none", "No game is being played now."),
    text("web.playing.watch", "Watch {size} {mode}: {names}"),
    text("web.chat.title", "Chat"),
    text("web.chat.turn_off", "Turn the chat off"),
    text("web.chat.turn_on", "Turn the chat on"),
    text("web.chat.text", "Your message"),
    text("web.chat.send", "Send"),
    text("web.chat.mute", "Mute {name}"),
    text("web.chat.phrase.hello", "Hello"),
    text("web.chat.phrase.good_luck", "Good luck"),
    text("web.chat.phrase.good_game", "Good game"),
    text("web.chat.phrase.thanks", "Thanks"),
    text(
        "web.chat.kept",
        "The players' messages are kept with the game: only its players' record downloads"
        " include them.",
    ),
]
