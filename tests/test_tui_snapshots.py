"""Snapshots of the full-screen game's main screens, so that layout changes show in review.

The pictures live in tests/snapshots/; after a deliberate change of layout, look at the new
pictures and accept them with ``pytest tests/test_tui_snapshots.py --snapshot-update``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pytest_textual_snapshot")

from pytest_textual_snapshot import SVGImageExtension
from textual.pilot import Pilot

from sosgame import Game
from sosgame.i18n import default_name, translator
from sosgame.table import Seat
from sosgame.tui.app import SosApp
from sosgame.tui.screens.setup import Settings
from sosgame.tui.session import Session

SNAPSHOTS = Path(__file__).parent / "snapshots"
SIZE = (100, 32)
Compare = Callable[..., bool]


@pytest.fixture(autouse=True)
def _snapshots_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    def dirname(cls: type, *, test_location: Any) -> str:
        return str(SNAPSHOTS / test_location.basename)

    monkeypatch.setattr(SVGImageExtension, "dirname", classmethod(dirname))


def game_app(game: Game, *, kinds: tuple[str, ...] = (), language: str = "en") -> SosApp:
    names = ["Ann", "Bảo", "Chi", "Dũng"][: game.players]
    kinds = kinds or ("person",) * game.players
    seats = [Seat(name, kind) for name, kind in zip(names, kinds, strict=True)]
    return SosApp(session=Session(game, seats), language=language, computer_delay=0, seed=1)


def test_new_game_screen(snap_compare: Compare) -> None:
    settings = Settings(players=3, kinds=["person", "person", "easy"])
    assert snap_compare(SosApp(settings=settings), terminal_size=SIZE)


def test_game_with_an_extra_turn(snap_compare: Compare) -> None:
    game = Game(5, 5, moves=["Sa1", "Ob1", "Sc1", "Oc2", "Sc3", "Ob3"])
    assert game.extra_turn is False
    game.play("Sa3")  # S-O-S across row 3: Ann moves again
    assert game.extra_turn
    assert snap_compare(game_app(game), terminal_size=SIZE)


def test_finished_four_player_game_in_vietnamese(snap_compare: Compare) -> None:
    game = Game(4, 4, players=4)
    for cell in game.empty_cells():
        game.play(("S" if (cell.row + cell.col) % 2 == 0 else "O") + str(cell))
    assert game.is_over
    assert snap_compare(game_app(game, language="vi"), terminal_size=SIZE)


def test_help_screen_in_hindi(snap_compare: Compare) -> None:
    assert snap_compare(game_app(Game(3, 3), language="hi"), press=["f1"], terminal_size=SIZE)


def test_replay_screen(snap_compare: Compare) -> None:
    game = Game(3, 3, moves=["Sa1", "Ob1", "Sc1", "Ob2", "Sb3", "Oa2"])

    async def back_two(pilot: Pilot[int]) -> None:
        await pilot.press("p", "left", "left")

    assert snap_compare(game_app(game), run_before=back_two, terminal_size=SIZE)


def test_large_board_on_a_small_terminal(snap_compare: Compare) -> None:
    assert snap_compare(game_app(Game(15, 15)), terminal_size=(80, 24))


def test_new_game_screen_at_60x20(snap_compare: Compare) -> None:
    settings = Settings(players=3, kinds=["person", "easy", "perfect"])
    assert snap_compare(SosApp(settings=settings), terminal_size=(60, 20))


def test_8x8_board_at_80x24_after_a_line_on_row_8(snap_compare: Compare) -> None:
    game = Game(8, 8, moves=["Sh6", "Oa1", "Sh8"])

    async def finish_the_line(pilot: Pilot[int]) -> None:
        await pilot.press(*["j"] * 6, *["l"] * 7, "o")  # Oh7: S-O-S down column h

    assert snap_compare(game_app(game), run_before=finish_the_line, terminal_size=(80, 24))


def test_26x26_board_at_80x24_scrolled_to_its_far_corner(snap_compare: Compare) -> None:
    game = Game(26, 26, moves=["Sz24", "Oa1", "Sz26", "Ob1"])

    async def to_the_corner(pilot: Pilot[int]) -> None:
        await pilot.press(*["j"] * 24, *["l"] * 25, "o")  # Oz25 makes a line

    assert snap_compare(game_app(game), run_before=to_the_corner, terminal_size=(80, 24))


def test_8x8_game_at_60x20(snap_compare: Compare) -> None:
    game = Game(8, 8, moves=["Sa1", "Ob1", "Sc1"])
    assert snap_compare(game_app(game), terminal_size=(60, 20))


def test_10x10_game_at_50x24_with_the_panel_under_the_board(snap_compare: Compare) -> None:
    game = Game(10, 10, moves=["Sa1", "Ob1"])
    assert snap_compare(game_app(game), terminal_size=(50, 24))


def test_a_question_wraps_in_its_dialog_at_60x20_in_hindi(snap_compare: Compare) -> None:
    async def leave_unsaved(pilot: Pilot[int]) -> None:
        await pilot.press("s", "n")
        await pilot.pause()
        await pilot.press("enter")

    app = game_app(Game(5, 5), language="hi")
    assert snap_compare(app, run_before=leave_unsaved, terminal_size=(60, 20))


def test_a_terminal_too_small_says_so(snap_compare: Compare) -> None:
    assert snap_compare(game_app(Game(8, 8)), terminal_size=(40, 12))


def test_four_players_at_80x24_keep_their_moves_in_view(snap_compare: Compare) -> None:
    game = Game(12, 12, players=4, moves=["Sa1", "Ob1", "Od4", "Se5", "Sf6"])
    game.play("Sc1")  # an extra turn for the second seat
    assert snap_compare(game_app(game), terminal_size=(80, 24))


def test_the_new_game_screen_with_a_rectangle_and_the_focus_on_its_columns(
    snap_compare: Compare,
) -> None:
    async def rectangle(pilot: Pilot[int]) -> None:
        await pilot.press("tab", "space")
        await pilot.pause()

    app = SosApp(settings=Settings(players=2))
    assert snap_compare(app, run_before=rectangle, terminal_size=(80, 24))


def computer_at_the_last_seat(players: int, language: str) -> SosApp:
    t = translator(language)
    kinds = ["person"] * (players - 1) + ["perfect"]
    seats = [Seat(default_name(t, n, computer=k != "person"), k) for n, k in enumerate(kinds)]
    game = Game(8, 8, players=players)
    return SosApp(session=Session(game, seats), language=language, computer_delay=0, seed=1)


@pytest.mark.parametrize(
    ("players", "language", "size"),
    [(8, "en", (80, 24)), (2, "vi", (100, 30)), (5, "hi", (80, 24)), (2, "en", (60, 20))],
)
def test_a_computer_seat_s_label_stays_whole(
    snap_compare: Compare, players: int, language: str, size: tuple[int, int]
) -> None:
    assert snap_compare(computer_at_the_last_seat(players, language), terminal_size=size)
