"""``sosgame arena``: results, the Elo arithmetic, JSON keys, and one-line errors."""

from __future__ import annotations

import json
import math
import re

import pytest

from sos_cli import run
from sosgame.ai.arena import GameResult, MatchResult, elo, play_game, play_match
from sosgame.ai.multiseat import SeatGame, SeatMatch, play_seat_game, play_seats


def test_elo_follows_the_logistic_formula() -> None:
    assert elo(0.5) == 0
    assert elo(0.75) == pytest.approx(190.85, abs=0.01)
    assert elo(0.25) == pytest.approx(-190.85, abs=0.01)
    assert elo(1.0) == math.inf and elo(0.0) == -math.inf


def _match(scores: list[float]) -> MatchResult:
    games = tuple(
        GameResult(index, index % 2 == 0, score, (0, 0), 9) for index, score in enumerate(scores)
    )
    return MatchResult("a", "b", games)


def test_the_interval_is_the_normal_approximation_on_the_score() -> None:
    match = _match([1.0] * 60 + [0.5] * 20 + [0.0] * 20)
    assert (match.wins, match.draws, match.losses) == (60, 20, 20)
    assert match.score == 0.7
    spread = math.sqrt((60 * 0.3**2 + 20 * 0.2**2 + 20 * 0.7**2) / 100 / 100)
    low, high = match.interval()
    assert low == pytest.approx(0.7 - 1.959964 * spread)
    assert high == pytest.approx(0.7 + 1.959964 * spread)
    rating, rating_low, rating_high = match.elo()
    assert rating == pytest.approx(147.19, abs=0.01)
    assert rating_low < rating < rating_high


def test_a_clean_sweep_still_has_an_interval() -> None:
    low, high = _match([1.0] * 50).interval()
    assert 0.9 < low < 1 and high == pytest.approx(1.0)
    assert math.isfinite(_match([1.0] * 50).elo()[1])


def test_colours_swap_every_game_and_a_seed_repeats_the_match() -> None:
    first = play_match("easy", "random", rows=3, cols=4, games=6, seed=3, jobs=1)
    second = play_match("easy", "random", rows=3, cols=4, games=6, seed=3, jobs=1)
    assert [game.a_first for game in first.games] == [True, False] * 3
    assert first == second
    single = play_game(
        "easy", "random", rows=3, cols=4, mode="general", seconds=None, seed=3, index=4
    )
    assert single == first.games[4]


def test_json_has_the_documented_keys(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        capsys, "arena", "medium", "random", "--size", "4", "--games", "4", "--seed", "1",
        "--json", "--mode", "simple",
    )  # fmt: skip
    assert status == 0, err
    answer = json.loads(out)
    assert list(answer) == [
        "level_a", "level_b", "games", "wins", "draws", "losses", "score", "score_low",
        "score_high", "elo", "elo_low", "elo_high", "points_a", "points_b", "ratings", "rows",
        "cols", "mode", "seconds", "seed",
    ]  # fmt: skip
    assert answer["wins"] + answer["draws"] + answer["losses"] == answer["games"] == 4
    assert answer["level_a"] == "medium" and answer["mode"] == "simple"
    assert set(answer["ratings"]) == {"medium", "random"}
    assert set(answer["ratings"]["medium"]) == {"rating", "mu", "sigma"}


def test_text_names_wins_score_and_elo(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        capsys, "arena", "hard", "easy", "--rows", "1", "--cols", "7", "--games", "2",
        "--seconds", "0.01", "--jobs", "2",
    )  # fmt: skip
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0] == "hard vs easy: 1x7 general, 2 games, 0.01 s a move"
    assert re.fullmatch(r"hard: \d+ wins?, \d+ draws?, \d+ loss(es)?", lines[1])
    assert lines[2].startswith("score ") and "interval at 95%" in lines[2]
    assert lines[3].startswith("Elo difference ")
    assert lines[4].startswith("hard: OpenSkill rating ")
    assert lines[5].startswith("easy: OpenSkill rating ")


def test_more_seats_sit_in_random_order_and_the_shares_add_up() -> None:
    match = play_seats(["medium", "random", "random"], rows=4, cols=4, games=8, seed=5, jobs=1)
    assert match == play_seats(["medium", "random", "random"], rows=4, cols=4, games=8, seed=5)
    orders = {game.levels for game in match.games}
    assert len(orders) > 1
    assert all(sorted(order) == ["medium", "random", "random"] for order in orders)
    assert match.names == ("medium", "random")
    assert match.win_share("medium") + match.win_share("random") == pytest.approx(1)
    total = sum(sum(game.scores) for game in match.games)
    assert match.points("medium") + match.points("random") == total
    for game in match.games:
        best = max(game.scores)
        assert game.winners == tuple(s for s, score in enumerate(game.scores) if score == best)
    single = play_seat_game(
        ("medium", "random", "random"), rows=4, cols=4, mode="general", seconds=None, seed=5,
        index=3,
    )  # fmt: skip
    assert single == match.games[3]


def test_ratings_follow_the_places_of_every_seat() -> None:
    pytest.importorskip("openskill")
    wins = tuple(
        SeatGame(index, levels, scores, (scores.index(max(scores)),), 16)
        for index, (levels, scores) in enumerate(
            [
                (("a", "b", "b"), (3, 1, 0)),
                (("b", "a", "b"), (0, 2, 1)),
                (("b", "b", "a"), (1, 0, 4)),
            ]
        )
    )
    ratings = SeatMatch(("a", "b", "b"), wins).ratings()
    assert ratings["a"].mu > ratings["b"].mu
    assert SeatMatch(("a", "b", "b"), wins).win_share("a") == 1


def test_json_for_more_seats_has_each_level_share_and_rating(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run(
        capsys, "arena", "medium", "easy", "random", "--size", "4", "--games", "3", "--seed",
        "2", "--jobs", "1", "--json",
    )  # fmt: skip
    assert status == 0, err
    answer = json.loads(out)
    assert list(answer) == [
        "levels", "games", "results", "ratings", "rows", "cols", "mode", "seconds", "seed",
    ]  # fmt: skip
    assert answer["levels"] == ["medium", "easy", "random"]
    assert set(answer["results"]) == set(answer["ratings"]) == {"medium", "easy", "random"}
    shares = [result["win_share"] for result in answer["results"].values()]
    assert sum(shares) == pytest.approx(1, abs=1e-3)
    status, out, err = run(
        capsys, "arena", "medium", "easy", "random", "--size", "4", "--games", "2", "--jobs", "1"
    )
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0] == (
        "medium, easy, random: 4x4 general, 2 games in random seat order, 0.5 s a move"
    )
    assert lines[1].startswith("medium: share of wins ")


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["arena", "easy", "expert"], "invalid choice: 'expert'"),
        (["arena", "easy", "random", "--games", "0"], "games must be a whole number"),
        (["arena", "easy", "random", "--size", "0"], "rows must be from 1 to 26"),
        (["arena", "easy", "random", "--size", "2"], "too small"),
        (["arena", "easy", "random", "--seconds", "-2"], "seconds must be a number greater"),
        (["arena", "easy", "random", "--jobs", "0"], "jobs must be a whole number"),
        (["arena", "easy", "random", "--mode", "fast"], "invalid choice: 'fast'"),
        (["arena", "easy", "random", "expert"], "level must be one of"),
        (["arena", *["easy"] * 9], "a match seats 2 to 8 levels, not 9"),
    ],
)
def test_bad_input_is_one_line_and_a_failure(
    capsys: pytest.CaptureFixture[str], argv: list[str], needle: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert status != 0
    assert out == ""
    assert err.count("\n") == 1 and needle in err


def test_in_a_pipe_there_is_no_progress_at_all(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(
        capsys, "arena", "easy", "random", "--size", "3", "--games", "3", "--jobs", "1"
    )
    assert status == 0
    assert err == ""  # standard error is not a terminal here: no frames, no notice
    assert out.startswith("easy vs random: 3x3 general, 3 games")
