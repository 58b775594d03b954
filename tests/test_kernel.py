"""The kernel agrees with the rules engine move by move, compiled and as plain Python."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import sosgame
from sosgame import Game
from sosgame.geometry import geometry
from sosgame.kernel import (
    DRAW,
    GREEDY,
    JIT,
    RANDOM,
    apply_move,
    count_lines,
    count_openings,
    decode_move,
    encode,
    encode_move,
    has_scoring_move,
    letter_lines,
    make_rng,
    new_array,
    next_turn,
    plan_cache,
    playout,
    playouts,
    random_below,
    tables,
    to_array,
    undo_move,
    winner,
)
from sosgame.kernel.playout import _greedy_choice, _threats, _track
from sosgame.kernel_cache import COMPILED_FOLDERS, forget_other_digests, source_digest

PACKAGE = Path(sosgame.__file__).parent

ROOT = Path(__file__).resolve().parent.parent
seeds = st.integers(0, 2**32 - 1)


@st.composite
def board_settings(
    draw: st.DrawFn, *, max_side: int = 6, max_players: int = 8
) -> dict[str, object]:
    """Rows, cols, players and mode of a random game."""
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(3 if rows < 3 else 1, max_side))
    return {
        "rows": rows,
        "cols": cols,
        "players": draw(st.integers(2, max_players)),
        "mode": draw(st.sampled_from(["general", "simple"])),
    }


def random_game(options: dict[str, object], seed: int, *, limit: int) -> Game:
    """A game of the given settings after up to ``limit`` random moves."""
    rng = random.Random(seed)
    game = Game(
        options["rows"],  # type: ignore[arg-type]
        options["cols"],  # type: ignore[arg-type]
        players=options["players"],  # type: ignore[arg-type]
        mode=options["mode"],  # type: ignore[arg-type]
    )
    while not game.is_over and game.ply < limit:
        game.play(rng.choice(list(game.legal_moves)))
    return game


def count_sos(position: str) -> int:
    """The S-O-S lines on a board, counted by the engine from the position alone."""
    return len(Game.from_position(position).lines)


_FUNCTIONS = {
    "apply_move": apply_move,
    "count_lines": count_lines,
    "count_openings": count_openings,
    "letter_lines": letter_lines,
    "has_scoring_move": has_scoring_move,
    "next_turn": next_turn,
    "undo_move": undo_move,
    "playout": playout,
    "playouts": playouts,
    "greedy_choice": _greedy_choice,
    "threats": _threats,
    "track": _track,
    "random_below": random_below,
    "winner": winner,
}


def _python(function: Any) -> Any:
    return getattr(function, "py_func", function)


COMPILED = SimpleNamespace(**_FUNCTIONS)
PYTHON = SimpleNamespace(**{name: _python(f) for name, f in _FUNCTIONS.items()})
IMPLEMENTATIONS = [pytest.param(COMPILED, id="compiled"), pytest.param(PYTHON, id="python")]
LETTER_OF = {".": 0, "S": 1, "O": 2}


def _board(game: Game) -> list[int]:
    return [LETTER_OF[char] for char in game.position() if char != "/"]


def _scoring_lines(game: Game) -> int:
    """The most lines any legal move completes, by the engine."""
    best = 0
    for move in list(game.legal_moves):
        trial = game.copy()
        best = max(best, len(trial.play(move)))
    return best


@pytest.mark.parametrize("kernel", IMPLEMENTATIONS)
@settings(max_examples=40, deadline=None)
@given(options=board_settings(max_side=7), seed=seeds)
def test_moves_match_the_engine_move_by_move(
    kernel: SimpleNamespace, options: dict[str, object], seed: int
) -> None:
    rng = random.Random(seed)
    game = random_game(options, 0, limit=0)
    state = encode(game)
    board, scores, next_seat, turn = state.board, state.scores, state.next_seat, state.turn
    table = state.tables.table
    while not game.is_over:
        if game.players > 2 and len(game.active_seats) > 2 and rng.random() < 0.05:
            game.resign(rng.choice(game.active_seats))
            state = encode(game)
            next_seat, turn = state.next_seat, state.turn
            continue
        assert bool(kernel.has_scoring_move(board, table)) == (_scoring_lines(game) > 0)
        move = rng.choice(list(game.legal_moves))
        cell, letter = encode_move(move, game.cols)
        assert decode_move(cell, letter, game.rows, game.cols) == move
        predicted = kernel.count_lines(board, table, cell, letter)
        lines = game.play(move)
        done = kernel.apply_move(board, scores, table, turn, cell, letter)
        assert predicted == done == len(lines)
        if rng.random() < 0.2:
            game.undo()
            kernel.undo_move(board, scores, turn, cell, done)
            assert list(board) == _board(game) and list(scores) == list(game.scores)
            game.play(move)
            kernel.apply_move(board, scores, table, turn, cell, letter)
        turn = kernel.next_turn(next_seat, turn, done)
        over = (state.simple and done > 0) or 0 not in list(board)
        assert list(board) == _board(game)
        assert list(scores) == list(game.scores)
        assert turn == game.turn
        assert over == game.is_over


def _lines_by_hand(game: Game, cell: int, letter: int) -> tuple[int, int, int]:
    # From the engine's list of lines alone: the lines in which ``letter`` at ``cell`` stands
    # where an SOS needs it; of those, the ones it completes, leaves one letter short with the
    # last cell empty, or leaves still able to become an SOS.
    board = _board(game)
    board[cell] = letter
    completed = opened = live = 0
    for line in geometry(game.rows, game.cols).lines:
        if cell not in line or (line.index(cell) == 1) != (letter == 2):
            continue
        wanted = [board[index] in (0, need) for index, need in zip(line, (1, 2, 1), strict=True)]
        if not all(wanted):
            continue
        live += 1
        blanks = sum(board[index] == 0 for index in line)
        completed += blanks == 0
        opened += blanks == 1
    return completed, opened, live


@pytest.mark.parametrize("kernel", IMPLEMENTATIONS)
@settings(max_examples=40, deadline=None)
@given(options=board_settings(max_side=6), seed=seeds, fill=st.integers(0, 30))
def test_letter_lines_counts_what_the_lines_say_and_agrees_with_the_quick_counts(
    kernel: SimpleNamespace, options: dict[str, object], seed: int, fill: int
) -> None:
    game = random_game(options, seed, limit=fill)
    state = encode(game)
    table = state.tables.table
    for move in list(game.legal_moves):
        cell, letter = encode_move(move, game.cols)
        counts = tuple(kernel.letter_lines(state.board, table, cell, letter))
        assert counts == _lines_by_hand(game, cell, letter), move
        assert counts[0] == kernel.count_lines(state.board, table, cell, letter)
        assert counts[1] == kernel.count_openings(state.board, table, cell, letter)
        assert counts[0] == len(game.copy().play(move))


@pytest.mark.parametrize("kernel", IMPLEMENTATIONS)
@settings(max_examples=30, deadline=None)
@given(options=board_settings(max_side=5, max_players=4), seed=seeds, fill=st.integers(0, 20))
def test_greedy_takes_the_most_lines_else_gives_nothing_away(
    kernel: SimpleNamespace, options: dict[str, object], seed: int, fill: int
) -> None:
    game = random_game(options, seed, limit=fill)
    if game.is_over:
        return
    state = encode(game)
    empties = to_array([cell for cell, letter in enumerate(_board(game)) if letter == 0])
    threat_s, threat_o = to_array(_board(game)), to_array(_board(game))
    available = kernel.threats(state.board, state.tables.table, threat_s, threat_o)
    pick = kernel.greedy_choice(
        state.board, state.tables.table, empties, state.empty, threat_s, threat_o, available,
        make_rng(seed),
    )  # fmt: skip
    move = decode_move(empties[pick >> 1], (pick & 1) + 1, game.rows, game.cols)
    best = _scoring_lines(game)
    trial = game.copy()
    got = len(trial.play(move))
    if best > 0:
        assert got == best
        return
    safe = [m for m in list(game.legal_moves) if not _hands_over(game, m)]
    assert not safe or move in safe


@pytest.mark.parametrize("kernel", IMPLEMENTATIONS)
@settings(max_examples=30, deadline=None)
@given(options=board_settings(max_side=6, max_players=2), seed=seeds)
def test_greedy_threat_tracking_matches_a_fresh_count_and_the_engine(
    kernel: SimpleNamespace, options: dict[str, object], seed: int
) -> None:
    rng = random.Random(seed)
    game = random_game(options, 0, limit=0)
    state = encode(game)
    board, table = state.board, state.tables.table
    threat_s, threat_o = to_array(_board(game)), to_array(_board(game))
    available = kernel.threats(board, table, threat_s, threat_o)
    while not game.is_over:
        move = rng.choice(list(game.legal_moves))
        cell, letter = encode_move(move, game.cols)
        game.play(move)
        kernel.apply_move(board, state.scores, table, 0, cell, letter)
        available += kernel.track(board, table, cell, letter, threat_s, threat_o)
        fresh_s, fresh_o = to_array(_board(game)), to_array(_board(game))
        assert kernel.threats(board, table, fresh_s, fresh_o) == available
        assert list(fresh_s) == list(threat_s) and list(fresh_o) == list(threat_o)
        if not game.is_over:
            assert (available > 0) == (_scoring_lines(game) > 0)


def _hands_over(game: Game, move: object) -> bool:
    trial = game.copy()
    trial.play(move)  # type: ignore[arg-type]
    return not trial.is_over and _scoring_lines(trial) > 0


@pytest.mark.parametrize("policy", [RANDOM, GREEDY])
@pytest.mark.parametrize("kernel", IMPLEMENTATIONS)
@settings(max_examples=30, deadline=None)
@given(options=board_settings(max_side=6), seed=seeds, fill=st.integers(0, 10))
def test_playouts_end_as_the_rules_say(
    kernel: SimpleNamespace, policy: int, options: dict[str, object], seed: int, fill: int
) -> None:
    game = random_game(options, seed, limit=fill)
    if game.is_over:
        return
    state = encode(game)
    board, scores = state.board, state.scores
    result = kernel.playout(
        board, scores, state.tables.table, state.next_seat, state.turn, state.simple, policy,
        make_rng(seed),
    )  # fmt: skip
    cells = "".join(".SO"[letter] for letter in board)
    position = "/".join(cells[r * game.cols : (r + 1) * game.cols] for r in range(game.rows))
    lines = count_sos(position)
    assert sum(scores) == lines
    assert all(points >= before for points, before in zip(scores, game.scores, strict=True))
    if game.mode == "simple":
        if result == DRAW:
            assert lines == 0 and "." not in position
        else:
            assert scores[result] == lines > 0
    else:
        assert "." not in position
        top = max(scores)
        leaders = [seat for seat in range(game.players) if scores[seat] == top]
        assert result == (leaders[0] if len(leaders) == 1 else DRAW)


@settings(max_examples=20, deadline=None)
@given(options=board_settings(max_side=6), seed=seeds, policy=st.sampled_from([RANDOM, GREEDY]))
def test_compiled_and_python_playouts_are_the_same_games(
    options: dict[str, object], seed: int, policy: int
) -> None:
    game = random_game(options, seed, limit=3)
    if game.is_over:
        return
    results = []
    for kernel in (COMPILED, PYTHON):
        state = encode(game)
        wins = new_array(game.players + 1)
        points = new_array(game.players)
        moves = kernel.playouts(
            state.board, state.scores, state.tables.table, state.next_seat, state.turn,
            state.simple, policy, 5, make_rng(seed), wins, points,
        )  # fmt: skip
        assert list(state.board) == _board(game) and list(state.scores) == list(game.scores)
        assert sum(wins) == 5
        results.append((int(moves), list(wins), list(points)))
    assert results[0] == results[1]
    if game.mode == "general":
        assert results[0][0] == 5 * state.empty


def test_random_below_stays_in_range_and_spreads() -> None:
    rng = make_rng(7)
    draws = [random_below(rng, 6) for _ in range(6000)]
    assert set(draws) == set(range(6))
    assert all(800 < draws.count(value) < 1200 for value in range(6))


def test_tables_list_the_engine_pairs() -> None:

    shape = geometry(4, 5)
    table = tables(4, 5).table
    for cell in range(shape.size):
        base = cell * 26
        pairs = [(table[base + 1 + 2 * k], table[base + 2 + 2 * k]) for k in range(table[base])]
        assert pairs == [(p.first, p.second) for p in shape.s_patterns[cell]]
        base += 17
        pairs = [(table[base + 1 + 2 * k], table[base + 2 + 2 * k]) for k in range(table[base])]
        assert pairs == [(p.first, p.second) for p in shape.o_patterns[cell]]
    assert tables(4, 5).lines == len(shape.lines) == len(tables(4, 5).line_cells) // 3


_BLOCK_NUMBA = (
    "class Block:\n"
    "    def find_spec(self, name, path=None, target=None):\n"
    "        if name.partition('.')[0] in ('numba', 'numpy'):\n"
    "            raise ImportError(name)\n"
    "sys.meta_path.insert(0, Block())\n"
)
_RUN_TESTS = (
    "import sys\n"
    "{block}"
    "import pytest\n"
    "from sosgame.kernel import HAVE_NUMBA, JIT\n"
    "assert not JIT and HAVE_NUMBA == {numba}\n"
    "sys.exit(pytest.main(['-q', '-p', 'no:cacheprovider', '-x', {path!r}]))\n"
)


@pytest.mark.skipif(os.environ.get("SOSGAME_KERNEL_CHILD") == "1", reason="already a child")
@pytest.mark.parametrize(
    ("block", "numba", "disable"),
    [
        pytest.param("", True, "1", id="NUMBA_DISABLE_JIT=1"),
        pytest.param(_BLOCK_NUMBA, False, "0", id="no-numba"),
    ],
)
def test_kernel_runs_as_plain_python(block: str, numba: bool, disable: str) -> None:
    environment = dict(os.environ, NUMBA_DISABLE_JIT=disable, SOSGAME_KERNEL_CHILD="1")
    script = _RUN_TESTS.format(block=block, numba=numba, path=str(Path(__file__)))
    done = subprocess.run(
        [sys.executable, "-c", script],
        check=False,
        cwd=ROOT / "tests",
        env=environment,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]


def test_compiled_when_numba_is_installed() -> None:
    pytest.importorskip("numba")
    if os.environ.get("NUMBA_DISABLE_JIT", "0") != "1":
        assert JIT
        assert hasattr(count_lines, "py_func")


def _package(folder: Path) -> Path:
    """A stand-in package: a copy of the compiled modules' source under ``folder``."""
    for name in COMPILED_FOLDERS:
        (folder / name).mkdir(parents=True)
        for path in (PACKAGE / name).glob("*.py"):
            (folder / name / path.name).write_bytes(path.read_bytes())
    return folder


def test_the_cache_goes_where_numba_cache_dir_says(tmp_path: Path) -> None:
    package = _package(tmp_path / "source")
    digest = source_digest(package)
    assert plan_cache(package, {"NUMBA_CACHE_DIR": str(tmp_path)}) == (
        True,
        str(tmp_path / f"sosgame-{digest}"),
    )


def test_the_cache_stays_in_a_writable_package(tmp_path: Path) -> None:
    package = _package(tmp_path / "sosgame")
    folder = package / "__pycache__" / "numba" / source_digest(package)
    assert plan_cache(package, {"HOME": str(tmp_path / "home")}) == (True, str(folder))
    assert folder.is_dir()


def test_a_change_to_any_compiled_module_moves_the_cache(tmp_path: Path) -> None:
    # numba would only notice a change to the file that defines a function, not to a helper
    # it inlines from another one.
    package = _package(tmp_path / "sosgame")
    before = source_digest(package)
    helper = package / "search" / "table.py"
    helper.write_text(helper.read_text() + "\n# changed\n")
    after = source_digest(package)
    assert after != before
    (package / "web").mkdir()
    (package / "web" / "app.py").write_text("# not compiled\n")
    assert source_digest(package) == after
    old = Path(plan_cache(package, {}).folder or "")
    helper.write_text(helper.read_text() + "# again\n")
    new = Path(plan_cache(package, {}).folder or "")
    assert new.parent == old.parent and new != old and old.is_dir()
    forget_other_digests(new)
    assert new.is_dir() and not old.exists()


def test_a_read_only_install_caches_in_the_user_cache_folder(tmp_path: Path) -> None:
    package = _package(tmp_path / "sosgame")
    # A plain file where __pycache__ would be: nothing can be made there, as in a read-only
    # install (permission bits would not stop a test run as root).
    (package / "__pycache__").write_text("")
    digest = source_digest(package)
    home = tmp_path / "home"
    assert plan_cache(package, {"HOME": str(home)}) == (
        True,
        str(home / ".cache" / "sosgame" / "numba" / digest),
    )
    assert plan_cache(package, {"XDG_CACHE_HOME": str(tmp_path / "xdg")}) == (
        True,
        str(tmp_path / "xdg" / "sosgame" / "numba" / digest),
    )
    # No writable home: a private folder in the temporary folder.
    blocker = tmp_path / "file"
    blocker.write_text("")
    temporary = tmp_path / "tmp"
    assert plan_cache(package, {"HOME": str(blocker / "home"), "TMPDIR": str(temporary)}) == (
        True,
        str(temporary / f"sosgame-{os.getuid()}" / "numba" / digest),
    )
    assert (temporary / f"sosgame-{os.getuid()}").stat().st_mode & 0o077 == 0
    # Nowhere to write at all: no cache, rather than an error at import.
    nowhere = {"HOME": str(blocker / "home"), "TMPDIR": str(blocker / "tmp")}
    assert plan_cache(package, nowhere) == (False, None)


def test_a_temporary_folder_others_can_write_is_never_used(tmp_path: Path) -> None:
    # Compiled code loaded from a folder another user could write would run their code.
    package = _package(tmp_path / "sosgame")
    (package / "__pycache__").write_text("")
    blocker = tmp_path / "file"
    blocker.write_text("")
    temporary = tmp_path / "tmp"
    shared = temporary / f"sosgame-{os.getuid()}"
    shared.mkdir(parents=True)
    shared.chmod(0o777)
    environ = {"HOME": str(blocker / "home"), "TMPDIR": str(temporary)}
    assert plan_cache(package, environ) == (False, None)
    shared.chmod(0o700)
    assert plan_cache(package, environ).enabled


_COMPILE_ONE = (
    "from sosgame.game import Game\n"
    "from sosgame.kernel import JIT, count_lines, encode, S\n"
    "state = encode(Game(3, 3))\n"
    "count_lines(state.board, state.tables.table, 0, S)\n"
    "print(JIT)\n"
)


def test_compiled_kernels_are_kept_in_numba_cache_dir(tmp_path: Path) -> None:
    pytest.importorskip("numba")
    if os.environ.get("NUMBA_DISABLE_JIT", "0") == "1":
        pytest.skip("numba is disabled")
    done = subprocess.run(
        [sys.executable, "-c", _COMPILE_ONE],
        # Compiled here, as told: an empty cache would otherwise run it as plain Python.
        env=dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path), SOSGAME_KERNELS="compiled"),
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0 and done.stdout == "True\n", done.stderr
    assert done.stderr == ""
    assert list(tmp_path.rglob("moves.count_lines*.nbi"))
