"""Making games: new ones, from records, rematches, and the seats people take in them.

Every new game passes the caps (:mod:`sosgame.web.guards.gamecaps`: games with computer seats on
the server and per address, unfinished, lobby and recently made games per address and per
account) in the transaction that stores it, then the hub opens its room.
"""

from __future__ import annotations

import secrets
from typing import Any, TypeAlias

from sosgame.record import Record
from sosgame.table import seats_from_record
from sosgame.web.config import ServerLimits
from sosgame.web.guards.gamecaps import CapError, Caps
from sosgame.web.live import clock as clocks
from sosgame.web.live.hub import Hub, TooManyError
from sosgame.web.live.machine.arrival import ARRIVE
from sosgame.web.live.protocol import PROTOCOL_VERSION, ClockSettings, NewGame, ProtocolError
from sosgame.web.live.room import Room
from sosgame.web.people.names import distinct_names
from sosgame.web.people.tokens import hash_token, invite_matches, new_invite, new_token
from sosgame.web.storage.rows import HUMAN, Change, SeatRow, StoredGame
from sosgame.web.storage.writer import StaleWriteError

__all__ = [
    "ClockSpec",
    "caps_now",
    "clock_spec",
    "create",
    "create_from_record",
    "rematch",
    "stored_game",
    "take_seat",
    "too_many",
]


def too_many(reason: str, limits: ServerLimits) -> TooManyError:
    """The error of a cap a new game would pass (a reason of :func:`gamecaps.refusal`)."""
    if reason in ("lobby_address", "lobby_player"):
        code = "too_many_lobby_games"
    else:
        code = "too_many_games"
    messages = {
        "computer_total": f"the server already runs {limits.computer_games_total} games with"
        " computer players, the most it takes",
        "computer_address": f"this address already has {limits.computer_games_per_address}"
        " unfinished games with computer players, the most one address may have",
        "address": f"this address already has {limits.games_per_address} unfinished games,"
        " the most one address may have",
        "player": f"you already have {limits.games_per_player} unfinished games, the most one"
        " player may have",
        "made_address": f"this address has made {limits.new_games_per_address} games in"
        f" {limits.new_games_seconds:g} seconds, the most one address may",
        "made_player": f"you have made {limits.new_games_per_player} games in"
        f" {limits.new_games_seconds:g} seconds, the most one player may",
        "lobby_address": f"this address already has {limits.lobby_games_per_address} public"
        " games waiting for players, the most one address may have in the lobby",
        "lobby_player": f"you already have {limits.lobby_games_per_player} public games"
        " waiting for players, the most one player may have in the lobby",
    }
    return TooManyError(code, messages[reason])


def caps_now(hub: Hub, owner: str = "") -> Caps:
    """The caps of a new game of ``owner`` now, with the games with computer seats this
    hub has in memory as the least the store may count (see :class:`Caps`)."""
    live = [room for room in hub.rooms.values() if room.has_computer and not room.game.is_over]
    mine = sum(1 for room in live if owner and room.owner == owner)
    return Caps.now(hub.limits, clocks.now_ms(), live_computer=len(live), live_computer_mine=mine)


async def _open(hub: Hub, stored: StoredGame, *, rematch_of: str | None = None) -> Room | None:
    """Store a new game within its owner's caps (:class:`TooManyError` past one) and open
    its room."""
    try:
        return await hub.open_linked(
            stored, rematch_of=rematch_of, caps=caps_now(hub, stored.owner or "")
        )
    except CapError as error:
        raise too_many(error.reason, hub.limits) from None


async def create(
    hub: Hub, settings: NewGame, *, owner: str = "", player: int | None = None
) -> tuple[Room, str, list[int]]:
    """Store a new game; returns its room, the creator's token and the seats it opens.

    A local game's token opens every human seat; an online game's opens the first, and
    every other human seat gets an invite secret (none if the game is public). ``owner``
    (the client address) and ``player`` (its account, if logged in) are stored with it.
    """
    token = new_token()
    digest = hash_token(token)
    humans = [seat for seat, row in enumerate(settings.seats) if row.player == HUMAN]
    mine = humans if settings.kind == "local" else humans[:1]
    rows = [
        SeatRow(seat, row.name, row.player, digest if seat in mine else None)
        for seat, row in enumerate(settings.seats)
    ]
    stored = stored_game(
        kind=settings.kind,
        rows=settings.rows,
        cols=settings.cols,
        mode=settings.mode,
        seats=rows,
        clock=clock_spec(settings.clock, settings.days),
        public=settings.public,
        owner=owner,
        owner_player=player,
        rated=settings.rated and player is not None,
    )
    room = await _open(hub, stored)
    assert room is not None  # only a rematch can find its link taken
    return room, token, mine


async def create_from_record(
    hub: Hub, record: Record, *, owner: str = "", player: int | None = None
) -> tuple[Room, str, list[int]]:
    """A local game that continues (or, if over, replays) an uploaded, checked record, with
    the computer seats the record kept (its ``sosgame.seats`` tag); the uploader holds every
    other seat."""
    token = new_token()
    digest = hash_token(token)
    rows = [
        SeatRow(number, seat.name, seat.kind)
        if seat.is_computer
        else SeatRow(number, seat.name, HUMAN, digest)
        for number, seat in enumerate(seats_from_record(record))
    ]
    start = None
    if record.start is not None:
        start = {"position": record.start.position, "turn": record.start.turn}
        if record.start.scores is not None:
            start["scores"] = list(record.start.scores)
    game = record.to_game()
    # A record may say the game ended off the board (aborted, agreed, abandoned).
    over = game.is_over or record.result is not None
    result = None
    if record.result is not None and not game.is_over:
        outcome, scores = record.result
        result = {**outcome.to_dict(), "scores": list(scores), "flagged": []}
    stored = stored_game(
        kind="local",
        rows=record.rows,
        cols=record.cols,
        mode=record.mode,
        seats=rows,
        finished=over,
        result=result,
        start=start,
        actions=list(record.moves),
        owner=owner,
        owner_player=player,
    )
    room = await _open(hub, stored)
    assert room is not None
    return room, token, [row.seat for row in rows if row.player == HUMAN]


def rotated(count: int, seat: int) -> int:
    """The seat a rematch gives whoever sat at ``seat``: the seats rotate, so the first
    moves last."""
    return (seat - 1) % count


async def rematch(
    hub: Hub, room: Room, *, owner: str = "", player: int | None = None
) -> tuple[Room, bool]:
    """The game again with the same settings and players (the caller holds the room's
    lock), the seats rotated (:func:`rotated`): every seat's token opens the same
    player's seat in it, and everyone following the old game is told. Asked again (by
    anyone), the same rematch is the answer. Returns the room and whether it is new."""
    if room.rematch_id is not None:
        existing = await hub.room(room.rematch_id)
        if existing is not None:
            return existing, False
    count = len(room.seats)
    rows = [
        SeatRow(rotated(count, row.seat), row.name, row.player, row.token_hash, bot=row.bot)
        for row in room.seats
    ]
    rows.sort(key=lambda row: row.seat)
    clock = None
    if room.clock is not None:
        clock = (room.clock["initial"], room.clock["increment"], room.clock.get("days"))
    stored = stored_game(
        kind=room.kind,
        rows=room.game.rows,
        cols=room.game.cols,
        mode=room.game.mode,
        seats=rows,
        clock=clock,
        public=room.public,
        owner=owner,
        owner_player=player,
        rated=room.rated,
    )
    if stored.clock is not None and stored.status == "playing":
        # Its first-move timer waits for the seat to move to open it (machine.arrival).
        stored.clock["waiting"] = None
        stored.clock[ARRIVE] = True
    new = await _open(hub, stored, rematch_of=room.id)
    if new is None:
        # Stored meanwhile by another server process: follow its link.
        again = await hub.db(hub.store.load, room.id)
        linked = None if again is None else again.rematch
        new = None if linked is None else await hub.room(linked)
        if new is None:
            raise ProtocolError("storage_failed", "the rematch")
    room.rematch_id = new.id
    hub.bus.publish(room.id, {"reload": True, "version": room.version})
    room.publish_state()
    room.channel.publish({"v": PROTOCOL_VERSION, "type": "rematch", "game": new.id})
    return new, True


def fresh_clock(
    initial_ms: int, increment_ms: int, seats: int, *, playing: bool, days: int | None = None
) -> dict[str, Any]:
    """A new game's clock (``days`` per move instead of the times, for correspondence): it
    stands still until every seat has made its first move, and in a game already
    ``playing`` the first-move timer runs from now."""
    if days is not None:
        clock = clocks.new_correspondence(days, seats)
    else:
        clock = clocks.new_clock(initial_ms, increment_ms, seats)
    clock["waiting"] = clocks.now_ms() if playing else None
    return clock


ClockSpec: TypeAlias = tuple[int, int, int | None]
"""A new game's clock as :func:`fresh_clock` takes it: the initial and added times in
milliseconds, or the days per move (then the times do not count)."""


def clock_spec(clock: ClockSettings | None, days: int | None) -> ClockSpec | None:
    """The clock of a game asked for with these settings (days per move, if given, rule)."""
    if days is not None:
        return (0, 0, days)
    if clock is not None:
        return (clock.initial_ms, clock.increment_ms, None)
    return None


def stored_game(
    *,
    kind: str,
    rows: int,
    cols: int,
    mode: str,
    seats: list[SeatRow],
    clock: ClockSpec | None = None,
    public: bool = False,
    finished: bool = False,
    result: dict[str, Any] | None = None,
    start: dict[str, Any] | None = None,
    actions: list[str] | None = None,
    owner: str = "",
    owner_player: int | None = None,
    rated: bool = False,
) -> StoredGame:
    """A new game as the store keeps it, with a fresh id, made now: every free human seat
    of a private game gets its invite; unless ``finished``, the game is ``playing`` once
    every human seat is taken (``open`` until then), with a :func:`fresh_clock`."""
    for row in seats:
        if row.player == HUMAN and row.token_hash is None and not public:
            row.invite = new_invite()
    # Two strangers both called "Guest" (or "Ann") are told apart in the game, and a game's
    # names are those the engine takes: no name at two seats.
    for row, name in zip(seats, distinct_names([row.name for row in seats]), strict=True):
        row.name = name
    status = "open"
    if finished:
        status = "finished"
    elif all(row.token_hash for row in seats if row.player == HUMAN):
        status = "playing"
    fresh = None
    if clock is not None:
        initial_ms, increment_ms, days = clock
        fresh = fresh_clock(
            initial_ms, increment_ms, len(seats), playing=status == "playing", days=days
        )
    now = clocks.now_ms()
    return StoredGame(
        id=secrets.token_urlsafe(9),
        kind=kind,
        rows=rows,
        cols=cols,
        mode=mode,
        seats=seats,
        status=status,
        created_ms=now,
        updated_ms=now,
        start=start,
        clock=fresh,
        result=result,
        actions=list(actions or []),
        public=public,
        owner=owner or None,
        owner_player=owner_player,
        rated=rated,
    )


async def take_seat(hub: Hub, room: Room, seat: int, name: str | None, invite: str | None) -> str:
    """Give a free human seat of an online game to whoever brings its invite first
    (anyone, in a public game)."""
    async with room.lock:
        if not 0 <= seat < len(room.seats):
            raise ProtocolError("bad_field", f"the game has no seat {seat}")
        row = room.seats[seat]
        if row.player != HUMAN:
            raise ProtocolError("not_allowed", f"seat {seat} is a computer player")
        if row.token_hash is not None:
            raise ProtocolError("seat_taken", f"seat {seat}")
        if not room.public and not invite_matches(row, invite):
            raise ProtocolError("bad_invite", f"seat {seat}")
        token = new_token()
        digest = hash_token(token)
        if not await hub.db(hub.store.take_seat, room.id, seat, name, digest):
            raise ProtocolError("seat_taken", f"seat {seat}")
        # Read the game again: with other processes, other seats may have been taken.
        await room.reload()
        if room.status == "open" and all(
            other.token_hash is not None for other in room.seats if other.player == HUMAN
        ):
            room.status = "playing"
            if room.clock is not None:
                room.clock["waiting"] = clocks.now_ms()
            try:
                await hub.database.write(
                    Change(
                        room.id,
                        status=room.status,
                        result=None,
                        clock=room.clock,
                        now_ms=clocks.now_ms(),
                        version=room.version,
                        job=room.next_job(),
                        hands_over=room.queues_computer_moves,
                    )
                )
            except StaleWriteError:
                await room.reload()  # the game was started by another process
            else:
                room.version += 1
        hub.bus.publish(room.id, {"reload": True, "version": room.version})
        room.changed()
        return token
