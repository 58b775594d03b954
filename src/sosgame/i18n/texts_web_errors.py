"""The web server's error codes, by their codes: the text ``web.error.CODE``.

Each code is registered once, with its HTTP status and where it may be sent, in
:mod:`sosgame.web.live.errors`; the English here is the message the server sends with it (as
a clause: no final stop), and the browser shows the text in the player's language. In
English, the source language of the catalogs (see :mod:`sosgame.i18n.texts`)."""

from __future__ import annotations

from typing import Final

from sosgame.i18n.marks import Source, text

__all__ = ["ENTRIES"]

ENTRIES: Final[list[tuple[str, Source]]] = [
    # What a request or message says, field by field.
    text("web.error.bad_json", "That is not valid JSON."),
    text("web.error.bad_message", "That message does not follow the protocol."),
    text("web.error.bad_version", "That message is for another version of the protocol."),
    text("web.error.unknown_type", "There is no such kind of message."),
    text("web.error.unknown_field", "The request has a field the server does not know."),
    text("web.error.bad_field", "One of the values given is not allowed."),
    text("web.error.bad_record", "This game record cannot be read."),
    text("web.error.bad_moves", "Those moves cannot be read."),
    text("web.error.too_large", "That is too large for the server to take."),
    text("web.error.hello_first", "The connection must say hello first."),
    text("web.error.hello_once", "The connection has already said hello."),
    # Caps and rates.
    text("web.error.rate_limited", "Too many actions at once; slow down."),
    text("web.error.too_many_connections", "Too many connections; try again later."),
    text("web.error.server_busy", "The server is busy; try again in a moment."),
    text(
        "web.error.too_many_games",
        "Too many unfinished games; finish some or try again later.",
    ),
    text(
        "web.error.too_many_lobby_games",
        "You already have too many public games waiting for players; wait until they fill up.",
    ),
    text("web.error.too_many_seeks", "You already offer too many games."),
    text("web.error.too_many_entries", "Too many players are looking for a game from here."),
    text(
        "web.error.analysis_busy",
        "Your last analysis is still under way; ask again once it is done.",
    ),
    text("web.error.analysis_queue_full", "Too many analyses are waiting; try again later."),
    text(
        "web.error.login_busy",
        "The server is checking too many passwords now; try again in a moment.",
    ),
    text("web.error.chat_full", "This game's chat is full: no more messages can be kept."),
    # Games, seats and moves.
    text("web.error.no_game", "There is no such game."),
    text("web.error.seat_taken", "This seat is already taken."),
    text(
        "web.error.bad_invite",
        "This seat is taken only with its invite link; a spectator link gives no seat.",
    ),
    text("web.error.waiting", "The game has not started: not every seat is taken."),
    text("web.error.game_over", "The game is over."),
    text("web.error.stale", "The board changed before your move arrived; look again."),
    text("web.error.not_your_turn", "It is not your turn."),
    text("web.error.not_your_seat", "Only that seat's player may do that."),
    text("web.error.not_allowed", "That is not allowed here."),
    text("web.error.bad_move", "That is not a move such as Sb3."),
    text("web.error.illegal_move", "That move is not allowed."),
    text("web.error.nothing_to_undo", "There is nothing to undo."),
    text("web.error.nothing_to_redo", "There is nothing to redo."),
    text("web.error.no_offer", "That offer is no longer standing."),
    text(
        "web.error.not_abandoned",
        "Nobody has been away long enough for a claim yet.",
    ),
    text("web.error.unavailable", "The computer player is not available."),
    # The lobby: pools and seeks.
    text("web.error.no_pool", "There is no such quick-pairing pool."),
    text("web.error.no_bots", "Bots play by challenge, not in the pools."),
    text("web.error.already_waiting", "You are already looking for a game elsewhere."),
    text("web.error.no_seek", "This game is no longer offered."),
    text("web.error.not_for_you", "This game is offered to other players."),
    text("web.error.already_joined", "You have already joined this offered game."),
    text("web.error.no_challenge", "This challenge is no longer there."),
    text("web.error.no_tournament", "There is no such tournament."),
    text("web.error.not_invited", "This tournament is by invitation, and you were not invited."),
    text("web.error.bots_not_allowed", "Bots may not play in this tournament."),
    text("web.error.tournament_over", "This tournament is over."),
    text("web.error.tournament_full", "This tournament has as many players as it may take."),
    text("web.error.not_entered", "You are not in this tournament."),
    text("web.error.not_your_tournament", "Only the tournament's creator may do this."),
    text("web.error.tournament_open", "This tournament is open to all: it needs no invitations."),
    text(
        "web.error.too_many_tournaments",
        "You have as many tournaments waiting to start as one may.",
    ),
    text("web.error.too_many_challenges", "You have as many challenges waiting as one may."),
    text("web.error.challenge_refused", "This player does not take such a challenge."),
    text("web.error.no_lobby", "The lobby connection's secret is missing."),
    text("web.error.account_needed", "This needs an account: log in first."),
    # Players, accounts and puzzles.
    text("web.error.no_token", "This needs an API token: send it as Authorization: Bearer."),
    text("web.error.bad_token", "This API token is unknown or has been revoked."),
    text("web.error.missing_scope", "This API token does not grant that."),
    text("web.error.unknown_scope", "There is no such API token scope."),
    text("web.error.too_many_tokens", "You hold as many API tokens as one may; revoke one first."),
    text("web.error.no_token_id", "You have no such API token."),
    text(
        "web.error.not_upgradable",
        "Only an account that has played no rated game can become a bot.",
    ),
    text("web.error.not_a_bot", "This is for bot accounts."),
    text("web.error.wrong_turn", "It is not your seat's turn."),
    text("web.error.not_logged_in", "You are not logged in; log in first."),
    text("web.error.wrong_password", "Wrong name or password."),
    text("web.error.weak_password", "This password cannot be used."),
    text("web.error.name_taken", "This name is taken; choose another."),
    text(
        "web.error.name_confusable",
        "This name looks too much like a name already claimed; choose another.",
    ),
    text("web.error.no_player", "Nobody has claimed this name."),
    text("web.error.no_puzzle", "There is no such puzzle."),
    # The server itself and what stands before the app.
    text("web.error.storage_failed", "It could not be stored, so nothing was done."),
    text(
        "web.error.storage_unavailable",
        "The games' storage cannot be reached just now; try again in a moment.",
    ),
    text("web.error.bad_host", "This server does not answer for that host name."),
    text("web.error.bad_origin", "Requests from other sites' pages are refused."),
    text("web.error.headers_too_large", "The request's headers are too large."),
    text("web.error.body_timeout", "The request's body took too long to arrive."),
    text("web.error.not_found", "There is nothing at this address."),
    text("web.error.method_not_allowed", "This address does not take that method."),
    text("web.error.bad_request", "The server cannot take this request."),
    text("web.error.internal", "The server failed to answer this request."),
]
