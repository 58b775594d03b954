"""The puzzle generator: positions from games of the computer levels (and from records), kept
when the exact solver proves one move, up to the board's symmetry, strictly best.

A position is a puzzle when every legal move's value is solved (:func:`move_values`) and the
moves reaching the best value are the images of one move under the symmetries that leave the
position as it is; every other move is then worse by at least a point (general mode), or
loses the win or the draw (simple mode). The line goes on while the solving side keeps a
unique best move: after a move that scores, the same side moves again; after a quiet one, the
opponent answers with one of its best moves (a quiet one, so that one reply hands the turn
back). Each puzzle carries themes, a starting rating from its length and how often the
computer levels miss it, and the values of every move at every step (the proof that
:mod:`sosgame.ai.puzzles` judges moves by).

The work is resumable: each game's candidates go to a JSON-lines work file as soon as they are
judged, and a new run skips the games already there. ``python -m sosgame.research.puzzles``
generates, ``--pack`` writes the package's puzzle file from the work file, and ``--verify``
proves every packed puzzle again.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import Final

from sosgame.ai import make_player
from sosgame.ai.puzzles import (
    Goal,
    Puzzle,
    PuzzleError,
    Step,
    attempt,
    from_record,
    read_puzzles,
    stabilizer,
    write_puzzles,
)
from sosgame.errors import SosError
from sosgame.files import read_bytes, write_file
from sosgame.game import Game, Mode
from sosgame.limits import PUZZLES_MAX_BYTES
from sosgame.notation import Move
from sosgame.record import load
from sosgame.solver import TranspositionTable, solve
from sosgame.solver.rule import end_value, move_value
from sosgame.symmetry import symmetries

__all__ = [
    "BOARDS",
    "MAX_STEPS",
    "make_puzzle",
    "move_values",
    "prove",
    "unique_best",
]

BOARDS: Final = {"3x3": 9, "3x4": 12, "4x4": 12, "4x5": 12, "5x5": 11}
"""The boards puzzles come from, each with the most empty cells a candidate may have (on 5x5
only positions the solver finishes quickly)."""
SIMPLE_EXTRA: Final = 3
"""Simple mode's games end early, with the first SOS, and its solves are quicker: its
candidates may have this many more empty cells (but on 5x5)."""
MIN_EMPTY: Final = 3
MAX_STEPS: Final = 4
"""The most moves a puzzle asks for."""
PAIRINGS: Final = (("random", "medium"), ("easy", "medium"), ("medium", "medium"), ("easy", "hard"))
"""The levels whose games the candidates come from."""
MISS_LEVELS: Final = (("easy", 0), ("easy", 1), ("medium", 0), ("medium", 1), ("hard", 0))
"""The (level, seed) pairs whose misses set a puzzle's starting rating; ``hard`` searches a
fixed number of nodes (:data:`HARD_NODES`) so that the rating does not depend on the
machine."""
HARD_NODES: Final = 2000
BASE_RATING: Final = 1100
STEP_RATING: Final = 200
MISS_RATING: Final = 800
WORK: Final = Path("data/puzzles/work.jsonl")
OUTPUT: Final = Path("src/sosgame/ai/puzzles.json.gz")


def move_values(game: Game, table: TranspositionTable | None = None) -> dict[Move, int]:
    """The exact value of every legal move of ``game`` for the seat to move."""
    simple = game.mode == "simple"
    values: dict[Move, int] = {}
    for move in list(game.legal_moves):
        after = game.copy()
        lines = len(after.play(move))
        if after.is_over:
            values[move] = end_value(lines, simple)
        else:
            values[move] = move_value(lines, solve(after, table=table).value)
    return values


def unique_best(game: Game, values: dict[Move, int]) -> Move | None:
    """The best move if every move reaching the best value is its image under a symmetry of
    the position (and some move is worse), else ``None``."""
    best = max(values.values())
    reaching = sorted((move for move, value in values.items() if value == best), key=Move.sort_key)
    if len(reaching) == len(values):
        return None
    first = reaching[0]
    cols = game.cols
    images = set()
    for permutation in stabilizer(game):
        index = permutation[first.cell.row * cols + first.cell.col]
        images.add((first.letter, index // cols, index % cols))
    found = {(move.letter, move.cell.row, move.cell.col) for move in reaching}
    return first if found <= images else None


def _goal(game: Game, best: int) -> Goal | None:
    if game.mode == "general":
        return "points"
    goals: dict[int, Goal] = {1: "win", 0: "draw"}
    return goals.get(best)


def _scores(game: Game, move: Move) -> bool:
    return bool(game.copy().play(move))


def _threats(game: Game) -> set[tuple[int, int]]:
    """The cells where some letter completes a line now."""
    return {
        (move.cell.row, move.cell.col) for move in list(game.legal_moves) if _scores(game, move)
    }


def themes(start: Game, steps: Sequence[Step]) -> tuple[str, ...]:
    """The themes of the line ``steps`` from ``start``."""
    found: set[str] = set()
    first = steps[0].move
    threats = _threats(start)
    scoring = []
    game = start.copy()
    for step in steps:
        scoring.append(bool(game.play(step.move)))
        if step.reply is not None:
            game.play(step.reply)
    if any(a and b for a, b in itertools.pairwise(scoring)):
        found.add("chain")
    elif scoring[0]:
        found.add("score")
    if not scoring[0]:
        after = start.copy()
        after.play(first)
        if (first.cell.row, first.cell.col) in threats:
            found.add("block")
        if threats or (not after.is_over and _threats(after)):
            found.add("sacrifice")
        if any(scoring[1:]):
            found.add("trap")
        if not found & {"block", "sacrifice", "trap"}:
            found.add("quiet")
    if start.position().count(".") <= 6:
        found.add("endgame")
    if len(steps) >= 3:
        found.add("long")
    return tuple(sorted(found))


def puzzle_id(game: Game) -> str:
    """A puzzle's id from its start: the same start always has the same id."""
    text = f"{game.rows}x{game.cols} {game.mode} {game.position()} {game.turn} {game.scores}"
    return hashlib.sha256(text.encode()).hexdigest()[:10]


def make_puzzle(game: Game, table: TranspositionTable | None = None) -> Puzzle | None:
    """The puzzle starting at ``game``'s position, or ``None`` if it is not one (rated
    :data:`BASE_RATING` and by its length: :func:`rate` adds the levels' misses)."""
    if game.players != 2 or game.is_over or game.position().count(".") < MIN_EMPTY:
        return None
    start = Game.from_position(game.position(), mode=game.mode, turn=game.turn, scores=game.scores)
    seat = start.turn
    position = start.copy()
    steps: list[Step] = []
    goal: Goal | None = None
    while len(steps) < MAX_STEPS:
        values = move_values(position, table)
        best = unique_best(position, values)
        if best is None:
            break
        if goal is None:
            goal = _goal(position, values[best])
            if goal is None:
                return None
        position.play(best)
        reply = None
        if not position.is_over and position.turn != seat:
            reply = _reply(position, table)
        if reply is None:
            steps.append(Step(best, values, None))
            if position.is_over or position.turn != seat:
                break
            continue
        follow = position.copy()
        follow.play(reply)
        following = move_values(follow, table) if not follow.is_over else {}
        if not following or unique_best(follow, following) is None:
            steps.append(Step(best, values, None))
            break
        steps.append(Step(best, values, reply))
        position = follow
    if not steps or goal is None:
        return None
    return Puzzle(
        id=puzzle_id(start),
        rows=start.rows,
        cols=start.cols,
        mode=start.mode,
        position=start.position(),
        turn=start.turn,
        scores=(start.scores[0], start.scores[1]),
        goal=goal,
        rating=BASE_RATING + STEP_RATING * (len(steps) - 1),
        themes=themes(start, steps),
        steps=tuple(steps),
    )


def _reply(game: Game, table: TranspositionTable | None) -> Move | None:
    """The opponent's first best move that does not score (so the turn comes back)."""
    for move in solve(game, table=table).best_moves:
        if not _scores(game, move):
            return move
    return None


def miss_share(puzzle: Puzzle) -> float:
    """The share of :data:`MISS_LEVELS` attempts that miss ``puzzle``."""
    misses = 0
    for level, seed in MISS_LEVELS:
        nodes = HARD_NODES if level == "hard" else None
        player = make_player(level, seed=seed, nodes=nodes)
        misses += not attempt(puzzle, player.choose_move)
    return misses / len(MISS_LEVELS)


def rate(puzzle: Puzzle) -> Puzzle:
    """``puzzle`` with its starting rating: :data:`MISS_RATING` times the levels' miss share
    added to the rating its length gives."""
    rating = BASE_RATING + STEP_RATING * (len(puzzle.steps) - 1)
    return replace(puzzle, rating=round(rating + MISS_RATING * miss_share(puzzle)))


def prove(puzzle: Puzzle, table: TranspositionTable | None = None) -> None:
    """Prove ``puzzle`` again from its position with the solver.

    :raises PuzzleError: if the solver's answer differs from the stored line or proof, or a
        step's best move is not unique up to symmetry.
    """
    remade = make_puzzle(puzzle.game(), table)
    if remade is None:
        raise PuzzleError(f"puzzle {puzzle.id}: the position has no unique best move")
    if len(remade.steps) < len(puzzle.steps):
        raise PuzzleError(f"puzzle {puzzle.id}: the line is unique for fewer moves than stored")
    game = puzzle.game()
    for number, step in enumerate(puzzle.steps):
        values = move_values(game, table)
        if values != step.values:
            raise PuzzleError(f"puzzle {puzzle.id}: the values of step {number + 1} differ")
        if unique_best(game, values) is None or values[step.move] != max(values.values()):
            raise PuzzleError(f"puzzle {puzzle.id}: step {number + 1} has no unique best move")
        game.play(step.move)
        if step.reply is not None:
            if step.reply not in solve(game, table=table).best_moves:
                raise PuzzleError(f"puzzle {puzzle.id}: reply {number + 1} is not a best move")
            game.play(step.reply)


# ----------------------------------------------------------------------------- the work


def candidates(size: str, mode: Mode, seed: int) -> Iterator[Game]:
    """The positions of one game of :data:`PAIRINGS` (chosen by ``seed``) that are worth
    judging."""
    rows, cols = (int(part) for part in size.split("x"))
    first, second = PAIRINGS[seed % len(PAIRINGS)]
    players = [
        make_player(level, seed=seed * 2 + number, nodes=HARD_NODES if level == "hard" else None)
        for number, level in enumerate((first, second))
    ]
    game = Game(rows, cols, mode=mode)
    while not game.is_over:
        empty = game.position().count(".")
        extra = SIMPLE_EXTRA if mode == "simple" and rows * cols < 25 else 0
        if MIN_EMPTY <= empty <= BOARDS[size] + extra:
            yield game.copy()
        game.play(players[game.turn].choose_move(game))


def _canonical(game: Game) -> str:
    board = game.position().replace("/", "")
    images = []
    for permutation in symmetries(game.rows, game.cols):
        image = [""] * len(board)
        for index, letter in enumerate(board):
            image[permutation[index]] = letter
        images.append("".join(image))
    return f"{game.rows}x{game.cols} {game.mode} {min(images)}"


def record_candidates(path: Path) -> Iterator[Game]:
    """The positions of the two-player game recorded at ``path`` worth judging (on a board
    of :data:`BOARDS`, with as few empty cells as its candidates need)."""
    record = load(path)
    size = f"{record.rows}x{record.cols}"
    if len(record.players) != 2 or size not in BOARDS:
        return
    extra = SIMPLE_EXTRA if record.mode == "simple" and record.rows * record.cols < 25 else 0
    game = record.starting_game()
    for action in record.moves:
        if game.is_over:
            return
        if MIN_EMPTY <= game.position().count(".") <= BOARDS[size] + extra:
            yield game.copy()
        game.apply(action)


Source = tuple[str, Callable[[], Iterator[Game]]]


def sources(
    games: int, boards: Sequence[str], modes: Sequence[Mode], records: Sequence[Path] = ()
) -> Iterator[Source]:
    """Every source of candidates, each with the key the work file knows it by: ``games``
    games of the levels per board and mode, then the ``records``."""
    for seed in range(games):
        for size in boards:
            for mode in modes:
                yield f"{size} {mode} {seed}", partial(candidates, size, mode, seed)
    for path in records:
        yield f"record {path}", partial(record_candidates, path)


def generate(
    work: Path,
    games: int,
    boards: Sequence[str],
    modes: Sequence[Mode],
    records: Sequence[Path] = (),
) -> None:
    """Judge the candidates of every source (:func:`sources`), skipping those done."""
    done: set[str] = set()
    seen: set[str] = set()
    if work.exists():
        for line in work.read_text().splitlines():
            entry = json.loads(line)
            done.add(entry["game"])
            seen.update(entry.get("seen", []))
    work.parent.mkdir(parents=True, exist_ok=True)
    table = TranspositionTable(64)
    started = time.perf_counter()
    made = 0
    with work.open("a") as out:
        for key, positions in sources(games, boards, modes, records):
            if key in done:
                continue
            found, keys = [], []
            for game in positions():
                canonical = _canonical(game)
                if canonical in seen:
                    continue
                seen.add(canonical)
                keys.append(canonical)
                puzzle = make_puzzle(game, table)
                if puzzle is not None:
                    found.append(rate(puzzle).to_record())
            made += len(found)
            entry = {"game": key, "seen": keys, "puzzles": found}
            out.write(json.dumps(entry, separators=(",", ":")) + "\n")
            out.flush()
            minutes = (time.perf_counter() - started) / 60
            print(f"{key}: {made} new puzzles, {made / max(minutes, 1e-9):.1f} a minute")


def pack(work: Path, output: Path) -> int:
    """Write the puzzle file from the work file; the number of puzzles."""
    puzzles: dict[str, Puzzle] = {}
    for line in work.read_text().splitlines():
        for record in json.loads(line)["puzzles"]:
            puzzle = from_record(record)
            puzzles.setdefault(puzzle.id, puzzle)
    ordered = sorted(puzzles.values(), key=lambda p: (p.rows * p.cols, p.mode, p.rating, p.id))
    write_file(output, write_puzzles(ordered))
    return len(ordered)


def verify(path: Path) -> int:
    """Prove every puzzle of the file at ``path`` again; the number proven."""
    table = TranspositionTable(64)
    puzzles = read_puzzles(read_bytes(path, most=PUZZLES_MAX_BYTES))
    for puzzle in puzzles:
        prove(puzzle, table)
    return len(puzzles)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m sosgame.research.puzzles")
    parser.add_argument("--games", type=int, default=40, help="games per board and mode")
    parser.add_argument("--boards", nargs="+", default=list(BOARDS), choices=list(BOARDS))
    parser.add_argument(
        "--modes", nargs="+", default=["general", "simple"], choices=["general", "simple"]
    )
    parser.add_argument(
        "--records", nargs="*", type=Path, default=[], help="game records to take positions from"
    )
    parser.add_argument("--work", type=Path, default=WORK)
    parser.add_argument("--output", type=Path, default=OUTPUT)
    parser.add_argument("--pack", action="store_true", help="write the puzzle file")
    parser.add_argument("--verify", action="store_true", help="prove the puzzle file again")
    options = parser.parse_args(argv)
    if options.pack:
        print(f"{pack(options.work, options.output)} puzzles written to {options.output}")
    elif options.verify:
        try:
            print(f"{verify(options.output)} puzzles proven again")
        except PuzzleError as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
    else:
        try:
            generate(options.work, options.games, options.boards, options.modes, options.records)
        except SosError as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
