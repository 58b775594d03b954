"""The full-screen game's forms, dialogs and room on screen: what a person reads and where the
keyboard is, at the sizes terminals have."""

from __future__ import annotations

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Checkbox, Input, Label, Select, Static

from sos_sample import sampled
from sos_tui import app_for, play, run_at, screen, settle, text_of
from sosgame import Cell, Game, Move
from sosgame.i18n import translator
from sosgame.table import Seat
from sosgame.tui.app import SosApp
from sosgame.tui.screens.confirm import ConfirmDialog
from sosgame.tui.screens.game import GameScreen
from sosgame.tui.screens.setup import Settings, SetupScreen
from sosgame.tui.session import Session

EN, VI, HI = translator("en"), translator("vi"), translator("hi")


def lines_of(widget: Widget) -> list[str]:
    """What ``widget`` shows, line by line, as plain text."""
    strips = widget.render_lines(widget.size.region)
    return ["".join(segment.text for segment in strip).rstrip() for strip in strips]


def reversed_video(widget: Widget) -> bool:
    return bool(widget.styles.text_style.reverse)


@pytest.mark.parametrize("width", sampled([60, 80, 100], fast=[60]))
@pytest.mark.parametrize("language", ["en", "vi", "hi"])
def test_a_dialogs_question_wraps_whole_at_any_width_from_60(width: int, language: str) -> None:
    t = translator(language)

    async def script(pilot: Pilot[int]) -> None:
        await play(pilot, "Sa1")
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("enter")  # start a new game over the unsaved move: it asks first
        await pilot.pause()
        assert isinstance(pilot.app.screen, ConfirmDialog)
        question = pilot.app.screen.query_one("#question", Label)
        shown = lines_of(question)
        assert " ".join(" ".join(shown).split()) == t("tui.confirm_leave")
        assert question.region.right <= width

    run_at(app_for(Game(5, 5), language=language), (width, 24), script)


def test_the_new_game_screen_starts_on_the_size_and_enter_starts_the_typed_game() -> None:
    async def script(pilot: Pilot[int]) -> None:
        setup = pilot.app.screen
        assert isinstance(setup, SetupScreen)
        rows = setup.query_one("#rows", Input)
        assert pilot.app.focused is rows
        await pilot.press("1", "2")  # the 5 there is selected: typing replaces it
        assert rows.value == "12"
        await pilot.press("tab", "space")  # Rectangular, checked: on to the columns
        await pilot.pause()
        assert pilot.app.focused is setup.query_one("#cols", Input)
        await pilot.press("7")
        await pilot.press("tab")  # back to the check box, which Enter does not toggle
        assert isinstance(pilot.app.focused, Checkbox)
        await pilot.press("tab")  # the game's mode: a list, which Enter does not open
        assert isinstance(pilot.app.focused, Select)
        await pilot.press("enter")
        await pilot.pause()
        game = screen(pilot).session.game
        assert (game.rows, game.cols) == (12, 7)

    run_at(SosApp(computer_delay=0), (100, 32), script)


def test_an_open_list_takes_enter_to_choose() -> None:
    async def script(pilot: Pilot[int]) -> None:
        setup = pilot.app.screen
        await pilot.press("tab", "tab", "space")  # open the list of modes
        await pilot.pause()
        mode = setup.query_one("#mode", Select)
        assert mode.expanded
        await pilot.press("down", "enter")  # choose the second mode: the game waits
        await pilot.pause()
        assert pilot.app.screen is setup and not mode.expanded
        assert mode.value == "simple"
        await pilot.press("enter")
        await pilot.pause()
        assert screen(pilot).session.game.mode == "simple"

    run_at(SosApp(computer_delay=0), (100, 32), script)


def test_a_check_box_shows_a_tick_only_when_checked() -> None:
    async def script(pilot: Pilot[int]) -> None:
        box = pilot.app.screen.query_one("#rectangular", Checkbox)
        assert not box.value
        assert lines_of(box)[0].startswith("▐ ▌")
        box.value = True
        await pilot.pause()
        assert lines_of(box)[0].startswith("▐✓▌")

    run_at(SosApp(computer_delay=0), (100, 32), script)


def test_the_focused_field_and_its_label_are_in_reverse_video() -> None:
    async def script(pilot: Pilot[int]) -> None:
        setup = pilot.app.screen
        size_label = setup.query_one("#size-label", Label)
        mode_label = setup.query_one("#mode-label", Label)
        assert reversed_video(setup.query_one("#rows", Input)) and reversed_video(size_label)
        assert not reversed_video(mode_label)
        await pilot.press("tab", "tab")
        await pilot.pause()
        assert pilot.app.focused is setup.query_one("#mode", Select)
        assert reversed_video(mode_label) and not reversed_video(size_label)
        assert not reversed_video(setup.query_one("#rows", Input))
        await pilot.press("tab", "tab")  # the players, then the first seat's name
        await pilot.pause()
        badge = setup.query_one("#seat-0 .seat-badge", Label)
        assert reversed_video(setup.query_one("#name-0", Input)) and reversed_video(badge)

    run_at(SosApp(settings=Settings(players=3), computer_delay=0), (100, 32), script)


def test_a_terminal_too_small_says_so_and_the_game_comes_back() -> None:
    async def script(pilot: Pilot[int]) -> None:
        current = screen(pilot)
        note = current.query_one("#too-small", Static)
        assert note.display and not current.query_one("#main").display
        assert EN("tui.too_small", width=40, height=16, now="40x12") in text_of(pilot, "#too-small")
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not note.display and current.query_one("#main").display
        assert current.board.in_view(Cell(0, 0))

    run_at(app_for(Game(8, 8)), (40, 12), script)


def test_the_view_follows_the_computers_move_and_m_jumps_to_the_last_move() -> None:
    class FarCorner:
        """A computer player that answers in the corner farthest from a1."""

        def choose_move(self, game: Game) -> Move:
            return Move.parse("Oz26")

    app = app_for(Game(26, 26), ("person", "easy"))
    app.player = lambda level: FarCorner()  # type: ignore[method-assign,assignment,return-value]

    async def script(pilot: Pilot[int]) -> None:
        await play(pilot, "Sa1")
        await settle(pilot)
        board = screen(pilot).board
        assert screen(pilot).session.game.last_move == Move.parse("Oz26")
        assert board.in_view(Cell(25, 25)) and board.cursor == Cell(25, 25)
        await pilot.press(*["k"] * 25, *["h"] * 25)
        assert not board.in_view(Cell(25, 25))
        await pilot.press("m")
        assert board.cursor == Cell(25, 25) and board.in_view(Cell(25, 25))
        assert EN("tui.last_move", move="Oz26", name="Bao") in text_of(pilot, "#message")

    run_at(app, (80, 24), script)


def test_m_before_any_move_says_there_is_none() -> None:
    async def script(pilot: Pilot[int]) -> None:
        await pilot.press("m")
        assert EN("tui.no_last_move") in text_of(pilot, "#message")
        assert screen(pilot).board.cursor == Cell(0, 0)

    run_at(app_for(Game(5, 5)), (80, 24), script)


@pytest.mark.parametrize("size", [8, 12])
def test_the_moves_keep_a_place_with_four_players_at_80x24(size: int) -> None:
    game = Game(size, size, players=4, moves=["Sa1", "Ob1", "Od4", "Se5", "Sf6"])
    game.play("Sc1")  # an extra turn: its box takes more lines

    async def script(pilot: Pilot[int]) -> None:
        current = screen(pilot)
        moves = current.query_one("#moves")
        assert moves.display and moves.region.height >= 4
        assert moves.region.bottom <= 24 - 2  # above the keys
        assert "Sc1" in "\n".join(lines_of(moves))

    run_at(app_for(game, ("person",) * 4), (80, 24), script)


def test_default_names_follow_the_language_and_chosen_names_stay() -> None:
    seats = [Seat(EN("player", number=1)), Seat("Ann"), Seat(EN("tui.computer", number=3), "easy")]
    app = SosApp(session=Session(Game(5, 5, players=3), seats), computer_delay=0)

    async def script(pilot: Pilot[int]) -> None:
        await pilot.press("L")
        await pilot.pause()
        current = pilot.app.screen
        assert isinstance(current, GameScreen)
        assert current.session.names == [
            VI("player", number=1),
            "Ann",
            VI("tui.computer", number=3),
        ]
        assert VI("player", number=1) in text_of(pilot, "#scores")
        await pilot.press("L")
        await pilot.pause()
        assert current.session.names == [
            HI("player", number=1),
            "Ann",
            HI("tui.computer", number=3),
        ]

    run_at(app, (100, 32), script)
