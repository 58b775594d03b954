"""Certificates of solved positions, for the independent checker :mod:`sosgame.certify`.

A certificate proves ``value`` from both sides: the mover's strategy reaching at least
``value`` (one move for each position where the mover is to move, every reply of the
opponent answered) and the opponent's strategy holding the mover to at most ``value``. The
solver finds each strategy move by null-window tests on the table its solve filled, so most
tests cost a probe; symmetric and transposed positions share one entry.

>>> from sosgame import Game
>>> from sosgame.certify import check
>>> document = certificate(Game(3, 3, mode="simple"), memory_mb=8)
>>> report = check(document)
>>> report.value, report.complete
(0, True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sosgame.certify import FORMAT, write
from sosgame.errors import SosError
from sosgame.game import Game
from sosgame.kernel import EMPTY, count_lines, decode_move, encode_move, letter_lines
from sosgame.notation import Move
from sosgame.research.split import (
    Interval,
    Plan,
    Step,
    all_values,
    best_step,
    canonical_form,
    node_bounds,
    step_bounds,
)
from sosgame.search.table import TranspositionTable
from sosgame.solver import Search, _check, warm_up
from sosgame.solver.rule import child_claim, end_value

Namer = Callable[[Move], str]

__all__ = [
    "CertificateTooLargeError",
    "Prover",
    "certificate",
    "claims_above",
    "document",
    "merge",
    "prove",
    "prove_bounds",
    "top_entries",
    "write",
]


class CertificateTooLargeError(SosError):
    """The certificate would need more than the entries allowed."""


def _trivial(simple: bool, bound: int, lower: bool) -> bool:
    # Simple mode: a claim the checker sees true of every position (values lie in -1..1).
    return simple and (bound <= -1 if lower else bound >= 1)


class Prover:
    """Writes the entries proving bounds on the board of a :class:`Search`, by its tests."""

    def __init__(self, run: Search, mode: str, limit: int | None) -> None:
        self.run = run
        self.simple = mode == "simple"
        self.limit = limit
        # canonical text -> [lower, move, upper]
        self.entries: dict[str, list[Any]] = {}
        self.progress: Callable[[int], None] | None = None
        """Called with the number of entries each time one is added."""

    def text(self) -> str:
        """The current board as position text."""
        board = self.run.board
        letters = "".join(".SO"[int(board[cell])] for cell in range(self.run.size))
        cols = self.run.cols
        return "/".join(letters[start : start + cols] for start in range(0, len(letters), cols))

    def entry(self) -> tuple[list[Any], tuple[int, ...]]:
        """The current board's entry ``[lower, move, upper]`` (made empty if new), and the
        symmetry that names the board canonically."""
        text, image = canonical_form(self.text(), self.run.rows, self.run.cols)
        entry = self.entries.get(text)
        if entry is None:
            if self.limit is not None and len(self.entries) >= self.limit:
                raise CertificateTooLargeError(f"the certificate needs over {self.limit} entries")
            entry = self.entries[text] = [None, None, None]
            if self.progress is not None:
                self.progress(len(self.entries))
        return entry, image

    def _moves(self) -> list[tuple[int, int]]:
        return [
            (cell, letter)
            for cell in range(self.run.size)
            if self.run.board[cell] == EMPTY
            for letter in (1, 2)
        ]

    def _ended(self, lines: int) -> bool:
        # Has the move just played, completing ``lines``, ended the game?
        return bool(lines and self.simple) or self.run.empty == 0

    def _reaches(self, lines: int, bound: int) -> bool:
        # After a move completing ``lines``: is the mover's value at least ``bound``?
        if self._ended(lines):
            return end_value(lines, self.simple) >= bound
        return self.run.test_move(lines, bound) >= bound

    def _follow(self, move: tuple[int, int], lines: int, bound: int, lower: bool) -> None:
        # The mover's claim, in the position after ``move`` (a finished game needs nothing).
        if not self._ended(lines):
            self.needs(move, *child_claim(lines, bound, lower))

    def needs(self, move: tuple[int, int], bound: int, lower: bool) -> None:
        """The entry being written needs this claim of the board after ``move`` (played now):
        prove it."""
        self.prove(bound, lower)

    def settled(self, bound: int, lower: bool) -> bool:
        """Does the checker see the claim on the current board without an entry?"""
        if _trivial(self.simple, bound, lower):
            return True
        # Simple mode: a mover who completes an SOS at once has won.
        return self.simple and lower and min(map(self._scoring_first, self._moves())) < 0

    def prove(self, bound: int, lower: bool) -> None:
        """Record entries proving the current board is worth at least (or at most) ``bound``."""
        if self.settled(bound, lower):
            return
        entry, image = self.entry()
        known = entry[0 if lower else 2]
        if known is not None and (known >= bound if lower else known <= bound):
            return
        self.prove_here(entry, image, bound, lower)

    def prove_here(self, entry: list[Any], image: tuple[int, ...], bound: int, lower: bool) -> None:
        """Write the current board's ``entry`` for the claim (``image``: the symmetry naming
        its moves), and follow the claims it needs of the positions after it."""
        run = self.run
        if lower:
            # In simple mode every safe reply needs a proof of its own: the fewest first.
            order = self._fewest_replies if self.simple else self._scoring_first
            for cell, letter in sorted(self._moves(), key=order):
                lines = run.play(cell, letter)
                if self._reaches(lines, bound):
                    self._follow((cell, letter), lines, bound, lower=True)
                    run.unplay(cell, letter)
                    move = decode_move(image[cell], letter, run.rows, run.cols)
                    entry[0], entry[1] = bound, str(move)
                    return
                run.unplay(cell, letter)
            raise AssertionError(f"no move reaches {bound} in {self.text()}")
        for cell, letter in self._moves():
            lines = run.play(cell, letter)
            self._follow((cell, letter), lines, bound, lower=False)
            run.unplay(cell, letter)
        entry[2] = bound

    def _scoring_first(self, move: tuple[int, int]) -> int:
        return -count_lines(self.run.board, self.run.arrays[1], move[0], move[1])

    def _fewest_replies(self, move: tuple[int, int]) -> tuple[int, int]:
        # A winning SOS first, then the move leaving the fewest replies that neither complete
        # nor hand over an SOS (the checker settles those by itself).
        scoring = self._scoring_first(move)
        if scoring:
            return scoring, 0
        run = self.run
        run.play(*move)
        table = run.arrays[1]
        safe = 0
        for cell in range(run.size):
            if run.board[cell] == EMPTY:
                for letter in (1, 2):
                    completed, opened, _ = letter_lines(run.board, table, cell, letter)
                    safe += completed == 0 and opened == 0
        run.unplay(*move)
        return 0, safe


def certificate(
    game: Game,
    *,
    memory_mb: int = 64,
    table: TranspositionTable | None = None,
    entry_limit: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """Solve ``game``'s position and return a certificate of its value (a JSON-ready dict).

    ``table`` may be one a :func:`~sosgame.solver.solve` of the same board has filled: the
    proof then finds most of its answers there (else a fresh table of ``memory_mb`` MiB).
    ``progress``, if given, is called with the number of entries as each is added.

    :raises CertificateTooLargeError: if it needs more than ``entry_limit`` entries.
    """
    _check(game)
    warm_up()
    run = Search(game, table or TranspositionTable(memory_mb), None)
    value = run.exact()
    return document(game, value, prove(run, game.mode, value, entry_limit, progress))


def prove(
    run: Search,
    mode: str,
    value: int,
    entry_limit: int | None,
    progress: Callable[[int], None] | None = None,
) -> list[list[Any]]:
    """The entries proving that the board of ``run`` is worth exactly ``value``.

    :raises CertificateTooLargeError: if they would be more than ``entry_limit``.
    """
    return prove_bounds(run, mode, value, value, entry_limit, progress)


def prove_bounds(
    run: Search,
    mode: str,
    lower: int | None,
    upper: int | None,
    entry_limit: int | None,
    progress: Callable[[int], None] | None = None,
) -> list[list[Any]]:
    """The entries proving that the board of ``run`` is worth at least ``lower`` and at most
    ``upper`` (None: nothing to prove that side); ``progress`` as for :func:`certificate`.

    :raises CertificateTooLargeError: if they would be more than ``entry_limit``.
    """
    prover = Prover(run, mode, entry_limit)
    prover.progress = progress
    if lower is not None:
        prover.prove(lower, lower=True)
    if upper is not None:
        prover.prove(upper, lower=False)
    return [[text, *entry] for text, entry in sorted(prover.entries.items())]


def claims_above(
    plan: Plan, known: Mapping[str, Interval], value: int
) -> tuple[list[list[Any]], dict[str, tuple[int | None, int | None]]]:
    """The entries proving the root of ``plan`` is worth ``value``, from the bounds ``known``
    of its pieces, and what each piece must then be proven worth: ``{piece: (lower, upper)}``
    (None: nothing needed that side). The bounds must settle the value (a bounded solve's).

    :raises ValueError: if they do not.
    """
    simple = plan.mode == "simple"
    bounds = node_bounds(plan, known)
    entries: dict[str, list[Any]] = {}
    leaves: dict[str, list[int | None]] = {}

    def claim(text: str, steps: tuple[Step, ...], bound: int, lower: bool, name: Namer) -> None:
        if _trivial(simple, bound, lower):
            return
        entry = entries.setdefault(text, [None, None, None])
        if lower:
            if entry[0] is not None and entry[0] >= bound:
                return
            reaching = [step for step in steps if step_bounds(step, simple, bounds)[0] >= bound]
            if not reaching:
                raise ValueError(f"no move of {text} is known to reach {bound}")
            # The move with the fewest positions below it: the fewest pieces to prove.
            step = min(reaching, key=width)
            follow(step, bound, lower=True)
            entry[0], entry[1] = bound, name(step.move)
            return
        if entry[2] is not None and entry[2] <= bound:
            return
        for step in steps:
            if step_bounds(step, simple, bounds)[1] > bound:
                raise ValueError(f"{step.move} from {text} is not known to stay within {bound}")
            follow(step, bound, lower=False)
        entry[2] = bound

    def width(step: Step) -> int:
        below = plan.inner.get(step.child or "", ())
        return len({reply.child for reply in below})

    def follow(step: Step, bound: int, lower: bool) -> None:
        if step.child is not None:  # else the game ends with the move: the checker sees it
            child(step.child, *child_claim(step.lines, bound, lower))

    def child(text: str, bound: int, lower: bool) -> None:
        if text in plan.inner:
            claim(text, plan.inner[text], bound, lower, str)
        elif not _trivial(simple, bound, lower):
            leaf = leaves.setdefault(text, [None, None])
            side = 0 if lower else 1
            old = leaf[side]
            leaf[side] = bound if old is None else (max if lower else min)(old, bound)

    root, image = canonical_form(plan.position, plan.rows, plan.cols)

    def root_name(move: Move) -> str:
        cell, letter = encode_move(move, plan.cols)
        return str(decode_move(image[cell], letter, plan.rows, plan.cols))

    claim(root, plan.root, value, True, root_name)
    claim(root, plan.root, value, False, root_name)
    listed = [[text, *entry] for text, entry in sorted(entries.items()) if entry != [None] * 3]
    return listed, {text: (leaf[0], leaf[1]) for text, leaf in sorted(leaves.items())}


def document(
    game: Game,
    value: int,
    entries: list[list[Any]],
    assumed: list[list[Any]] | None = None,
) -> dict[str, Any]:
    """The certificate that ``game``'s position is worth ``value``, proven by ``entries``
    (and by claims ``[board, lower, upper]`` it takes as ``assumed``, if any)."""
    extra = {"assumed": assumed} if assumed else {}
    return {
        "format": FORMAT,
        "version": 1,
        "rows": game.rows,
        "cols": game.cols,
        "mode": game.mode,
        "position": game.position(),
        "value": value,
        "entries": entries,
    } | extra


def merge(*parts: list[list[Any]]) -> list[list[Any]]:
    """One list of entries from several proofs, keeping each board's strongest bounds.

    Sound because the checker only ever needs a claim *at least as strong* as the one an entry
    was proven with, and each kept bound brings its own move.
    """
    merged: dict[str, list[Any]] = {}
    for part in parts:
        for text, lower, move, upper in part:
            entry = merged.setdefault(text, [None, None, None])
            if lower is not None and (entry[0] is None or lower > entry[0]):
                entry[0], entry[1] = lower, move
            if upper is not None and (entry[2] is None or upper < entry[2]):
                entry[2] = upper
    return [[text, *entry] for text, entry in sorted(merged.items())]


def top_entries(plan: Plan, values: dict[str, int]) -> list[list[Any]]:
    """The entries of the root and the positions between it and the pieces of ``plan``.

    Each is exact (``[value, a best move, value]``); with the pieces' proofs of their exact
    values they prove the root's. ``values`` holds every piece's value.
    """
    simple = plan.mode == "simple"
    known = all_values(plan, values)
    entries = []
    for text, steps in plan.inner.items():
        value, best = best_step(steps, simple, known.__getitem__)
        entries.append([text, value, str(best[0]), value])
    value, best = best_step(plan.root, simple, known.__getitem__)
    # The root's moves are in its own coordinates: its entry is named by its canonical text.
    text, image = canonical_form(plan.position, plan.rows, plan.cols)
    cell, letter = encode_move(best[0], plan.cols)
    entries.append(
        [text, value, str(decode_move(image[cell], letter, plan.rows, plan.cols)), value]
    )
    return entries
