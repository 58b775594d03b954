"""The bot client's texts (``sosgame bot``): its options, what it tells while it plays, and
its errors (``error.bot_CODE``, :class:`sosgame.bot.BotError`).

In English, the source language of the catalogs (see :mod:`sosgame.i18n.texts`)."""

from __future__ import annotations

from typing import Final

from sosgame.i18n.marks import Source, plural, text

__all__ = ["ENTRIES"]

ENTRIES: Final[list[tuple[str, Source]]] = [
    text("cli.bot.help", "play on a server as a bot: answer challenges and play the games"),
    text(
        "cli.bot.description",
        "Connect to a sosgame server with a bot account's API token, accept the challenges "
        "the options allow (declining the others with a reason), play several games at once "
        "with a computer level or your own Python function, and connect again after a "
        "dropped connection. Ctrl-C stops it.",
    ),
    text("cli.bot.server", "the server's address, such as http://localhost:8000"),
    text(
        "cli.bot.token",
        "the API token (scopes bot:play and challenge:write); by default the environment "
        "variable {variable}, which keeps it off the command line",
    ),
    text("cli.bot.level", "the computer level that plays (default hard)"),
    text(
        "cli.bot.player",
        "a Python function that plays instead: given the game (and seat= and seconds= if it "
        "takes them), it returns a move such as Sb3",
    ),
    text(
        "cli.bot.seconds",
        "the most seconds a move may take (default {seconds}; less when the clock is short)",
    ),
    text("cli.bot.sizes", "the board sizes to accept, such as 3x3,5x5 (default any)"),
    text("cli.bot.modes", "the modes to accept (default general,simple)"),
    text(
        "cli.bot.clock",
        "the clocks' initial seconds to accept, such as 60-600 or 30- (default any; none: no "
        "game with a clock)",
    ),
    text("cli.bot.increment", "the seconds added a move to accept, such as 0-5 (default any)"),
    text(
        "cli.bot.days",
        "the days a move of correspondence games to accept, such as 1-3 (default any; none: "
        "no correspondence game)",
    ),
    text("cli.bot.untimed", "accept games with neither a clock nor days (default yes)"),
    text("cli.bot.rated", "accept rated games (default yes)"),
    text("cli.bot.casual", "accept casual games (default yes)"),
    text("cli.bot.from", "whose challenges to accept: anyone, bots or people (default anyone)"),
    text(
        "cli.bot.concurrency",
        "how many games to play at once (default 1); more challenges wait for a game to end",
    ),
    text(
        "cli.bot.challenge", "challenge this player on start (again after each game, see --games)"
    ),
    text("cli.bot.challenge_size", "the board of the bot's challenges (default 5x5)"),
    text("cli.bot.challenge_mode", "the mode of the bot's challenges (default general)"),
    text(
        "cli.bot.challenge_clock",
        "the clock of the bot's challenges, such as 60+1 (default none: no clock)",
    ),
    text("cli.bot.challenge_days", "the days a move of the bot's challenges (correspondence)"),
    text("cli.bot.challenge_rated", "make the bot's challenges rated (default casual)"),
    text(
        "cli.bot.games",
        "stop once this many games are over (and take or make no challenge past it)",
    ),
    text(
        "cli.bot.log_games",
        "append each game's report to this file, one JSON object a line: its moves as the "
        "bot saw them, the moves it sent, the result",
    ),
    text(
        "cli.bot.tournament",
        "join this tournament on start (its id; give it again for more), and pause in it on "
        "stop; its games are played as they come",
    ),
    text("cli.bot.upgrade", "make the token's account a bot's first (for good)"),
    plural(
        "cli.bot.stopped",
        "sosgame bot: stopped; {count} game under way goes on on the server",
        "sosgame bot: stopped; {count} games under way go on on the server",
    ),
    text("bot.connected", "connected to {server} as {name}"),
    text("bot.events_reconnect", "the event stream dropped; connecting again in {seconds} s"),
    text("bot.game_reconnect", "game {game}: its stream dropped; connecting again in {seconds} s"),
    text("bot.game_gone", "game {game}: the server no longer has it for this bot ({code})"),
    text(
        "bot.bad_move",
        "game {game}: the player gave {move}, which is no legal move ({why}); a random legal "
        "move is played instead",
    ),
    text(
        "bot.player_failed",
        "game {game}: the player failed ({error}); a random legal move is played instead",
    ),
    text("bot.move_refused", "game {game}: the server refused {move} ({code})"),
    text("bot.accepted", "accepted the challenge of {challenge}"),
    text("bot.declined", "declined the challenge of {challenge}: {reason}"),
    text("bot.answer_refused", "could not answer the challenge of {challenge} ({code})"),
    text("bot.challenged", "challenged {name}: {challenge}"),
    text("bot.challenge_declined", "{name} declined the challenge: {reason}"),
    text("bot.challenge_refused", "cannot challenge {name} ({code}); no more challenges"),
    text("bot.game_started", "game {game}: started"),
    text(
        "bot.game_failed", "game {game}: cannot go on with it ({error}); it is left to the server"
    ),
    text("bot.tournament_joined", "joined the tournament {name} ({tournament})"),
    text("bot.game_won", "game {game}: won"),
    text("bot.game_lost", "game {game}: lost"),
    text("bot.game_drawn", "game {game}: drawn"),
    text("bot.game_ended", "game {game}: over ({status})"),
    text("error.bot_no_token", "no API token: give --token, or set {variable}"),
    text("error.bot_bad_url", "{url!r} is not a server address such as http://localhost:8000"),
    text(
        "error.bot_bad_token",
        "the server refused the API token (401: never made, or revoked)",
    ),
    text(
        "error.bot_missing_scope",
        "the API token lacks a scope the bot needs (403): {scopes}; make a token with "
        "bot:play and challenge:write",
    ),
    text(
        "error.bot_not_a_bot",
        "the token's account is not a bot's (403): start once with --upgrade",
    ),
    text(
        "error.bot_not_upgradable",
        "the account cannot become a bot's: it has played rated games",
    ),
    text("error.bot_unreachable", "cannot reach {server}: {error}"),
    text("error.bot_unexpected", "the server answered {status} ({answer})"),
    text("error.bot_no_player", "nobody named {name!r} to challenge"),
    text(
        "error.bot_tournament_refused",
        "cannot join the tournament {tournament!r} ({answer}: none such, over, full, by "
        "invitation only, or not open to bots)",
    ),
    text(
        "error.bot_bad_range",
        "{option} {text!r} is not a range: write MIN-MAX, MIN-, -MAX, N, any or none",
    ),
    text("error.bot_bad_size", "{text!r} is not a board size such as 5x5"),
    text("error.bot_bad_modes", "--modes {text!r}: the modes are general and simple"),
    text("error.bot_bad_clock", "{text!r} is not a clock such as 60+1"),
    text("error.bot_bad_count", "--{option} must be at least 1, not {value}"),
    text("error.bot_bad_seconds", "--seconds must be above 0 and at most 3600, not {value}"),
    text(
        "error.bot_player_form",
        "--player {spec!r}: write the module and the function, as in mybot:choose",
    ),
    text("error.bot_player_import", "--player: the module {module} does not load: {error}"),
    text("error.bot_player_missing", "--player: the module {module} has no {name}"),
    text("error.bot_player_not_callable", "--player {spec}: a {kind} cannot be called"),
]
