"""What a split solve still has to learn: null-window questions over the moves above the pieces.

A bounded split solve (:func:`sosgame.research.distribute.solve_split`) does not solve every
piece exactly. It asks yes-or-no questions, as one alpha-beta search with null windows
(MTD(f)) would: a :class:`Goal` "is the best of these moves worth at least ``target``?" is
settled by the bounds known of the pieces, or it names the piece tests ("is this piece worth
at least ``t``?") that would settle it, in the order a sequential search would need them
(:func:`needed`). Each test returns a bound on its piece, which is kept, so the bounds only
ever narrow, and a test is never run twice.

>>> from sosgame import Game
>>> from sosgame.research.split import plan_split
>>> plan = plan_split(Game(3, 3), 1)
>>> goal = Goal(plan.root, 0)  # is the first player's best worth at least 0?
>>> status(plan, {}, goal) is None, len(list(needed(plan, {}, goal)))
(True, 6)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import NamedTuple

from sosgame.research.split import Interval, Plan, Step, node_bounds, step_bounds
from sosgame.solver.rule import child_claim

__all__ = ["Goal", "needed", "status"]


class Goal(NamedTuple):
    """The question "is the best of ``steps`` worth at least ``target`` to their player?"."""

    steps: tuple[Step, ...]
    target: int


def status(plan: Plan, known: Mapping[str, Interval], goal: Goal) -> bool | None:
    """The answer to ``goal`` given the bounds ``known`` of the pieces, or None if they do not
    settle it."""
    bounds = node_bounds(plan, known)
    simple = plan.mode == "simple"
    found = [step_bounds(step, simple, bounds) for step in goal.steps]
    if any(low >= goal.target for low, _ in found):
        return True
    if all(high < goal.target for _, high in found):
        return False
    return None


def needed(plan: Plan, known: Mapping[str, Interval], goal: Goal) -> Iterator[tuple[str, int]]:
    """The piece tests ``(piece, t)`` that would settle ``goal``, in the order a sequential
    search would run them ("is ``piece`` worth at least ``t``?").

    Only the first is surely needed: each later one is needed if the tests before it all
    answer the way that does not cut the search short. A caller running tests in parallel
    takes the first few. Nothing is listed for a goal that ``known`` settles already.
    """
    bounds = node_bounds(plan, known)
    simple = plan.mode == "simple"
    seen: set[tuple[str, int]] = set()

    def at_least(steps: tuple[Step, ...], target: int) -> Iterator[tuple[str, int]]:
        found = [(step_bounds(step, simple, bounds), index) for index, step in enumerate(steps)]
        if any(low >= target for (low, _), _ in found):
            return
        # Likeliest to reach the target first: the highest known lower bound, then upper.
        for (_, high), index in sorted(found, key=lambda item: (-item[0][0], -item[0][1])):
            if high < target:
                continue
            step = steps[index]
            assert step.child is not None  # a move ending the game has an exact value
            after, lower = child_claim(step.lines, target, lower=True)
            # "At most ``after``" is the answer no to "at least ``after + 1``?".
            yield from child(step.child, after if lower else after + 1)

    def child(text: str, target: int) -> Iterator[tuple[str, int]]:
        low, high = bounds(text)
        if low >= target or high < target or (text, target) in seen:
            return
        seen.add((text, target))
        if text in plan.inner:
            yield from at_least(plan.inner[text], target)
        else:
            yield text, target

    return at_least(goal.steps, goal.target)
