"""How much one server takes on: connection caps, computer-player limits and idle rooms.

Every figure can be set with an environment variable (``SOSGAME_`` and the field's name in
capitals, for example ``SOSGAME_MAX_CONNECTIONS_PER_ADDRESS=50``) or by passing
:class:`ServerLimits` to :func:`sosgame.web.create_app`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

__all__ = ["MIN_PASSWORD_MEMORY_KIB", "ServerLimits"]

MIN_PASSWORD_MEMORY_KIB = 32
"""The least memory an argon2 hash may take with its 4 lanes (8 KiB each)."""


@dataclass(frozen=True)
class ServerLimits:
    """The server's capacity limits (see docs/protocol.md, "Limits")."""

    max_connections_per_game: int = 2000
    """WebSockets open on one game at once (players and spectators)."""
    max_connections_per_address: int = 200
    """WebSockets open at once from one client address, over every game."""
    computer_workers: int = 2
    """Processes that work out computer moves."""
    computer_games_per_address: int = 8
    """Unfinished games with a computer seat one client address may have open at once."""
    computer_games_total: int = 64
    """Unfinished games with a computer seat open at once on the whole server."""
    games_per_address: int = 50
    """Unfinished games one client address may have made (changed within
    ``recent_games_seconds``)."""
    games_per_player: int = 50
    """The same for one logged-in player (account), from any address."""
    lobby_games_per_address: int = 3
    """Public games waiting for players (lobby entries) one client address may have open."""
    lobby_games_per_player: int = 3
    """The same for one logged-in player (account)."""
    recent_games_seconds: float = 900.0
    """How long an unfinished game nobody changes counts for its owner's caps above (and
    for ``computer_games_per_address``): abandoned games stop counting after it."""
    new_games_per_address: int = 100
    """Games one client address may make in ``new_games_seconds``, finished or not, however
    made: new games, uploaded records, rematches, games of pools and seeks."""
    new_games_per_player: int = 100
    """The same for one logged-in player (account)."""
    new_games_seconds: float = 600.0
    """The window of the two caps above."""
    reads_per_second: float = 4.0
    """Replays, records, move lists and analysis requests one client address may ask for
    a second on average ..."""
    read_burst: int = 20
    """... and at most this many at once."""
    cold_loads_per_second: float = 4.0
    """Games not in memory one client address may have loaded from the store a second on
    average (a page, replay, record or WebSocket of such a game) ..."""
    cold_load_burst: int = 20
    """... and at most this many at once."""
    analysis_queue: int = 8
    """Analyses waiting for their turn on the whole server; past it a new one is refused,
    unless its address was served less recently than those of one waiting (it replaces it)."""
    idle_seconds: float = 60.0
    """How long a room nobody is connected to stays in memory."""
    send_backlog: int = 64
    """Messages waiting for one slow connection before it is closed (chat not counted)."""
    chat_backlog: int = 16
    """Chat messages waiting for one connection past which more chat to it is dropped (never
    a reason to close it)."""
    admissions_per_second: float = 400.0
    """New WebSocket sessions started a second once a burst has been let in; the rest
    wait their turn, round robin by client address (see :mod:`sosgame.web.guards.admission`)."""
    admission_burst: int = 50
    """New WebSocket sessions let in at once before the pace above applies."""
    admission_max_wait: float = 10.0
    """Seconds of queue past which a new WebSocket session is refused (close code 1013)."""
    header_timeout: float = 10.0
    """Seconds a client may take to send a request's headers, from its connection (or the
    request's first byte) on, before ``sosgame serve`` closes the connection."""
    max_header_bytes: int = 16384
    """Bytes a request's line and headers may take together; past them ``sosgame serve``
    answers 431 and closes the connection."""
    body_timeout: float = 30.0
    """Seconds a client may take to send a request's body, from its headers on, before
    ``sosgame serve`` answers 408 and closes the connection."""
    parse_threads: int = 1
    """Threads that parse request bodies over 16 KiB, off the event loop (one body each at
    a time; the others wait their turn)."""
    long_bodies_at_once: int = 2
    """Long bodies (uploads, up to 256 KiB) one server process reads and parses at once;
    the others wait their turn unread, so a crowd of them never fills the event loop."""
    login_attempts_per_minute: int = 10
    """Attempts to log in or claim a name one client address may make in a minute (counted
    in the database, so over every server process)."""
    password_threads: int = 1
    """Threads that hash and check passwords (argon2: logins, name claims and password
    changes), and nothing else, at a lower priority than the event loop; each takes
    ``password_memory_kib`` while it works. One per process: a flood of logins waits, moves
    do not."""
    password_time_cost: int = 3
    """Passes argon2 makes over its memory for each new hash (argon2-cffi's default, RFC
    9106's second recommended setting). A stored hash is always checked at the cost it was
    made at, so this and the next can change at any time; new passwords take the new cost."""
    password_memory_kib: int = 65536
    """KiB of memory each new argon2 hash takes (64 MiB, argon2-cffi's default; at least
    32). Raise it and the time cost as far as the machine allows; lower them only for tests."""
    password_queue: int = 64
    """Password hashes waiting for one of those threads; past them a login, claim or
    password change is refused at once (429 ``login_busy``), unless its address has fewer
    waiting, or fewer served lately, than another: it then takes the place of that
    address's newest."""
    password_queue_per_address: int = 2
    """Password hashes one client address may have running or waiting at once; they take
    their turns round robin by address."""
    first_move_seconds: float = 30.0
    """In a game with a clock, how long a seat may take over its first move: past it the
    game is aborted (no clock runs until every seat has made its first move)."""
    first_move_grace_seconds: float = 30.0
    """A game of people with a clock that nobody has moved in, and nothing has changed for
    ``first_move_seconds`` and this long, is aborted in the store without being loaded (its
    players never came: a game paired in a pool and never opened, say)."""
    abandon_seconds: float = 60.0
    """In a game without a clock, how long a seat must have been disconnected before the
    other players may claim the game (or remove the absent seat)."""
    rematch_offer_seconds: float = 120.0
    """How long an offer of a rematch waits for the other players before it lapses."""
    rated_games_per_pair_per_day: int = 3
    """Rated games two named players may play together in any 24 hours; more are played
    and finished but not rated (so two accounts of one person cannot feed one a rating)."""
    established_opponents: int = 5
    """Distinct opponents that count (established named players, and the computer levels,
    each level one) a named player must have met in rated games to be established: until
    then the player is provisional, off the leaderboard and of little weight on the others'
    ratings (0: nobody is provisional)."""
    provisional_weight: float = 0.1
    """The share of a rated game's change a player's rating takes from a provisional
    opponent (the mean over several opponents; an established one brings all of it)."""
    puzzle_unrated_seconds: float = 86400.0
    """How long after a puzzle's solution was shown to a client address or a named player
    (a guest who gave up, too) a first attempt at it from either is judged but not rated."""
    puzzle_rated_per_minute: int = 10
    """Rated puzzle attempts one named player may make in a minute (over every process);
    past them an attempt is judged but not rated."""
    pool_fallback_seconds: float = 20.0
    """Seconds a player waits alone in a pool before a computer opponent is offered."""
    pool_entries_per_address: int = 20
    """Players waiting in pools at once from one client address (over every process)."""
    seeks_per_address: int = 3
    """Seeks waiting in the lobby at once from one client address (over every process)."""
    chat_per_second: float = 0.5
    """Chat messages one connection, and all the connections of one seat of a game together,
    may send a second on average ..."""
    chat_burst: int = 5
    """... and at most this many at once."""
    chat_per_address_per_second: float = 2.0
    """Chat messages all the connections of one client address together may send a second
    on average, over every game ..."""
    chat_per_address_burst: int = 10
    """... and at most this many at once."""
    chat_per_game: int = 1000
    """Messages of its players' chat one game keeps for its record, shared equally by its
    seats; past its share a seat's chat in that game is refused."""

    tournament_tick_seconds: float = 2.0
    """How often each server process runs the tournaments: starts them, pairs an Arena's
    waiting players (a tick), pairs a Swiss's next round, ends them."""
    tournament_speed: float = 1.0
    """How many times faster than the wall clock an Arena's time runs (its length, waits and
    last seconds): 1 in play; more for tests and demonstrations."""

    def __post_init__(self) -> None:
        if self.password_memory_kib < MIN_PASSWORD_MEMORY_KIB:
            raise ValueError(
                f"SOSGAME_PASSWORD_MEMORY_KIB must be at least {MIN_PASSWORD_MEMORY_KIB}"
                f" (argon2's 8 KiB for each of its 4 lanes), not {self.password_memory_kib}"
            )

    @classmethod
    def from_environment(cls, environ: Mapping[str, str] | None = None) -> ServerLimits:
        """The defaults, changed by any ``SOSGAME_*`` variable that is set."""
        source = os.environ if environ is None else environ
        limits = cls()
        changes: dict[str, Any] = {}
        for item in fields(cls):
            text = source.get(f"SOSGAME_{item.name.upper()}")
            if text is None:
                continue
            kind = float if item.type in ("float", float) else int
            try:
                value = kind(text)
            except ValueError:
                raise ValueError(
                    f"SOSGAME_{item.name.upper()} must be a number, not {text!r}"
                ) from None
            if value <= 0:
                raise ValueError(f"SOSGAME_{item.name.upper()} must be above 0, not {text!r}")
            changes[item.name] = value
        return replace(limits, **changes)
