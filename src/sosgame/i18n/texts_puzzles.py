"""The puzzles' texts, in every interface (the command line, the terminal game, the browser).

In English, the source language of the catalogs (see :mod:`sosgame.i18n.texts`)."""

from __future__ import annotations

from typing import Final

from sosgame.i18n.marks import Source, text

__all__ = ["ENTRIES"]

ENTRIES: Final[list[tuple[str, Source]]] = [
    text("puzzle.goal.win", "Find the move that wins."),
    text("puzzle.goal.draw", "Find the move that keeps the draw."),
    text("puzzle.goal.points", "Find the move that gains the most points."),
    text("puzzle.wrong", "Wrong: that move does worse than the best one."),
    text("puzzle.solved", "Solved: that was the one best move."),
    text("puzzle.right_more", "Right! Now find the next move."),
    text("puzzle.to_move", "Player {seat} to move; the scores are {scores}."),
    text("puzzle.solution", "Solution: {moves}"),
    text("puzzle.themes", "Themes: {themes}"),
    text("puzzle.theme.score", "scoring"),
    text("puzzle.theme.chain", "extra-turn chain"),
    text("puzzle.theme.block", "block"),
    text("puzzle.theme.trap", "trap"),
    text("puzzle.theme.sacrifice", "sacrifice"),
    text("puzzle.theme.quiet", "quiet move"),
    text("puzzle.theme.endgame", "endgame"),
    text("puzzle.theme.long", "long line"),
    # the command line
    text("cli.puzzle.help", "play a puzzle proven by the solver, or print one as JSON"),
    text(
        "cli.puzzle.description",
        "Play one puzzle in line mode: a position where one move, and only one up to the "
        "board's symmetry, keeps the best result. With --json, print the puzzle instead.",
    ),
    text("cli.puzzle.id", "the puzzle with this id"),
    text("cli.puzzle.rating", "a puzzle near this rating (default 1500)"),
    text("cli.puzzle.size", "a puzzle on this board, such as 4x4"),
    text("cli.puzzle.mode", "a puzzle with these rules: general or simple (default: either)"),
    text("cli.puzzle.json", "print the puzzle as one JSON object instead of playing it"),
    text("cli.puzzle.no_id", "there is no puzzle with the id {id}"),
    text("cli.puzzle.bad_size", "--size must be ROWSxCOLS, such as 4x4, not {text}"),
    text("cli.puzzle.none", "no puzzle has this board and mode"),
    text("cli.puzzle.title", "Puzzle {id} (rated {rating}): {mode} mode, {rows}x{cols}"),
    text(
        "cli.puzzle.how",
        "Type a move such as Sb2; 'solution' shows the answer and 'quit' leaves.",
    ),
    text("cli.puzzle.bad_move", "Not a move here: {error}"),
    text("cli.puzzle.reply", "The opponent answers {move}."),
    # the terminal game
    text("tui.puzzle.title", "Puzzle {id} · rated {rating} · {mode} mode, {rows}x{cols}"),
    text("tui.key.puzzles", "puzzles"),
    text("tui.key.next_puzzle", "next puzzle"),
    text("tui.key.solution", "solution"),
    # the browser
    text("web.puzzles", "Puzzles"),
    text("web.puzzle_title", "Puzzle {id}"),
    text("web.puzzle_rating", "Puzzle rated {rating}"),
    text("web.puzzle_yours", "Your puzzle rating: {rating}"),
    text("web.puzzle_change", "Your puzzle rating: {rating} ({change})"),
    text(
        "web.puzzle_unrated.solution_seen",
        "Not rated: this puzzle's solution was shown here lately.",
    ),
    text(
        "web.puzzle_unrated.too_fast",
        "Not rated: too many rated puzzles in the last minute; the next ones count again soon.",
    ),
    text("web.puzzle_guest", "You play as a guest, unrated: log in for a puzzle rating."),
    text("web.puzzle_next", "Next puzzle"),
    text("web.puzzle_show", "Show the solution"),
    text("web.puzzle_none", "You have solved every puzzle there is."),
    text("web.daily_puzzle", "Puzzle of the day"),
    text("web.daily_open", "Solve it"),
]
