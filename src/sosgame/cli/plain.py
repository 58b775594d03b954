"""The line-mode game: reads commands and moves line by line, prints the board as text.

It works the same at a terminal and with piped input; with piped input it echoes each line it
reads so that a transcript reads like a session. At a terminal, lines are read through
:mod:`readline` where Python has it: arrow keys edit the line and recall earlier ones.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from typing import Final, TextIO

from sosgame.errors import (
    GameOverError,
    InvalidMoveError,
    NothingToUndoError,
    OccupiedCellError,
    OffBoardError,
    SosError,
)
from sosgame.game import Game
from sosgame.i18n import error_text, outcome_text
from sosgame.notation import Move
from sosgame.outcome import Line
from sosgame.record import Record, save

__all__ = ["PlainGame"]

_BARE_COMMANDS: Final = ("quit", "exit", "q", "help", "?", "rules", "moves", "board", "undo")
"""Commands that take nothing after them."""


class PlainGame:
    """One line-mode session over ``game``, talking through ``source`` and ``sink``."""

    def __init__(
        self,
        game: Game,
        names: list[str],
        translate: Callable[..., str],
        source: TextIO,
        sink: TextIO,
    ) -> None:
        self.game = game
        self.names = names
        self.t = translate
        self.source = source
        self.sink = sink
        self.echo = not source.isatty()
        # input() edits the line with readline, but only reads the process's own terminal.
        self.interactive = (
            source is sys.stdin and sink is sys.stdout and source.isatty() and sink.isatty()
        )
        if self.interactive:
            with contextlib.suppress(ImportError):  # readline is not on every platform
                import readline  # noqa: F401 (importing it is what turns line editing on)

    def say(self, text: str = "") -> None:
        """Print one message."""
        print(text, file=self.sink, flush=True)

    def run(self) -> int:
        """Play until ``quit`` or the end of the input; returns the exit status."""
        game = self.game
        mode = self.t(f"mode.{game.mode}")
        self.say(
            self.t("title", mode=mode, rows=game.rows, cols=game.cols, names=", ".join(self.names))
        )
        self.say(self.t("help").splitlines()[0])
        self.show()
        while True:
            name = self.names[game.turn]
            line = self.read("> " if game.is_over else f"{name}> ")
            if line is None:
                self.say()
                self.say(self.t("goodbye"))
                return 0
            text = line.strip()
            if self.echo:
                self.say(text)
            if not text:
                continue
            if not self.handle(text):
                self.say(self.t("goodbye"))
                return 0

    def read(self, prompt: str) -> str | None:
        """One line of input after ``prompt``, or ``None`` at the end of the input."""
        if self.interactive:
            try:
                return input(prompt)
            except EOFError:
                return None
        self.sink.write(prompt)
        self.sink.flush()
        return self.source.readline() or None

    def handle(self, text: str) -> bool:
        """Act on one line of input; returns False when the player quits."""
        word, _, rest = text.partition(" ")
        command = word.lower()
        rest = rest.strip()
        if command in _BARE_COMMANDS and rest:
            self.say(self.t("no_argument", command=word, text=rest))
            return True
        if command in ("quit", "exit", "q"):
            return False
        if command in ("help", "?"):
            self.say(self.t("help"))
        elif command == "rules":
            self.say(self.t("rules"))
        elif command == "moves":
            self.show_moves()
        elif command == "board":
            self.show()
        elif command == "undo":
            self.undo()
        elif command == "resign":
            self.resign(rest)
        elif command == "save":
            self.save(rest)
        else:
            self.move(text)
        return True

    def move(self, text: str) -> None:
        """Play one move given as text."""
        game = self.game
        try:
            move = Move.parse(text)
        except InvalidMoveError:
            self.say(self.t("not_understood", text=text))
            return
        mover = game.turn
        try:
            lines = game.play(move)
        except OccupiedCellError:
            self.say(self.t("occupied", cell=move.cell))
            return
        except OffBoardError:
            self.say(self.t("off_board", cell=move.cell, rows=game.rows, cols=game.cols))
            return
        except GameOverError:
            self.say(self.t("game_over"))
            return
        if lines:
            key = "extra_turn" if game.extra_turn else "scored"
            self.say(self.t(key, name=self.names[mover], count=len(lines), lines=_names(lines)))
        self.show()

    def undo(self) -> None:
        """Take back the last move or resignation."""
        try:
            action = self.game.undo()
        except NothingToUndoError:
            self.say(self.t("nothing_to_undo"))
            return
        self.say(self.t("undone", action=action))
        self.show()

    def resign(self, number: str = "") -> None:
        """The seat to move resigns, or the player ``number`` (counted from 1) when given."""
        game = self.game
        seat = game.turn
        if number:
            if not number.isdecimal() or not 1 <= int(number) <= game.players:
                self.say(self.t("no_such_player", text=number, most=game.players))
                return
            seat = int(number) - 1
        if game.is_over:
            self.say(self.t("game_over"))
            return
        if seat not in game.active_seats:
            self.say(self.t("already_resigned", name=self.names[seat]))
            return
        game.resign(seat)
        self.say(self.t("resigned", name=self.names[seat]))
        self.show()

    def save(self, path: str) -> None:
        """Save the game as a record."""
        if not path:
            self.say(self.t("save_needs_file"))
            return
        try:
            save(Record.from_game(self.game, players=self.names), path)
        except SosError as error:
            self.say(self.t("save_failed", error=error_text(self.t, error)))
            return
        self.say(self.t("saved", path=path))

    def show(self) -> None:
        """Show the board, the scores and whose turn it is (or the result)."""
        game = self.game
        self.say()
        self.say(str(game))
        self.say()
        scores = ", ".join(
            f"{name} {score}" for name, score in zip(self.names, game.scores, strict=True)
        )
        self.say(self.t("scores", scores=scores))
        outcome = game.outcome
        if outcome is None:
            key = "to_move_again" if game.extra_turn else "to_move"
            self.say(self.t(key, name=self.names[game.turn]))
            return
        self.say(outcome_text(self.t, outcome, self.names))
        self.say(self.t("game_over"))

    def show_moves(self) -> None:
        """List the moves so far."""
        actions = [str(action) for action in self.game.actions]
        self.say(self.t("moves", moves=" ".join(actions) if actions else self.t("no_moves")))


def _names(lines: tuple[Line, ...]) -> str:
    return ", ".join(str(line) for line in lines)
