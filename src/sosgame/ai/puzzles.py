"""Puzzles: a position, the one move (up to the board's symmetry) that keeps the best result,
and the line that follows while the solving side keeps a unique best move.

The shipped set (``puzzles.json.gz`` beside this module) is made and proven by
:mod:`sosgame.research.puzzles`; every step of a puzzle carries the value of every legal move
there (the solver's proof), so judging a move needs no search: a move is right when its stored
value is the best, and the rest of the line follows it through the symmetry that maps the
stored move onto it.

>>> puzzle = puzzle_set()[0]
>>> judge(puzzle, []).correct
True
"""

from __future__ import annotations

import gzip
import json
import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any, Final, Literal, NamedTuple, TypeAlias

from sosgame.errors import SosError
from sosgame.files import check_text, gunzip
from sosgame.game import Game
from sosgame.limits import PUZZLES_MAX_BYTES, PUZZLES_MAX_DEPTH
from sosgame.notation import Cell, Move, parse_size
from sosgame.symmetry import symmetries

__all__ = [
    "FORMAT",
    "GOALS",
    "THEMES",
    "Goal",
    "Puzzle",
    "PuzzleError",
    "Step",
    "Verdict",
    "attempt",
    "board_after",
    "choose_puzzle",
    "daily_puzzle",
    "find_puzzle",
    "judge",
    "puzzle_set",
    "read_puzzles",
]

FORMAT: Final = 1
"""The version of the puzzle file's layout."""
Goal: TypeAlias = Literal["win", "draw", "points"]
GOALS: Final[tuple[Goal, ...]] = ("win", "draw", "points")
"""What a puzzle asks: win (simple mode), keep the draw (simple), gain the most points
(general)."""
THEMES: Final = ("score", "chain", "block", "trap", "sacrifice", "quiet", "endgame", "long")
"""The themes a puzzle may carry: a move that scores, an extra-turn chain, a block of the
opponent's line, a quiet move that prepares a later score, a sacrifice (points declined or
handed over), a quiet move, few empty cells, three or more moves to find."""
_DATA: Final = "puzzles.json.gz"
NEAREST: Final = 20
"""How many of the puzzles nearest a player's rating the next puzzle is drawn from."""


class PuzzleError(SosError):
    """A puzzle file or a list of moves that is not what it should be."""


@dataclass(frozen=True)
class Step:
    """One move to find: the stored ``move``, the ``values`` of every legal move there (the
    proof), and the opponent's ``reply`` after it (``None`` if the solving side moves again
    or the line ends)."""

    move: Move
    values: dict[Move, int]
    reply: Move | None

    @property
    def best(self) -> int:
        """The best value there."""
        return max(self.values.values())


@dataclass(frozen=True)
class Puzzle:
    """A proven puzzle (positions as :meth:`Game.from_position` takes them)."""

    id: str
    rows: int
    cols: int
    mode: Literal["general", "simple"]
    position: str
    turn: int
    scores: tuple[int, int]
    goal: Goal
    rating: int
    themes: tuple[str, ...]
    steps: tuple[Step, ...]

    def game(self) -> Game:
        """The puzzle's starting position as a game."""
        return Game.from_position(self.position, mode=self.mode, turn=self.turn, scores=self.scores)

    def line(self) -> list[Move]:
        """Every move of the solution in order, the opponent's replies included."""
        plies: list[Move] = []
        for step in self.steps:
            plies.append(step.move)
            if step.reply is not None:
                plies.append(step.reply)
        return plies

    def _start(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "mode": self.mode,
            "position": self.position,
            "turn": self.turn,
            "scores": list(self.scores),
            "goal": self.goal,
            "rating": self.rating,
        }

    def to_json(self) -> dict[str, Any]:
        """The puzzle as the API sends it (without its solution)."""
        return {
            **self._start(),
            "rows": self.rows,
            "cols": self.cols,
            "themes": list(self.themes),
            "moves": len(self.steps),
            "lines": [line.to_dict() for line in self.game().lines],
        }

    def to_record(self) -> dict[str, Any]:
        """The puzzle as the puzzle file stores it, its proof included."""
        return {
            **self._start(),
            "size": f"{self.rows}x{self.cols}",
            "themes": " ".join(self.themes),
            "line": " ".join(map(str, self.line())),
            "proof": [
                " ".join(f"{move}:{value}" for move, value in sorted_values(step.values))
                for step in self.steps
            ],
        }


def sorted_values(values: dict[Move, int]) -> list[tuple[Move, int]]:
    """A step's values in board order."""
    return sorted(values.items(), key=lambda item: item[0].sort_key())


def _field(data: dict[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    value = data.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise PuzzleError(f"puzzle field {name!r} is missing or of the wrong kind: {value!r}")
    return value


def from_record(data: object) -> Puzzle:
    """A puzzle from its stored form, checked against the rules.

    :raises PuzzleError: for a record that is not a well-formed puzzle.
    """
    if not isinstance(data, dict):
        raise PuzzleError(f"a puzzle must be an object, not {type(data).__name__}")
    size = parse_size(_field(data, "size", str))
    if size is None:
        raise PuzzleError(f"puzzle size {data['size']!r} is not ROWSxCOLS")
    mode = _field(data, "mode", str)
    goal = _field(data, "goal", str)
    if mode not in ("general", "simple") or goal not in GOALS:
        raise PuzzleError(f"puzzle mode {mode!r} or goal {goal!r} is not known")
    scores = _field(data, "scores", list)
    proof = _field(data, "proof", list)
    try:
        game = Game.from_position(
            _field(data, "position", str), mode=mode, turn=_field(data, "turn", int), scores=scores
        )
        steps = _steps(game, _field(data, "line", str).split(), proof)
    except (SosError, ValueError) as error:
        raise PuzzleError(f"puzzle {data.get('id')!r}: {error}") from error
    themes = tuple(_field(data, "themes", str).split())
    return Puzzle(
        id=_field(data, "id", str),
        rows=size[0],
        cols=size[1],
        mode=mode,
        position=data["position"],
        turn=data["turn"],
        scores=(int(scores[0]), int(scores[1])),
        goal=goal,
        rating=_field(data, "rating", int),
        themes=themes,
        steps=steps,
    )


def _steps(game: Game, line: list[str], proof: list[object]) -> tuple[Step, ...]:
    seat = game.turn
    steps: list[Step] = []
    index = 0
    while index < len(line):
        if game.turn != seat or len(steps) >= len(proof):
            raise PuzzleError("the line and the proof do not match")
        move = Move.parse(line[index])
        values = _values(proof[len(steps)])
        if set(values) != set(game.legal_moves) or values.get(move) != max(values.values()):
            raise PuzzleError(f"the proof of step {len(steps) + 1} does not fit the position")
        game.play(move)
        index += 1
        reply = None
        if index < len(line) and not game.is_over and game.turn != seat:
            reply = Move.parse(line[index])
            game.play(reply)
            index += 1
        steps.append(Step(move, values, reply))
    if not steps or len(steps) != len(proof):
        raise PuzzleError("the line and the proof do not match")
    return tuple(steps)


def _values(text: object) -> dict[Move, int]:
    if not isinstance(text, str):
        raise PuzzleError(f"a step's proof must be text, not {type(text).__name__}")
    values: dict[Move, int] = {}
    for item in text.split():
        move, _, value = item.partition(":")
        values[Move.parse(move)] = int(value)
    return values


def read_puzzles(data: bytes) -> tuple[Puzzle, ...]:
    """The puzzles of a gzipped puzzle file.

    :raises PuzzleError: for a file that is not one.
    """
    try:
        text = check_text(gunzip(data, most=PUZZLES_MAX_BYTES), depth=PUZZLES_MAX_DEPTH)
        document = json.loads(text)
    except ValueError as error:
        raise PuzzleError(f"not a gzipped JSON puzzle file: {error}") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise PuzzleError(f"a puzzle file must be an object of format {FORMAT}")
    records = document.get("puzzles")
    if not isinstance(records, list):
        raise PuzzleError("a puzzle file must list its puzzles")
    return tuple(from_record(record) for record in records)


def write_puzzles(puzzles: Sequence[Puzzle]) -> bytes:
    """The gzipped puzzle file of ``puzzles`` (the same bytes for the same puzzles)."""
    document = {"format": FORMAT, "puzzles": [puzzle.to_record() for puzzle in puzzles]}
    text = json.dumps(document, separators=(",", ":"))
    return gzip.compress(text.encode(), mtime=0)


@cache
def puzzle_set() -> tuple[Puzzle, ...]:
    """The shipped puzzles, read once."""
    return read_puzzles(files("sosgame.ai").joinpath(_DATA).read_bytes())


@cache
def _by_id() -> dict[str, Puzzle]:
    return {puzzle.id: puzzle for puzzle in puzzle_set()}


def find_puzzle(puzzle_id: str) -> Puzzle | None:
    """The shipped puzzle with this id, if there is one."""
    return _by_id().get(puzzle_id)


def daily_puzzle(day: int) -> Puzzle:
    """The puzzle of day number ``day`` (days since 1970-01-01, UTC): the same for everyone,
    a different one each day, taken from the puzzles of middling rating."""
    ordered = sorted(puzzle_set(), key=lambda puzzle: (puzzle.rating, puzzle.id))
    middle = ordered[len(ordered) // 4 : len(ordered) - len(ordered) // 4] or ordered
    return middle[random.Random(day).randrange(len(middle))]


def choose_puzzle(
    rating: float,
    *,
    solved: Collection[str] = (),
    seed: int | None = None,
    size: tuple[int, int] | None = None,
    mode: str | None = None,
) -> Puzzle | None:
    """A puzzle near ``rating`` not in ``solved`` (ids), of ``size`` and ``mode`` if given:
    one of the :data:`NEAREST` closest in rating, at random (``seed`` repeats the choice);
    ``None`` when every such puzzle is solved."""
    left = [
        puzzle
        for puzzle in puzzle_set()
        if puzzle.id not in solved
        and (size is None or (puzzle.rows, puzzle.cols) == size)
        and (mode is None or puzzle.mode == mode)
    ]
    if not left:
        return None
    left.sort(key=lambda puzzle: (abs(puzzle.rating - rating), puzzle.id))
    return random.Random(seed).choice(left[:NEAREST])


# ----------------------------------------------------------------------------- judging


class Verdict(NamedTuple):
    """The answer to the solving side's moves so far: whether they are right, the opponent's
    ``reply`` to the last one, whether the puzzle is over, and the whole ``solution`` line
    (the replies included) once it is over or a move was wrong."""

    correct: bool
    reply: Move | None
    done: bool
    solution: tuple[Move, ...] | None

    def to_json(self) -> dict[str, Any]:
        """The verdict as the API sends it."""
        return {
            "correct": self.correct,
            "reply": None if self.reply is None else str(self.reply),
            "done": self.done,
            "solution": None if self.solution is None else [str(m) for m in self.solution],
        }


def _image(permutation: tuple[int, ...], move: Move, cols: int) -> Move:
    index = permutation[move.cell.row * cols + move.cell.col]
    return Move(move.letter, Cell(index // cols, index % cols))


def _inverse(permutation: tuple[int, ...]) -> tuple[int, ...]:
    inverse = [0] * len(permutation)
    for index, image in enumerate(permutation):
        inverse[image] = index
    return tuple(inverse)


def stabilizer(game: Game) -> list[tuple[int, ...]]:
    """The board's symmetries that leave the position of ``game`` as it is."""
    board = game.position().replace("/", "")
    return [
        permutation
        for permutation in symmetries(game.rows, game.cols)
        if all(board[permutation[index]] == board[index] for index in range(len(board)))
    ]


def judge(puzzle: Puzzle, moves: Sequence[Move | str], *, reveal: bool = False) -> Verdict:
    """The verdict on the solving side's ``moves`` so far (each right move may be any image
    of the stored one under a symmetry of the position); ``reveal`` adds the solution even
    when the puzzle is not over (the solver gave up).

    :raises PuzzleError: for text that is not a move, an illegal move, or more moves than the
        puzzle has.
    """
    if len(moves) > len(puzzle.steps):
        raise PuzzleError(f"the puzzle has {len(puzzle.steps)} moves to find, not {len(moves)}")
    stored = puzzle.game()
    played = puzzle.game()
    cols = puzzle.cols
    mapping = symmetries(puzzle.rows, cols)[0]  # played = mapping(stored)
    reply: Move | None = None
    for number, raw in enumerate(moves):
        try:
            move = raw if isinstance(raw, Move) else Move.parse(raw)
            played.copy().play(move)
        except (SosError, ValueError) as error:
            raise PuzzleError(f"move {number + 1}: {error}") from error
        step = puzzle.steps[number]
        wanted = _image(_inverse(mapping), move, cols)
        turn = next(
            (
                permutation
                for permutation in stabilizer(stored)
                if _image(permutation, step.move, cols) == wanted
            ),
            None,
        )
        if step.values.get(wanted) != step.best or turn is None:
            return Verdict(False, None, True, _mapped(puzzle, mapping))
        mapping = tuple(mapping[turn[index]] for index in range(len(mapping)))
        stored.play(step.move)
        played.play(move)
        reply = None
        if step.reply is not None:
            stored.play(step.reply)
            reply = _image(mapping, step.reply, cols)
            played.play(reply)
    done = len(moves) == len(puzzle.steps)
    return Verdict(True, reply, done, _mapped(puzzle, mapping) if done or reveal else None)


def _mapped(puzzle: Puzzle, mapping: tuple[int, ...]) -> tuple[Move, ...]:
    return tuple(_image(mapping, move, puzzle.cols) for move in puzzle.line())


def board_after(puzzle: Puzzle, moves: Sequence[Move | str]) -> dict[str, Any]:
    """The board after the solving side's ``moves`` (and the replies to the right ones), as
    the API sends it: position, turn, scores and the lines on it.

    :raises PuzzleError: as :func:`judge` does.
    """
    game = puzzle.game()
    for number, move in enumerate(moves):
        verdict = judge(puzzle, moves[: number + 1])
        game.play(move)
        if not verdict.correct:
            break
        if verdict.reply is not None:
            game.play(verdict.reply)
    return {
        "position": game.position(),
        "turn": game.turn,
        "scores": list(game.scores),
        "lines": [line.to_dict() for line in game.lines],
    }


def attempt(puzzle: Puzzle, choose: Any) -> bool:
    """Whether a player (``choose(game) -> Move``, such as a computer player's
    ``choose_move``) finds every move of ``puzzle``."""
    game = puzzle.game()
    moves: list[Move] = []
    for _ in puzzle.steps:
        move = choose(game.copy())
        moves.append(move)
        verdict = judge(puzzle, moves)
        if not verdict.correct:
            return False
        game.play(move)
        if verdict.reply is not None:
            game.play(verdict.reply)
    return True
