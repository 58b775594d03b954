"""What the state message shows of a live game that the machine decides: the result, the
clocks, the offers standing, the abort, the first move due, the seats away, the permissions."""

from __future__ import annotations

from typing import Any

from sosgame.web.live import clock as clocks
from sosgame.web.live.machine import permissions
from sosgame.web.live.machine.clocks import (
    clock_view,
    deadline,
    first_move_deadline,
    first_move_left,
)
from sosgame.web.live.machine.presence import abandonment
from sosgame.web.live.machine.state import LiveState
from sosgame.web.live.machine.writes import result

__all__ = ["changes_with_time", "shown"]


def shown(state: LiveState, now: int) -> dict[str, Any]:
    """The state message's fields that the rules decide, at ``now``."""
    return {
        "result": result(state),
        "clock": clock_view(state, now),
        "days": state.days,
        "deadline": clocks.iso(deadline(state)),
        "can_undo": state.can_undo,
        "can_redo": state.can_redo,
        "rematch": state.rematch,
        "rated": state.rated,
        **fair(state, now),
        "allowed": permissions.allowed(state, now),
    }


def fair(state: LiveState, now: int) -> dict[str, Any]:
    """What the state says of offers, the abort and absent seats."""
    return {
        "offers": [
            {
                "offer": item["offer"],
                "from": item["from"],
                "accepted": list(item.get("accepted", [])),
                "waiting": permissions.waiting_for(state, item),
                **(
                    {"lapses": max(0, int(item["lapses"]) - now)}
                    if item["offer"] == "rematch"
                    else {}
                ),
            }
            for item in state.standing_offers(now)
        ],
        "can_abort": state.playable and not state.started,
        "first_move": first_move_left(state, now),
        "abandon": abandonment(state, now),
    }


def changes_with_time(state: LiveState, now: int) -> bool:
    """Whether the state shows a countdown or a clock (so its text is not kept)."""
    view = clock_view(state, now)
    away = abandonment(state, now)
    return (
        (view is not None and view["running"] is not None)
        or bool(state.standing_offers(now))
        or (away is not None and any(item is not None for item in away["away"]))
        or first_move_deadline(state) is not None
    )
