"""Who may challenge a player, and to what games (docs/protocol.md, "Challenges").

A player (a bot's owner for the bot, a person for themselves) sets whom they take
challenges from (lichess's "accept challenges from") and, for the games, the board sides, the
modes, a clock's range, correspondence or untimed games, rated or casual, and whether bots may
challenge them. A challenge outside these is refused when it is made, with the reason from
:data:`DECLINE_REASONS` that the player would have declined it with.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Final

from sqlalchemy import Engine, select

from sosgame.challenges import DECLINE_REASONS
from sosgame.limits import BOARD_MAX_SIDE, BOARD_MIN_SIDE
from sosgame.web.live.protocol import ProtocolError
from sosgame.web.matchmaking.seeks import SeekSettings
from sosgame.web.people.players import Account
from sosgame.web.storage.schema import challenge_limits

__all__ = [
    "ACCEPT",
    "DECLINE_REASONS",
    "MAX_INITIAL",
    "MODES",
    "ChallengeLimits",
    "LimitStore",
    "parse_limits",
    "refusal",
]


ACCEPT: Final = ("nobody", "rated", "registered", "everyone")
"""Whom a player takes challenges from: nobody, players with an established rating, any named
player, anyone (guests cannot challenge, so the last two are alike for now)."""

MODES: Final = ("general", "simple")
MAX_INITIAL: Final = 180 * 60
"""The longest initial clock a new game may have, in seconds."""


@dataclass(frozen=True)
class ChallengeLimits:
    """A player's limits; the defaults take every challenge."""

    accept: str = "everyone"
    min_side: int | None = None
    max_side: int | None = None
    modes: tuple[str, ...] = MODES
    min_initial: int | None = None
    """The shortest initial clock taken, in seconds (``None``: any)."""
    max_initial: int | None = None
    untimed: bool = True
    """Games with neither a clock nor days per move."""
    days: bool = True
    """Correspondence games (days per move)."""
    rated: bool = True
    casual: bool = True
    bots: bool = True

    def to_json(self) -> dict[str, Any]:
        """The limits as ``GET /api/account/challenge-limits`` answers them."""
        return {**asdict(self), "modes": list(self.modes)}


def _side(value: object, field: str) -> int | None:
    if value is None:
        return None
    if type(value) is not int or not BOARD_MIN_SIDE <= value <= BOARD_MAX_SIDE:
        raise ProtocolError(
            "bad_field", f"field {field!r} must be {BOARD_MIN_SIDE} to {BOARD_MAX_SIDE} or null"
        )
    return value


def _seconds(value: object, field: str) -> int | None:
    if value is None:
        return None
    if type(value) is not int or not 0 <= value <= MAX_INITIAL:
        raise ProtocolError(
            "bad_field", f"field {field!r} must be 0 to {MAX_INITIAL} seconds or null"
        )
    return value


def parse_limits(data: object) -> ChallengeLimits:
    """Check a ``PUT`` body: any of the fields of :class:`ChallengeLimits` (those left out
    take their defaults)."""
    defaults = ChallengeLimits()
    if not isinstance(data, dict):
        raise ProtocolError("bad_field", "the body must be an object")
    unknown = set(data) - set(asdict(defaults))
    if unknown:
        raise ProtocolError("unknown_field", sorted(unknown)[0][:40])
    accept = data.get("accept", defaults.accept)
    if accept not in ACCEPT:
        raise ProtocolError("bad_field", f"field 'accept' must be one of {', '.join(ACCEPT)}")
    modes = data.get("modes", list(defaults.modes))
    if not isinstance(modes, list) or not modes or not set(modes) <= set(MODES):
        raise ProtocolError("bad_field", f"field 'modes' must list some of {', '.join(MODES)}")
    flags = {}
    for field in ("untimed", "days", "rated", "casual", "bots"):
        flags[field] = data.get(field, getattr(defaults, field))
        if not isinstance(flags[field], bool):
            raise ProtocolError("bad_field", f"field {field!r} must be true or false")
    limits = ChallengeLimits(
        accept=str(accept),
        min_side=_side(data.get("min_side"), "min_side"),
        max_side=_side(data.get("max_side"), "max_side"),
        modes=tuple(mode for mode in MODES if mode in modes),
        min_initial=_seconds(data.get("min_initial"), "min_initial"),
        max_initial=_seconds(data.get("max_initial"), "max_initial"),
        **flags,
    )
    for low, high in (("min_side", "max_side"), ("min_initial", "max_initial")):
        least, most = getattr(limits, low), getattr(limits, high)
        if least is not None and most is not None and least > most:
            raise ProtocolError("bad_field", f"field {low!r} must not be above {high!r}")
    return limits


def refusal(limits: ChallengeLimits, challenger: Account, given: SeekSettings) -> str | None:
    """The reason (of :data:`DECLINE_REASONS`) a challenge from ``challenger`` to a player
    with ``limits`` is refused, or ``None`` if it may be made."""
    if limits.accept == "nobody" or (limits.accept == "rated" and challenger.provisional):
        return "generic"
    if challenger.bot and not limits.bots:
        return "noBot"
    small, large = min(given.rows, given.cols), max(given.rows, given.cols)
    if (
        (limits.min_side is not None and small < limits.min_side)
        or (limits.max_side is not None and large > limits.max_side)
        or given.mode not in limits.modes
    ):
        return "board"
    if given.clock is not None:
        initial = given.clock.initial_ms // 1000
        if limits.min_initial is not None and initial < limits.min_initial:
            return "tooFast"
        if limits.max_initial is not None and initial > limits.max_initial:
            return "tooSlow"
    elif not (limits.days if given.days is not None else limits.untimed):
        return "timeControl"
    if given.rated and not limits.rated:
        return "casual"
    if not given.rated and not limits.casual:
        return "rated"
    return None


class LimitStore:
    """The players' limits in the database behind ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine

    def get(self, player_id: int) -> ChallengeLimits:
        """The player's limits (the defaults if never set)."""
        with self._engine.begin() as db:
            row = (
                db.execute(
                    select(challenge_limits).where(challenge_limits.c.player_id == player_id)
                )
                .mappings()
                .first()
            )
        if row is None:
            return ChallengeLimits()
        fields = {key: row[key] for key in asdict(ChallengeLimits()) if key != "modes"}
        return ChallengeLimits(**{**fields, "modes": tuple(row["modes"].split(","))})

    def put(self, player_id: int, limits: ChallengeLimits) -> None:
        """Set the player's limits."""
        values = {**asdict(limits), "modes": ",".join(limits.modes)}
        with self._engine.begin() as db:
            db.execute(challenge_limits.delete().where(challenge_limits.c.player_id == player_id))
            db.execute(challenge_limits.insert().values(player_id=player_id, **values))

    def check(self, challenger: Account, target: int, given: SeekSettings) -> None:
        """Refuse a challenge the player ``target`` does not take (``challenge_refused``,
        the reason as its detail)."""
        reason = refusal(self.get(target), challenger, given)
        if reason is not None:
            raise ProtocolError("challenge_refused", reason)
