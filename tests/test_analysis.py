"""``sosgame.ai.analysis``: the moves gone over from the last, each report handed on as soon
as it is known, and a budget that leaves the exact values exact."""

from __future__ import annotations

from sosgame import Game
from sosgame.ai.analysis import MoveReport, analyze
from sosgame.solver import solve
from sosgame.solver.rule import end_value, move_value

# A whole 3x3 game with a mistake and a blunder in it.
GAME = ["Sa1", "Ob1", "Sc1", "Sa2", "Ob2", "Sc2", "Oa3", "Ob3", "Oc3"]


def test_each_move_is_reported_as_soon_as_known_from_the_last() -> None:
    seen: list[MoveReport] = []
    reports = analyze(Game(3, 3, moves=GAME), seconds=0.05, report=seen.append)
    assert [report.ply for report in seen] == list(range(len(GAME), 0, -1))
    assert seen[::-1] == reports
    assert [str(report.played) for report in reports] == GAME


def test_a_budget_leaves_every_exact_value_the_solvers() -> None:
    game = Game(3, 3, moves=GAME)
    reports = analyze(game, seconds=0.05, budget=0.5)
    assert any(report.exact for report in reports)
    replay = Game(3, 3)
    for report in reports:
        if report.exact:
            best = solve(replay)
            assert report.best_value == best.value
            assert report.best in best.best_moves
            after = replay.copy()
            lines = len(after.play(report.played))
            played = (
                end_value(lines, False) if after.is_over else move_value(lines, solve(after).value)
            )
            assert report.played_value == played
            assert report.cost == best.value - played
        replay.play(report.played)
