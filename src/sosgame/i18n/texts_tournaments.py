"""The browser's texts of tournaments: their lists, the form that makes one, a tournament's
page and the call to a tournament's new game (sent with the others by ``GET /api/i18n``).

In English, the source language of the catalogs (see :mod:`sosgame.i18n.texts`)."""

from __future__ import annotations

from typing import Final

from sosgame.i18n.marks import Source, plural, text

__all__ = ["ENTRIES"]

ENTRIES: Final[list[tuple[str, Source]]] = [
    text("web.tournaments", "Tournaments"),
    text("web.tournaments.playing", "Playing now"),
    text("web.tournaments.upcoming", "Starting soon"),
    text("web.tournaments.finished", "Finished"),
    text("web.tournaments.none", "None for now."),
    text("web.tournaments.all", "All tournaments"),
    text("web.tournament.arena", "Arena"),
    text("web.tournament.swiss", "Swiss"),
    plural("web.tournament.players", "{count} player", "{count} players"),
    plural("web.tournament.minutes_long", "{count} minute", "{count} minutes"),
    plural("web.tournament.rounds_long", "{count} round", "{count} rounds"),
    text("web.tournament.time_left", "{time} left"),
    text("web.tournament.round", "Round {round} of {rounds}"),
    text("web.tournament.starts_in", "Starts in {time}"),
    text("web.tournament.starts_at", "Starts {when}"),
    text("web.tournament.winner", "Winner: {name}"),
    text("web.tournament.by_invitation", "by invitation"),
    text("web.tournament.bots_allowed", "bots may play"),
    text("web.tournament.create", "Create a tournament"),
    text("web.tournament.log_in", "Log in to create or join a tournament."),
    text("web.tournament.kind", "Kind"),
    text("web.tournament.name", "Name"),
    text("web.tournament.time_control", "Time"),
    text("web.tournament.clock", "Clock"),
    text("web.tournament.start_in", "Starts in (minutes)"),
    text("web.tournament.start_at", "Or starts at"),
    text("web.tournament.length", "Length (minutes)"),
    text("web.tournament.rounds", "Rounds"),
    text("web.tournament.allow_bots", "Bots may play"),
    text("web.tournament.open", "Open to all (else by invitation)"),
    text("web.tournament.make", "Create"),
    text("web.tournament.loading", "Loading the tournament…"),
    text("web.tournament.finished", "Finished"),
    text("web.tournament.podium", "Podium"),
    text("web.tournament.standings", "Standings"),
    text("web.tournament.rank", "Rank"),
    text("web.tournament.player", "Player"),
    text("web.tournament.rating", "Rating"),
    text("web.tournament.score", "Score"),
    text("web.tournament.results", "Games"),
    text("web.tournament.fire", "On fire"),
    text("web.tournament.nobody", "Nobody has joined yet."),
    text("web.tournament.games", "Games"),
    text("web.tournament.no_games", "No game yet."),
    text("web.tournament.game_playing", "playing"),
    text("web.tournament.game_over", "over"),
    text("web.tournament.join", "Join"),
    text("web.tournament.withdraw", "Withdraw"),
    text("web.tournament.pause", "Pause"),
    text("web.tournament.come_back", "Come back"),
    text("web.tournament.you_in", "You are in."),
    text(
        "web.tournament.you_paused", "You are paused: you are paired no more until you come back."
    ),
    text("web.tournament.you_withdrew", "You withdrew."),
    text("web.tournament.invite", "Invite a player"),
    text("web.tournament.invite_send", "Invite"),
    text("web.tournament.invited", "{name} is invited."),
    text("web.tournament.outcome.win", "win"),
    text("web.tournament.outcome.draw", "draw"),
    text("web.tournament.outcome.loss", "loss"),
    text("web.tournament.outcome.forfeit_win", "win by forfeit"),
    text("web.tournament.outcome.forfeit_loss", "loss by forfeit"),
    text("web.tournament.outcome.bye", "bye"),
    text("web.tournament.outcome.late", "joined late"),
    text("web.tournament.outcome.absent", "absent"),
    text("web.tournament.outcome.ongoing", "playing"),
    plural("web.tournament.points", "{count} point", "{count} points"),
    text("web.tournament.call_title", "Your tournament game"),
    text("web.tournament.call", "Your game in {name} starts in {count}…"),
    text("web.tournament.call_unnamed", "Your tournament game starts in {count}…"),
    text("web.tournament.go_now", "Go now"),
]
