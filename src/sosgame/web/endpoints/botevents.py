"""What an account's event stream has said, so that it says each thing once: the lines of a
notice pushed to it, of the store read when it opens (or again after the bus lost
messages), and of the challenges that lapse meanwhile.

A notice may come twice (told by two paths, or heard while the store is read), or after
what it tells was read from the store: :class:`Said` sends a ``gameStart`` once per game,
a ``gameFinish`` once, a ``challenge`` once, and its ``challengeCanceled`` or
``challengeDeclined`` once, only for a challenge it showed.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from sosgame.web.live.notices import ACCEPTED, answer_line, game_line
from sosgame.web.matchmaking.challenges import Challenge
from sosgame.web.people.apitokens import GameSeat

__all__ = ["Said", "seat_json"]

_REMEMBERED: Final = 1000
"""Games finished and challenges closed a stream remembers, to say none of them twice."""


def seat_json(seat: GameSeat) -> dict[str, Any]:
    """A game of an account as ``gameStart`` and ``gameFinish`` show it."""
    shown: dict[str, Any] = {
        "id": seat.game_id,
        "rows": seat.rows,
        "cols": seat.cols,
        "mode": seat.mode,
        "rated": seat.rated,
        "seat": seat.seat,
        "status": seat.status,
    }
    if seat.tournament is not None:
        shown["tournament"] = seat.tournament
    return shown


class Said:
    """One event stream's memory of what it sent."""

    def __init__(self) -> None:
        self.games: dict[str, dict[str, Any]] = {}
        """Games started and not finished, as their ``gameStart`` showed them."""
        self.challenges: dict[str, dict[str, Any]] = {}
        """Challenges shown and still waiting."""
        self._finished: dict[str, None] = {}
        self._closed: dict[str, None] = {}

    def take(self, notice: dict[str, Any]) -> list[dict[str, Any]]:
        """The lines a notice makes (none if it was said already)."""
        kind = notice.get("type")
        if kind == "gameStart":
            game = notice["game"]
            if game["id"] in self.games or game["id"] in self._finished:
                return []
            self.games[game["id"]] = game
            return [notice]
        if kind == "gameFinish":
            game_id = notice["game"]["id"]
            if game_id in self._finished:
                return []
            self.games.pop(game_id, None)
            _remember(self._finished, game_id)
            return [notice]
        if kind == "challenge":
            shown = notice["challenge"]
            if shown["id"] in self.challenges or shown["id"] in self._closed:
                return []
            self.challenges[shown["id"]] = shown
            return [notice]
        if kind in ("challengeCanceled", "challengeDeclined", ACCEPTED):
            challenge_id = notice["challenge"]["id"]
            shown = self.challenges.pop(challenge_id, None)
            _remember(self._closed, challenge_id)
            if shown is None or kind == ACCEPTED:
                return []  # never shown, closed already, or said by its gameStart
            return [{**notice, "challenge": {**shown, **notice["challenge"]}}]
        return []

    def lapsed(self, now_ms: int) -> list[dict[str, Any]]:
        """``challengeCanceled`` for the challenges shown that have lapsed by ``now_ms``."""
        gone = [one for one in self.challenges.values() if one["lapses_ms"] <= now_ms]
        return [
            line
            for one in gone
            for line in self.take({"type": "challengeCanceled", "challenge": one})
        ]

    def next_lapse_ms(self) -> int | None:
        """When the next challenge shown lapses."""
        return min((one["lapses_ms"] for one in self.challenges.values()), default=None)

    def present(
        self,
        seats: Iterable[GameSeat],
        found: Iterable[Challenge],
        finished: dict[str, GameSeat],
    ) -> list[dict[str, Any]]:
        """The lines that bring the stream up to what the store holds: ``seats``, the
        account's games not finished; ``found``, the challenges from or to it;
        ``finished``, the games it showed that have finished since, as they are now."""
        lines: list[dict[str, Any]] = []
        running = {seat.game_id: seat for seat in seats}
        for seat in running.values():
            lines += self.take(game_line(seat_json(seat)))
        for game_id in [game_id for game_id in self.games if game_id not in running]:
            ended = finished.get(game_id)
            shown = seat_json(ended) if ended is not None else self.games[game_id]
            lines += self.take({"type": "gameFinish", "game": {**shown, "status": "finished"}})
        by_id = {one.seek.id: one for one in found}
        for one in by_id.values():
            if one.game is None and one.answer is None:
                lines += self.take({"type": "challenge", "challenge": one.to_json()})
        for challenge_id, shown in list(self.challenges.items()):
            now = by_id.get(challenge_id)
            if now is not None and now.game is None and now.answer is None:
                continue
            if now is not None and now.game is not None:
                lines += self.take({"type": ACCEPTED, "challenge": shown})
                continue
            answer = "canceled" if now is None else now.answer or "canceled"
            lines += self.take(answer_line(shown, answer))
        return lines

    def running_ids(self) -> list[str]:
        """The games shown started and not finished."""
        return list(self.games)


def _remember(kept: dict[str, None], key: str) -> None:
    kept[key] = None
    while len(kept) > _REMEMBERED:
        del kept[next(iter(kept))]
