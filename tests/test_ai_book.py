"""The opening book of ``perfect``: entries agree with fresh solves, in every orientation."""

from __future__ import annotations

import json
import random
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sosgame import Game
from sosgame.ai import make_player
from sosgame.ai.book import _book, book_entry, book_key, canonical_board, read_book
from sosgame.game import Mode
from sosgame.research.book_build import BOOK_BOARDS, main
from sosgame.solver import solve
from sosgame.symmetry import symmetries

BOOK = _book()
COVERED = [(mode, rows, cols) for mode in ("general", "simple") for rows, cols in BOOK_BOARDS]


def _board(letters: str, rows: int, cols: int) -> str:
    return "/".join(letters[row * cols : (row + 1) * cols] for row in range(rows))


def _turned(letters: str, rows: int, cols: int, image: tuple[int, ...]) -> str:
    turned = ["."] * len(letters)
    for cell, letter in enumerate(letters):
        turned[image[cell]] = letter
    return "".join(turned)


def _transpose(letters: str, rows: int, cols: int) -> str:
    return "".join(letters[row * cols + col] for col in range(cols) for row in range(rows))


def _sample() -> list[tuple[str, str]]:
    """Per board, the two entries quickest to solve again (the most filled in) and one more."""
    rng = random.Random(15)
    picked = []
    for name, entries in sorted(BOOK.items()):
        ordered = sorted(entries, key=lambda letters: (letters.count("."), letters))
        chosen = ordered[:2]
        if name.endswith("4x4") or len(ordered) < 60:
            chosen.append(rng.choice(ordered))
        picked.extend((name, letters) for letters in dict.fromkeys(chosen))
    return picked


def test_the_book_covers_the_openings_of_4x4_and_4x5_in_both_modes() -> None:
    for mode in ("general", "simple"):
        for rows, cols in ((4, 4), (4, 5)):
            assert "." * (rows * cols) in BOOK[book_key(mode, rows, cols)]


def test_the_book_is_small_and_holds_one_entry_per_symmetry_class() -> None:
    source = resources.files("sosgame.ai").joinpath("book.json")
    # About 38 bytes an entry: 4x5 general's 7,184 and 5x5 simple's 3,502 are most of it.
    assert len(source.read_bytes()) < 450_000
    for name, entries in BOOK.items():
        rows, cols = (int(side) for side in name.split()[1].split("x"))
        for letters in entries:
            assert canonical_board(letters, rows, cols)[0] == letters, (name, letters)


@pytest.mark.parametrize(("name", "letters"), _sample())
def test_a_sample_of_entries_agrees_with_a_fresh_solve_in_every_orientation(
    name: str, letters: str
) -> None:
    mode, size = name.split()
    rows, cols = (int(side) for side in size.split("x"))
    value, _ = BOOK[name][letters]
    solution = solve(Game.from_position(_board(letters, rows, cols), mode=mode))  # type: ignore[arg-type]
    assert solution.value == value
    rng = random.Random(letters)
    image = rng.choice(symmetries(rows, cols))
    turned = _turned(letters, rows, cols, image)
    for text, shape in ((turned, (rows, cols)), (_transpose(turned, rows, cols), (cols, rows))):
        game = Game.from_position(_board(text, *shape), mode=mode, turn=rng.randrange(2))  # type: ignore[arg-type]
        entry = book_entry(game)
        assert entry is not None and entry.value == value
        fresh = solve(game)
        assert entry.move in fresh.best_moves, (name, letters, text)


@pytest.mark.parametrize(
    ("mode", "rows", "cols"), [("general", 4, 5), ("simple", 5, 4), ("simple", 5, 5)]
)
def test_perfect_plays_from_the_book_on_the_first_move_with_almost_no_budget(
    mode: str, rows: int, cols: int
) -> None:
    game = Game(rows, cols, mode=mode)  # type: ignore[arg-type]
    player = make_player("perfect", nodes=1, seed=3)
    move = player.choose_move(game)
    entry = book_entry(game)
    assert entry is not None and move == entry.move
    assert player.proven  # type: ignore[attr-defined]


def test_a_book_game_stays_in_the_book_or_in_quick_reach() -> None:
    # perfect against random replies on 4x4: every position it moves in is in the book or
    # solved by the solver within a small node budget; it gets at least the book value.
    game = Game(4, 4)
    perfect = make_player("perfect", nodes=1_000_000, seed=1)
    other = make_player("random", seed=2)
    start = book_entry(game)
    assert start is not None
    while not game.is_over:
        if game.turn == 0:
            game.play(perfect.choose_move(game))
            assert perfect.proven  # type: ignore[attr-defined]
        else:
            game.play(other.choose_move(game))
    assert game.scores[0] - game.scores[1] >= start.value


@pytest.mark.parametrize("opponent", ["random", "medium"])
def test_perfect_first_on_5x5_simple_proves_every_move_and_wins(opponent: str) -> None:
    # The book holds the first player's win down to where the solver takes over in a few
    # hundred thousand nodes; a win at once needs neither.
    game = Game(5, 5, mode="simple")
    perfect = make_player("perfect", nodes=1_000_000, seed=4)
    other = make_player(opponent, seed=5)
    while not game.is_over:
        if game.turn == 0:
            game.play(perfect.choose_move(game))
            assert perfect.proven, game.position()  # type: ignore[attr-defined]
        else:
            game.play(other.choose_move(game))
    assert game.outcome is not None and game.outcome.winners == (0,)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_perfect_second_on_5x5_simple_plays_from_the_book_down_to_20_empty_cells(
    seed: int,
) -> None:
    game = Game(5, 5, mode="simple")
    perfect = make_player("perfect", nodes=1, seed=seed)
    other = make_player("medium", seed=seed)
    moved = 0
    while not game.is_over and game.position().count(".") >= 20:
        if game.turn == 1:
            entry = book_entry(game)
            move = perfect.choose_move(game)
            assert perfect.proven, game.position()  # type: ignore[attr-defined]
            assert entry is not None and move == entry.move, game.position()
            moved += 1
            game.play(move)
        else:
            game.play(other.choose_move(game))
    assert moved == 3


@settings(max_examples=30, deadline=None)
@given(st.sampled_from(BOOK_BOARDS), st.randoms(use_true_random=False))
def test_symmetric_boards_share_their_canonical_form(
    shape: tuple[int, int], rng: random.Random
) -> None:
    rows, cols = shape
    letters = "".join(rng.choice("SO..") for _ in range(rows * cols))
    canonical = canonical_board(letters, rows, cols)[0]
    for image in symmetries(rows, cols):
        assert canonical_board(_turned(letters, rows, cols, image), rows, cols)[0] == canonical


def test_the_builder_rebuilds_a_board(tmp_path: object) -> None:
    from pathlib import Path

    out = Path(str(tmp_path)) / "book.json"
    assert main(["--boards", "3x5", "--modes", "simple", "--memory", "64", "--out", str(out)]) == 0
    built = read_book(out.read_text(encoding="utf-8"))
    assert built["simple 3x5"] == BOOK["simple 3x5"]


def test_the_builder_goes_level_by_level_so_a_stopped_build_keeps_the_openings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every solve, entry or quick test, is of a position with no more empty cells than the
    # one before: a build stopped anywhere has all the entries above that level, both seats'.
    from sosgame.research import book_build

    levels: list[int] = []
    real = book_build.solve

    def noted(game: Game, **options: Any) -> Any:
        levels.append(game.position().count("."))
        return real(game, **options)

    monkeypatch.setattr(book_build, "solve", noted)
    entries = book_build.BookBuilder(3, 5, "general", 64).build()
    assert entries == BOOK["general 3x5"]
    assert len(set(levels)) > 2 and levels == sorted(levels, reverse=True)


def test_a_save_during_a_build_keeps_the_known_entries_not_reached_yet(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pathlib import Path

    from sosgame.research import book_build

    shipped = dict(BOOK["general 3x5"])
    deep = {letters: entry for letters, entry in shipped.items() if letters.count(".") == 13}
    out = Path(str(tmp_path)) / "book.json"
    book_build._save(out, {"general 3x5": deep}, set())  # a build stopped after the deep ones
    saves: list[dict[str, Any]] = []
    real = book_build._save

    def noted(path: Path, boards: Any, complete: set[str]) -> None:
        saves.append({name: dict(entries) for name, entries in boards.items()})
        real(path, boards, complete)

    monkeypatch.setattr(book_build, "SAVE_EVERY", 1)
    monkeypatch.setattr(book_build, "_save", noted)
    arguments = ["--boards", "3x5", "--modes", "general", "--memory", "64", "--out", str(out)]
    assert book_build.main(arguments) == 0
    assert len(saves) > 2 and deep
    # The first save comes long before the walk reaches 13 empty cells.
    assert deep.items() <= saves[0]["general 3x5"].items()
    assert read_book(out.read_text(encoding="utf-8"))["general 3x5"] == shipped


def _certificate_file(tmp_path: Any, rows: int, cols: int, mode: str) -> Any:
    from pathlib import Path

    from sosgame.certify import write
    from sosgame.research.certificate import certificate

    path = Path(str(tmp_path)) / f"{rows}x{cols}-{mode}.json.gz"
    write(certificate(Game(rows, cols, mode=mode)), path)  # type: ignore[arg-type]
    return path


@pytest.mark.parametrize("mode", ["simple", "general"])
def test_certified_moves_are_exact_values_with_best_moves(tmp_path: Any, mode: str) -> None:
    from sosgame.certify import load
    from sosgame.research.book_build import certified_moves

    found = certified_moves(load(_certificate_file(tmp_path, 3, 4, mode)))
    assert "." * 12 in found
    for letters, (value, stored) in sorted(found.items())[:40]:
        game = Game.from_position(_board(letters, 3, 4), mode=mode)  # type: ignore[arg-type]
        fresh = solve(game)
        assert fresh.value == value, letters
        index = int(stored[1:])
        assert any(
            move.letter == stored[0] and move.cell == (index // 4, index % 4)
            for move in fresh.best_moves
        ), (letters, stored)


def test_a_build_from_a_certificate_needs_no_solve_for_one_seat(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pathlib import Path

    from sosgame.research import book_build

    source = _certificate_file(tmp_path, 3, 4, "simple")
    out = Path(str(tmp_path)) / "book.json"
    full: list[str] = []
    real = book_build.solve

    def noted(game: Game, **options: Any) -> Any:
        if options.get("node_limit") is None:  # not a quick test: a solve for an entry
            full.append(game.position())
        return real(game, **options)

    monkeypatch.setattr(book_build, "solve", noted)
    arguments = ["--boards", "3x4", "--modes", "simple", "--memory", "64", "--out", str(out)]
    assert book_build.main([*arguments, "--seats", "first", "--certificate", str(source)]) == 0
    assert full == []
    text = out.read_text(encoding="utf-8")
    built = read_book(text)["simple 3x4"]
    assert "." * 12 in built and "simple 3x4" not in json.loads(text)["complete"]
    for letters, (value, _) in built.items():
        assert letters.count(".") % 2 == 0  # the first player's positions only
        assert value == solve(Game.from_position(_board(letters, 3, 4), mode="simple")).value
    # Both seats: the second seat's entries need solves; the board is then complete.
    assert book_build.main([*arguments, "--again"]) == 0
    assert full and "simple 3x4" in json.loads(out.read_text(encoding="utf-8"))["complete"]


def test_a_certificate_of_another_board_is_refused(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    source = _certificate_file(tmp_path, 3, 4, "simple")
    with pytest.raises(SystemExit):
        main(["--boards", "3x5", "--modes", "simple", "--certificate", str(source)])
    assert "the certificate is of simple 3x4" in capsys.readouterr().err


@pytest.mark.parametrize("mode", ["simple", "general"])
def test_positions_above_the_pieces_of_a_split_solve_need_no_solve(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, mode: Mode
) -> None:
    from pathlib import Path

    from sosgame.research import book_build
    from sosgame.research.distribute import solve_split
    from sosgame.research.pieces import PieceStore

    store = Path(str(tmp_path)) / "solves"
    empty = Game(3, 4, mode=mode)
    solve_split(empty, 2, store, memory_mb=8, workers=1, progress=False, exact_pieces=True)
    lookup = book_build.from_pieces(PieceStore(store, 3, 4, mode), 2)
    for moves in ([], ["Ob2"], ["Sa1"]):
        game = Game(3, 4, mode=mode, moves=moves)
        fresh = solve(game)
        assert lookup(game) == (fresh.value, fresh.best_moves), game.position()
    assert lookup(Game(3, 4, mode=mode, moves=["Sa1", "Oc3"])) is None  # a piece itself
    pieces = sorted(path for path in store.glob("*/*.json") if not path.name.startswith("solved"))
    pieces[0].unlink()
    assert lookup(empty) is None  # a piece it needs is missing
    solve_split(empty, 2, store, memory_mb=8, workers=1, progress=False, exact_pieces=True)

    full: list[int] = []
    real = book_build.solve

    def noted(game: Game, **options: Any) -> Any:
        if options.get("node_limit") is None:  # not a quick test: a solve for an entry
            full.append(game.position().count("."))
        return real(game, **options)

    monkeypatch.setattr(book_build, "solve", noted)
    monkeypatch.setattr(book_build, "FAST_NODES", 3_000)  # so that 3x4 needs entries
    out = Path(str(tmp_path)) / "book.json"
    arguments = ["--boards", "3x4", "--modes", mode, "--memory", "64", "--out", str(out)]
    assert book_build.main([*arguments, "--pieces", "2", "--store", str(store)]) == 0
    built = read_book(out.read_text(encoding="utf-8"))[f"{mode} 3x4"]
    # The empty board and the second seat's first positions come from the pieces.
    assert "." * 12 in built and any(letters.count(".") == 11 for letters in built)
    assert full and all(empty_cells <= 10 for empty_cells in full)
    for letters, (value, _) in built.items():
        assert solve(Game.from_position(_board(letters, 3, 4), mode=mode)).value == value


def test_a_walk_until_some_empty_cells_has_the_entries_above_them(tmp_path: Any) -> None:
    from pathlib import Path

    from sosgame.research import book_build

    shipped = BOOK["general 3x5"]
    above = {letters: entry for letters, entry in shipped.items() if letters.count(".") >= 14}
    assert 0 < len(above) < len(shipped)
    assert book_build.BookBuilder(3, 5, "general", 64).build(until=14) == above
    out = Path(str(tmp_path)) / "book.json"
    arguments = ["--boards", "3x5", "--modes", "general", "--memory", "64", "--out", str(out)]
    assert main([*arguments, "--until", "14"]) == 0
    text = out.read_text(encoding="utf-8")
    assert read_book(text)["general 3x5"] == above
    assert "general 3x5" not in json.loads(text)["complete"]


def test_a_certificate_that_does_not_hold_is_refused_before_the_build(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    from sosgame.certify import load, write

    source = _certificate_file(tmp_path, 3, 4, "simple")
    document = load(source)
    document["value"] = 1  # 3x4 simple is a draw
    write(document, source)
    out = tmp_path / "book.json"
    arguments = ["--boards", "3x4", "--modes", "simple", "--out", str(out)]
    with pytest.raises(SystemExit):
        main([*arguments, "--certificate", str(source)])
    assert "no entry proves the root's value 1" in capsys.readouterr().err
    source.write_text("not json", encoding="utf-8")
    with pytest.raises(SystemExit):
        main([*arguments, "--certificate", str(source)])
    assert "cannot read certificate" in capsys.readouterr().err
    assert not out.exists()


def test_the_builder_writes_the_book_the_players_read() -> None:
    from sosgame.research.book_build import BOOK_PATH

    shipped = resources.files("sosgame.ai").joinpath("book.json")
    assert BOOK_PATH.resolve() == Path(str(shipped)).resolve()
    assert BOOK_PATH.is_file()
