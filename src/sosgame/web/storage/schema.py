"""The tables games are stored in (SQLAlchemy Core, so any database SQLAlchemy speaks will do).

The schema itself is created and changed only by the Alembic migrations beside this module.
"""

from __future__ import annotations

from typing import Any, Final

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
)

__all__ = [
    "METADATA",
    "actions",
    "api_tokens",
    "challenge_limits",
    "chat_messages",
    "games",
    "jobs",
    "login_attempts",
    "player_opponents",
    "player_seats",
    "players",
    "pool_entries",
    "puzzle_attempts",
    "puzzle_players",
    "puzzle_ratings",
    "puzzle_reveals",
    "rated_games",
    "rating_history",
    "seats",
    "seek_members",
    "seeks",
    "server_secrets",
    "sessions",
    "tournament_byes",
    "tournament_entrants",
    "tournament_games",
    "tournament_invitations",
    "tournament_turns",
    "tournaments",
]

METADATA: Final = MetaData()


def _game_key() -> Column[str]:
    # The column that ties a row to its game, as part of the row's key.
    return Column("game_id", String(32), ForeignKey("games.id"), primary_key=True)


def _game_settings() -> list[Column[Any]]:
    # A game's board and rules, in a game's row and in a seek's that makes one.
    return [
        Column("rows", Integer, nullable=False),
        Column("cols", Integer, nullable=False),
        Column("mode", String(16), nullable=False),
        Column("players", Integer, nullable=False),
    ]


games: Final = Table(
    "games",
    METADATA,
    Column("id", String(32), primary_key=True),
    Column("kind", String(16), nullable=False),
    *_game_settings(),
    Column("start", Text, nullable=True),
    Column("clock", Text, nullable=True),
    Column("status", String(16), nullable=False, index=True),
    Column("result", Text, nullable=True),
    Column("created_ms", BigInteger, nullable=False),
    Column("updated_ms", BigInteger, nullable=False),
    Column("public", Boolean, nullable=False, default=False),
    Column("rematch", String(32), nullable=True),
    Column("version", Integer, nullable=False, default=0),
    Column("owner", String(100), nullable=True, index=True),
    Column("owner_player", Integer, nullable=True),
    Column("offers", Text, nullable=True),
    Column("rated", Boolean, nullable=True),
    Column("deadline_ms", BigInteger, nullable=True, index=True),
    Column("begun", Boolean, nullable=True),
)
"""One row per game: its settings, ``status`` (open, playing, finished) and JSON extras;
``public`` games are listed with their free seats; ``rematch`` is the game that followed;
``version`` counts the game's changes, so a change made for an older version is refused;
``owner`` is the client (address) that created the game and ``owner_player`` its account, if
any: the per-client caps and the computer players' fair queue count games by them;
``offers`` are the offers standing (JSON), ``rated`` whether the game was asked to be rated
(``NULL`` for games stored before it was asked); ``deadline_ms`` is when the seat to move of a
correspondence game runs out of days (``NULL`` for other games, and once it ends); ``begun``
is set when a takeback is carried out in a game whose every seat has made its first move
(the moves kept may no longer show it), so that it never becomes abortable again."""

seats: Final = Table(
    "seats",
    METADATA,
    _game_key(),
    Column("seat", Integer, primary_key=True),
    Column("name", String(100), nullable=False),
    Column("player", String(16), nullable=False),
    Column("token_hash", String(64), nullable=True, index=True),
    Column("invite", String(64), nullable=True),
)
"""One row per seat: ``player`` is ``human`` or a computer level; a taken seat has a token;
a free seat of an online game has the ``invite`` secret its invite link carries."""

actions: Final = Table(
    "actions",
    METADATA,
    _game_key(),
    Column("ply", Integer, primary_key=True),
    Column("action", String(16), nullable=False),
    Column("created_ms", BigInteger, nullable=False),
)
"""One row per move or resignation, ``ply`` counting from 1 over both."""

jobs: Final = Table(
    "jobs",
    METADATA,
    _game_key(),
    Column("version", Integer, nullable=False),
    Column("ready_ms", BigInteger, nullable=False),
    Column("holder", String(64), nullable=True),
    Column("lease_ms", BigInteger, nullable=False, index=True),
    Column("watched_ms", BigInteger, nullable=True),
)
"""A computer move to be made, shared by every server process: for the game at ``version``,
not before ``ready_ms``; the process named ``holder`` works on it until ``lease_ms`` (it
renews the lease while it thinks, so a process that dies leaves it to another). A game with
only computer seats moves only while watched: ``watched_ms`` is until when (``NULL`` for a
game with a person in it, which always moves)."""

players: Final = Table(
    "players",
    METADATA,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(200), nullable=False, unique=True),
    Column("name", String(100), nullable=False),
    Column("password_hash", String(200), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False, default=0),
    Column("created_ms", BigInteger, nullable=False),
    Column("skeleton", String(400), nullable=True, index=True),
    Column("opponents", Integer, nullable=False, default=0, server_default="0"),
    Column("bot", Boolean, nullable=True),
)
"""A claimed name: ``key`` is the name case-folded (so "Ann" and "ANN" are one name), the
password's argon2 hash, and the OpenSkill rating (``mu``, ``sigma``) after ``games`` rated
games; ``skeleton`` is the name's Unicode confusables skeleton, so a name that only looks
like a claimed one is refused; ``opponents`` counts the rows of ``player_opponents`` (the
player is provisional below ``established_opponents``); ``bot`` is true once the account was
made a bot's (for good)."""

api_tokens: Final = Table(
    "api_tokens",
    METADATA,
    Column("id", String(16), primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False, index=True),
    Column("token_hash", String(64), nullable=False, unique=True),
    Column("description", String(200), nullable=False),
    Column("scopes", String(200), nullable=False),
    Column("created_ms", BigInteger, nullable=False),
)
"""A player's personal API token: only its SHA-256 is kept (the token is shown once), with
the scopes it grants, space-separated; revoking it deletes the row."""

challenge_limits: Final = Table(
    "challenge_limits",
    METADATA,
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("accept", String(16), nullable=False),
    Column("min_side", Integer, nullable=True),
    Column("max_side", Integer, nullable=True),
    Column("modes", String(40), nullable=False),
    Column("min_initial", Integer, nullable=True),
    Column("max_initial", Integer, nullable=True),
    Column("untimed", Boolean, nullable=False),
    Column("days", Boolean, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("casual", Boolean, nullable=False),
    Column("bots", Boolean, nullable=False),
)
"""Who may challenge a player (``accept``: ``nobody``, ``rated``, ``registered`` or
``everyone``) and to what games: board sides, modes (comma-separated), a clock's initial
seconds, games without a clock, correspondence, rated, casual, from bots. An account
without a row takes every challenge (:mod:`sosgame.web.matchmaking.challengelimits`)."""

player_opponents: Final = Table(
    "player_opponents",
    METADATA,
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("opponent", String(32), primary_key=True),
)
"""The distinct opponents that count which a named player has met in rated games: an
established player (``#`` and their id) or a computer level (its name)."""

player_seats: Final = Table(
    "player_seats",
    METADATA,
    _game_key(),
    Column("seat", Integer, primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False, index=True),
)
"""Which seats named players took (the others are guests' or computers')."""

rated_games: Final = Table(
    "rated_games",
    METADATA,
    _game_key(),
    Column("rated", Boolean, nullable=False),
    Column("rated_ms", BigInteger, nullable=False),
)
"""A finished game whose rating is done (``rated`` false: it was not a rated game). Inserted
in the same transaction as the new ratings, so a game is rated once however many server
processes finish or catch up with it."""

rating_history: Final = Table(
    "rating_history",
    METADATA,
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
    _game_key(),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("rated_ms", BigInteger, nullable=False, index=True),
)
"""A player's rating after each rated game."""

server_secrets: Final = Table(
    "server_secrets",
    METADATA,
    Column("name", String(32), primary_key=True),
    Column("value", String(200), nullable=False),
)
"""Secrets every server process shares. Sessions no longer sign cookies (they are rows of
``sessions``), so nothing reads it now; the table stays because migration 0004 made it."""

login_attempts: Final = Table(
    "login_attempts",
    METADATA,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("address", String(64), nullable=False, index=True),
    Column("at_ms", BigInteger, nullable=False, index=True),
)
"""Recent attempts to log in or claim a name, per address, for the shared rate limit."""

sessions: Final = Table(
    "sessions",
    METADATA,
    Column("id", String(64), primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False, index=True),
    Column("created_ms", BigInteger, nullable=False),
    Column("expires_ms", BigInteger, nullable=False, index=True),
)
"""A logged-in browser: ``id`` is the SHA-256 of the secret its cookie carries. Logging out
deletes the row; logging out everywhere, or changing the password, deletes all of a
player's rows."""


def _glicko_table(name: str, key: Column[Any]) -> Table:
    """A table of Glicko-2 ratings by ``key``, each after its number of ``attempts``."""
    return Table(
        name,
        METADATA,
        key,
        Column("rating", Float, nullable=False),
        Column("deviation", Float, nullable=False),
        Column("volatility", Float, nullable=False),
        Column("attempts", Integer, nullable=False),
    )


puzzle_players: Final = _glicko_table(
    "puzzle_players", Column("player_id", Integer, ForeignKey("players.id"), primary_key=True)
)
"""A named player's Glicko-2 puzzle rating after ``attempts`` rated attempts."""

puzzle_ratings: Final = _glicko_table(
    "puzzle_ratings", Column("puzzle_id", String(16), primary_key=True)
)
"""A puzzle's Glicko-2 rating, once someone has tried it (until then its starting rating)."""

puzzle_attempts: Final = Table(
    "puzzle_attempts",
    METADATA,
    Column("player_id", Integer, ForeignKey("players.id"), primary_key=True),
    Column("puzzle_id", String(16), primary_key=True),
    Column("solved", Boolean, nullable=False),
    Column("at_ms", BigInteger, nullable=False),
)
"""A named player's first attempt at a puzzle (the one that is rated): inserted with the new
ratings, so a puzzle is rated once per player."""

puzzle_reveals: Final = Table(
    "puzzle_reveals",
    METADATA,
    Column("puzzle_id", String(16), primary_key=True),
    Column("viewer", String(80), primary_key=True),
    Column("at_ms", BigInteger, nullable=False, index=True),
)
"""When a puzzle's solution was last shown to a ``viewer``: a client address (``a:`` and
the address) or a named player (``p:`` and the id). The puzzle is unrated for both for a
while after."""
pool_entries: Final = Table(
    "pool_entries",
    METADATA,
    Column("id", String(32), primary_key=True),
    Column("pool", String(32), nullable=False, index=True),
    Column("player", String(64), nullable=False, unique=True),
    Column("name", String(100), nullable=False),
    Column("account", Integer, nullable=True),
    Column("rating", Float, nullable=False),
    Column("token_hash", String(64), nullable=False),
    Column("holder", String(64), nullable=False, index=True),
    Column("address", String(64), nullable=False, index=True),
    Column("entered_ms", BigInteger, nullable=False),
    Column("seen_ms", BigInteger, nullable=False),
    Column("game", String(32), nullable=True),
    Column("seat", Integer, nullable=True),
)
"""A player waiting in a quick-pairing pool, shared by every server process: ``player`` is
the account (``account:<id>``) or the guest's connection, so nobody waits twice; ``address``
is the client's address (for its cap). The process ``holder`` holds the connection and
renews ``seen_ms`` while it lasts (an entry not renewed is gone with its process). Pairing
fills ``game`` and ``seat`` in the transaction that stores the game (the seat's token is the
one whose hash is ``token_hash``, known only to the holder); the holder then tells its player
and deletes the row."""

seeks: Final = Table(
    "seeks",
    METADATA,
    Column("id", String(32), primary_key=True),
    Column("creator", String(64), nullable=False, index=True),
    Column("holder", String(64), nullable=False, index=True),
    Column("address", String(64), nullable=False, index=True),
    *_game_settings(),
    Column("clock", Text, nullable=True),
    Column("rated", Boolean, nullable=False),
    Column("min_rating", Float, nullable=True),
    Column("max_rating", Float, nullable=True),
    Column("created_ms", BigInteger, nullable=False),
    Column("seen_ms", BigInteger, nullable=False),
    Column("game", String(32), nullable=True),
    Column("days", Integer, nullable=True),
    Column("target", Integer, nullable=True),
    Column("answer", String(100), nullable=True),
)
"""A game offered in the lobby: ``creator`` is the hash of its creator's lobby connection's
secret, held by the process ``holder`` (which renews ``seen_ms`` while the connection lasts);
``game`` is the game it made once filled; ``days`` the days per move of a correspondence
seek, which lives a day from ``created_ms`` instead of as long as the connection; ``target``
the account a challenge is for (``NULL`` for a seek anyone may take); ``answer`` how a
challenge made or answered through the API ended without a game (``canceled``, or
``declined:`` and the reason), kept until it lapses so that every event stream can say so."""

seek_members: Final = Table(
    "seek_members",
    METADATA,
    Column("seek_id", String(32), ForeignKey("seeks.id"), primary_key=True),
    Column("member", String(64), primary_key=True),
    Column("holder", String(64), nullable=False, index=True),
    Column("name", String(100), nullable=False),
    Column("account", Integer, nullable=True),
    Column("token_hash", String(64), nullable=False),
    Column("joined_ms", BigInteger, nullable=False),
    Column("seat", Integer, nullable=True),
)
"""The players in a seek (its creator first): ``member`` is the hash of their lobby
connection's secret, ``token_hash`` the hash of the seat token derived from that secret."""

chat_messages: Final = Table(
    "chat_messages",
    METADATA,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False, index=True),
    Column("seat", Integer, nullable=False),
    Column("name", String(100), nullable=False),
    Column("text", Text, nullable=True),
    Column("phrase", String(16), nullable=True),
    Column("at_ms", BigInteger, nullable=False),
)
"""A message of a game's players' chat (``text`` or a quick ``phrase``), kept for the record
its players download; the spectators' chat is never stored."""


def _tournament_key() -> Column[str]:
    return Column("tournament_id", String(16), ForeignKey("tournaments.id"), primary_key=True)


def _player(name: str, *, key: bool = False, null: bool = False) -> Column[int]:
    return Column(name, Integer, ForeignKey("players.id"), primary_key=key, nullable=null)


tournaments: Final = Table(
    "tournaments",
    METADATA,
    Column("id", String(16), primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("name", String(100), nullable=False),
    Column("rows", Integer, nullable=False),
    Column("cols", Integer, nullable=False),
    Column("mode", String(16), nullable=False),
    Column("clock_initial", Integer, nullable=True),
    Column("clock_increment", Integer, nullable=True),
    Column("days", Integer, nullable=True),
    Column("rated", Boolean, nullable=False),
    Column("starts_at_ms", BigInteger, nullable=False),
    Column("minutes", Integer, nullable=True),
    Column("rounds", Integer, nullable=True),
    Column("bots", Boolean, nullable=False),
    Column("open", Boolean, nullable=False),
    _player("creator_id", null=True),
    Column("status", String(16), nullable=False),
    Column("round", Integer, nullable=False),
    Column("first_moves_to_top", Boolean, nullable=False),
    Column("created_ms", BigInteger, nullable=False),
    Column("updated_ms", BigInteger, nullable=False),
)
"""A tournament: its settings (:class:`~sosgame.tournaments.settings.TournamentSettings`,
the clock in seconds), ``creator_id`` (``NULL`` for the server's own), ``status``
(``created``, ``started``, ``finished``) and a Swiss's ``round`` paired last."""

tournament_entrants: Final = Table(
    "tournament_entrants",
    METADATA,
    _tournament_key(),
    _player("player_id", key=True),
    Column("rating", Integer, nullable=False),
    Column("joined_ms", BigInteger, nullable=False),
    Column("withdrawn", Boolean, nullable=False),
    Column("paused", Boolean, nullable=False),
    Column("absent", Boolean, nullable=False),
    Column("waiting_since_ms", BigInteger, nullable=True),
)
"""A player who joined, with the rating shown when joining; ``paused`` (by the player, or
for a game not started), ``absent`` from a Swiss's next rounds until they come back, and
``waiting_since_ms``, when they joined or came back (a finished game's end counts too)."""

tournament_games: Final = Table(
    "tournament_games",
    METADATA,
    _game_key(),
    Column("tournament_id", String(16), ForeignKey("tournaments.id"), nullable=False),
    Column("round", Integer, nullable=True),
    _player("first_id"),
    _player("second_id"),
    Column("berserk_first", Boolean, nullable=False),
    Column("berserk_second", Boolean, nullable=False),
    _player("forfeit", null=True),
)
"""A tournament's game (the result and the moves are the game's own): a Swiss's ``round``
(``NULL`` in an Arena), the player who moves first and the other, and ``forfeit``, the
player who did not start it (it was aborted: a loss for them)."""

tournament_byes: Final = Table(
    "tournament_byes",
    METADATA,
    _tournament_key(),
    _player("player_id", key=True),
    Column("round", Integer, primary_key=True),
)
"""A Swiss's bye: a point for the odd player of a round."""

tournament_turns: Final = Table(
    "tournament_turns",
    METADATA,
    _tournament_key(),
    Column("number", Integer, primary_key=True),
    Column("made_ms", BigInteger, nullable=False),
)
"""An Arena's pairing tick or a Swiss's round, inserted with its games: the process whose
insert wins made it, so each is made once however many processes run the tournament."""

tournament_invitations: Final = Table(
    "tournament_invitations",
    METADATA,
    _tournament_key(),
    _player("player_id", key=True),
)
"""Who may join a tournament that is not open."""
