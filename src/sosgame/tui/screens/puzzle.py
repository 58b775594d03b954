"""The puzzle screen: a proven puzzle on the board, judged move by move by its stored proof."""

from __future__ import annotations

import random
from typing import ClassVar, Final

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from sosgame.ai.puzzles import Puzzle, PuzzleError, Verdict, choose_puzzle, judge
from sosgame.errors import SosError
from sosgame.notation import Letter, Move
from sosgame.tui.layout import lay_out
from sosgame.tui.screens.base import TranslatedScreen
from sosgame.tui.widgets.board import Board
from sosgame.tui.widgets.keybar import KeyBar, hidden_bindings

__all__ = ["PUZZLE_KEYS", "PuzzleScreen"]

PUZZLE_KEYS: Final = (
    ("s o", "tui.key.write"),
    ("n", "tui.key.next_puzzle"),
    ("x", "tui.key.solution"),
    ("Esc", "tui.key.close"),
)
_START_RATING: Final = 1500


class PuzzleScreen(TranslatedScreen):
    """Plays ``puzzle`` (by default one near the middle rating, chosen by ``seed``); ``n``
    brings another one, never one already played here."""

    BINDINGS: ClassVar[list[BindingType]] = hidden_bindings(
        ("s", "write('S')"),
        ("o", "write('O')"),
        ("n", "next"),
        ("x", "solution"),
        ("escape", "close"),
    )

    def __init__(self, puzzle: Puzzle | None = None, *, seed: int | None = None) -> None:
        super().__init__()
        self.rng = random.Random(seed)
        self.played: set[str] = set()
        self.puzzle = puzzle or self._choose()
        self.game = self.puzzle.game()
        self.moves: list[Move] = []
        self.verdict: Verdict | None = None
        self.gave_up = False
        self.message = ""

    def _choose(self) -> Puzzle:
        found = choose_puzzle(_START_RATING, solved=self.played, seed=self.rng.randrange(1 << 30))
        if found is None:  # every puzzle played: start again
            self.played.clear()
            return self._choose()
        return found

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="main"):
            with Vertical(id="board-area"):
                yield Board(self.game, id="board")
            with Vertical(id="side"):
                yield Static(id="turn")
                yield Static(id="goal")
                yield Static(id="verdict")
        yield KeyBar(PUZZLE_KEYS, id="keys")

    def on_mount(self) -> None:
        self.show()
        self.query_one(Board).focus()

    def on_resize(self, event: events.Resize) -> None:
        lay_out(self.query_one("#main"), self.query_one(Board), event.size.width, event.size.height)

    def retranslate(self) -> None:
        self.show()

    def show(self) -> None:
        """Draw the puzzle as it stands."""
        puzzle = self.puzzle
        self.query_one("#title", Static).update(
            self.t(
                "tui.puzzle.title",
                id=puzzle.id,
                rating=puzzle.rating,
                mode=self.t(f"mode.{puzzle.mode}"),
                rows=puzzle.rows,
                cols=puzzle.cols,
            )
        )
        self.query_one(Board).show(self.game)
        scores = " - ".join(map(str, self.game.scores))
        turn = self.t("puzzle.to_move", seat=puzzle.turn + 1, scores=scores)
        if puzzle.themes:
            themes = ", ".join(self.t(f"puzzle.theme.{theme}") for theme in puzzle.themes)
            turn += "\n" + self.t("puzzle.themes", themes=themes)
        self.query_one("#turn", Static).update(turn)
        self.query_one("#goal", Static).update(Text(self.t(f"puzzle.goal.{puzzle.goal}"), "bold"))
        self.query_one("#verdict", Static).update(self._verdict_text())
        self.query_one("#keys", KeyBar).translate(self.sos.t)

    def _verdict_text(self) -> Text:
        verdict = self.verdict
        text = Text(self.message)
        if verdict is None:
            return text
        if self.gave_up:
            pass  # no move was judged: asking for the solution is not a wrong answer
        elif not verdict.correct:
            text.append(self.t("puzzle.wrong") + "\n", "bold red")
        elif verdict.done:
            text.append(self.t("puzzle.solved") + "\n", "bold green")
        else:
            text.append(self.t("puzzle.right_more") + "\n", "bold green")
        if verdict.solution is not None:
            moves = " ".join(map(str, verdict.solution))
            text.append(self.t("puzzle.solution", moves=moves))
        return text

    @property
    def over(self) -> bool:
        """Whether the puzzle is solved, missed or given up."""
        return self.verdict is not None and (self.verdict.done or not self.verdict.correct)

    def action_write(self, letter: Letter) -> None:
        """Play ``letter`` in the cell under the cursor."""
        if self.over:
            return
        move = Move(letter, self.query_one(Board).cursor)
        try:
            verdict = judge(self.puzzle, [*self.moves, move])
            self.game.copy().play(move)
        except (PuzzleError, SosError) as error:
            self.message = f"{error}\n"
            self.show()
            return
        self.message = ""
        self.moves.append(move)
        self.game.play(move)
        if verdict.correct and verdict.reply is not None:
            self.game.play(verdict.reply)
        self.verdict = verdict
        self.show()

    def on_board_cell_clicked(self, event: Board.CellClicked) -> None:
        self.message = self.t("tui.choose_letter", cell=event.cell) + "\n"
        self.show()

    def action_solution(self) -> None:
        """Give up: show the solution."""
        if not self.over:
            shown = judge(self.puzzle, self.moves, reveal=True)
            self.verdict = Verdict(False, None, True, shown.solution)
            self.gave_up = True
            self.show()

    def action_next(self) -> None:
        """Another puzzle."""
        self.played.add(self.puzzle.id)
        self.puzzle = self._choose()
        self.game = self.puzzle.game()
        self.moves = []
        self.verdict = None
        self.gave_up = False
        self.message = ""
        self.show()

    def action_close(self) -> None:
        self.sos.close_screen()
