"""``sosgame puzzle``: one proven puzzle in line mode, or printed as JSON.

Its options are declared in :mod:`sosgame.cli.options`, which loads this module when the
command runs.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable
from typing import Final, TextIO

from sosgame.ai.puzzles import Puzzle, PuzzleError, choose_puzzle, find_puzzle, judge
from sosgame.cli.language import t
from sosgame.errors import InvalidSettingsError
from sosgame.notation import Move, parse_size

__all__ = ["UNSOLVED_STATUS", "run"]

UNSOLVED_STATUS: Final = 3
"""The exit status of a puzzle left unsolved: a wrong move, the solution asked for, or quit."""
_QUIT = ("quit", "exit", "q")
_GIVE_UP = ("solution", "give up")


def _pick(arguments: argparse.Namespace) -> Puzzle:
    if arguments.id is not None:
        found = find_puzzle(arguments.id)
        if found is None:
            raise InvalidSettingsError(t("cli.puzzle.no_id", id=repr(arguments.id)))
        return found
    size = None
    if arguments.size is not None:
        size = parse_size(arguments.size)
        if size is None:
            raise InvalidSettingsError(t("cli.puzzle.bad_size", text=repr(arguments.size)))
    chosen = choose_puzzle(arguments.rating, seed=arguments.seed, size=size, mode=arguments.mode)
    if chosen is None:
        raise InvalidSettingsError(t("cli.puzzle.none"))
    return chosen


def run(arguments: argparse.Namespace) -> int:
    """Print one puzzle as JSON, or play it line by line."""
    puzzle = _pick(arguments)
    if arguments.json:
        print(json.dumps(puzzle.to_json()))
        return 0
    return play(puzzle, sys.stdin, sys.stdout)


def goal_text(puzzle: Puzzle) -> str:
    """What the puzzle asks, in words."""
    return t(f"puzzle.goal.{puzzle.goal}")


def play(puzzle: Puzzle, source: TextIO, sink: TextIO) -> int:
    """Play ``puzzle`` reading moves from ``source``; returns the exit status."""
    echo = not source.isatty()

    def say(text: str = "") -> None:
        print(text, file=sink, flush=True)

    game = puzzle.game()
    say(
        t(
            "cli.puzzle.title",
            id=puzzle.id,
            rating=puzzle.rating,
            mode=t(f"mode.{puzzle.mode}"),
            rows=puzzle.rows,
            cols=puzzle.cols,
        )
    )
    if puzzle.themes:
        themes = ", ".join(t(f"puzzle.theme.{theme}") for theme in puzzle.themes)
        say(t("puzzle.themes", themes=themes))
    say(t("puzzle.to_move", seat=puzzle.turn + 1, scores=" - ".join(map(str, puzzle.scores))))
    say(goal_text(puzzle))
    say(t("cli.puzzle.how"))
    moves: list[Move] = []
    while True:
        say(str(game))
        sink.write("> ")
        sink.flush()
        line = source.readline()
        if not line:
            say()
            return UNSOLVED_STATUS
        text = line.strip()
        if echo:
            say(text)
        if text.lower() in _QUIT:
            return UNSOLVED_STATUS
        if text.lower() in _GIVE_UP:
            _solution(say, judge(puzzle, moves, reveal=True).solution or ())
            return UNSOLVED_STATUS
        try:
            move = Move.parse(text)
            verdict = judge(puzzle, [*moves, move])
        except (PuzzleError, ValueError) as error:
            say(t("cli.puzzle.bad_move", error=error))
            continue
        if not verdict.correct:
            say(t("puzzle.wrong"))
            _solution(say, verdict.solution or ())
            return UNSOLVED_STATUS
        moves.append(move)
        game.play(move)
        if verdict.reply is not None:
            game.play(verdict.reply)
            say(t("cli.puzzle.reply", move=verdict.reply))
        if verdict.done:
            say(str(game))
            say(t("puzzle.solved"))
            return 0
        say(t("puzzle.right_more"))


def _solution(say: Callable[[str], None], line: Iterable[Move]) -> None:
    say(t("puzzle.solution", moves=" ".join(map(str, line))))
