"""A solve split into pieces: the positions a few moves deep, each solved on its own.

The positions ``depth`` moves after the root (counting every move, so a scoring move that lets
its player move again counts too) are the *pieces*; symmetric and transposed positions are one
piece, named by their :func:`canonical` text. Pieces solved for their exact values are
independent: they can run in any order, on any machine, and the root's value and best moves
follow from them by negamax over the few moves above them (:func:`combine`). Exact values cost
more than the null-window tests one alpha-beta search makes of most moves, so a split solve
tests pieces for bounds instead (:mod:`sosgame.research.bounded`); what is known of a piece is
then an :data:`Interval`, and :func:`node_bounds` and :func:`root_interval` say what those
settle above it.

>>> from sosgame import Game
>>> plan = plan_split(Game(3, 3), 1)
>>> len(plan.pieces)  # 18 first moves, 3 kinds of cell up to symmetry, 2 letters
6
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeAlias

from sosgame.errors import InvalidSettingsError
from sosgame.game import Game
from sosgame.notation import Move
from sosgame.solver import check_players
from sosgame.solver.mirror import mirror_interval
from sosgame.solver.rule import end_value, move_bounds, move_value
from sosgame.symmetry import symmetries

__all__ = [
    "Interval",
    "Plan",
    "Step",
    "all_values",
    "best_step",
    "canonical",
    "canonical_form",
    "combine",
    "node_bounds",
    "plan_split",
    "root_bounds",
    "root_interval",
    "step_bounds",
    "widest",
]

Interval: TypeAlias = tuple[int, int]
"""The least and the most a position is worth (equal when its value is known)."""


def canonical(position: str, rows: int, cols: int) -> str:
    """The name of ``position``'s symmetry class: the smallest text among its images.

    ``position`` is text such as ``S.O/.../OSS`` (:meth:`Game.position`).
    """
    return canonical_form(position, rows, cols)[0]


def canonical_form(position: str, rows: int, cols: int) -> tuple[str, tuple[int, ...]]:
    """:func:`canonical`, and the symmetry (a cell's image, by cell index) that gives it."""
    cells = position.replace("/", "")
    best: tuple[str, tuple[int, ...]] | None = None
    for image in symmetries(rows, cols):
        letters = [""] * len(cells)
        for cell, target in enumerate(image):
            letters[target] = cells[cell]
        text = "/".join("".join(letters[row * cols : (row + 1) * cols]) for row in range(rows))
        if best is None or text < best[0]:
            best = (text, image)
    assert best is not None  # every board has the identity
    return best


@dataclass(frozen=True)
class Step:
    """One move from a position: the lines it completes and where it leads."""

    move: Move
    lines: int
    child: str | None
    """The canonical text of the position after it; None if the game is over then."""


@dataclass(frozen=True)
class Plan:
    """The moves above the pieces, and the pieces themselves."""

    rows: int
    cols: int
    mode: str
    position: str
    """The root's position text."""
    root: tuple[Step, ...]
    """The root's moves, in the root's own coordinates (its best moves are named from them)."""
    inner: Mapping[str, tuple[Step, ...]]
    """The moves of every position between the root and the pieces."""
    pieces: tuple[str, ...]
    """The canonical texts of the positions to solve, in a fixed order."""


def _steps(game: Game, rows: int, cols: int) -> tuple[Step, ...]:
    steps = []
    for move in list(game.legal_moves):
        lines = len(game.play(move))
        child = None if game.is_over else canonical(game.position(), rows, cols)
        game.undo()
        steps.append(Step(move, lines, child))
    return tuple(steps)


def plan_split(game: Game, depth: int) -> Plan:
    """The pieces ``depth`` moves below the position of ``game`` (a two-player game).

    :raises InvalidSettingsError: if ``depth`` is not a whole number of at least 1, or the
        game is over or not for two players.
    """
    if not isinstance(depth, int) or isinstance(depth, bool) or depth < 1:
        raise InvalidSettingsError(
            f"the split depth must be a whole number of at least 1, not {depth!r}",
            code="split_depth",
            values={"value": depth},
        )
    check_players(game)
    if game.is_over:
        raise InvalidSettingsError("the game is over, so there is nothing to split")
    rows, cols = game.rows, game.cols
    root = _steps(game.copy(), rows, cols)
    inner: dict[str, tuple[Step, ...]] = {}
    level = {step.child for step in root if step.child is not None}
    for _ in range(depth - 1):
        following: set[str] = set()
        for text in sorted(level):
            if text in inner:
                continue
            steps = _steps(Game.from_position(text, mode=game.mode), rows, cols)
            inner[text] = steps
            following.update(step.child for step in steps if step.child is not None)
        level = following - inner.keys()
    return Plan(rows, cols, game.mode, game.position(), root, inner, tuple(sorted(level)))


def _step_value(step: Step, simple: bool, value: Callable[[str], int]) -> int:
    if step.child is None:
        return end_value(step.lines, simple)
    return move_value(step.lines, value(step.child))


def all_values(plan: Plan, values: Mapping[str, int]) -> dict[str, int]:
    """The exact value of every position of ``plan`` below the root, from its pieces' values.

    :raises KeyError: naming a piece whose value is missing.
    """
    simple = plan.mode == "simple"
    known = dict(values)

    def value(text: str) -> int:
        if text not in known:
            # Not a piece: a position between the root and the pieces (KeyError if neither).
            known[text] = best_step(plan.inner[text], simple, value)[0]
        return known[text]

    for text in plan.inner:
        value(text)
    for step in plan.root:
        if step.child is not None:
            value(step.child)
    return known


def best_step(
    steps: tuple[Step, ...], simple: bool, value: Callable[[str], int]
) -> tuple[int, tuple[Move, ...]]:
    """The best value among ``steps`` and every move reaching it, in board order."""
    scores = [(_step_value(step, simple, value), step.move) for step in steps]
    best = max(score for score, _ in scores)
    moves = sorted((move for score, move in scores if score == best), key=Move.sort_key)
    return best, tuple(moves)


def combine(plan: Plan, values: Mapping[str, int]) -> tuple[int, tuple[Move, ...]]:
    """The root's value and best moves (in board order), given every piece's exact value.

    :raises KeyError: naming a piece whose value is missing.
    """
    known = all_values(plan, values)
    return best_step(plan.root, plan.mode == "simple", known.__getitem__)


def root_bounds(plan: Plan, values: Mapping[str, int]) -> tuple[int, int]:
    """The least and most the root can be worth, given the values of the pieces solved so far.

    An unsolved piece may be worth anything a position can (simple mode: -1 to 1; general
    mode: up to its empty cells times the 8 lines a letter can complete, either way), so
    in simple mode one winning first move can settle the root long before its last piece.
    """
    return root_interval(plan, {board: (value, value) for board, value in values.items()})


def root_interval(plan: Plan, known: Mapping[str, Interval]) -> Interval:
    """:func:`root_bounds` from what is known of the pieces: the least and most each is worth."""
    bounds = node_bounds(plan, known)
    simple = plan.mode == "simple"
    found = [step_bounds(step, simple, bounds) for step in plan.root]
    return max(low for low, _ in found), max(high for _, high in found)


def node_bounds(plan: Plan, known: Mapping[str, Interval]) -> Callable[[str], Interval]:
    """The least and most every position of ``plan`` below the root is worth (remembered).

    ``known`` holds what is known of the pieces (a piece missing from it may be worth
    anything a position can).
    """
    simple = plan.mode == "simple"
    found: dict[str, Interval] = {}

    def bounds(text: str) -> Interval:
        if text not in found:
            if text in known:
                found[text] = known[text]
            elif text in plan.inner:
                steps = [step_bounds(step, simple, bounds) for step in plan.inner[text]]
                found[text] = (max(low for low, _ in steps), max(high for _, high in steps))
            else:
                found[text] = widest(text, simple)
        return found[text]

    return bounds


def widest(text: str, simple: bool) -> Interval:
    """The bounds of a position before any search: simple mode -1 to 1, or what the mirror
    strategy guarantees one side (:func:`~sosgame.solver.mirror.mirror_interval`); general
    mode, the 8 lines a letter can complete for every empty cell, either way."""
    if simple:
        return mirror_interval(text)
    most = 8 * text.count(".")
    return (-most, most)


def step_bounds(step: Step, simple: bool, bounds: Callable[[str], Interval]) -> Interval:
    """The least and most a move is worth to its player, from the bounds of where it leads."""
    if step.child is None:
        value = end_value(step.lines, simple)
        return value, value
    return move_bounds(step.lines, *bounds(step.child))
