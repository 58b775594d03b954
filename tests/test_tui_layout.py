"""The full-screen game's layout at the sizes terminals have, with 2 to 8 players and in every
language: each control on screen, no label broken over two lines, dialogs covering the game.

Checked on the widgets' regions and on the text the screen shows (the same composition that
Textual's screenshots draw), so that a failure names the control and the size.
"""

from __future__ import annotations

import io

import pytest

pytest.importorskip("textual")

from rich.cells import cell_len
from rich.console import Console
from textual.app import App
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Input, Static

from sos_sample import sampled
from sos_tui import play, run_at
from sosgame import Game, Move
from sosgame.i18n import default_name, translator
from sosgame.table import Seat
from sosgame.tui.app import SosApp
from sosgame.tui.screens.confirm import ConfirmDialog
from sosgame.tui.screens.game import GameScreen
from sosgame.tui.screens.setup import Settings, SetupScreen
from sosgame.tui.session import Session
from sosgame.tui.widgets.board import Board

CONTROLS = ("board", "turn", "scores", "write-s", "write-o", "moves", "keys")
"""Every control of the game screen that its help names."""


def lines_of(widget: Widget) -> list[str]:
    strips = widget.render_lines(widget.size.region)
    return ["".join(segment.text for segment in strip).rstrip() for strip in strips]


def screen_text(app: App[object]) -> list[str]:
    """The whole screen as text, as a screenshot draws it."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True)
    composed = app.screen._compositor.render_update(full=True, screen_stack=app._background_screens)
    console.print(composed)
    return console.export_text(styles=False).splitlines()


def outside(line: str, start: int, end: int) -> str:
    """The characters of ``line`` drawn outside the cells ``start`` to ``end``."""
    kept, cell = [], 0
    for character in line:
        if not start <= cell < end:
            kept.append(character)
        cell += cell_len(character)
    return "".join(kept)


def game_with_a_computer(players: int, language: str, level: str = "perfect") -> SosApp:
    """Default names, as a new game has them; the last seat a computer (not to move)."""
    t = translator(language)
    kinds = ["person"] * (players - 1) + [level]
    seats = [
        Seat(default_name(t, seat, computer=kind != "person"), kind)
        for seat, kind in enumerate(kinds)
    ]
    session = Session(Game(8, 8, players=players), seats)
    return SosApp(session=session, language=language, computer_delay=0, seed=5)


def inside(region: Region, size: tuple[int, int]) -> bool:
    width, height = size
    return (
        region.width > 0
        and region.height > 0
        and Region(0, 0, width, height).contains_region(region)
    )


@pytest.mark.parametrize("language", ["en", "vi", "hi"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 8])
@pytest.mark.parametrize("size", sampled([(80, 24), (100, 30), (120, 40)], fast=[(80, 24)]))
def test_every_control_is_on_screen_and_the_computer_s_label_on_one_line(
    language: str, players: int, size: tuple[int, int]
) -> None:
    t = translator(language)
    tag = t("tui.level.perfect")

    async def script(pilot: Pilot[int]) -> None:
        current = pilot.app.screen
        for name in CONTROLS:
            widget = current.query_one(f"#{name}")
            assert widget.display and inside(widget.region, size), (name, widget.region)
        shown = lines_of(current.query_one("#scores"))
        assert any(tag in line for line in shown), shown  # the whole phrase on one line
        assert len(shown) <= players + 1 + 1  # the heading, a row a seat, the tag's own line
        keys = " ".join(lines_of(current.query_one("#keys")))
        assert "F4" in keys and t("tui.key.puzzles") in keys

    run_at(game_with_a_computer(players, language), size, script)


@pytest.mark.parametrize(("language", "size"), [("en", (60, 20)), ("vi", (100, 30))])
@pytest.mark.parametrize("level", ["random", "medium", "perfect"])
def test_the_computer_s_label_never_wraps_mid_phrase(
    language: str, size: tuple[int, int], level: str
) -> None:
    tag = translator(language)(f"tui.level.{level}")

    async def script(pilot: Pilot[int]) -> None:
        scores = pilot.app.screen.query_one("#scores")
        assert any(tag in line for line in lines_of(scores))
        for name in ("write-s", "write-o"):
            assert inside(pilot.app.screen.query_one(f"#{name}").region, size), name

    run_at(game_with_a_computer(2, language, level), size, script)


def test_eight_players_with_an_extra_turn_keep_the_letter_buttons_at_80x24() -> None:
    game = Game(8, 8, players=8, moves=["Sa1", "Ob1"])
    game.play("Sc1")  # an extra turn: its box takes more lines
    assert game.extra_turn
    seats = [Seat(f"P{seat + 1}") for seat in range(8)]
    app = SosApp(session=Session(game, seats), computer_delay=0, seed=5)

    async def script(pilot: Pilot[int]) -> None:
        current = pilot.app.screen
        assert isinstance(current, GameScreen)
        for name in CONTROLS:
            widget = current.query_one(f"#{name}")
            assert widget.display and inside(widget.region, (80, 24)), (name, widget.region)
        board = current.query_one("#board", Board)
        board.cursor = Move.parse("Od4").cell
        await pilot.click("#write-o")  # the button works where it is
        await pilot.pause()
        assert str(current.session.game.actions[-1]) == "Od4"

    run_at(app, (80, 24), script)


@pytest.mark.parametrize("language", ["en", "vi", "hi"])
@pytest.mark.parametrize("size", sampled([(60, 20), (80, 24), (120, 40)], fast=[(80, 24)]))
def test_a_dialog_covers_the_game_under_it(language: str, size: tuple[int, int]) -> None:
    async def script(pilot: Pilot[int]) -> None:
        await play(pilot, "Sa1")
        await pilot.press("q")  # moves not saved: it asks first
        await pilot.pause()
        assert isinstance(pilot.app.screen, ConfirmDialog)
        dialog = pilot.app.screen.query_one(".dialog").region
        for y, line in enumerate(screen_text(pilot.app)):
            across = (dialog.x, dialog.right) if dialog.y <= y < dialog.bottom else (0, 0)
            assert not outside(line, *across).strip(), (y, line)

    run_at(game_with_a_computer(2, language), size, script)


@pytest.mark.parametrize("language", ["en", "vi", "hi"])
def test_the_help_names_f4_for_the_puzzles(language: str) -> None:
    t = translator(language)

    async def script(pilot: Pilot[int]) -> None:
        await pilot.press("f1")
        await pilot.pause()
        body = "\n".join(str(widget.render()) for widget in pilot.app.screen.query(Static))
        line = next(line for line in body.splitlines() if "F4" in line)
        assert t("tui.key.puzzles") in line

    run_at(game_with_a_computer(2, language), (100, 40), script)


def test_the_new_game_screen_clears_its_error_once_the_value_is_corrected() -> None:
    app = SosApp(settings=Settings(players=2), computer_delay=0)

    async def script(pilot: Pilot[int]) -> None:
        assert isinstance(pilot.app.screen, SetupScreen)
        rows = pilot.app.screen.query_one("#rows", Input)
        rows.value = "99"
        await pilot.press("enter")
        await pilot.pause()
        error = pilot.app.screen.query_one("#setup-error", Static)
        assert "whole number" in str(error.render())
        rows.value = "5"
        await pilot.pause()
        assert str(error.render()).strip() == ""
        name = pilot.app.screen.query_one("#name-1", Input)
        name.value = pilot.app.screen.query_one("#name-0", Input).value
        await pilot.press("enter")
        await pilot.pause()
        assert "Player 1" in str(error.render())
        name.value = "Bao"
        await pilot.pause()
        assert str(error.render()).strip() == ""

    run_at(app, (100, 32), script)


@pytest.mark.parametrize("language", ["vi", "hi"])
def test_ctrl_c_says_how_to_quit_in_the_game_s_language(language: str) -> None:
    t = translator(language)

    async def script(pilot: Pilot[int]) -> None:
        await pilot.press("ctrl+c")
        await pilot.pause()
        notes = list(pilot.app._notifications)
        assert notes, "no notice"
        assert notes[-1].title == t("tui.quit_title")
        assert "Do you want to quit" not in notes[-1].title
        quit_keys = [
            key
            for key, active in pilot.app.active_bindings.items()
            if "quit" in active.binding.action
        ]
        assert notes[-1].message in {t("tui.quit_how", shortcut=key) for key in quit_keys}

    run_at(game_with_a_computer(2, language), (80, 24), script)
