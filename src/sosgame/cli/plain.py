"""The line-mode game: reads commands and moves line by line, prints the board as text.

It plays at a :class:`~sosgame.table.Table`, so undo goes back to a person's turn as in the
full-screen game, and a computer seat moves by itself as soon as it is to move.

It works the same at a terminal and with piped input; with piped input it echoes each line it
reads so that a transcript reads like a session. At a terminal, lines are read through
:mod:`readline` where Python has it: arrow keys edit the line and recall earlier ones.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Final, TextIO

from sosgame.errors import (
    GameOverError,
    InvalidMoveError,
    OccupiedCellError,
    OffBoardError,
    SosError,
)
from sosgame.game import Action
from sosgame.i18n import error_text, outcome_text
from sosgame.notation import Move, Resignation
from sosgame.outcome import Line
from sosgame.record import save
from sosgame.table import Table

if TYPE_CHECKING:
    from sosgame.ai import Player

__all__ = ["PlainGame"]

_BARE_COMMANDS: Final = ("quit", "exit", "q", "help", "?", "rules", "moves", "board", "undo")
"""Commands that take nothing after them."""


class PlainGame:
    """One line-mode session at ``table``, talking through ``source`` and ``sink``.

    ``player`` makes the computer player of a level (:func:`sosgame.ai.make_player`, by
    default); ``saved`` is what a record file holds of the game (by default, what it starts
    with), so that quitting asks first when moves would be lost.
    """

    def __init__(
        self,
        table: Table,
        translate: Callable[..., str],
        source: TextIO,
        sink: TextIO,
        *,
        player: Callable[[str], Player] | None = None,
        saved: list[Action] | None = None,
    ) -> None:
        self.table = table
        self.game = table.game
        self.names = table.names
        self.saved = list(self.game.actions) if saved is None else saved
        self._make_player = player
        self._players: dict[str, Player] = {}
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
        self.computers_move()
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
            return self.unsaved and not self.confirm_quit()
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

    @property
    def unsaved(self) -> bool:
        """Whether leaving now would lose moves: the game is not what was last saved."""
        return list(self.game.actions) != self.saved

    def confirm_quit(self) -> bool:
        """Ask whether to quit although moves are not saved; the end of the input says yes."""
        self.say(self.t("confirm_quit", yes=self.t("answer_yes")))
        answer = self.read("> ")
        if answer is None:
            self.say()
            return True
        if self.echo:
            self.say(answer.strip())
        return answer.strip().casefold() in {"y", "yes", self.t("answer_yes").casefold()}

    def move(self, text: str) -> None:
        """Play one move given as text, then let the computers move."""
        game = self.game
        try:
            move = Move.parse(text)
        except InvalidMoveError:
            self.say(self.t("not_understood", text=text))
            return
        if self.table.computer_to_move:
            self.computers_move()
            return
        mover = game.turn
        try:
            lines = self.table.play(move)
        except OccupiedCellError:
            self.say(self.t("occupied", cell=move.cell))
            return
        except OffBoardError:
            self.say(self.t("off_board", cell=move.cell, rows=game.rows, cols=game.cols))
            return
        except GameOverError:
            self.say(self.game_over_text())
            return
        self.scored(mover, lines)
        self.show()
        self.computers_move()

    def scored(self, mover: int, lines: tuple[Line, ...]) -> None:
        """Say what seat ``mover``'s action scored, if anything."""
        if lines:
            key = "extra_turn" if self.game.extra_turn else "scored"
            self.say(self.t(key, name=self.names[mover], count=len(lines), lines=_names(lines)))

    def computers_move(self) -> None:
        """Let the computer seats move for as long as one is to move, then show the board."""
        table = self.table
        moved = False
        while table.computer_to_move:
            seat = table.game.turn
            try:
                move = self._player(table.seats[seat].kind).choose_move(table.game.copy())
                lines = table.play(move)
            except (ImportError, SosError) as error:
                self.say(self.t("tui.computer_failed", name=self.names[seat], error=error))
                return
            self.say(self.t("computer_played", name=self.names[seat], move=move))
            self.scored(seat, lines)
            moved = True
        if moved:
            self.show()

    def _player(self, level: str) -> Player:
        if level not in self._players:
            if self._make_player is None:
                from sosgame.ai import make_player

                self._players[level] = make_player(level)
            else:
                self._players[level] = self._make_player(level)
        return self._players[level]

    def undo(self) -> None:
        """Take back the last action, and the computers' before it, back to a person's turn."""
        undone = self.table.undo()
        if not undone:
            self.say(self.t("nothing_to_undo"))
            return
        for action in undone:
            self.say(self.t("undone", action=self.action_text(action)))
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
            self.say(self.game_over_text())
            return
        if seat not in game.active_seats:
            self.say(self.t("already_resigned", name=self.names[seat]))
            return
        self.table.resign(seat)
        self.say(self.t("resigned", name=self.names[seat]))
        self.show()
        self.computers_move()

    def save(self, path: str) -> None:
        """Save the game as a record."""
        if not path:
            self.say(self.t("save_needs_file"))
            return
        try:
            save(self.table.record(), path)
        except SosError as error:
            self.say(self.t("save_failed", error=error_text(self.t, error)))
            return
        self.saved = list(self.game.actions)
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
        self.say(self.game_over_text())

    def game_over_text(self) -> str:
        """What a finished game lets a person do: undo only where it takes something back (a
        game won against the computer stays won)."""
        return self.t("game_over" if self.table.can_undo else "game_over_final")

    def action_text(self, action: Action) -> str:
        """``action`` as a person reads it: a resignation names its seat counted from 1, as
        the ``resign N`` command does."""
        if isinstance(action, Resignation):
            return self.t("resign_action", seat=action.seat + 1)
        return str(action)

    def show_moves(self) -> None:
        """List the moves so far."""
        actions = [self.action_text(action) for action in self.game.actions]
        self.say(self.t("moves", moves=" ".join(actions) if actions else self.t("no_moves")))


def _names(lines: tuple[Line, ...]) -> str:
    return ", ".join(str(line) for line in lines)
