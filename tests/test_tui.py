"""The full-screen game, driven by real key presses and clicks through Textual's Pilot."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

pytest.importorskip("textual")

from textual.pilot import Pilot
from textual.widgets import Input, RichLog, Select, Static

from sos_sample import sampled
from sos_tui import app_for, drive, play, run_at, screen, settle, text_of
from sosgame import Cell, Game, Move, Termination
from sosgame.i18n import translator
from sosgame.limits import BOARD_MAX_SIDE, BOARD_MIN_LONG_SIDE, BOARD_MIN_SIDE, NAME_MAX
from sosgame.record import Record, load, save
from sosgame.table import Seat
from sosgame.tui.app import SosApp
from sosgame.tui.screens.game import GameScreen
from sosgame.tui.screens.replay import ReplayScreen
from sosgame.tui.screens.setup import Settings, SetupScreen
from sosgame.tui.screens.text import HelpScreen, RulesScreen

EN, VI, HI = translator("en"), translator("vi"), translator("hi")
BAD_BOARD = EN("tui.bad_board", low=BOARD_MIN_SIDE, high=BOARD_MAX_SIDE, line=BOARD_MIN_LONG_SIDE)

# A whole 3x3 game between two people: the third move scores, so Ann moves again.
WHOLE_GAME = ["Sa1", "Ob1", "Sc1", "Ob2", "Sb3", "Oa2", "Sc2", "Oa3", "Oc3"]


def test_two_people_play_a_whole_game_to_the_result() -> None:
    async def script(pilot: Pilot[int]) -> None:
        for move in WHOLE_GAME:
            await play(pilot, move)
        game = screen(pilot).session.game
        assert game == Game(3, 3, moves=WHOLE_GAME)
        assert game.outcome is not None and game.outcome.termination is Termination.FULL_BOARD
        reason = EN("reason.full-board")
        winner = EN("winner", name="Ann", reason=reason)
        assert winner in text_of(pilot, "#turn")
        assert pilot.app.screen.query_one("#turn").has_class("over")
        moves = text_of(pilot, "#moves")
        assert all(move in moves for move in WHOLE_GAME)

    drive(app_for(Game(3, 3)), script)


def test_an_extra_turn_is_announced_and_the_same_player_moves_again() -> None:
    async def script(pilot: Pilot[int]) -> None:
        for move in WHOLE_GAME[:2]:
            await play(pilot, move)
        assert not pilot.app.screen.query_one("#turn").has_class("extra")
        await play(pilot, "Sc1")
        turn = text_of(pilot, "#turn")
        assert EN("tui.extra_turn") in turn
        assert EN("extra_turn", name="Ann", count=1, lines="a1-b1-c1") in turn
        assert pilot.app.screen.query_one("#turn").has_class("extra")
        assert screen(pilot).session.game.turn == 0
        await play(pilot, "Ob2")  # a quiet move passes the turn and ends the notice
        assert not pilot.app.screen.query_one("#turn").has_class("extra")
        assert EN("to_move", name="Bao") in text_of(pilot, "#turn")

    drive(app_for(Game(3, 3)), script)


def test_a_game_against_the_random_computer_to_the_end() -> None:
    from sosgame.ai import make_player

    async def script(pilot: Pilot[int]) -> None:
        session = screen(pilot).session
        game = session.game
        while not game.is_over:
            assert game.turn == 0
            await play(pilot, str(next(iter(game.legal_moves))))
            await settle(pilot)
            # Every computer reply is what the seeded player chooses in that position.
            replay = Game(3, 3)
            for step in game.moves:
                if replay.turn == 1:
                    assert make_player("random", seed=5).choose_move(replay) == step
                replay.play(step)
            assert replay == game
        assert game.outcome is not None
        assert "computer, random" in text_of(pilot, "#scores")

    drive(app_for(Game(3, 3), ("person", "random")), script)


def test_the_computer_moves_first_when_it_starts() -> None:
    async def script(pilot: Pilot[int]) -> None:
        await settle(pilot)
        game = screen(pilot).session.game
        assert game.ply >= 1
        assert game.turn == 1 or game.is_over

    drive(app_for(Game(4, 4), ("easy", "person")), script)


def test_undo_and_redo_step_through_the_history_and_a_new_move_clears_redo() -> None:
    async def script(pilot: Pilot[int]) -> None:
        for move in WHOLE_GAME[:3]:
            await play(pilot, move)
        game = screen(pilot).session.game
        await pilot.press("u", "u")
        assert game == Game(3, 3, moves=WHOLE_GAME[:1])
        await pilot.press("r")
        assert game == Game(3, 3, moves=WHOLE_GAME[:2])
        assert EN("tui.redone", action="Ob1") in text_of(pilot, "#message")
        await play(pilot, "Oc3")  # a new move: what was undone cannot come back
        after = game.copy()
        await pilot.press("r")
        assert game == after
        assert EN("tui.nothing_to_redo") in text_of(pilot, "#message")
        await pilot.press("u", "u", "u", "u")
        assert game == Game(3, 3)
        assert EN("nothing_to_undo") in text_of(pilot, "#message")

    drive(app_for(Game(3, 3)), script)


def test_undo_against_a_computer_goes_back_to_the_person() -> None:
    async def script(pilot: Pilot[int]) -> None:
        await play(pilot, "Sa1")
        await settle(pilot)
        game = screen(pilot).session.game
        assert game.ply >= 2
        await pilot.press("u")
        await settle(pilot)
        assert game == Game(4, 4)  # the computer's reply and the person's move, both back
        await pilot.press("r")
        await settle(pilot)
        assert game.moves[0] == Move.parse("Sa1") and game.turn == 0

    drive(app_for(Game(4, 4), ("person", "easy")), script)


def test_save_then_load_and_continue(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    path = Path("g.json")

    async def save_script(pilot: Pilot[int]) -> None:
        for move in WHOLE_GAME[:4]:
            await play(pilot, move)
        await pilot.press("ctrl+s")
        await pilot.pause()
        field = pilot.app.screen.query_one("#file", Input)
        field.value = ""
        await pilot.press(*str(path), "enter")
        await pilot.pause()
        assert EN("saved", path=str(path)) in text_of(pilot, "#message")

    drive(app_for(Game(3, 3)), save_script)
    record = load(path)
    assert record.players == ["Ann", "Bao"]
    assert record.meta["tags"] == {"sosgame.seats": "person,person"}
    assert record.to_game() == Game(3, 3, moves=WHOLE_GAME[:4])

    async def load_script(pilot: Pilot[int]) -> None:
        await pilot.press("ctrl+o")
        await pilot.pause()
        pilot.app.screen.query_one("#file", Input).value = str(path)
        await pilot.press("enter")
        await pilot.pause()
        current = screen(pilot)
        assert current.session.game == Game(3, 3, moves=WHOLE_GAME[:4])
        assert current.session.names == ["Ann", "Bao"]
        assert EN("tui.loaded", path=str(path), count=4) in text_of(pilot, "#message")
        await play(pilot, WHOLE_GAME[4])
        assert current.session.game == Game(3, 3, moves=WHOLE_GAME[:5])

    drive(app_for(Game(5, 5)), load_script)


def test_a_record_that_cannot_be_read_changes_nothing(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "sosgame-record/1"}', encoding="utf-8")

    async def script(pilot: Pilot[int]) -> None:
        await play(pilot, "Sa1")
        before = screen(pilot).session.game.copy()
        await pilot.press("ctrl+o")
        await pilot.pause()
        pilot.app.screen.query_one("#file", Input).value = str(bad)
        await pilot.press("enter")
        await pilot.pause()
        assert screen(pilot).session.game == before
        assert "no field 'rows'" in text_of(pilot, "#message")

    drive(app_for(Game(3, 3)), script)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[" * 100_000, "more than 5 deep"),
        ('{"a":' * 5_000 + "1" + "}" * 5_000, "more than 5 deep"),
        (None, "not a regular file"),
    ],
    ids=["lists", "objects", "device"],
)
def test_a_deep_or_endless_file_is_refused_and_the_game_goes_on(
    tmp_path: Path, text: str | None, words: str
) -> None:
    path = tmp_path / "deep.json"
    if text is not None:
        path.write_text(text, encoding="utf-8")

    async def script(pilot: Pilot[int]) -> None:
        await play(pilot, "Sa1")
        before = screen(pilot).session.game.copy()
        await pilot.press("ctrl+o")
        await pilot.pause()
        chosen = str(path) if text is not None else "/dev/zero"
        pilot.app.screen.query_one("#file", Input).value = chosen
        await pilot.press("enter")
        await pilot.pause()
        assert screen(pilot).session.game == before
        assert words in text_of(pilot, "#message")
        await play(pilot, "Ob1")
        assert screen(pilot).session.game == Game(3, 3, moves=["Sa1", "Ob1"])

    drive(app_for(Game(3, 3)), script)


def test_replay_steps_forward_back_and_jumps_then_continues() -> None:
    async def script(pilot: Pilot[int]) -> None:
        for move in WHOLE_GAME[:5]:
            await play(pilot, move)
        await pilot.press("p")
        await pilot.pause()
        replay = pilot.app.screen
        assert isinstance(replay, ReplayScreen)
        assert replay.replay.game == Game(3, 3, moves=WHOLE_GAME[:5])
        await pilot.press("home")
        assert replay.replay.game == Game(3, 3)
        assert EN("tui.replay_title", ply=0, total=5) in text_of(pilot, "#title")
        await pilot.press("right", "right", "l")
        assert replay.replay.game == Game(3, 3, moves=WHOLE_GAME[:3])
        await pilot.press("left")
        assert replay.replay.game == Game(3, 3, moves=WHOLE_GAME[:2])
        await pilot.press("end")
        assert replay.replay.game == Game(3, 3, moves=WHOLE_GAME[:5])
        await pilot.press("right")  # past the end: nothing happens
        assert replay.replay.game == Game(3, 3, moves=WHOLE_GAME[:5])
        await pilot.press("end", "c")  # on from the end: nothing is lost, nothing asked
        await pilot.pause()
        assert screen(pilot).session.game == Game(3, 3, moves=WHOLE_GAME[:5])
        await pilot.press("p", "home", "right", "c")
        await pilot.pause()
        assert EN("tui.confirm_leave") in text_of(pilot, "#question")  # four moves would go
        await pilot.click("#yes")
        await pilot.pause()
        assert screen(pilot).session.game == Game(3, 3, moves=WHOLE_GAME[:1])

    drive(app_for(Game(3, 3)), script)


def test_play_on_from_a_replay_keeps_every_seats_kind() -> None:
    async def script(pilot: Pilot[int]) -> None:
        await play(pilot, "Sa1")
        await settle(pilot)
        assert screen(pilot).session.game.ply >= 2
        await pilot.press("p", "home", "right", "c")  # on from where the computer is to move
        await pilot.pause()
        await pilot.click("#yes")  # the computer's move would go
        await pilot.pause()
        await settle(pilot)
        session = screen(pilot).session
        assert [seat.kind for seat in session.seats] == ["person", "easy"]
        assert session.names == ["Ann", "Bao"]
        assert session.game.ply >= 2  # the computer moved again
        assert session.game.moves[0] == Move.parse("Sa1")

    drive(app_for(Game(4, 4), ("person", "easy")), script)


def test_replay_lists_a_resignation_as_the_game_does() -> None:
    async def script(pilot: Pilot[int]) -> None:
        await play(pilot, "Sa1")
        await pilot.press("x", "x")  # Bao resigns
        resigned = EN("resigned", name="Bao")
        assert resigned in text_of(pilot, "#moves")
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(pilot.app.screen, ReplayScreen)
        assert resigned in text_of(pilot, "#moves")

    drive(app_for(Game(3, 3)), script)


def test_replay_of_a_record_file_from_the_load_dialog(tmp_path: Path) -> None:
    path = tmp_path / "done.json"
    save(Record.from_game(Game(3, 3, moves=WHOLE_GAME), players=["Ann", "Bao"]), path)

    async def script(pilot: Pilot[int]) -> None:
        await pilot.press("ctrl+o")
        await pilot.pause()
        pilot.app.screen.query_one("#file", Input).value = str(path)
        await pilot.click("#replay")
        await pilot.pause()
        replay = pilot.app.screen
        assert isinstance(replay, ReplayScreen)
        assert replay.replay.ply == 0
        await pilot.press("end")
        assert replay.replay.game == Game(3, 3, moves=WHOLE_GAME)
        assert EN("winner", name="Ann", reason=EN("reason.full-board")) in text_of(pilot, "#turn")
        await pilot.press("escape")
        await pilot.pause()
        assert screen(pilot).session.game == Game(3, 3)

    drive(app_for(Game(3, 3)), script)


def test_the_language_switch_changes_every_text_and_nothing_else() -> None:
    async def script(pilot: Pilot[int]) -> None:
        await play(pilot, "Sa1")
        game = screen(pilot).session.game
        before = game.copy()
        header = {"mode": "general", "rows": 3, "cols": 3}
        assert text_of(pilot, "#title") == EN("tui.header", **header)
        await pilot.press("L")
        assert text_of(pilot, "#title") == VI(
            "tui.header", **{**header, "mode": VI("mode.general")}
        )
        assert VI("to_move", name="Bao") in text_of(pilot, "#turn")
        assert VI("tui.key.undo") in text_of(pilot, "#keys")
        await pilot.press("f3")
        assert text_of(pilot, "#title") == HI(
            "tui.header", **{**header, "mode": HI("mode.general")}
        )
        assert HI("tui.scores_heading") in text_of(pilot, "#scores")
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(pilot.app.screen, HelpScreen)
        assert HI("tui.key.redo") in text_of(pilot, "#page-text")
        await pilot.press("escape", "L")
        assert text_of(pilot, "#title") == EN("tui.header", **header)
        assert game == before

    drive(app_for(Game(3, 3)), script)


def test_bad_input_changes_nothing() -> None:
    async def script(pilot: Pilot[int]) -> None:
        await play(pilot, "Sb2")
        game = screen(pilot).session.game
        before = game.copy()
        await play(pilot, "Ob2")  # occupied
        assert game == before
        assert EN("occupied", cell="b2") in text_of(pilot, "#message")
        board = screen(pilot).board.picture()
        await pilot.press("z", "5", "ctrl+t", "%", "tab", "enter")
        await pilot.pause()
        assert game == before
        assert screen(pilot).board.picture() == board
        for _ in range(5):  # the cursor stops at the edge
            await pilot.press("up", "h")
        assert screen(pilot).board.cursor == Cell(0, 0)
        assert game == before

    drive(app_for(Game(3, 3)), script)


def test_moves_after_the_end_and_resigning_twice_change_nothing() -> None:
    async def script(pilot: Pilot[int]) -> None:
        await pilot.press("x")  # asks first
        game = screen(pilot).session.game
        assert game == Game(3, 3)
        assert EN("tui.confirm_resign", name="Ann") in text_of(pilot, "#message")
        await pilot.press("x")
        assert game.outcome is not None
        assert game.outcome.termination is Termination.RESIGNATION
        assert EN("winner", name="Bao", reason=EN("reason.resignation")) in text_of(pilot, "#turn")
        before = game.copy()
        await pilot.press("s", "x", "x", "r")
        assert game == before
        await pilot.press("u")  # a resignation can be taken back
        assert game == Game(3, 3)

    drive(app_for(Game(3, 3)), script)


def test_click_a_cell_then_choose_the_letter() -> None:
    async def script(pilot: Pilot[int]) -> None:
        board = screen(pilot).board
        # The board has a border and one column of padding; each cell is 4 characters wide,
        # after a margin of 2 for the row numbers, and rows are 2 apart below the letters.
        await pilot.click("#board", offset=(2 + 2 + 4 * 2 + 1, 1 + 1 + 2 * 1))
        await pilot.pause()
        assert board.cursor == Cell(1, 2)
        assert EN("tui.choose_letter", cell="c2") in text_of(pilot, "#message")
        await pilot.click("#write-o")
        await pilot.pause()
        assert screen(pilot).session.game == Game(3, 3, moves=["Oc2"])

    drive(app_for(Game(3, 3)), script)


def test_a_hint_marks_a_cell_and_plays_nothing() -> None:
    async def script(pilot: Pilot[int]) -> None:
        for move in WHOLE_GAME[:2]:
            await play(pilot, move)
        before = screen(pilot).session.game.copy()
        await pilot.press("i")
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        board = screen(pilot).board
        assert board.hint == Cell(0, 2)  # Sc1 completes a line, and the hint level sees it
        assert board.cursor == board.hint
        styles = {segment.style for segment in board.render_line(1) if segment.text.strip()}
        assert any(style and style.bgcolor and style.bgcolor.name == "#9ad0a8" for style in styles)
        assert EN("tui.hint", move="Sc1") in text_of(pilot, "#message")
        assert screen(pilot).session.game == before
        await pilot.press("s")
        assert screen(pilot).session.game.scores == (1, 0)
        assert board.hint is None

    drive(app_for(Game(3, 3)), script)


def test_help_and_rules_pages_open_and_close() -> None:
    async def script(pilot: Pilot[int]) -> None:
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(pilot.app.screen, RulesScreen)
        assert EN("rules").splitlines()[0] in text_of(pilot, "#page-text")
        await pilot.press("escape", "f1")
        await pilot.pause()
        assert isinstance(pilot.app.screen, HelpScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(pilot.app.screen, GameScreen)

    drive(app_for(Game(3, 3)), script)


def test_the_new_game_screen_starts_the_chosen_game() -> None:
    async def script(pilot: Pilot[int]) -> None:
        setup = pilot.app.screen
        assert isinstance(setup, SetupScreen)
        setup.query_one("#players", Select).value = 3
        await pilot.pause()
        setup.query_one("#mode", Select).value = "simple"
        setup.query_one("#kind-2", Select).value = "random"
        await pilot.pause()
        name = setup.query_one("#name-0", Input)
        name.value = ""
        name.focus()
        await pilot.press(*"Lan")
        setup.query_one("#first", Select).value = 1
        await pilot.click("#rectangular")
        setup.query_one("#cols", Input).value = "6"
        setup.query_one("#cols", Input).focus()
        await pilot.press("enter")
        await pilot.pause()
        session = screen(pilot).session
        game = session.game
        assert (game.rows, game.cols, game.players, game.mode) == (5, 6, 3, "simple")
        # Player 2 starts: every seat keeps its place (and so its colour and symbol).
        assert session.seats == [Seat("Lan"), Seat("Player 2"), Seat("Computer 3", "random")]
        assert game.turn == 1 and game.ply == 0
        assert EN("to_move", name="Player 2") in text_of(pilot, "#turn")

    drive(SosApp(settings=Settings(), computer_delay=0), script)


def test_the_new_game_screen_names_what_is_wrong() -> None:
    async def script(pilot: Pilot[int]) -> None:
        setup = pilot.app.screen
        setup.query_one("#rows", Input).value = "27"
        await pilot.press("enter")
        await pilot.pause()
        assert BAD_BOARD in text_of(pilot, "#setup-error")
        assert isinstance(pilot.app.screen, SetupScreen)
        setup.query_one("#rows", Input).value = "4"
        setup.query_one("#name-1", Input).value = "  "
        await pilot.click("#start")
        await pilot.pause()
        assert EN("tui.bad_name", number=2, most=NAME_MAX) in text_of(pilot, "#setup-error")
        assert isinstance(pilot.app.screen, SetupScreen)

    drive(SosApp(), script)


def drawn(pilot: Pilot[int], cell: str) -> str | None:
    """The character the board shows for ``cell`` now, or None if it is out of view."""
    target = Cell.parse(cell)
    header, *lines = screen(pilot).board.picture().split("\n")
    column = header.find(chr(ord("a") + target.col))  # the header holds letters and spaces
    margin = len(header) - len(header.lstrip())
    for line in lines:
        if column >= 0 and line[:margin].strip() == str(target.row + 1):
            return line[column]
    return None


def in_view(region: object, width: int, height: int) -> bool:
    from textual.geometry import Region

    assert isinstance(region, Region)
    return region.width > 0 and region.right <= width and region.bottom <= height


def test_an_8x8_board_fits_80x24_with_every_label_and_the_scores() -> None:
    # Ann's S-O-S down column h ends on row 8 and she moves again.
    moves = ["Sh6", "Oa1", "Sh8", "Oh7"]

    async def script(pilot: Pilot[int]) -> None:
        current = screen(pilot)
        board = current.board
        assert not current.query_one("#main").has_class("narrow")
        assert (board.max_scroll_x, board.max_scroll_y) == (0, 0)
        picture = board.picture()
        assert picture.split("\n")[0].split() == list("abcdefgh")
        labels = [line.split()[0] for line in picture.split("\n")[1:] if line[:2].strip()]
        assert labels == [str(row) for row in range(1, 9)]
        for move in moves:
            await play(pilot, move)
        assert current.session.game.lines[-1].ply == 4
        assert [drawn(pilot, cell) for cell in ("h6", "h7", "h8")] == ["S", "O", "S"]
        assert board.cursor == Cell(6, 7)
        assert (board.scroll_x, board.scroll_y) == (0, 0)
        scores = current.query_one("#scores")
        assert in_view(scores.region, 80, 24)
        assert "Ann" in text_of(pilot, "#scores") and "Bao" in text_of(pilot, "#scores")
        assert not current.query_one("#fit").display

    run_at(app_for(Game(8, 8)), (80, 24), script)


def test_a_big_board_scrolls_with_its_labels_and_keeps_the_cursor_and_new_line_in_view() -> None:
    async def script(pilot: Pilot[int]) -> None:
        current = screen(pilot)
        board = current.board
        assert current.query_one("#fit").display
        assert "94x57" in text_of(pilot, "#fit")
        assert drawn(pilot, "a1") == "·" and drawn(pilot, "z26") is None
        for move in ("Sz24", "Oa1", "Sz26", "Ob1", "Oz25"):  # Ann's line, down the far corner
            await play(pilot, move)
        assert board.scroll_x > 0 and board.scroll_y > 0
        assert board.cursor == Cell(24, 25)
        header = board.picture().split("\n")[0]
        assert header.split()[-1] == "z"  # the column letters stay at the top
        assert [drawn(pilot, cell) for cell in ("z24", "z25", "z26")] == ["S", "O", "S"]
        assert drawn(pilot, "a1") is None
        await pilot.press(*["k"] * 24, *["h"] * 25)  # back to the first cell
        assert board.cursor == Cell(0, 0)
        assert (board.scroll_x, board.scroll_y) == (0, 0)
        assert drawn(pilot, "a1") == "O"
        await pilot.resize_terminal(200, 60)
        await pilot.pause()
        assert not current.query_one("#fit").display
        assert drawn(pilot, "z26") == "S" and drawn(pilot, "a1") == "O"

    run_at(app_for(Game(26, 26)), (80, 24), script)


def test_with_little_room_the_panel_goes_under_the_board_and_comes_back() -> None:
    async def script(pilot: Pilot[int]) -> None:
        current = screen(pilot)
        main = current.query_one("#main")
        assert main.has_class("narrow")
        assert in_view(current.query_one("#scores").region, 50, 24)
        assert current.query_one("#board").region.bottom <= current.query_one("#side").region.y
        await play(pilot, "Sc3")
        assert drawn(pilot, "c3") == "S"
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert not main.has_class("narrow")
        assert current.query_one("#side").region.x >= current.query_one("#board").region.right

    run_at(app_for(Game(10, 10)), (50, 24), script)


def test_hindi_vowel_signs_take_a_cell_as_terminals_draw_them() -> None:
    from rich.cells import cell_len

    from sosgame.tui.cells import measure_spacing_marks

    assert measure_spacing_marks()
    # ख ि ल ा ड ़ ि य ो ं: four letters and four spacing vowel signs; the nukta and the
    # anusvara sit on other letters and take no cell.
    assert cell_len("खिलाड़ियों") == 8
    assert cell_len("Người chơi") == 10
    assert cell_len("Player 1") == 8


class HeldPlayer:
    """A computer player that thinks until the test lets it answer."""

    level = "easy"

    def __init__(self) -> None:
        self.release = threading.Event()

    def choose_move(self, game: Game) -> Move:
        self.release.wait(timeout=30)
        return next(iter(game.legal_moves))


def test_the_interface_answers_while_a_computer_thinks_and_a_stale_answer_is_dropped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    held = HeldPlayer()
    monkeypatch.setattr(SosApp, "player", lambda self, level: held)

    async def script(pilot: Pilot[int]) -> None:
        await play(pilot, "Sb2")
        current = screen(pilot)
        game = current.session.game
        assert current.thinking == 1
        assert EN("tui.thinking", name="Bao") in text_of(pilot, "#turn")
        before = game.copy()
        await pilot.press("down", "s")  # the cursor moves; writing waits for the computer
        assert current.board.cursor == Cell(2, 1)
        assert game == before
        assert EN("tui.wait_computer", name="Bao") in text_of(pilot, "#message")
        await pilot.press("u")  # take back Sb2: the computer's answer to it must not land
        assert game == Game(3, 3) and current.thinking is None
        held.release.set()
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        assert game == Game(3, 3)

    drive(app_for(Game(3, 3), ("person", "easy")), script)


def test_a_new_game_can_be_opened_and_abandoned_without_touching_the_game() -> None:
    async def script(pilot: Pilot[int]) -> None:
        await play(pilot, "Sa1")
        game = screen(pilot).session.game
        before = game.copy()
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(pilot.app.screen, SetupScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert screen(pilot).session.game is game
        assert game == before
        await pilot.press("n")
        await pilot.pause()
        await pilot.click("#start")
        await pilot.pause()
        await pilot.click("#yes")  # Sa1 is not saved: leave it
        await pilot.pause()
        # The same settings and players, a fresh board.
        assert screen(pilot).session.game == Game(3, 3)
        assert screen(pilot).session.names == ["Ann", "Bao"]
        assert len(pilot.app.screen_stack) == 2  # the old game is gone, not underneath

    drive(app_for(Game(3, 3)), script)


def test_every_text_of_the_terminal_game_exists() -> None:
    import re

    import sosgame.tui
    from sosgame.i18n.texts import TEXTS

    used: set[str] = set()
    for path in Path(sosgame.tui.__file__).parent.rglob("*.py"):
        used |= set(re.findall(r"[\"'](tui\.[a-z_.]+)[\"']", path.read_text(encoding="utf-8")))
    used |= {f"tui.kind.{kind}" for kind in ("person", "random", "easy", "medium", "hard")}
    used |= {f"tui.level.{level}" for level in ("random", "easy", "medium", "hard", "perfect")}
    assert used - set(TEXTS) == set()


def setup_of(pilot: Pilot[int]) -> SetupScreen:
    current = pilot.app.screen
    assert isinstance(current, SetupScreen)
    return current


def shown(select: Select[object]) -> str:
    """The text a dropdown shows for its current value."""
    return str(select.query_one("SelectCurrent #label", Static).render())


async def type_size(pilot: Pilot[int], rows: int, cols: int) -> None:
    setup = setup_of(pilot)
    box = setup.query_one("#rectangular")
    if not box.value:  # type: ignore[attr-defined]
        await pilot.click("#rectangular")
    setup.query_one("#rows", Input).value = str(rows)
    setup.query_one("#cols", Input).value = str(cols)
    await pilot.pause()


@pytest.mark.parametrize(
    ("rows", "cols"),
    sampled(
        [(1, 3), (3, 1), (1, 10), (20, 20), (26, 26), (2, 26)], [(1, 3), (26, 26)], several=True
    ),
)
def test_the_new_game_screen_sets_up_every_board_the_engine_allows(rows: int, cols: int) -> None:
    async def script(pilot: Pilot[int]) -> None:
        await type_size(pilot, rows, cols)
        await pilot.click("#start")
        await pilot.pause()
        assert screen(pilot).session.game == Game(rows, cols)

    drive(SosApp(settings=Settings(), computer_delay=0), script)


@pytest.mark.parametrize(
    ("rows", "cols"),
    sampled([(0, 5), (27, 5), (5, 27), (2, 2), (1, 2), (99, 99)], [(27, 5), (2, 2)], several=True),
)
def test_the_new_game_screen_refuses_what_the_engine_refuses(rows: int, cols: int) -> None:
    from sosgame.errors import InvalidSettingsError

    with pytest.raises(InvalidSettingsError):
        Game(rows, cols)

    async def script(pilot: Pilot[int]) -> None:
        await type_size(pilot, rows, cols)
        await pilot.click("#start")
        await pilot.pause()
        setup = setup_of(pilot)
        assert BAD_BOARD in text_of(pilot, "#setup-error")
        assert setup.query_one("#rows", Input).has_focus

    drive(SosApp(settings=Settings(), computer_delay=0), script)


@pytest.mark.parametrize(
    ("rows", "cols"), sampled([(20, 20), (1, 10), (26, 3)], [(26, 3)], several=True)
)
def test_n_then_enter_starts_the_game_just_played_again(rows: int, cols: int) -> None:
    async def script(pilot: Pilot[int]) -> None:
        await pilot.press("n")
        await pilot.pause()
        setup_of(pilot)
        await pilot.press("enter")
        await pilot.pause()
        session = screen(pilot).session
        assert session.game == Game(rows, cols)
        assert session.names == ["Ann", "Bao"]

    drive(app_for(Game(rows, cols)), script)


def test_the_new_game_screen_refuses_two_players_of_one_name() -> None:
    async def script(pilot: Pilot[int]) -> None:
        setup = setup_of(pilot)
        setup.query_one("#players", Select).value = 3
        await pilot.pause()
        setup.query_one("#name-0", Input).value = "Ann"
        setup.query_one("#name-2", Input).value = " ann "
        await pilot.click("#start")
        await pilot.pause()
        assert EN("tui.same_name", first=1, second=3, name="ann") in text_of(pilot, "#setup-error")
        assert setup.query_one("#name-2", Input).has_focus
        assert pilot.app.screen is setup
        setup.query_one("#name-2", Input).value = "Anh"
        await pilot.press("enter")
        await pilot.pause()
        assert screen(pilot).session.names == ["Ann", "Player 2", "Anh"]

    drive(SosApp(settings=Settings(), computer_delay=0), script)


def test_the_language_switch_translates_every_dropdown_value_at_once() -> None:
    settings = Settings(players=3, kinds=["person", "easy", "hard"], mode="simple")

    async def script(pilot: Pilot[int]) -> None:
        setup = setup_of(pilot)
        for translate in (VI, HI, EN):
            await pilot.press("f3")
            await pilot.pause()
            assert shown(setup.query_one("#mode", Select)) == translate("mode.simple")
            for seat, kind in enumerate(settings.kinds):
                kinds = setup.query_one(f"#kind-{seat}", Select)
                assert shown(kinds) == translate(f"tui.kind.{kind}")
            name = translate("player", number=1)
            assert setup.query_one("#name-0", Input).value == name
            assert shown(setup.query_one("#first", Select)) == f"1. {name}"

    drive(SosApp(settings=settings, computer_delay=0), script)


def test_names_show_under_who_starts_as_they_are_typed() -> None:
    async def script(pilot: Pilot[int]) -> None:
        setup = setup_of(pilot)
        first = setup.query_one("#first", Select)
        name = setup.query_one("#name-0", Input)
        name.value = ""
        name.focus()
        for typed in ("A", "An", "Ann"):
            await pilot.press(typed[-1])
            assert shown(first) == f"1. {typed}"
        first.value = 1
        await pilot.pause()
        setup.query_one("#name-1", Input).value = "Bao"
        await pilot.pause()
        assert shown(first) == "2. Bao"

    drive(SosApp(settings=Settings(), computer_delay=0), script)


def test_a_seat_keeps_its_colour_and_symbol_whoever_starts() -> None:
    from sosgame.seats import SEAT_COLOURS, SEAT_SYMBOLS

    async def script(pilot: Pilot[int]) -> None:
        setup = setup_of(pilot)
        setup.query_one("#first", Select).value = 1
        await pilot.pause()
        await pilot.click("#start")
        await pilot.pause()
        current = screen(pilot)
        game = current.session.game
        assert current.session.names == ["Player 1", "Player 2"]
        assert game.turn == 1
        await play(pilot, "Sa1")  # Player 2's move, drawn with seat 2's symbol and colour
        (line,) = current.query_one("#moves", RichLog).lines
        (symbol,) = [segment for segment in line if SEAT_SYMBOLS[1] in segment.text]
        assert symbol.style is not None and symbol.style.color is not None
        assert symbol.style.color.get_truecolor().hex.lower() == SEAT_COLOURS[1].lower()
        assert SEAT_SYMBOLS[0] not in line.text
        assert game.turn == 0

    drive(SosApp(settings=Settings(), computer_delay=0), script)


def test_quitting_with_unsaved_moves_asks_first() -> None:
    from sosgame.tui.screens.confirm import ConfirmDialog

    app = app_for(Game(3, 3))

    async def script(pilot: Pilot[int]) -> None:
        await play(pilot, "Sa1")
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(pilot.app.screen, ConfirmDialog)
        assert EN("tui.confirm_quit") in text_of(pilot, "#question")
        await pilot.press("enter")  # Enter answers the focused button: Cancel
        await pilot.pause()
        assert screen(pilot).session.game == Game(3, 3, moves=["Sa1"])
        await pilot.press("q")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(pilot.app.screen, GameScreen)
        await pilot.press("q")
        await pilot.pause()
        await pilot.click("#yes")
        await pilot.pause()

    drive(app, script)
    assert app.return_value == 0


@pytest.mark.parametrize("moves", [[], WHOLE_GAME[:2]])
def test_quitting_a_game_with_nothing_unsaved_asks_nothing(
    moves: list[str], tmp_path: Path
) -> None:
    app = app_for(Game(3, 3))

    async def script(pilot: Pilot[int]) -> None:
        for move in moves:
            await play(pilot, move)
        if moves:
            await pilot.press("ctrl+s")
            await pilot.pause()
            pilot.app.screen.query_one("#file", Input).value = str(tmp_path / "g.json")
            await pilot.press("enter")
            await pilot.pause()
        await pilot.press("q")
        await pilot.pause()

    drive(app, script)
    assert app.return_value == 0


def test_a_new_game_over_unsaved_moves_asks_first() -> None:
    from sosgame.tui.screens.confirm import ConfirmDialog

    async def script(pilot: Pilot[int]) -> None:
        await play(pilot, "Sa1")
        game = screen(pilot).session.game
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(pilot.app.screen, ConfirmDialog)
        assert EN("tui.confirm_leave") in text_of(pilot, "#question")
        await pilot.click("#no")
        await pilot.pause()
        setup_of(pilot)  # still choosing: Escape goes back to the game, as it was
        await pilot.press("escape")
        await pilot.pause()
        assert screen(pilot).session.game is game
        assert game == Game(3, 3, moves=["Sa1"])
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        await pilot.click("#yes")
        await pilot.pause()
        assert screen(pilot).session.game == Game(3, 3)
        assert len(pilot.app.screen_stack) == 2

    drive(app_for(Game(3, 3)), script)


def test_saving_over_an_existing_file_asks_first(tmp_path: Path) -> None:
    from sosgame.tui.screens.confirm import ConfirmDialog
    from sosgame.tui.screens.files import SaveDialog

    path = tmp_path / "old.json"
    save(Record.from_game(Game(4, 4, moves=["Sd4"]), players=["Old", "Game"]), path)
    before = path.read_bytes()

    async def script(pilot: Pilot[int]) -> None:
        await play(pilot, "Sa1")
        await pilot.press("ctrl+s")
        await pilot.pause()
        pilot.app.screen.query_one("#file", Input).value = str(path)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(pilot.app.screen, ConfirmDialog)
        assert EN("tui.confirm_overwrite", path=str(path)) in text_of(pilot, "#question")
        await pilot.click("#no")
        await pilot.pause()
        assert isinstance(pilot.app.screen, SaveDialog)  # to choose another name
        assert pilot.app.screen.query_one("#file", Input).value == str(path)
        assert path.read_bytes() == before
        await pilot.press("enter")
        await pilot.pause()
        await pilot.click("#yes")
        await pilot.pause()
        assert EN("saved", path=str(path)) in text_of(pilot, "#message")
        assert not screen(pilot).session.unsaved

    drive(app_for(Game(3, 3)), script)
    assert load(path).to_game() == Game(3, 3, moves=["Sa1"])


@pytest.mark.parametrize("language", sampled(["en", "vi", "hi"], fast=["hi"]))
def test_at_60x20_the_person_or_computer_column_is_whole(language: str) -> None:
    from rich.cells import cell_len

    translate = translator(language)
    settings = Settings(players=8, kinds=["person", "random", "easy", "medium", "hard", "perfect"])

    async def script(pilot: Pilot[int]) -> None:
        setup = setup_of(pilot)
        area = setup.query_one("#setup").region
        longest = max(
            cell_len(translate(f"tui.kind.{kind}"))
            for kind in ("person", "random", "easy", "medium", "hard", "perfect")
        )
        for seat in range(8):
            kind = setup.query_one(f"#kind-{seat}", Select)
            current = kind.query_one("SelectCurrent #label", Static)
            assert kind.region.right <= area.right - 1  # clear of the scroll bar
            assert current.region.width >= longest
            assert shown(kind) == translate(
                f"tui.kind.{settings.kinds[seat] if seat < 6 else 'person'}"
            )

    async def main() -> None:
        app = SosApp(settings=settings, language=language)
        async with app.run_test(size=(60, 20)) as pilot:
            await pilot.pause()
            await script(pilot)

    asyncio.run(main())


def test_what_the_new_game_screen_found_wrong_follows_the_language() -> None:
    async def script(pilot: Pilot[int]) -> None:
        setup = setup_of(pilot)
        setup.query_one("#rows", Input).value = "0"
        await pilot.click("#start")
        await pilot.pause()
        assert BAD_BOARD in text_of(pilot, "#setup-error")
        await pilot.press("f3")
        await pilot.pause()
        said = VI(
            "tui.bad_board", low=BOARD_MIN_SIDE, high=BOARD_MAX_SIDE, line=BOARD_MIN_LONG_SIDE
        )
        assert said in text_of(pilot, "#setup-error")

    drive(SosApp(settings=Settings(), computer_delay=0), script)


def test_a_key_press_redraws_only_the_board_rows_it_changes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sosgame.tui.widgets.board import Board

    lines: list[int] = []
    render_line = Board.render_line

    def counted(self: Board, y: int) -> object:
        lines.append(y)
        return render_line(self, y)

    monkeypatch.setattr(Board, "render_line", counted)

    async def script(pilot: Pilot[int]) -> None:
        board = screen(pilot).board
        assert (board.max_scroll_x, board.max_scroll_y) == (0, 0)  # all 52 lines in view
        for keys, redrawn in (
            (["right"], {1}),  # row 1 (the cursor's) is line 1, under the column letters
            (["down"], {1, 3}),  # the row the cursor leaves, and the one it enters
            (["s"], {3}),  # Sb2: its row alone
            (["down", "o"], {3, 5}),  # Ob3: its row, and Sb2's (no longer the newest)
        ):
            lines.clear()
            await pilot.press(*keys)
            await pilot.pause()
            assert set(lines) <= {1, 3, 5} and set(lines) >= redrawn, keys
        assert screen(pilot).session.game == Game(26, 26, moves=["Sb2", "Ob3"])

    run_at(app_for(Game(26, 26)), (200, 60), script)
