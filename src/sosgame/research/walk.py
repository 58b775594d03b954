"""Certificates of proofs too large to write, kept as the entries met on random walks.

A proof of a general-mode board such as 5x5 would hold hundreds of millions of entries: no
run writes it whole, so no sample of it can be drawn afterwards either. A walk draws one
without it. It starts from a claim the proof needs (a bound on the root's value, or a bound
a split solve needs of a piece), writes that board's entry as the whole proof would (for a
lower bound the move reaching it, found by null-window tests; for an upper bound, the bound
that every move must respect), notes the claims the entry needs of the boards after it, and
goes on from one of those chosen at random, to the end of the game. The certificate keeps
the entries of ``walks`` walks, lists as ``assumed`` the claims they need that no kept entry
proves, and says how many walks drew it; :func:`sosgame.certify.check` checks every kept
entry and the root's value from them, and reports a sample, never a proof.

>>> from sosgame import Game
>>> from sosgame.certify import check
>>> document = walk_certificate(Game(3, 4), walks=5, memory_mb=8)
>>> report = check(document)
>>> report.value, report.walks, report.complete
(0, 5, False)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from sosgame.certify import CertificateError, check
from sosgame.errors import InvalidSettingsError
from sosgame.game import Game
from sosgame.research.certificate import Prover, claims_above, document, merge
from sosgame.research.pieces import PieceStore, interval
from sosgame.research.split import canonical, plan_split, root_interval
from sosgame.search.table import TranspositionTable
from sosgame.solver import Search, _check, warm_up

__all__ = ["check_walks", "walk_certificate"]

_Claim = tuple[str, int, bool]
"""A position's text, a bound, and whether it is a lower bound (else an upper one)."""


class _Walker(Prover):
    """A prover that writes one board's entry at a time and walks on to one of its children."""

    def __init__(
        self, run: Search, mode: str, found: dict[str, list[Any]], used: dict[str, list[Any]]
    ) -> None:
        super().__init__(run, mode, None)
        self.entries = found  # shared by every walk of one certificate
        self.used = used  # every claim the entries need, board by board
        self.needed: list[tuple[tuple[int, int], int, bool]] = []

    def walk(self, bound: int, lower: bool, rng: random.Random) -> None:
        """Walk from a claim on the current board to the end of the game, writing entries."""
        played = []
        while not self.settled(bound, lower):
            entry, image = self.entry()
            known = entry[0 if lower else 2]
            if known is not None:
                # A board met before keeps its stronger claim, which the entries above it use.
                bound = max(bound, known) if lower else min(bound, known)
            self.needed = []
            self.prove_here(entry, image, bound, lower)
            if not self.needed:
                break
            move, bound, lower = rng.choice(self.needed)
            self.run.play(*move)
            played.append(move)
        for move in reversed(played):
            self.run.unplay(*move)

    def needs(self, move: tuple[int, int], bound: int, lower: bool) -> None:
        """Note the claim instead of proving it: the walk may go on from that board."""
        if not self.settled(bound, lower):
            _note(self.used, canonical(self.text(), self.run.rows, self.run.cols), bound, lower)
            self.needed.append((move, bound, lower))


def _note(used: dict[str, list[Any]], text: str, bound: int, lower: bool) -> None:
    # Keep each board's strongest claim of each side: a true stronger claim implies the weaker.
    claim = used.setdefault(text, [None, None])
    side = 0 if lower else 1
    old = claim[side]
    claim[side] = bound if old is None else (max if lower else min)(old, bound)


def check_walks(walks: object) -> None:
    """Refuse a number of walks that is not a whole number of at least 1.

    :raises InvalidSettingsError: naming the bad value.
    """
    if not isinstance(walks, int) or isinstance(walks, bool) or walks < 1:
        raise InvalidSettingsError(
            f"walks must be a whole number of at least 1, not {walks!r}",
            code="walks",
            values={"value": walks},
        )


def walk_certificate(
    game: Game,
    *,
    walks: int,
    seed: int = 0,
    memory_mb: int = 64,
    table: TranspositionTable | None = None,
    depth: int | None = None,
    store: str | Path | None = None,
    on_walk: Callable[[dict[str, Any]], None] | None = None,
    earlier: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A certificate of ``game``'s value kept as the entries met on ``walks`` random walks
    down its proof (chosen by ``seed``), for :func:`sosgame.certify.check`.

    Without ``depth`` the position is solved first (``table``, if given, may hold an earlier
    solve's work; else a fresh one of ``memory_mb`` MiB) and every walk starts at the root.
    With ``depth`` and ``store``, the value comes from the pieces a split solve kept there
    (``sosgame solve --split DEPTH``): the entries above the pieces follow from their bounds
    and every walk starts at a bound the solve needs of a piece. ``on_walk``, if given, is
    called after each walk with the certificate of the walks so far (to save it, so that a
    run stopped early keeps them). ``earlier``, if given, is a walked certificate of the same
    board (one this function wrote): its entries are kept and ``walks`` more walks add to
    them, drawn apart from its own (the seed is mixed with its number of walks).

    :raises InvalidSettingsError: if ``walks`` is not a whole number of at least 1, the
        stored pieces do not settle the value yet, or ``earlier`` is not a walked
        certificate of this board and value.
    """
    _check(game)
    check_walks(walks)
    warm_up()
    table = table or TranspositionTable(memory_mb)
    top: list[list[Any]] = []
    if depth is None:
        value = Search(game, table, None).exact()
        starts: list[_Claim] = [(game.position(), value, True), (game.position(), value, False)]
    else:
        if store is None:
            raise InvalidSettingsError("a walk from a split solve needs the store of its pieces")
        plan = plan_split(game, depth)
        pieces = PieceStore(Path(store), game.rows, game.cols, game.mode)
        known = {board: interval(kept) for board in plan.pieces if (kept := pieces.load(board))}
        value, upper = root_interval(plan, known)
        if value != upper:
            raise InvalidSettingsError(
                f"the pieces in {pieces.folder} settle the value only between {value} and "
                f"{upper}: finish the split solve first"
            )
        top, claims = claims_above(plan, known, value)
        starts = [
            (board, bound, side == 0)
            for board, pair in claims.items()
            for side, bound in enumerate(pair)
            if bound is not None
        ]
    used: dict[str, list[Any]] = {}
    for position, bound, lower in starts:
        _note(used, canonical(position, game.rows, game.cols), bound, lower)
    found: dict[str, list[Any]] = {}
    before = 0
    if earlier is not None:
        before = _resume(earlier, game, value, found, used)
    # Walks added later must not repeat the first ones, which the same seed would draw.
    rng = random.Random(f"{seed}+{before}" if before else seed)
    sample: dict[str, Any] = {}
    for done in range(before + 1, before + walks + 1):
        position, bound, lower = rng.choice(starts)
        run = Search(Game.from_position(position, mode=game.mode), table, None)
        _Walker(run, game.mode, found, used).walk(bound, lower, rng)
        if on_walk is not None or done == before + walks:
            entries = merge(top, [[text, *entry] for text, entry in found.items()])
            sample = document(game, value, entries, _unproven(used, entries)) | {"walks": done}
        if on_walk is not None:
            on_walk(sample)
    return sample


def _resume(
    earlier: Mapping[str, Any],
    game: Game,
    value: int,
    found: dict[str, list[Any]],
    used: dict[str, list[Any]],
) -> int:
    # Take up an earlier walked certificate's entries and claims; return its number of walks.
    expected = {"rows": game.rows, "cols": game.cols, "mode": game.mode, "value": value}
    for key, wanted in expected.items():
        if earlier.get(key) != wanted:
            raise InvalidSettingsError(
                f"the earlier certificate has {key} {earlier.get(key)!r}, not {wanted!r}: "
                "walks can only be added to a certificate of the same board and value"
            )
    # New walks build on its entries: the checker makes sure each one holds first.
    try:
        report = check(dict(earlier))
    except CertificateError as error:
        raise InvalidSettingsError(
            f"the earlier certificate is malformed or false: {error}"
        ) from None
    if report.walks is None:
        raise InvalidSettingsError(
            "the earlier certificate was not drawn by random walks (it has no number of walks)"
        )
    for text, lower, move, upper in earlier["entries"]:
        found[text] = [lower, move, upper]
        _note_both(used, text, lower, upper)
    for text, lower, upper in earlier.get("assumed", []):
        _note_both(used, text, lower, upper)
    return report.walks


def _note_both(used: dict[str, list[Any]], text: str, lower: int | None, upper: int | None) -> None:
    for bound, is_lower in ((lower, True), (upper, False)):
        if bound is not None:
            _note(used, text, bound, is_lower)


def _unproven(used: dict[str, list[Any]], entries: list[list[Any]]) -> list[list[Any]]:
    # The claims the kept entries need that none of them proves: the sample takes them as given.
    proven = {text: (lower, upper) for text, lower, _, upper in entries}
    assumed = []
    for text, (lower, upper) in sorted(used.items()):
        has_lower, has_upper = proven.get(text, (None, None))
        lower_needed = not (lower is None or (has_lower is not None and has_lower >= lower))
        upper_needed = not (upper is None or (has_upper is not None and has_upper <= upper))
        if lower_needed or upper_needed:
            assumed.append([text, lower if lower_needed else None, upper if upper_needed else None])
    return assumed
