"""The threaded solver and the shared table: the same values and best moves as ever."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sosgame.solver
from sos_strategies import minimax_move_value
from sosgame import Game, InvalidSettingsError, Move
from sosgame.game import Mode
from sosgame.kernel import JIT
from sosgame.search.table import (
    EXACT,
    LOWER,
    QUOTIENT_BITS,
    UPPER,
    SharedTable,
    probe_word,
    store_word,
    word_kind,
    word_move,
    word_value,
)
from sosgame.solver import NodeLimitError, TimeLimitError, solve

ROOT = Path(__file__).resolve().parent.parent
KNOWN = json.loads((ROOT / "docs" / "solved.json").read_text(encoding="utf-8"))
SIZES = [(1, 5), (1, 6), (1, 7), (2, 3), (2, 4), (3, 3), (3, 4)]


@pytest.fixture
def always_threaded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Threads for every position, however small (they normally start at 17 empty cells)."""
    monkeypatch.setattr(sosgame.solver, "THREADED_EMPTY_CELLS", 0)


def _known(rows: int, cols: int, mode: str) -> dict[str, object]:
    return next(
        entry
        for entry in KNOWN
        if (entry["rows"], entry["cols"], entry["mode"]) == (rows, cols, mode)
        and "split" not in entry
    )


@st.composite
def positions(draw: st.DrawFn, max_empty: int = 8) -> Game:
    rows, cols = draw(st.sampled_from(SIZES))
    mode = draw(st.sampled_from(["general", "simple"]))
    game = Game(rows, cols, mode=mode)
    keep = draw(st.integers(2, max_empty))
    while not game.is_over and rows * cols - game.ply > keep:
        moves = list(game.legal_moves)
        game.play(moves[draw(st.integers(0, len(moves) - 1))])
    if game.is_over:
        # An empty board instead, of at most 3x3: the plain minimax of an empty 3x4 would
        # visit half a million positions.
        return Game(min(rows, 3), min(cols, 3), mode=mode)
    return Game.from_position(game.position(), mode=mode)


# Fewer examples than the one-thread property of tests/test_solver.py, which draws from the
# same positions: here each is a check of the threads' rounds against the same minimax.
@pytest.mark.usefixtures("always_threaded")
@settings(max_examples=120, deadline=None)
@given(game=positions(), threads=st.sampled_from([1, 2, 3]))
def test_threads_match_plain_minimax(game: Game, threads: int) -> None:
    values = {move: minimax_move_value(game, move) for move in list(game.legal_moves)}
    best = max(values.values())
    solution = solve(game, memory_mb=2, threads=threads)
    assert solution.value == best
    assert list(solution.best_moves) == sorted(
        (move for move, value in values.items() if value == best), key=Move.sort_key
    )


@pytest.mark.usefixtures("always_threaded")
@pytest.mark.parametrize("mode", ["general", "simple"])
@pytest.mark.parametrize(
    ("rows", "cols"), [(3, 3), (3, 4), (4, 4), (3, 5), (2, 6), (1, 11), (1, 12), (1, 13)]
)
def test_threads_find_the_known_values(rows: int, cols: int, mode: Mode) -> None:
    known = _known(rows, cols, mode)
    solution = solve(Game(rows, cols, mode=mode), threads=2)
    assert solution.value == known["value"]
    assert [str(move) for move in solution.best_moves] == known["best_moves"]
    assert solve(Game(rows, cols, mode=mode), threads=1)[:2] == solution[:2]


@pytest.mark.usefixtures("always_threaded")
def test_threads_keep_the_limits() -> None:
    with pytest.raises(NodeLimitError):
        solve(Game(4, 4), node_limit=5000, threads=2)
    with pytest.raises(TimeLimitError):
        solve(Game(4, 5), seconds=0.05, threads=2)


@pytest.mark.parametrize("threads", [0, -1, 1.5, True, "2"])
def test_bad_thread_counts_are_refused(threads: object) -> None:
    with pytest.raises(InvalidSettingsError, match="threads"):
        solve(Game(3, 3), threads=threads)  # type: ignore[arg-type]


def test_a_word_keeps_its_entry_and_names_its_position_exactly() -> None:
    table = SharedTable(1)
    size = table.size
    home = 12345
    # Four positions with one home slot: two fit there and in the next slot.
    keys = [home + quotient * size for quotient in (1, 2, 3, (1 << QUOTIENT_BITS) - 1)]
    store_word(table.words, keys[0], 10, -7, LOWER, 77)
    store_word(table.words, keys[1], 12, 5, EXACT, -1)
    first, second = probe_word(table.words, keys[0]), probe_word(table.words, keys[1])
    assert (word_value(first), word_kind(first), word_move(first)) == (-7, LOWER, 77)
    assert (word_value(second), word_kind(second), word_move(second)) == (5, EXACT, -1)
    assert probe_word(table.words, keys[2]) == 0
    # The neighbouring home slot's entries are never mistaken for these.
    assert probe_word(table.words, keys[0] + 1) == 0 and probe_word(table.words, keys[0] - 1) == 0
    # A shallower entry takes the second slot; the deepest stays at home.
    store_word(table.words, keys[3], 3, 127, UPPER, 0)
    assert probe_word(table.words, keys[0]) == 0
    assert word_value(probe_word(table.words, keys[1])) == 5
    last = probe_word(table.words, keys[3])
    assert (word_value(last), word_kind(last), word_move(last)) == (127, UPPER, 0)
    assert last > 0  # the largest quotient still leaves the word positive
    assert table.holds(size << QUOTIENT_BITS - 1) and not table.holds(size << QUOTIENT_BITS)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_an_interrupt_while_waiting_for_a_helper_stops_it_before_returning(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The main thread's moves are quick, the helper's long: the Ctrl-C lands while the main
    # thread waits. The solve must not return while the helper still searches.
    searching: list[threading.Thread] = []
    stopped: list[threading.Thread] = []
    waiting = threading.Event()

    class WaitingClock:
        """The solver's clock, noting when the main thread starts waiting for its helpers."""

        def __getattr__(self, name: str) -> object:
            return getattr(time, name)

        def sleep(self, seconds: float) -> None:
            if threading.current_thread() is threading.main_thread():
                waiting.set()
            time.sleep(seconds)

    def test_move(run: object, move: tuple[int, int, int], bound: int) -> int:
        if threading.current_thread() is threading.main_thread():
            return 0
        searching.append(threading.current_thread())
        # The Ctrl-C, once the main thread waits for this helper.
        if waiting.wait(30):
            os.kill(os.getpid(), signal.SIGINT)
        deadline = time.monotonic() + 30
        try:
            while time.monotonic() < deadline:
                run.pool.advance(0)  # type: ignore[attr-defined]  # raises once stopped
                time.sleep(0.01)
        finally:
            time.sleep(0.2)  # a helper slow to notice
            stopped.append(threading.current_thread())
        return 0

    monkeypatch.setattr(sosgame.solver, "_test", test_move)
    monkeypatch.setattr(sosgame.solver, "time", WaitingClock())
    pool = sosgame.solver._Pool(2, None, None)
    runs = [sosgame.solver.Search(Game(3, 3), None, None, None, SharedTable(1), pool)] * 2
    # Ctrl-C raises KeyboardInterrupt here even if this run inherited it ignored.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            sosgame.solver._run_round(runs, pool, [((0, 1, 0), 0), ((1, 1, 0), 0)])
    finally:
        signal.signal(signal.SIGINT, previous)
    assert waiting.is_set()
    assert len(searching) == 1 and searching[0] is not threading.current_thread()
    assert stopped == searching


@pytest.mark.skipif(not JIT, reason="threads only search in parallel when compiled")
def test_big_positions_get_threads_and_the_same_answer() -> None:
    game = Game(
        4, 5, moves=["Sa1", "Ob2", "Sc3", "Od4", "Oa4", "Sb4"]
    )  # 14 empty cells: single-threaded
    assert game.position().count(".") < sosgame.solver.THREADED_EMPTY_CELLS
    reference = solve(game, threads=1)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sosgame.solver, "THREADED_EMPTY_CELLS", 10)
        threaded = solve(game, threads=2)
    assert threaded[:2] == reference[:2]


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler")
def test_the_c_reference_finds_the_known_values(tmp_path: Path) -> None:
    program = tmp_path / "sos_solve"
    source = ROOT / "benchmarks" / "reference" / "sos_solve.c"
    subprocess.run(["cc", "-O2", "-std=c11", "-o", str(program), str(source)], check=True)
    boards = [(1, cols) for cols in range(3, 14)] + [(2, 6), (3, 3), (3, 4), (3, 5), (4, 4)]
    for rows, cols in boards:
        for mode in ("general", "simple"):
            output = subprocess.run(
                [str(program), f"{rows}x{cols}", mode, "20"],
                check=True,
                capture_output=True,
                text=True,
            ).stdout.split()
            assert output[0] == "value" and output[2] == "nodes" and output[4] == "seconds"
            assert int(output[1]) == _known(rows, cols, mode)["value"], (rows, cols, mode)
