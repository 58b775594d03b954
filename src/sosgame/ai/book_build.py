"""Building the opening book of ``perfect`` with the exact solver.

Run ``python -m sosgame.ai.book_build`` (``--help`` for the options; ``make book`` runs it) to
rebuild ``src/sosgame/ai/book.json``. For each board and mode it walks the positions
``perfect`` can meet, from the empty board, as either seat:

* where ``perfect`` moves, a position the solver settles on its own with a fresh table in
  :data:`FAST_NODES` nodes stays out of the book (except the empty board, always in it); any
  other gets its value and one best move (the first in board order), and the walk goes on
  from the position that move leads to;
* where the opponent moves, every reply is followed (one per symmetry class), unless the
  solver settles the position itself quickly, and so the ones after it too.

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
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Final

from sosgame.ai.book import (
    BOOK_FORMAT,
    Entries,
    book_key,
    canonical_board,
    read_book,
    stored_move,
    wide_letters,
)
from sosgame.game import MODES, Game, Mode
from sosgame.solver import NodeLimitError, TranspositionTable, solve

__all__ = ["BOOK_BOARDS", "FAST_NODES", "BookBuilder", "main"]

BOOK_BOARDS: Final = tuple(
    (rows, cols) for rows in range(1, 5) for cols in range(rows, 6) if rows * cols >= 9
)
"""The boards the book covers, the wider way round: every board up to 4x5."""
FAST_NODES: Final = 300_000
"""A position the solver settles in this many nodes (a few tenths of a second) needs no entry."""
BOOK_PATH: Final = Path(__file__).with_name("book.json")
SAVE_EVERY: Final = 25
"""Solves between saves of a board's entries so far (an interrupted build resumes from them)."""


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
    ) -> None:
        """``known`` entries (of an interrupted build) are taken as they are, not solved again;
        ``saving`` is given the entries so far every :data:`SAVE_EVERY` solves."""
        self.rows, self.cols, self.mode = rows, cols, mode
        self.table = TranspositionTable(memory_mb)
        self.entries: dict[str, tuple[int, str]] = {}
        self._known = known or {}
        self._saving = saving
        self._seen: set[tuple[str, bool]] = set()
        self.solves = 0

    def build(self) -> dict[str, tuple[int, str]]:
        """Every entry, with ``perfect`` as either seat."""
        empty = Game(self.rows, self.cols, mode=self.mode)
        self._walk([(empty, True), (empty, False)])
        return dict(sorted(self.entries.items()))

    def _fast(self, game: Game) -> bool:
        try:
            solve(game, node_limit=FAST_NODES, memory_mb=16)
        except NodeLimitError:
            return False
        return True

    def _walk(self, starts: list[tuple[Game, bool]]) -> None:
        # (position, whether perfect moves there), the most empty cells first; the count
        # keeps the order of equal levels and never lets two games be compared.
        waiting = [
            (-game.position().count("."), order, game, mine)
            for order, (game, mine) in enumerate(starts)
        ]
        heapq.heapify(waiting)
        order = len(waiting)
        while waiting:
            _, _, game, mine = heapq.heappop(waiting)
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
            solution = solve(game, table=self.table)
            move = solution.best_moves[0]
            row, col = move.cell
            if game.rows > game.cols:
                row, col = col, row
            self.entries[text] = (solution.value, f"{move.letter}{image[row * self.cols + col]}")
            self.solves += 1
            if self.solves % SAVE_EVERY == 0:
                name = book_key(self.mode, self.rows, self.cols)
                print(f"{name}: {self.solves} solves so far", file=sys.stderr, flush=True)
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
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """Build the boards the command line names (all of :data:`BOOK_BOARDS` by default)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", nargs="+", metavar="RxC", help="boards to build (all)")
    parser.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES))
    parser.add_argument("--again", action="store_true", help="rebuild boards already there")
    parser.add_argument("--memory", type=int, default=1024, help="the solver's table, MiB")
    parser.add_argument("--out", type=Path, default=BOOK_PATH)
    arguments = parser.parse_args(argv)
    wanted = BOOK_BOARDS
    if arguments.boards:
        wanted = tuple(_wide(text) for text in arguments.boards)
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

            builder = BookBuilder(rows, cols, mode, arguments.memory, known, saving)
            entries = builder.build()
            complete.add(name)
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
