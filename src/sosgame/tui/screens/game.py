"""The game screen: the board, whose turn it is, the scores, the moves, and every command."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import ClassVar, Final

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Button, Static

from sosgame.errors import GameOverError, IllegalMoveError, OccupiedCellError, SosError
from sosgame.game import Game
from sosgame.notation import Letter, Move, Resignation
from sosgame.record import load, save
from sosgame.seats import SEAT_COLOURS, SEAT_SYMBOLS
from sosgame.tui.screens.base import TranslatedScreen
from sosgame.tui.seats import seat_key, seat_style
from sosgame.tui.session import SEATS_TAG, Session, history, seats_from_record
from sosgame.tui.widgets.board import Board, board_size
from sosgame.tui.widgets.keybar import KeyBar

__all__ = ["GAME_KEYS", "GameScreen"]

GAME_KEYS: Final = (
    ("←↑↓→ hjkl", "tui.key.move"),
    ("s o", "tui.key.write"),
    ("u", "tui.key.undo"),
    ("r", "tui.key.redo"),
    ("i", "tui.key.hint"),
    ("?", "tui.key.help"),
    ("q", "tui.key.quit"),
)
"""The record tag that keeps who played each seat (a person or a computer level)."""
_SIDE_WIDTH: Final = 40
_SPINNER: Final = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏"


class LetterButton(Button, can_focus=False):
    """A button that leaves the keyboard focus on the board."""


class GameScreen(TranslatedScreen):
    """One game in play; computer seats move by themselves on a worker thread."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "write('S')", show=False),
        Binding("o", "write('O')", show=False),
        Binding("u", "undo", show=False),
        Binding("r", "redo", show=False),
        Binding("x", "resign", show=False),
        Binding("i", "hint", show=False),
        Binding("ctrl+s", "save", show=False),
        Binding("ctrl+o", "load", show=False),
        Binding("p", "replay", show=False),
        Binding("n", "new_game", show=False),
    ]

    def __init__(self, session: Session, message: str = "") -> None:
        super().__init__()
        self.session = session
        self.message: Text | str = message
        self.thinking: int | None = None
        """The seat a computer is choosing a move for, if any."""
        self.spin = 0
        self._token = 0
        self._hint_token = 0
        self._resign_asked: int | None = None
        """The game's state (its token) when a resignation was asked for, to be confirmed."""

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="main"):
            # The board is the one widget that takes the focus, so keys always reach it.
            with VerticalScroll(id="board-area", can_focus=False):
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
                with VerticalScroll(id="moves-box", can_focus=False):
                    yield Static(id="moves")
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
        self.show()

    def say(self, message: Text | str) -> None:
        """Show one message under the scores."""
        self.message = message
        self.query_one("#message", Static).update(message)

    def show(self) -> None:
        """Draw everything from the game."""
        session, game = self.session, self.session.game
        mode = self.t(f"mode.{game.mode}")
        self.query_one("#title", Static).update(
            self.t("tui.header", mode=mode, rows=game.rows, cols=game.cols)
        )
        self.board.show(game)
        self.query_one("#turn", Static).update(self._turn_text())
        self.query_one("#turn", Static).set_class(game.extra_turn, "extra")
        self.query_one("#turn", Static).set_class(game.is_over, "over")
        self.query_one("#scores", Static).update(self._scores_text())
        self.query_one("#message", Static).update(self.message)
        self.query_one("#moves-title", Static).update(self.t("tui.moves_heading"))
        self.query_one("#moves", Static).update(self._moves_text())
        self.query_one("#moves-box", VerticalScroll).anchor()  # the latest move stays in view
        self.query_one("#write-s", Button).label = self.t("tui.write", letter="S")
        self.query_one("#write-o", Button).label = self.t("tui.write", letter="O")
        self.query_one("#keys", KeyBar).translate(self.t)
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
            reason = self.t(f"reason.{outcome.termination.value}")
            if outcome.winner is not None:
                text = self.t("winner", name=names[outcome.winner], reason=reason)
            else:
                drawn = ", ".join(names[seat] for seat in outcome.winners)
                text = self.t("draw", names=drawn, reason=reason)
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
        text = Text(self.t("tui.scores_heading") + "\n", "bold")
        active = set(game.active_seats)
        width = max(len(name) for name in session.names)
        for seat, (name, score) in enumerate(zip(session.names, game.scores, strict=True)):
            marker = "▶" if seat == game.turn and not game.is_over else " "
            kind = session.seats[seat].kind
            row = Text.assemble(marker, " ", seat_key(seat), " ", name.ljust(width), f" {score:>3}")
            if kind != "person":
                row.append(f"  {self.t(f'tui.level.{kind}')}", "dim")
            if seat not in active:
                row.stylize("dim strike")
                row.append(f"  {self.t('tui.resigned_tag')}", "dim")
            if seat == game.turn and not game.is_over:
                row.stylize("bold")
            text.append_text(row)
            if seat < game.players - 1:
                text.append("\n")
        return text

    def _moves_text(self) -> Text:
        steps = history(self.session.game)
        if not steps:
            return Text(self.t("no_moves"), "dim")
        text = Text()
        for number, step in enumerate(steps, start=1):
            if number > 1:
                text.append("\n")
            text.append(f"{number:>3}. ")
            text.append(SEAT_SYMBOLS[step.seat], seat_style(step.seat))
            name = self.session.names[step.seat]
            if isinstance(step.action, Resignation):
                text.append(" " + self.t("resigned", name=name))
                continue
            text.append(f" {step.action!s:<4} {name}")
            if step.points:
                text.append(f"  +{step.points}", f"bold {SEAT_COLOURS[step.seat]}")
        return text

    def needed_size(self) -> tuple[int, int]:
        """The terminal size that shows the whole board beside the side panel."""
        game = self.session.game
        width, height = board_size(game.rows, game.cols)
        # The board's border and padding, the board area's padding, the panel; then the title,
        # the key bar and the board area's padding.
        return width + 4 + 4 + _SIDE_WIDTH + 1, height + 2 + 2 + 3

    def _fit(self) -> None:
        width, height = self.needed_size()
        size = self.app.size
        note = self.query_one("#fit", Static)
        note.display = size.width < width or size.height < height
        note.update(self.t("tui.board_too_big", width=width, height=height))

    def on_resize(self, event: events.Resize) -> None:
        narrow = event.size.width < self.needed_size()[0]
        main = self.query_one("#main")
        if narrow != main.has_class("narrow"):
            # Too narrow for the board and the panel side by side: the panel goes on top, so
            # that whose turn it is and the scores stay in view above the board.
            main.set_class(narrow, "narrow")
            side, area = self.query_one("#side"), self.query_one("#board-area")
            if narrow:
                main.move_child(side, before=area)
            else:
                main.move_child(area, before=side)
        self._fit()

    def _tick(self) -> None:
        if self.thinking is not None:
            self.spin += 1
            self.query_one("#turn", Static).update(self._turn_text())

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
        session = self.session
        record = session.record()
        record.meta["tags"] = {SEATS_TAG: ",".join(seat.kind for seat in session.seats)}
        try:
            save(record, path)
        except SosError as error:
            self.say(self.t("save_failed", error=error))
            return
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
        self.sos.start_session(session, self.t("tui.loaded", path=path, count=len(record.moves)))

    def action_replay(self) -> None:
        self.sos.open_replay(self.session.record(), at_end=True)

    def action_new_game(self) -> None:
        self.sos.open_setup(self.session)
