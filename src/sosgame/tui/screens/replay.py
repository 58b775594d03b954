"""The replay screen: a record shown move by move, forward, back, to the start or the end."""

from __future__ import annotations

from typing import ClassVar, Final

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Static

from sosgame.game import Action
from sosgame.i18n import outcome_text
from sosgame.record import Record
from sosgame.table import Replay
from sosgame.tui.layout import lay_out
from sosgame.tui.screens.base import TranslatedScreen
from sosgame.tui.seats import move_line, seat_key
from sosgame.tui.session import Session, history
from sosgame.tui.widgets.board import Board
from sosgame.tui.widgets.keybar import KeyBar, hidden_bindings

__all__ = ["REPLAY_KEYS", "ReplayScreen"]

REPLAY_KEYS: Final = (
    ("← h", "tui.key.back"),
    ("→ l", "tui.key.forward"),
    ("Home", "tui.key.start"),
    ("End", "tui.key.end"),
    ("c", "tui.key.continue"),
    ("Esc", "tui.key.close"),
)


class ReplayScreen(TranslatedScreen):
    """Steps through ``record`` (from its start, or ``at_end``); ``c`` plays on from the position
    shown."""

    BINDINGS: ClassVar[list[BindingType]] = hidden_bindings(
        ("left,h", "back"),
        ("right,l", "forward"),
        ("home,g", "to_start"),
        ("end,G", "to_end"),
        ("c", "continue"),
        ("escape,q", "close"),
    )

    def __init__(
        self, record: Record, *, at_end: bool = False, saved: list[Action] | None = None
    ) -> None:
        super().__init__()
        self.replay = Replay(record)
        self.saved = list(self.replay.actions) if saved is None else saved
        """What a file holds of this game, for the game played on from here."""
        if at_end:
            self.replay.to_end()

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield Static(id="too-small")
        with Horizontal(id="main"):
            with Vertical(id="board-area"):
                yield Board(self.replay.game, id="board", keys=False)
            with Vertical(id="side"):
                yield Static(id="turn")
                yield Static(id="scores")
                with VerticalScroll(id="moves-box", can_focus=False):
                    yield Static(id="moves")
        yield KeyBar(REPLAY_KEYS, id="keys")

    def on_mount(self) -> None:
        self.show()

    def on_resize(self, event: events.Resize) -> None:
        width, height = event.size
        self.check_room(width, height, self.replay.game.players)
        lay_out(self.query_one("#main"), self.query_one(Board), width, height)

    def retranslate(self) -> None:
        self.show()

    def show(self) -> None:
        """Draw the position at the current step."""
        replay, game = self.replay, self.replay.game
        names = replay.record.players
        self.query_one("#title", Static).update(
            self.t("tui.replay_title", ply=replay.ply, total=replay.total)
        )
        board = self.query_one(Board)
        board.show(game)
        last = game.last_move
        if last is not None:
            board.cursor = last.cell
        outcome = game.outcome
        if outcome is not None:
            turn = outcome_text(self.t, outcome, names)
        else:
            key = "to_move_again" if game.extra_turn else "to_move"
            turn = self.t(key, name=names[game.turn])
        self.query_one("#turn", Static).update(Text(turn, "bold"))
        scores = Text(self.t("tui.scores_heading") + "\n", "bold")
        for seat, (name, score) in enumerate(zip(names, game.scores, strict=True)):
            scores.append_text(seat_key(seat))
            scores.append(f" {name}  {score}" + ("\n" if seat < game.players - 1 else ""))
        self.query_one("#scores", Static).update(scores)
        moves = Text()
        for number, step in enumerate(history(game), start=1):
            moves.append_text(move_line(number, step, names[step.seat], self.t))
            moves.append("\n")
        if not replay.ply:
            moves.append(self.t("tui.replay_at_start"), "dim")
        self.query_one("#moves", Static).update(moves)
        self.query_one("#moves-box", VerticalScroll).anchor()  # the latest move stays in view
        self.query_one("#keys", KeyBar).translate(self.sos.t)

    def action_back(self) -> None:
        if self.replay.back():
            self.show()

    def action_forward(self) -> None:
        if self.replay.forward():
            self.show()

    def action_to_start(self) -> None:
        self.replay.to_start()
        self.show()

    def action_to_end(self) -> None:
        self.replay.to_end()
        self.show()

    def action_continue(self) -> None:
        table = self.replay.play_on()
        self.sos.replace_session(Session(table.game, table.seats, saved=list(self.saved)))

    def action_close(self) -> None:
        self.sos.close_screen()
