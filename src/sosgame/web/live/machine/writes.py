"""How a change of the game is stored and told: one :class:`~sosgame.web.storage.rows.Change`
at the version it was made at, and the next version once it is stored."""

from __future__ import annotations

from typing import Any

from sosgame.web.live.machine.clocks import next_timer
from sosgame.web.live.machine.commands import OffersWrite, Outcome
from sosgame.web.live.machine.state import Clock, LiveState, evolve
from sosgame.web.storage.rows import HUMAN, Change

__all__ = ["change", "offers_written", "result", "stored"]


def result(state: LiveState) -> dict[str, Any] | None:
    """The outcome as stored and sent, or ``None`` while the game goes on."""
    if state.ending is not None:
        return state.ending
    outcome = state.game.outcome
    if outcome is None:
        return None
    flagged = [] if state.clock is None else list(state.clock.get("flagged", []))
    shown = {**outcome.to_dict(), "scores": list(state.game.scores), "flagged": flagged}
    last = state.actions[-1] if state.actions else ""
    if shown["termination"] == "resignation" and last in {f"resign:{n}" for n in flagged}:
        shown["termination"] = "timeout"
    return shown


def change(
    state: LiveState,
    clock: Clock | None,
    now: int,
    first_ply: int,
    *,
    texts: tuple[str, ...] = (),
    keep: int | None = None,
    version: int,
) -> Change:
    """The change that stores ``state`` from ``first_ply`` on, if the game is still at
    ``version`` (the shell adds the computer's job, which is its queue's business)."""
    return Change(
        state.game_id,
        status=state.status,
        result=result(state),
        clock=clock,
        now_ms=now,
        first_ply=first_ply,
        texts=texts,
        keep=keep,
        version=version,
        hands_over=any(row.player != HUMAN for row in state.seats),
    )


def stored(new: LiveState, made: Change, now: int, *, begun: bool = False) -> Outcome:
    """The outcome of ``made``, which leads to ``new``: the next version once it is stored,
    told to the other processes and to every follower."""
    version = (made.version or 0) + 1
    after = evolve(new, game=new.game, version=version)
    announce = {
        "version": version,
        "keep": made.keep,
        "first": made.first_ply,
        "texts": list(made.texts),
        "status": made.status,
        "clock": made.clock,
        "result": made.result,
    }
    return Outcome(
        after,
        write=made,
        begun=begun,
        announce=announce,
        publish=True,
        timer=next_timer(after, now),
    )


def offers_written(state: LiveState, offers: list[dict[str, Any]], now: int) -> Outcome:
    """Store the standing ``offers`` (a draw or takeback stands at the next version)."""
    version = state.version + 1
    written = tuple(
        item if item["offer"] == "rematch" else {**item, "version": version} for item in offers
    )
    after = evolve(state, game=state.game, offers=written, version=version)
    return Outcome(
        after,
        write=OffersWrite(state.game_id, state.version, written),
        announce={"reload": True, "version": version},
        publish=True,
        timer=next_timer(after, now),
    )
