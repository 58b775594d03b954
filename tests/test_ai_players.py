"""The computer players: one interface, each level's defining behaviour, seeds and budgets."""

from __future__ import annotations

import doctest
import importlib
import math
import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sos_sample import sampled
from sos_strategies import board_settings, examples, random_game
from sosgame import Game, GameOverError, Move, SosError
from sosgame.ai import LEVELS, InvalidBudgetError, InvalidLevelError, make_player
from sosgame.ai.alphabeta import Searcher
from sosgame.ai.state import State
from sosgame.solver import solve

SMALL = {"nodes": 300}
"""A node budget for the searching levels that keeps property tests quick and reproducible."""


def next_player_can_score(game: Game) -> bool:
    """Whether the seat to move has a move completing a line, asked of the engine."""
    for move in list(game.legal_moves):
        lines = game.play(move)
        game.undo()
        if lines:
            return True
    return False


def test_every_level_is_made_and_names_itself() -> None:
    assert LEVELS == ("random", "easy", "medium", "hard", "perfect")
    for level in LEVELS:
        assert make_player(level, seed=1).level == level


@pytest.mark.parametrize("level", ["", "Hard", "expert", None, 3])
def test_an_unknown_level_is_a_value_error_naming_it(level: object) -> None:
    with pytest.raises(InvalidLevelError, match="level must be one of random, easy") as caught:
        make_player(level)  # type: ignore[arg-type]
    assert isinstance(caught.value, ValueError) and isinstance(caught.value, SosError)
    assert repr(level) in str(caught.value)


@pytest.mark.parametrize(
    ("options", "name"),
    [
        ({"seconds": 0}, "seconds"),
        ({"seconds": -1.5}, "seconds"),
        ({"seconds": math.nan}, "seconds"),
        ({"seconds": math.inf}, "seconds"),
        ({"seconds": "1"}, "seconds"),
        ({"seconds": True}, "seconds"),
        ({"nodes": 0}, "nodes"),
        ({"nodes": 2.5}, "nodes"),
        ({"nodes": False}, "nodes"),
        ({"seed": "seven"}, "seed"),
        ({"seed": 1.0}, "seed"),
    ],
)
def test_a_bad_budget_is_a_value_error_naming_it(options: dict[str, object], name: str) -> None:
    for level in ("easy", "hard"):
        with pytest.raises(InvalidBudgetError, match=f"^{name} must be"):
            make_player(level, **options)  # type: ignore[arg-type]


@pytest.mark.parametrize("level", LEVELS)
def test_a_finished_game_has_no_move(level: str) -> None:
    game = Game(1, 3, moves=["Sa1", "Ob1", "Sc1"])
    with pytest.raises(GameOverError):
        make_player(level, **SMALL).choose_move(game)


@pytest.mark.parametrize("mode", ["general", "simple"])
def test_easy_takes_the_move_completing_the_most_lines(mode: str) -> None:
    # Ob2 completes both diagonals; Ob1, Oa2, Oc2 and Ob3 complete one line each.
    game = Game.from_position("S.S/.../S.S", mode=mode)  # type: ignore[arg-type]
    for seed in range(10):
        for level in ("easy", "medium"):
            assert str(make_player(level, seed=seed).choose_move(game)) == "Ob2"


def test_medium_never_hands_over_an_sos_when_a_safe_move_exists() -> None:
    game = Game.from_position("S..../...../..O../...../....S")
    assert not next_player_can_score(game)
    handed_over_by_random = 0
    for seed in range(40):
        for level in ("medium", "random"):
            move = make_player(level, seed=seed).choose_move(game)
            after = game.copy()
            after.play(move)
            gives = next_player_can_score(after)
            if level == "medium":
                assert not gives, f"seed {seed}: medium played {move}, handing over an SOS"
            else:
                handed_over_by_random += gives
    assert handed_over_by_random > 0  # the position does offer moves that hand one over


def test_medium_hands_over_as_little_as_it_can_when_it_must() -> None:
    # Every move hands something over; O at an end opens one line, anything else opens more.
    game = Game.from_position("S.S.S")
    counts = {}
    for move in list(game.legal_moves):
        after = game.copy()
        after.play(move)
        counts[str(move)] = max(len(after.copy().play(reply)) for reply in list(after.legal_moves))
    least = min(counts.values())
    for seed in range(20):
        assert counts[str(make_player("medium", seed=seed).choose_move(game))] == least


def test_hard_declines_a_line_when_taking_it_loses_the_endgame() -> None:
    # Taking Sc1 scores 1, but then the taker must open the last cells and loses 2: worth 0
    # in all. Killing the line with Oc1 leaves the opponent to open: worth +1 (the solver
    # agrees). The one-move levels always take the line.
    game = Game.from_position("SO.S..SS")
    assert [str(move) for move in solve(game).best_moves] == ["Oc1"]
    assert str(make_player("hard", nodes=100_000, seed=1).choose_move(game)) == "Oc1"
    for level in ("easy", "medium"):
        assert str(make_player(level, seed=1).choose_move(game)) == "Sc1"


def test_hard_sees_the_extra_turn_chain() -> None:
    # Sc1 completes a1-b1-c1; the same seat moves again and Se1 completes c1-d1-e1: worth 2.
    # A search that passed the turn after Sc1 would count Se1 for the opponent instead.
    game = Game.from_position("SO.O.S..")
    exact = solve(game)
    assert exact.value == 2 and [str(move) for move in exact.best_moves] == ["Sc1"]
    result = Searcher().search(State(game), random.Random(0), seconds=None, nodes=None)
    assert result is not None and result.value == 2 and result.exact
    assert str(make_player("hard", nodes=50_000, seed=3).choose_move(game)) == "Sc1"


@pytest.mark.parametrize(
    ("position", "mode"),
    [
        ("...../...../.....", "simple"),
        ("S.../.O../..../...S", "general"),
        ("S.O./..../.S../....", "simple"),
        ("........", "general"),
        ("OS.S....", "general"),
    ],
)
def test_perfect_plays_one_of_the_solver_best_moves(position: str, mode: str) -> None:
    game = Game.from_position(position, mode=mode)  # type: ignore[arg-type]
    best = solve(game).best_moves
    for seed in range(3):
        move = make_player("perfect", seconds=30, seed=seed).choose_move(game)
        assert move in best


ISSUE_POSITION = "O..../.S.O./S.SS./...S./S...S"
"""General mode, seat 1 to move: worth 15; only Oa4, Ob4, Sd1 and Se1 keep it (Ob3 gets 10)."""


def test_the_issue_position_is_worth_15_with_four_best_moves() -> None:
    solution = solve(Game.from_position(ISSUE_POSITION))
    assert solution.value == 15
    assert sorted(map(str, solution.best_moves)) == ["Oa4", "Ob4", "Sd1", "Se1"]


@pytest.mark.parametrize("nodes", [60_000, 150_000, 400_000])
@pytest.mark.parametrize("level", ["hard", "perfect"])
def test_hard_and_perfect_play_the_solved_move_whatever_the_budget(level: str, nodes: int) -> None:
    # More budget never gives a worse move: once the solver finishes in its share, the move
    # keeps the exact value.
    game = Game.from_position(ISSUE_POSITION)
    for seed in range(2):
        player = make_player(level, nodes=nodes, seed=seed)
        assert str(player.choose_move(game)) in {"Oa4", "Ob4", "Sd1", "Se1"}
        assert player.proven  # type: ignore[attr-defined]


# A search against the clock: alone (make test), as the other worker's load would shorten it.
@pytest.mark.alone
def test_hard_plays_the_solved_move_under_a_generous_deadline() -> None:
    game = Game.from_position(ISSUE_POSITION)
    player = make_player("hard", seconds=3, seed=5)
    assert str(player.choose_move(game)) in {"Oa4", "Ob4", "Sd1", "Se1"}


def test_hard_out_of_the_solver_reach_says_its_move_is_not_proven() -> None:
    player = make_player("hard", nodes=3_000, seed=1)
    player.choose_move(Game(7, 7, moves=["Sd4"]))
    assert not player.proven  # type: ignore[attr-defined]
    medium = make_player("medium", seed=1)
    medium.choose_move(Game.from_position(ISSUE_POSITION))
    assert not medium.proven  # type: ignore[attr-defined]


@pytest.mark.parametrize("level", ["hard", "perfect"])
@pytest.mark.parametrize("players", [2, 3])
def test_a_simple_mode_win_at_once_is_played_and_proven_whatever_the_board(
    level: str, players: int
) -> None:
    # Far out of the solver's reach, and with too few nodes to search: the win needs neither.
    game = Game(7, 7, mode="simple", players=players, moves=["Sa1", "Sc1", "Od4"][: players + 1])
    player = make_player(level, nodes=1, seed=3)
    move = player.choose_move(game)
    assert game.copy().play(move), move
    assert player.proven  # type: ignore[attr-defined]
    general = Game(7, 7, players=players, moves=["Sa1", "Sc1", "Od4"][: players + 1])
    player.choose_move(general)
    assert not player.proven  # type: ignore[attr-defined]


def test_perfect_falls_back_to_the_search_out_of_the_solver_reach() -> None:
    game = Game(7, 7)
    player = make_player("perfect", nodes=2_000, seed=1)
    move = player.choose_move(game)
    assert move in game.legal_moves
    assert not player.proven  # type: ignore[attr-defined]
    three = Game(3, 4, players=3)
    assert make_player("perfect", nodes=200, seed=1).choose_move(three) in three.legal_moves


@pytest.mark.parametrize("level", ["hard", "perfect"])
@pytest.mark.parametrize("budget", [{"nodes": 1}, {"seconds": 1e-6}, {"nodes": 1, "seconds": 5}])
@pytest.mark.parametrize("players", [2, 3])
def test_a_tiny_budget_still_gives_a_legal_move(
    level: str, budget: dict[str, float], players: int
) -> None:
    game = Game(6, 6, players=players, moves=["Sa1", "Oc3"])
    move = make_player(level, seed=2, **budget).choose_move(game)  # type: ignore[arg-type]
    assert move in game.legal_moves


def test_more_than_two_seats_take_a_line_when_there_is_one() -> None:
    game = Game.from_position("SO./.../...", players=4, turn=2)
    for level in ("easy", "medium", "hard"):
        assert str(make_player(level, nodes=100, seed=0).choose_move(game)) == "Sc1"


def test_a_resigned_seat_is_skipped_by_the_search() -> None:
    game = Game(4, 4, players=3, moves=["Sa1", "Ob2"])
    game.resign(2)
    move = make_player("hard", nodes=500, seed=0).choose_move(game)
    assert move in game.legal_moves


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    board_settings(max_side=5),
    st.integers(0, 10**6),
    st.integers(0, 30),
    st.sampled_from(LEVELS),
)
def test_every_level_plays_a_legal_move_leaves_the_game_alone_and_repeats_with_a_seed(
    setup: dict[str, object], seed: int, limit: int, level: str
) -> None:
    game = random_game(setup, seed, limit=limit)
    if game.is_over:
        return
    before = game.copy()
    move = make_player(level, seed=seed, **SMALL).choose_move(game)
    assert isinstance(move, Move)
    assert move in game.legal_moves
    assert game == before
    again = make_player(level, seed=seed, **SMALL).choose_move(game)
    assert again == move


def test_a_seed_gives_the_same_whole_game() -> None:
    def play(seed: int) -> tuple[Move, ...]:
        players = [make_player("hard", nodes=400, seed=seed), make_player("medium", seed=seed)]
        game = Game(4, 4)
        while not game.is_over:
            game.play(players[game.turn].choose_move(game))
        return game.moves

    assert play(5) == play(5)
    assert len({play(seed) for seed in range(4)}) > 1


@pytest.mark.parametrize("name", ["sosgame.ai", "sosgame.ai.players"])
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("mode", ["general", "simple"])
@pytest.mark.parametrize("seat", [0, 1])
def test_perfect_gets_at_least_the_solver_value_against_any_opponent(mode: str, seat: int) -> None:
    for seed in range(3):
        game = Game(3, 3, mode=mode)  # type: ignore[arg-type]
        perfect = make_player("perfect", seconds=30, seed=seed)
        opponent = make_player("random" if seed % 2 else "medium", seed=seed)
        promised = None
        while not game.is_over:
            if game.turn == seat:
                if promised is None:
                    lead = game.scores[seat] - game.scores[1 - seat]
                    promised = lead + solve(game).value
                game.play(perfect.choose_move(game))
            else:
                game.play(opponent.choose_move(game))
        assert promised is not None and game.outcome is not None
        if mode == "general":
            assert game.scores[seat] - game.scores[1 - seat] >= promised
        else:
            result = (
                0 if game.outcome.winner is None else (1 if game.outcome.winner == seat else -1)
            )
            assert result >= promised


class _FakeClock:
    """A wall clock that moves on ``step`` seconds each time it is read, whatever the CPU does."""

    def __init__(self, step: float) -> None:
        self.now = 1000.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.mark.parametrize("level", sampled(["hard", "perfect"], fast=["hard"]))
@pytest.mark.parametrize(
    ("rows", "cols", "mode", "players", "moves"),
    [
        (5, 5, "simple", 2, 6),  # the solver, then the tree search and the proofs move by move
        (5, 5, "general", 2, 4),  # the solver, alpha-beta, the tree search
        (8, 8, "general", 2, 2),  # alpha-beta and the tree search
        (6, 6, "general", 3, 2),  # the tree search alone
    ],
)
def test_a_move_keeps_its_budget_on_a_clock_that_runs_fast(
    monkeypatch: pytest.MonkeyPatch, level: str, rows: int, cols: int, mode: str, players: int,
    moves: int,
) -> None:  # fmt: skip
    # Every read of the clock costs a millisecond: a loop that went on past its deadline, or
    # stages whose shares add up to more than the budget, would show as fake time spent.
    game = random_game(
        {"rows": rows, "cols": cols, "players": players, "mode": mode}, 3, limit=moves
    )
    player = make_player(level, seconds=0.2, seed=1)
    clock = _FakeClock(0.001)
    monkeypatch.setattr(time, "perf_counter", clock)
    start = clock.now
    player.choose_move(game)
    # The reserve at the end of the budget absorbs a last step past the deadline.
    assert clock.now - start <= 0.2


@settings(max_examples=examples(60), deadline=None)
@given(board_settings(max_side=5), st.integers(0, 10**6), st.integers(0, 30))
def test_can_score_agrees_with_the_engine(setup: dict[str, object], seed: int, limit: int) -> None:
    from sosgame.ai.heuristics import can_score

    game = random_game(setup, seed, limit=limit)
    if not game.is_over:
        assert can_score(State(game)) == next_player_can_score(game)
