"""Which challenges a bot takes: board sizes, modes, clocks, rated or casual, from whom.

A refused challenge is declined with a reason after lichess's: the reason says what the
challenger could change (``casual`` asks for a casual game, ``tooFast`` for a slower clock).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from sosgame.bot.errors import BotError
from sosgame.challenges import DECLINE_REASONS
from sosgame.game import MODES, Mode

__all__ = [
    "DECLINE_REASONS",
    "ChallengeFilter",
    "From",
    "Range",
    "parse_range",
    "parse_sizes",
]


From: TypeAlias = Literal["anyone", "bots", "people"]


@dataclass(frozen=True)
class Range:
    """Whole numbers from ``least`` to ``most`` (either end open when ``None``)."""

    least: int | None = None
    most: int | None = None

    def below(self, value: int) -> bool:
        return self.least is not None and value < self.least

    def above(self, value: int) -> bool:
        return self.most is not None and value > self.most


def parse_range(text: str, option: str) -> Range | None:
    """``MIN-MAX``, ``MIN-``, ``-MAX``, ``N`` or ``any`` as a :class:`Range`; ``none`` as
    ``None`` (nothing is in it)."""
    if text == "none":
        return None
    if text == "any":
        return Range()
    least, dash, most = text.partition("-")
    try:
        low = int(least) if least else None
        high = int(most) if most else (None if dash else low)
    except ValueError:
        raise BotError("bad_range", option=option, text=text) from None
    if (low is not None and low < 0) or (low is not None and high is not None and low > high):
        raise BotError("bad_range", option=option, text=text)
    return Range(low, high)


def parse_sizes(text: str) -> frozenset[tuple[int, int]] | None:
    """``RxC,RxC,...`` as a set of (rows, cols); ``any`` as ``None`` (every size)."""
    if text == "any":
        return None
    sizes = set()
    for part in text.split(","):
        rows, x, cols = part.strip().partition("x")
        if not (x and rows.isdigit() and cols.isdigit()):
            raise BotError("bad_size", text=part)
        sizes.add((int(rows), int(cols)))
    return frozenset(sizes)


@dataclass(frozen=True)
class ChallengeFilter:
    """The challenges a bot accepts; every other is declined with :meth:`reason`.

    ``clock`` bounds a clock's initial seconds and ``increment`` its seconds a move (``None``:
    no game with a clock); ``days`` bounds a correspondence game's days a move (``None``: no
    correspondence game); ``untimed`` takes games with neither.
    """

    sizes: frozenset[tuple[int, int]] | None = None
    modes: frozenset[Mode] = frozenset(MODES)
    clock: Range | None = Range()
    increment: Range = Range()
    days: Range | None = Range()
    untimed: bool = True
    rated: bool = True
    casual: bool = True
    source: From = "anyone"

    def reason(self, challenge: Mapping[str, Any], *, from_bot: bool) -> str | None:
        """Why ``challenge`` (as the event stream shows it) is declined, or ``None`` to
        accept it."""
        if self.source == "people" and from_bot:
            return "noBot"
        if self.source == "bots" and not from_bot:
            return "onlyBot"
        if self.sizes is not None and (challenge["rows"], challenge["cols"]) not in self.sizes:
            return "board"
        if challenge["mode"] not in self.modes:
            return "board"
        timing = self._timing(challenge.get("clock"), challenge.get("days"))
        if timing is not None:
            return timing
        if challenge["rated"] and not self.rated:
            return "casual"  # lichess's "please send me a casual challenge instead"
        if not challenge["rated"] and not self.casual:
            return "rated"
        return None

    def _timing(self, clock: Mapping[str, int] | None, days: int | None) -> str | None:
        if clock is not None:
            if self.clock is None:
                return "timeControl"
            initial, increment = clock["initial"], clock["increment"]
            if self.clock.below(initial) or self.increment.below(increment):
                return "tooFast"
            if self.clock.above(initial) or self.increment.above(increment):
                return "tooSlow"
            return None
        if days is not None:
            if self.days is None:
                return "timeControl"
            if self.days.below(days):
                return "tooFast"
            if self.days.above(days):
                return "tooSlow"
            return None
        return None if self.untimed else "timeControl"

    @property
    def needs_kind(self) -> bool:
        """Whether the challenger being a bot or a person matters."""
        return self.source != "anyone"
