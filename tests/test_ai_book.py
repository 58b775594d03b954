"""The opening book of ``perfect``: entries agree with fresh solves, in every orientation."""

from __future__ import annotations

import random
from importlib import resources
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sosgame import Game
from sosgame.ai import make_player
from sosgame.ai.book import _book, book_entry, book_key, canonical_board, read_book
from sosgame.ai.book_build import BOOK_BOARDS, main
from sosgame.solver import solve
from sosgame.solver.symmetry import symmetries

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
    assert len(source.read_bytes()) < 300_000
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


@pytest.mark.parametrize(("mode", "rows", "cols"), [("general", 4, 5), ("simple", 5, 4)])
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
    from sosgame.ai import book_build

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

    from sosgame.ai import book_build

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
