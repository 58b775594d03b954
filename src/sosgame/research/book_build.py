"""Building the opening book of ``perfect`` with the exact solver.

Run ``python -m sosgame.research.book_build`` (``--help`` for the options; ``make book`` runs it) to
rebuild ``src/sosgame/ai/book.json``. For each board and mode it walks the positions
``perfect`` can meet, from the empty board, as either seat:

* where ``perfect`` moves, a position the solver settles on its own with a fresh table in
  :data:`FAST_NODES` nodes stays out of the book (except the empty board, always in it); any
  other gets its value and one best move (the first in board order), and the walk goes on
  from the position that move leads to;
* where the opponent moves, every reply is followed (one per symmetry class), unless the
  solver settles the position itself quickly, and so the ones after it too;
* in simple mode, a position where the mover can complete an SOS needs no entry either: the
  players play that win at once.

A board too large to solve position by position takes its moves from a certificate of the
exact solver (``--certificate FILE``, see ``sosgame certify``): where the certificate proves
a position's value from the mover's side with a move (in simple mode a win; in general mode a
lower bound its own upper bound meets), that move is the entry, no solve needed. ``--seats``
walks from one seat only (5x5 simple, whose certificate holds the first player's win) and
``--until EMPTY`` stops the walk above positions with fewer empty cells; a board built so is
not marked complete, since some of the positions ``perfect`` can meet are missing. And a
position above the pieces of a split solve (``--pieces DEPTH``, kept under ``--store``, as
``sosgame solve RxC --split DEPTH`` keeps them) takes its value and move from the pieces'
exact values by negamax, again without a solve.

Every position is handled once up to the board's symmetries, the positions with the most
empty cells first, both seats level by level: an unfinished build has every entry down to
some number of empty cells, the openings of both seats before anything deeper. All the solves
of one board share a large table, so each builds on the ones before. A board already in the
book is kept unless ``--again`` is given, and an interrupted build saves its entries every
:data:`SAVE_EVERY` solves and takes them up again when run anew.
"""

from __future__ import annotations

import argparse
import heapq
import json
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any, Final

from sosgame.ai.book import (
    BOOK_FORMAT,
    SETTLED_NODES,
    Entries,
    book_key,
    canonical_board,
    read_book,
    stored_move,
    wide_letters,
)
from sosgame.ai.heuristics import can_score
from sosgame.ai.state import State
from sosgame.certify import CertificateError, check, load
from sosgame.files import write_file
from sosgame.game import MODES, Game, Mode
from sosgame.notation import Move
from sosgame.research.pieces import PieceStore
from sosgame.research.split import combine, plan_split
from sosgame.solver import NodeLimitError, TranspositionTable, solve

__all__ = [
    "BOOK_BOARDS",
    "FAST_NODES",
    "SEATS",
    "BookBuilder",
    "Lookup",
    "certified_moves",
    "from_pieces",
    "main",
]

BOOK_BOARDS: Final = tuple(
    (rows, cols) for rows in range(1, 5) for cols in range(rows, 6) if rows * cols >= 9
)
"""The boards the book covers, the wider way round: every board up to 4x5."""
FAST_NODES: Final = SETTLED_NODES
"""A position the solver settles in this many nodes (a few tenths of a second) needs no entry."""
BOOK_PATH: Final = Path(__file__).parent.parent / "ai" / "book.json"
"""The book the package ships and :mod:`sosgame.ai.book` reads."""
SAVE_EVERY: Final = 25
"""Solves between saves of a board's entries so far (an interrupted build resumes from them)."""
SEATS: Final = ("first", "second")
"""The seats ``perfect`` can take, the first to move first."""


CHECKED_ENTRIES: Final = 2_000
"""Random entries of a certificate checked (with the rules engine) before the build uses it."""


def certified_moves(document: dict[str, Any]) -> dict[str, tuple[int, str]]:
    """The book entries a certificate proves: per canonical board (flat letters), the exact
    value for the mover and a move reaching it, stored as the book stores moves (``"S12"``).

    Only an entry with a move whose value is exact counts: in simple mode a win (lower 1),
    in general mode a lower bound equal to the entry's upper bound. The document is checked
    first, its root and :data:`CHECKED_ENTRIES` of its entries (``sosgame certify`` checks
    them all).

    :raises CertificateError: for a malformed certificate or an entry that does not hold.
    """
    check(document, sample=CHECKED_ENTRIES)
    cols = document["cols"]
    simple = document["mode"] == "simple"
    found: dict[str, tuple[int, str]] = {}
    for text, lower, move, upper in document["entries"]:
        if move is None or not (lower == upper or (simple and lower >= 1)):
            continue
        parsed = Move.parse(move)
        index = parsed.cell.row * cols + parsed.cell.col
        found[text.replace("/", "")] = (lower, f"{parsed.letter}{index}")
    return found


Lookup = Callable[[Game], tuple[int, tuple[Move, ...]] | None]
"""Where a position's value and best moves are known without a solve (``None``: not known)."""


def from_pieces(store: PieceStore, depth: int) -> Lookup:
    """The value and best moves of a position above a split solve's pieces (``depth`` moves
    below the empty board), from the exact values ``store`` keeps: ``None`` for a position at
    or below the pieces, or when a piece it needs has no exact value there."""

    def lookup(game: Game) -> tuple[int, tuple[Move, ...]] | None:
        below = depth - game.ply
        if below < 1:
            return None
        plan = plan_split(game, below)
        values: dict[str, int] = {}
        for piece in plan.pieces:
            result = store.load(piece)
            if result is None or "value" not in result:
                return None
            values[piece] = int(result["value"])
        return combine(plan, values)

    return lookup


class BookBuilder:
    """The book entries of one board and mode, found by walking from the empty board."""

    def __init__(
        self,
        rows: int,
        cols: int,
        mode: Mode,
        memory_mb: int,
        known: dict[str, tuple[int, str]] | None = None,
        saving: Callable[[dict[str, tuple[int, str]]], None] | None = None,
        certified: Mapping[str, tuple[int, str]] | None = None,
        lookup: Lookup | None = None,
    ) -> None:
        """``known`` entries (of an interrupted build) are taken as they are, not solved again,
        and so are ``certified`` ones (see :func:`certified_moves`) and the positions
        ``lookup`` knows (see :func:`from_pieces`); ``saving`` is given the entries so far
        every :data:`SAVE_EVERY` new entries."""
        self.rows, self.cols, self.mode = rows, cols, mode
        self.table = TranspositionTable(memory_mb)
        self.entries: dict[str, tuple[int, str]] = {}
        self._known = {**(certified or {}), **(known or {})}
        self._saving = saving
        self._seen: set[tuple[str, bool]] = set()
        self._lookup = lookup
        self.solves = 0
        self._new = 0

    def build(self, seats: tuple[str, ...] = SEATS, until: int = 0) -> dict[str, tuple[int, str]]:
        """Every entry, with ``perfect`` in each of ``seats`` (by default either), down to
        positions with ``until`` empty cells (by default all the way)."""
        empty = Game(self.rows, self.cols, mode=self.mode)
        self._walk([(empty, seat == SEATS[0]) for seat in SEATS if seat in seats], until)
        return dict(sorted(self.entries.items()))

    def _fast(self, game: Game) -> bool:
        if game.mode == "simple" and can_score(State(game)):
            return True
        try:
            solve(game, node_limit=FAST_NODES, memory_mb=16)
        except NodeLimitError:
            return False
        return True

    def _walk(self, starts: list[tuple[Game, bool]], until: int) -> None:
        # (position, whether perfect moves there), the most empty cells first; the count
        # keeps the order of equal levels and never lets two games be compared.
        waiting = [
            (-game.position().count("."), order, game, mine)
            for order, (game, mine) in enumerate(starts)
        ]
        heapq.heapify(waiting)
        order = len(waiting)
        while waiting:
            minus_empty, _, game, mine = heapq.heappop(waiting)
            if -minus_empty < until:
                return  # every position left is deeper still
            letters, rows, cols = wide_letters(game)
            text, image = canonical_board(letters, rows, cols)
            if (text, mine) in self._seen:
                continue
            self._seen.add((text, mine))
            # The empty board always gets its entry: the first move is then instant.
            kept = mine and (text in self._known or text == "." * len(text))
            if not kept and self._fast(game):
                continue
            for after, perfect_moves in (
                self._mine(game, text, image) if mine else self._theirs(game)
            ):
                order += 1
                heapq.heappush(waiting, (-after.position().count("."), order, after, perfect_moves))

    def _mine(self, game: Game, text: str, image: tuple[int, ...]) -> Iterator[tuple[Game, bool]]:
        if text in self._known:
            self.entries[text] = self._known[text]
            move = stored_move(game, image, self._known[text][1])
        else:
            found = None if self._lookup is None else self._lookup(game)
            if found is None:
                solution = solve(game, table=self.table)
                found = solution.value, solution.best_moves
                self.solves += 1
            value, best = found
            move = best[0]
            row, col = move.cell
            if game.rows > game.cols:
                row, col = col, row
            self.entries[text] = (value, f"{move.letter}{image[row * self.cols + col]}")
        self._new += 1
        if self._new % SAVE_EVERY == 0:
            name = book_key(self.mode, self.rows, self.cols)
            print(
                f"{name}: {len(self.entries)} entries so far, {self.solves} solved",
                file=sys.stderr,
                flush=True,
            )
            if self._saving is not None:
                self._saving(self.entries)
        after = game.copy()
        lines = after.play(move)
        if not after.is_over:
            yield after, bool(lines)

    def _theirs(self, game: Game) -> Iterator[tuple[Game, bool]]:
        children: set[str] = set()
        for move in list(game.legal_moves):
            after = game.copy()
            lines = after.play(move)
            if after.is_over:
                continue
            child = canonical_board(*wide_letters(after))[0]
            if child not in children:
                children.add(child)
                yield after, not lines


def _wide(text: str) -> tuple[int, int]:
    rows, cols = sorted(int(side) for side in text.lower().split("x"))
    return rows, cols


def _load(path: Path) -> tuple[Entries, set[str]]:
    """The boards of a book file, and the names of those whose build finished."""
    if not path.exists():
        return {}, set()
    text = path.read_text(encoding="utf-8")
    return read_book(text), set(json.loads(text).get("complete", []))


def _save(path: Path, boards: Entries, complete: set[str]) -> None:
    names = sorted(boards)
    lines = [f'{{"format": {BOOK_FORMAT}, "fast_nodes": {FAST_NODES},']
    lines.append(f'"complete": {json.dumps(sorted(complete & set(names)))},')
    lines.append('"boards": {')
    for number, name in enumerate(names):
        entries = boards[name]
        body = ", ".join(
            f'"{text}": [{value}, "{move}"]' for text, (value, move) in sorted(entries.items())
        )
        comma = "," if number < len(names) - 1 else ""
        lines.append(f'"{name}": {{{body}}}{comma}')
    lines.append("}}")
    write_file(path, ("\n".join(lines) + "\n").encode())


def main(argv: list[str] | None = None) -> int:
    """Build the boards the command line names (all of :data:`BOOK_BOARDS` by default)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", nargs="+", metavar="RxC", help="boards to build (all)")
    parser.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES))
    parser.add_argument("--again", action="store_true", help="rebuild boards already there")
    parser.add_argument("--memory", type=int, default=1024, help="the solver's table, MiB")
    parser.add_argument("--out", type=Path, default=BOOK_PATH)
    parser.add_argument(
        "--seats", nargs="+", choices=SEATS, default=list(SEATS), help="perfect's seats (both)"
    )
    parser.add_argument(
        "--certificate",
        type=Path,
        metavar="FILE",
        help="take the moves of its board and mode from this certificate of the exact solver",
    )
    parser.add_argument(
        "--pieces",
        type=int,
        metavar="DEPTH",
        help="take the positions above the pieces of a split solve at DEPTH from their values",
    )
    parser.add_argument(
        "--store", type=Path, default=Path("data/solves"), help="where the pieces are kept"
    )
    parser.add_argument(
        "--until",
        type=int,
        default=0,
        metavar="EMPTY",
        help="walk down to positions with EMPTY empty cells only (the board stays incomplete)",
    )
    arguments = parser.parse_args(argv)
    if arguments.until < 0:
        parser.error(f"--until must be a number of empty cells, not {arguments.until}")
    if arguments.pieces is not None and arguments.pieces < 1:
        parser.error(f"--pieces must be a depth of at least 1, not {arguments.pieces}")
    wanted = BOOK_BOARDS
    if arguments.boards:
        wanted = tuple(_wide(text) for text in arguments.boards)
    certified: dict[str, dict[str, tuple[int, str]]] = {}
    if arguments.certificate is not None:
        try:
            document = load(arguments.certificate)
            moves = certified_moves(document)
        except CertificateError as error:
            parser.error(f"--certificate {arguments.certificate}: {error}")
        rows, cols, mode = document["rows"], document["cols"], document["mode"]
        if rows > cols or (rows, cols) not in wanted or mode not in arguments.modes:
            parser.error(
                f"the certificate is of {mode} {rows}x{cols}: give --boards {rows}x{cols}"
                f" --modes {mode} (its board the wider way round)"
            )
        certified[book_key(mode, rows, cols)] = moves
    whole = set(arguments.seats) == set(SEATS) and arguments.until == 0
    boards, complete = _load(arguments.out)
    for mode in arguments.modes:
        for rows, cols in wanted:
            name = book_key(mode, rows, cols)
            if name in complete and not arguments.again:
                continue
            complete.discard(name)
            start = time.perf_counter()

            known = {} if arguments.again else boards.get(name, {})

            def saving(
                entries: dict[str, tuple[int, str]],
                name: str = name,
                known: dict[str, tuple[int, str]] = known,
            ) -> None:
                # Until the walk is done, the entries it has not reached yet stay as they were.
                _save(arguments.out, {**boards, name: {**known, **entries}}, complete)

            lookup = None
            if arguments.pieces is not None:
                store = PieceStore(arguments.store, rows, cols, mode)
                lookup = from_pieces(store, arguments.pieces)
            builder = BookBuilder(
                rows, cols, mode, arguments.memory, known, saving, certified.get(name), lookup
            )
            entries = builder.build(tuple(arguments.seats), arguments.until)
            if whole:
                complete.add(name)
            else:  # the entries the walk did not go to, if any, stay
                entries = {**known, **entries}
            if entries:
                boards[name] = entries
            else:
                boards.pop(name, None)
            _save(arguments.out, boards, complete)
            seconds = time.perf_counter() - start
            print(f"{name}: {len(entries)} entries, {seconds:.0f} s", file=sys.stderr, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
