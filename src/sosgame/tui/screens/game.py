"""The game screen: the board, whose turn it is, the scores, the moves, and every command."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar, Final

from rich.cells import cell_len
from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, RichLog, Static

from sosgame.errors import GameOverError, IllegalMoveError, OccupiedCellError, SosError
from sosgame.game import Game
from sosgame.i18n import default_name, is_default_name, outcome_text
from sosgame.notation import Letter, Move
from sosgame.record import load, save
from sosgame.seats import SEAT_SYMBOLS
from sosgame.table import Seat, seats_from_record
from sosgame.tui.layout import SIDE_WIDTH, lay_out, needed_size
from sosgame.tui.screens.base import TranslatedScreen
from sosgame.tui.seats import move_line, seat_key, seat_style
from sosgame.tui.session import History, Session, Step
from sosgame.tui.widgets.board import Board
from sosgame.tui.widgets.keybar import KeyBar, hidden_bindings

__all__ = ["GAME_KEYS", "GameScreen"]

GAME_KEYS: Final = (
    ("←↑↓→ hjkl", "tui.key.move"),
    ("s o", "tui.key.write"),
    ("u", "tui.key.undo"),
    ("r", "tui.key.redo"),
    ("i", "tui.key.hint"),
    ("m", "tui.key.last_move"),
    ("?", "tui.key.help"),
    ("F4", "tui.key.puzzles"),
    ("q", "tui.key.quit"),
)
_SPINNER: Final = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


class LetterButton(Button, can_focus=False):
    """A button that leaves the keyboard focus on the board."""


class GameScreen(TranslatedScreen):
    """One game in play; computer seats move by themselves on a worker thread."""

    BINDINGS: ClassVar[list[BindingType]] = hidden_bindings(
        ("s", "write('S')"),
        ("o", "write('O')"),
        ("u", "undo"),
        ("r", "redo"),
        ("x", "resign"),
        ("i", "hint"),
        ("ctrl+s", "save"),
        ("ctrl+o", "load"),
        ("p", "replay"),
        ("n", "new_game"),
        ("m", "last_move"),
    )

    def __init__(self, session: Session, message: str = "") -> None:
        super().__init__()
        self.session = session
        self.message: Text | str = message
        self.thinking: int | None = None
        """The seat a computer is choosing a move for, if any."""
        self.spin = 0
        self._token = 0
        self._hint_token = 0
        self._history = History()
        self._moves_written: list[Step] | None = None
        """The moves the list shows (None: none, or not yet drawn)."""
        self._moves_language: Callable[..., str] | None = None
        self._shown: dict[str, Text | str] = {}
        """What each text of the screen shows now."""
        self._beside = True
        """Whether the side panel is beside the board (else under it, cut down)."""
        self._resign_asked: int | None = None
        """The game's state (its token) when a resignation was asked for, to be confirmed."""

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield Static(id="too-small")
        with Horizontal(id="main"):
            # The board is the one widget that takes the focus, so keys always reach it.
            with Vertical(id="board-area"):
                yield Board(self.session.game, id="board")
            with Vertical(id="side"):
                yield Static(id="turn")
                yield Static(id="scores")
                with Horizontal(id="letters"):
                    yield LetterButton("S", id="write-s")
                    yield LetterButton("O", id="write-o")
                yield Static(id="message")
                yield Static(id="fit")
                yield Static(id="moves-title")
                # A log draws only the lines in view and takes a move as one more line, so
                # that a long game's list costs a key press nothing.
                moves = RichLog(id="moves", classes="moves-box", auto_scroll=True)
                moves.can_focus = False  # the keys stay with the board
                yield moves
        yield KeyBar(GAME_KEYS, id="keys")

    @property
    def board(self) -> Board:
        """The board widget."""
        return self.query_one("#board", Board)

    def on_mount(self) -> None:
        self.board.focus()
        self.set_interval(0.1, self._tick)
        self.changed(self.message)

    # ------------------------------------------------------------------------- showing

    def retranslate(self) -> None:
        # Names nobody chose ("Player 1") follow the language.
        seats = self.session.seats
        for number, seat in enumerate(seats):
            if is_default_name(seat.name, number):
                name = default_name(self.t, number, computer=seat.is_computer)
                seats[number] = Seat(name, seat.kind)
        self.show()

    def say(self, message: Text | str) -> None:
        """Show one message under the scores."""
        self.message = message
        self._put("#message", message)

    def _put(self, selector: str, content: Text | str) -> None:
        # Every new text lays the screen out again: leave alone what has not changed, so that
        # a move costs no more than what it changes.
        if self._shown.get(selector) != content:
            self._shown[selector] = content
            self.query_one(selector, Static).update(content)

    def show(self) -> None:
        """Draw everything from the game."""
        session, game = self.session, self.session.game
        mode = self.t(f"mode.{game.mode}")
        self._put("#title", self.t("tui.header", mode=mode, rows=game.rows, cols=game.cols))
        self.board.show(game)
        turn = self.query_one("#turn", Static)
        self._put("#turn", self._turn_text())
        turn.set_class(game.extra_turn, "extra")
        turn.set_class(game.is_over, "over")
        self._put("#scores", self._scores_text())
        self._put("#message", self.message)
        self._put("#moves-title", self.t("tui.moves_heading"))
        self._show_moves()
        for letter in "SO":
            button = self.query_one(f"#write-{letter.lower()}", Button)
            label = self.t("tui.write", letter=letter)
            if str(button.label) != label:
                button.label = label
        self.query_one("#keys", KeyBar).translate(self.sos.t)
        self._fit()
        people_move = not game.is_over and not session.computer_to_move
        self.query_one("#letters").set_class(not people_move, "hidden")

    def _badge(self, seat: int) -> Text:
        return Text.assemble((f" {SEAT_SYMBOLS[seat]} ", seat_style(seat)), " ")

    def _turn_text(self) -> Text:
        session, game = self.session, self.session.game
        names = session.names
        outcome = game.outcome
        if outcome is not None:
            text = outcome_text(self.t, outcome, names)
            return Text.assemble(("★ ", "bold"), (text, "bold"), "\n", self.t("tui.game_over"))
        name = names[game.turn]
        if self.thinking is not None:
            spinner = _SPINNER[self.spin % len(_SPINNER)]
            thinking = Text.assemble(
                self._badge(game.turn), f"{spinner} ", self.t("tui.thinking", name=name)
            )
            if game.extra_turn:
                return Text.assemble(
                    (f" {self.t('tui.extra_turn')} ", "bold reverse"), "\n", thinking
                )
            return thinking
        if game.extra_turn:
            lines = [line for line in game.lines if line.ply == game.ply]
            detail = self.t(
                "extra_turn",
                name=name,
                count=len(lines),
                lines=", ".join(str(line) for line in lines),
            )
            return Text.assemble(
                (f" {self.t('tui.extra_turn')} ", "bold reverse"),
                " ",
                self._badge(game.turn),
                (name, "bold"),
                "\n",
                detail,
            )
        return Text.assemble(self._badge(game.turn), (self.t("to_move", name=name), "bold"))

    def _scores_text(self) -> Text:
        session, game = self.session, self.session.game
        # No line wraps: a tag that does not fit after its row goes whole onto a line of its
        # own, under the name ("computer, perfect", never "computer," then "perfect").
        text = Text(self.t("tui.scores_heading") + "\n", "bold", no_wrap=True, overflow="ellipsis")
        room = self.query_one("#scores").content_size.width or SIDE_WIDTH - 5
        active = set(game.active_seats)
        width = max(len(name) for name in session.names)
        for seat, (name, score) in enumerate(zip(session.names, game.scores, strict=True)):
            marker = "▶" if seat == game.turn and not game.is_over else " "
            kind = session.seats[seat].kind
            row = Text.assemble(marker, " ", seat_key(seat), " ", name.ljust(width), f" {score:>3}")
            tags = [self.t(f"tui.level.{kind}")] if kind != "person" else []
            if seat not in active:
                row.stylize("dim strike")
                tags.append(self.t("tui.resigned_tag"))
            for tag in tags:
                if _cells(row.plain.rsplit("\n", 1)[-1]) + 2 + _cells(tag) > room:
                    row.append("\n" + " " * 7)
                else:
                    row.append("  ")
                row.append(tag, "dim")
            if seat == game.turn and not game.is_over:
                row.stylize("bold")
            text.append_text(row)
            if seat < game.players - 1:
                text.append("\n")
        return text

    def _show_moves(self) -> None:
        """Bring the list of moves up to date, writing only the moves it does not show yet
        (the newest stays in view)."""
        steps = self._history.steps(self.session.game)
        log = self.query_one("#moves", RichLog)
        written = self._moves_written
        if (
            written is None
            or steps[: len(written)] != written
            or self._moves_language != self.sos.t
        ):
            log.clear()
            written = []
            if not steps:
                log.write(Text(self.t("no_moves"), "dim"))
        for number, step in enumerate(steps[len(written) :], start=len(written) + 1):
            log.write(move_line(number, step, self.session.names[step.seat], self.t))
        self._moves_written = list(steps) if steps else None
        self._moves_language = self.sos.t

    def needed_size(self) -> tuple[int, int]:
        """The terminal size that shows the whole board beside the side panel."""
        game = self.session.game
        return needed_size(game.rows, game.cols)

    def _fit(self) -> None:
        width, height = self.needed_size()
        size = self.app.size
        fits = size.width >= width and size.height >= height
        # The moves keep a few lines: short of room beside the board, the letter buttons close
        # up and the note on the board's size gives way (four players at 80x24, say).
        game = self.session.game
        turn = 4 if game.extra_turn or game.is_over else 1
        scores = self._scores_text().plain.count("\n") + 1
        needed = turn + 1 + scores + 1 + 3 + 2 + (0 if fits else 4) + 6
        room = size.height - 1 - max(2, self.query_one("#keys").size.height)
        short = self._beside and needed > room
        self.query_one("#main").set_class(short, "short")
        self.query_one("#fit", Static).display = self._beside and not fits and not short
        self._put("#fit", self.t("tui.board_too_big", width=width, height=height))

    def on_resize(self, event: events.Resize) -> None:
        # Short of room, the cells close up; shorter still, the panel goes under the board,
        # down to whose turn it is and the scores; shorter again, the screen says so.
        width, height = event.size
        self.check_room(width, height, self.session.game.players)
        self._beside = lay_out(self.query_one("#main"), self.board, width, height).beside
        self._fit()
        # The scores' tags go under a row that has no room for them, at the new width.
        self.call_after_refresh(lambda: self._put("#scores", self._scores_text()))

    def _tick(self) -> None:
        if self.thinking is not None:
            self.spin += 1
            self._put("#turn", self._turn_text())

    # ------------------------------------------------------------------------- playing

    def changed(self, message: Text | str = "") -> None:
        """After any change to the game: show it, and let a computer move if it is its turn."""
        self._token += 1
        self._hint_token += 1
        self.thinking = None
        self.board.hint = None
        self.message = message
        session = self.session
        if session.computer_to_move and not session.redo_stack:
            self.thinking = session.game.turn
            self._think(self._token, session.seats[session.game.turn].kind, session.game.copy())
        self.show()

    @work(thread=True, exclusive=True, group="computer")
    def _think(self, token: int, level: str, game: Game) -> None:
        delay = self.sos.computer_delay
        started = time.monotonic()
        try:
            move: Move | str = self.sos.player(level).choose_move(game)
        except (ImportError, SosError) as error:
            move = str(error)
        rest = delay - (time.monotonic() - started)
        if rest > 0:
            time.sleep(rest)
        self._answer(self._computer_moved, token, move)

    def _answer(
        self, handler: Callable[[int, Move | str], None], token: int, move: Move | str
    ) -> None:
        """Hand a worker's answer to the interface's thread, unless the app has closed."""
        # If the app quit while the search ran, nobody is waiting for the answer.
        with contextlib.suppress(RuntimeError):
            self.app.call_from_thread(handler, token, move)

    def _computer_moved(self, token: int, move: Move | str) -> None:
        if token != self._token or not self.is_attached:
            return  # The game changed while the computer was thinking: its answer is stale.
        seat = self.session.game.turn
        if isinstance(move, str):
            self.thinking = None
            self.say(self.t("tui.computer_failed", name=self.session.names[seat], error=move))
            self.show()
            return
        self._play(move)
        if not self.board.in_view(move.cell):
            self.board.cursor = move.cell  # the view follows the computer's move

    def _play(self, move: Move) -> None:
        session = self.session
        seat = session.game.turn
        try:
            lines = session.play(move)
        except OccupiedCellError:
            self.say(self.t("occupied", cell=move.cell))
            return
        except GameOverError:
            self.say(self.t("tui.game_over"))
            return
        except IllegalMoveError as error:
            self.say(str(error))
            return
        message = ""
        if lines and not session.game.extra_turn:
            names = ", ".join(str(line) for line in lines)
            message = self.t("scored", name=session.names[seat], count=len(lines), lines=names)
        self.changed(message)

    def action_write(self, letter: Letter) -> None:
        session = self.session
        if session.computer_to_move:
            seat = session.game.turn
            self.say(self.t("tui.wait_computer", name=session.names[seat]))
            return
        self._play(Move(letter, self.board.cursor))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id in ("write-s", "write-o"):
            self.action_write("S" if event.button.id == "write-s" else "O")

    def on_board_cell_clicked(self, event: Board.CellClicked) -> None:
        game = self.session.game
        if game.is_over:
            self.say(self.t("tui.game_over"))
        elif game.letter_at(event.cell) is not None:
            self.say(self.t("occupied", cell=event.cell))
        else:
            self.say(self.t("tui.choose_letter", cell=event.cell))

    def action_undo(self) -> None:
        undone = self.session.undo()
        if not undone:
            self.say(self.t("nothing_to_undo"))
            return
        self.changed(self.t("undone", action=" ".join(str(action) for action in undone)))

    def action_redo(self) -> None:
        redone = self.session.redo()
        if not redone:
            self.say(self.t("tui.nothing_to_redo"))
            return
        self.changed(self.t("tui.redone", action=" ".join(str(action) for action in redone)))

    def action_resign(self) -> None:
        session = self.session
        if session.game.is_over:
            self.say(self.t("tui.game_over"))
            return
        if session.computer_to_move:
            self.say(self.t("tui.wait_computer", name=session.names[session.game.turn]))
            return
        name = session.names[session.game.turn]
        if self._resign_asked != self._token:
            # Resigning ends the game for this seat: the same key once more confirms it.
            self._resign_asked = self._token
            self.say(self.t("tui.confirm_resign", name=name))
            return
        seat = session.resign()
        self.changed(self.t("resigned", name=session.names[seat]))

    def action_last_move(self) -> None:
        """Put the cursor on the last move (in view) and say who made it."""
        steps = self._history.steps(self.session.game)
        step = next((step for step in reversed(steps) if isinstance(step.action, Move)), None)
        if step is None or not isinstance(step.action, Move):
            self.say(self.t("tui.no_last_move"))
            return
        self.board.cursor = step.action.cell
        name = self.session.names[step.seat]
        self.say(self.t("tui.last_move", move=str(step.action), name=name))

    def action_hint(self) -> None:
        session = self.session
        if session.game.is_over or session.computer_to_move:
            return
        self._hint_token += 1
        self.say(self.t("tui.hint_thinking"))
        self._find_hint(self._hint_token, session.game.copy())

    @work(thread=True, exclusive=True, group="hint")
    def _find_hint(self, token: int, game: Game) -> None:
        try:
            move: Move | str = self.sos.player(self.sos.hint_level).choose_move(game)
        except (ImportError, SosError) as error:
            move = str(error)
        self._answer(self._hint_found, token, move)

    def _hint_found(self, token: int, move: Move | str) -> None:
        if token != self._hint_token or not self.is_attached:
            return
        if isinstance(move, str):
            self.say(self.t("tui.no_hint", error=move))
            return
        self.board.hint = move.cell
        self.board.cursor = move.cell
        self.say(self.t("tui.hint", move=str(move)))

    # --------------------------------------------------------------------------- files

    def action_save(self) -> None:
        from sosgame.tui.screens.files import SaveDialog

        self.app.push_screen(SaveDialog(self.sos.last_path), self._save_to)

    def _save_to(self, path: str | None) -> None:
        if not path:
            return
        if Path(path).exists():
            from sosgame.tui.screens.confirm import ConfirmDialog

            def answered(overwrite: bool | None) -> None:
                if overwrite:
                    self._write(path)
                else:  # choose another name, or cancel
                    from sosgame.tui.screens.files import SaveDialog

                    self.app.push_screen(SaveDialog(path), self._save_to)

            dialog = ConfirmDialog("tui.confirm_overwrite", "tui.yes_overwrite", path=path)
            self.app.push_screen(dialog, answered)
            return
        self._write(path)

    def _write(self, path: str) -> None:
        session = self.session
        record = session.record()
        try:
            save(record, path)
        except SosError as error:
            self.say(self.t("save_failed", error=error))
            return
        session.mark_saved()
        self.sos.last_path = path
        self.say(self.t("saved", path=path))

    def action_load(self) -> None:
        from sosgame.tui.screens.files import LoadDialog

        self.app.push_screen(LoadDialog(self.sos.last_path), self._load_from)

    def _load_from(self, choice: tuple[str, str] | None) -> None:
        if not choice:
            return
        path, how = choice
        try:
            record = load(path)
        except SosError as error:
            self.say(self.t("tui.load_failed", error=error))
            return
        self.sos.last_path = path
        if how == "replay":
            self.sos.open_replay(record)
            return
        session = Session(record.to_game(), seats_from_record(record))
        self.sos.replace_session(session, self.t("tui.loaded", path=path, count=len(record.moves)))

    def action_replay(self) -> None:
        # The record keeps who plays each seat, so play goes on from the replay at the same seats.
        self.sos.open_replay(self.session.record(), at_end=True, saved=self.session.saved)

    def action_new_game(self) -> None:
        self.sos.open_setup(self.session)


def _cells(text: str) -> int:
    # Terminals differ on the width of Devanagari vowel signs: count every character as at
    # least one cell, as the key bar does.
    return max(cell_len(text), len(text))
