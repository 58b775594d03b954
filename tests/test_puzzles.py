"""The puzzles: the generator finds them and refuses what is not one, the shipped set is
proven again, and moves are judged by the stored proof."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest

from sosgame import Game
from sosgame.ai.puzzles import (
    THEMES,
    PuzzleError,
    Step,
    attempt,
    choose_puzzle,
    daily_puzzle,
    find_puzzle,
    from_record,
    judge,
    puzzle_set,
    read_puzzles,
    write_puzzles,
)
from sosgame.glicko import NEW_RATING, Glicko, update
from sosgame.notation import Move
from sosgame.record import save
from sosgame.research.puzzles import (
    generate,
    make_puzzle,
    move_values,
    pack,
    prove,
    record_candidates,
    unique_best,
)

SMALL = [puzzle for puzzle in puzzle_set() if puzzle.rows * puzzle.cols <= 12]


def test_the_generator_finds_a_known_chain_on_3x3() -> None:
    # a1 completes the diagonal a1-b2-c3, then a3 the column a1-a2-a3: an extra-turn chain.
    puzzle = make_puzzle(Game.from_position(".../OO./..S", turn=1))
    assert puzzle is not None
    assert [str(move) for move in puzzle.line()] == ["Sa1", "Sa3"]
    assert puzzle.goal == "points"
    assert "chain" in puzzle.themes
    assert puzzle.steps[0].values[Move.parse("Sa1")] == 6


def test_the_generator_finds_a_quiet_move_unique_up_to_symmetry() -> None:
    # Every O in a corner is as good as another: the board is symmetric, so the puzzle counts.
    puzzle = make_puzzle(Game.from_position(".S./SOS/.S.", turn=1, scores=[0, 2]))
    assert puzzle is not None
    assert [str(move) for move in puzzle.line()] == ["Oa1"]
    assert puzzle.themes == ("endgame", "quiet")


def test_a_position_with_two_different_best_moves_is_refused() -> None:
    # S at b1 or at c2 each complete one line; the two are not images of each other.
    game = Game.from_position("SO./..O/..S", turn=0)
    values = move_values(game)
    best = max(values.values())
    assert len([move for move, value in values.items() if value == best]) >= 2
    assert unique_best(game, values) is None
    assert make_puzzle(game) is None


def test_a_wrong_stored_solution_is_refused() -> None:
    puzzle = SMALL[0]
    record = puzzle.to_record()
    worse = next(m for m, v in puzzle.steps[0].values.items() if v < puzzle.steps[0].best)
    record["line"] = " ".join([str(worse), *record["line"].split()[1:]])
    with pytest.raises(PuzzleError):
        from_record(record)
    tampered = dataclasses.replace(
        puzzle,
        steps=(Step(worse, puzzle.steps[0].values, None), *puzzle.steps[1:]),
    )
    with pytest.raises(PuzzleError):
        prove(tampered)


def test_a_proof_with_a_wrong_value_is_refused() -> None:
    puzzle = SMALL[1]
    values = dict(puzzle.steps[0].values)
    other = next(move for move in values if move != puzzle.steps[0].move)
    values[other] -= 1
    tampered = dataclasses.replace(
        puzzle, steps=(dataclasses.replace(puzzle.steps[0], values=values), *puzzle.steps[1:])
    )
    with pytest.raises(PuzzleError, match="values"):
        prove(tampered)


def test_a_random_sample_of_the_small_shipped_puzzles_is_proven_again() -> None:
    for puzzle in random.Random().sample(SMALL, 3):
        prove(puzzle)


def test_a_random_sample_of_all_the_shipped_puzzles_is_proven_again() -> None:
    # The larger boards need the compiled solver: the slow tier.
    for puzzle in random.Random().sample(puzzle_set(), 20):
        prove(puzzle)


def test_the_shipped_set_is_large_varied_and_reads_back_the_same() -> None:
    puzzles = puzzle_set()
    assert len(puzzles) >= 2000
    assert {(p.rows, p.cols) for p in puzzles} >= {(3, 3), (3, 4), (4, 4), (4, 5), (5, 5)}
    assert {p.mode for p in puzzles} == {"general", "simple"}
    assert {theme for p in puzzles for theme in p.themes} <= set(THEMES)
    assert len({p.id for p in puzzles}) == len(puzzles)
    assert read_puzzles(write_puzzles(puzzles[:50])) == puzzles[:50]


def test_a_file_that_is_not_a_puzzle_file_is_refused() -> None:
    with pytest.raises(PuzzleError):
        read_puzzles(b"not gzip")
    with pytest.raises(PuzzleError):
        from_record({"id": "x", "size": "3x3"})


def test_the_right_move_wins_and_a_wrong_one_shows_the_solution() -> None:
    puzzle = next(p for p in SMALL if len(p.steps) == 1)
    right = judge(puzzle, [puzzle.steps[0].move])
    assert right.correct and right.done
    assert right.solution == tuple(puzzle.line())
    worse = next(m for m, v in puzzle.steps[0].values.items() if v < puzzle.steps[0].best)
    wrong = judge(puzzle, [str(worse)])
    assert not wrong.correct and wrong.done
    assert wrong.solution == tuple(puzzle.line())


def test_a_longer_puzzle_answers_with_the_opponents_reply() -> None:
    puzzle = next(p for p in SMALL if p.steps[0].reply is not None)
    verdict = judge(puzzle, [puzzle.steps[0].move])
    assert verdict.correct and not verdict.done
    assert verdict.reply == puzzle.steps[0].reply
    assert verdict.solution is None
    moves = [step.move for step in puzzle.steps]
    assert judge(puzzle, moves).done


def test_an_image_of_the_best_move_under_the_positions_symmetry_is_right() -> None:
    puzzle = make_puzzle(Game.from_position(".S./SOS/.S.", turn=1, scores=[0, 2]))
    assert puzzle is not None
    for move in ("Oa1", "Oc1", "Oa3", "Oc3"):
        verdict = judge(puzzle, [move])
        assert verdict.correct and verdict.done
        assert verdict.solution == (Move.parse(move),)
    assert not judge(puzzle, ["Sa1"]).correct


def test_moves_that_are_not_moves_here_are_refused() -> None:
    puzzle = SMALL[0]
    occupied = next(
        f"S{chr(97 + col)}{row + 1}"
        for row, text in enumerate(puzzle.position.split("/"))
        for col, letter in enumerate(text)
        if letter != "."
    )
    for moves in (["x"], [occupied], ["Sz9"], [str(puzzle.steps[0].move)] * 9):
        with pytest.raises(PuzzleError):
            judge(puzzle, moves)


def test_the_next_puzzle_is_near_the_rating_and_never_one_solved() -> None:
    puzzles = puzzle_set()
    chosen = choose_puzzle(1500, seed=1)
    assert chosen is not None
    assert abs(chosen.rating - 1500) <= 300
    solved = {p.id for p in puzzles if p.id != puzzles[5].id}
    assert choose_puzzle(1500, solved=solved) == puzzles[5]
    assert choose_puzzle(1500, solved={p.id for p in puzzles}) is None
    assert find_puzzle(puzzles[5].id) == puzzles[5]
    assert find_puzzle("nothing") is None


def test_the_daily_puzzle_is_the_same_all_day_and_changes() -> None:
    assert daily_puzzle(20000) == daily_puzzle(20000)
    assert len({daily_puzzle(day).id for day in range(20000, 20010)}) > 5


def test_the_first_move_a_level_plays_is_judged_as_any_move() -> None:
    puzzle = next(p for p in SMALL if len(p.steps) == 1)
    assert attempt(puzzle, lambda game: puzzle.steps[0].move)
    worse = next(m for m, v in puzzle.steps[0].values.items() if v < puzzle.steps[0].best)
    assert not attempt(puzzle, lambda game: worse)


def test_glicko_2_follows_glickmans_example() -> None:
    # Glickman's worked example, one game: 1500 (RD 200) beats 1400 (RD 30).
    player, opponent = update(Glicko(1500, 200, 0.06), Glicko(1400, 30, 0.06), 1.0)
    assert round(player.rating, 1) == 1563.6
    assert round(player.deviation, 1) == 175.4
    assert opponent.rating < 1400
    lost, _ = update(NEW_RATING, Glicko(1500, 60), 0.0)
    assert lost.rating < NEW_RATING.rating


def test_the_generator_takes_records_too_and_resumes_where_it_stopped(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    save(Game(3, 3, moves=["Sa1", "Ob2", "Oc3", "Sb1", "Sa3"]), path)
    positions = list(record_candidates(path))
    assert [game.position().count(".") for game in positions] == [9, 8, 7, 6, 5]
    work = tmp_path / "work.jsonl"
    generate(work, 0, [], [], [path])
    entries = [json.loads(line) for line in work.read_text().splitlines()]
    assert [entry["game"] for entry in entries] == [f"record {path}"]
    assert len(entries[0]["seen"]) == 5
    generate(work, 0, [], [], [path])  # done already: nothing is judged again
    assert len(work.read_text().splitlines()) == 1
    output = tmp_path / "puzzles.json.gz"
    assert pack(work, output) == len(entries[0]["puzzles"])
