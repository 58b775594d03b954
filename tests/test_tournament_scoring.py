"""An Arena's scores: streaks and fire, berserk, draws, and standings from the games alone."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from sosgame.tournaments.arena_scoring import (
    ArenaGame,
    Entrant,
    arena_standings,
    berserk_plies,
    performance,
    sheet_of,
)

ME = "me"


def game(
    number: int,
    result: str,
    *,
    plies: int = 25,
    cells: int = 25,
    berserk: bool = False,
    opponent: str = "them",
) -> ArenaGame:
    winner = {"w": ME, "l": opponent, "d": None}[result]
    return ArenaGame(
        f"g{number}",
        ME,
        opponent,
        winner,
        plies,
        cells,
        frozenset({ME}) if berserk else frozenset(),
        finished_at=number,
    )


def points(*games: ArenaGame) -> list[int]:
    return [score.points for score in sheet_of(ME, games).scores]


def test_two_wins_in_a_row_set_a_player_on_fire_until_a_game_is_not_won() -> None:
    results = "wwwdlwwlw"
    sheet = sheet_of(ME, [game(i, r) for i, r in enumerate(results)])
    assert [s.points for s in sheet.scores] == [2, 2, 4, 2, 0, 2, 2, 0, 2]
    assert sheet.total == 16
    assert not sheet.fire
    assert sheet_of(ME, [game(1, "w"), game(2, "w")]).fire
    # A win that opened no streak is a plain one.
    assert [s.flag for s in sheet.scores[:2]] == ["streak", "streak"]
    assert sheet.scores[5].flag == "streak" and sheet.scores[8].flag == "streak"


def test_a_berserk_win_earns_a_point_more_if_the_game_lasted() -> None:
    assert points(game(1, "w", berserk=True)) == [3]
    assert points(game(1, "w", berserk=True, plies=11)) == [2]  # under half of 25 cells
    assert points(game(1, "w", berserk=True, plies=14, cells=100)) == [3]  # lichess's 14
    assert points(game(1, "l", berserk=True)) == [0]
    # On fire, a berserk win is worth 4 + 1.
    assert points(game(1, "w"), game(2, "w"), game(3, "w", berserk=True)) == [2, 2, 5]


def test_draws_quick_and_repeated_earn_nothing() -> None:
    assert points(game(1, "d")) == [1]
    assert points(game(1, "d", plies=10)) == [0]  # agreed before 20 plies
    assert points(game(1, "d", plies=9, cells=9)) == [1]  # a full 3x3 board is no quick draw
    # A draw after a draw, losses between them aside, is worth nothing unless long.
    assert points(game(1, "d", plies=20, cells=100), game(2, "d", plies=20, cells=100)) == [1, 0]
    assert points(
        game(1, "d", plies=20, cells=100), game(2, "l"), game(3, "d", plies=20, cells=100)
    ) == [1, 0, 0]
    assert points(game(1, "d"), game(2, "d")) == [1, 1]  # 25 plies: the full board is long
    assert points(game(1, "w"), game(2, "w"), game(3, "d")) == [2, 2, 2]


RESULTS = st.lists(
    st.tuples(
        st.sampled_from("wdl"),
        st.integers(1, 100),
        st.sampled_from([9, 25, 49, 100]),
        st.booleans(),
    ),
    max_size=30,
)


def _games(drawn: list[tuple[str, int, int, bool]]) -> list[ArenaGame]:
    return [
        game(i, result, plies=min(plies, cells), cells=cells, berserk=berserk)
        for i, (result, plies, cells, berserk) in enumerate(drawn)
    ]


def _recount(games: list[ArenaGame]) -> int:
    """The score worked out again, game by game, from the rules as docs/tournaments.md has
    them."""
    total, wins_running, draw_since_win = 0, 0, False
    for g in games:
        fire = wins_running >= 2
        if g.winner == ME:
            total += (4 if fire else 2) + (ME in g.berserk and g.plies >= min(14, g.cells // 2))
            wins_running, draw_since_win = wins_running + 1, False
            continue
        wins_running = 0
        if g.winner is None:
            quick = g.plies < min(20, g.cells)
            long_game = g.plies >= min(60, g.cells)
            if fire and not quick:
                total += 2
            elif not quick and (long_game or not draw_since_win):
                total += 1
            draw_since_win = True
    return total


@given(RESULTS)
def test_a_score_is_the_recount_of_its_results(drawn: list[tuple[str, int, int, bool]]) -> None:
    games = _games(drawn)
    sheet = sheet_of(ME, games)
    assert sheet.total == _recount(games) == sum(s.points for s in sheet.scores)
    assert all(0 <= s.points <= 5 for s in sheet.scores)


@given(RESULTS)
def test_fire_never_without_two_wins_in_a_row(drawn: list[tuple[str, int, int, bool]]) -> None:
    scores = sheet_of(ME, _games(drawn)).scores
    for i, score in enumerate(scores):
        if score.flag == "double":
            assert i >= 2 and scores[i - 1].result == scores[i - 2].result == "win"


@st.composite
def arenas(draw: st.DrawFn) -> tuple[list[Entrant], list[ArenaGame]]:
    count = draw(st.integers(2, 8))
    entrants = [
        Entrant(f"p{i}", f"Player {i}", draw(st.integers(1000, 2000))) for i in range(count)
    ]
    games = []
    for number in range(draw(st.integers(0, 25))):
        a, b = draw(st.permutations(range(count)))[:2]
        winner = draw(st.sampled_from([f"p{a}", f"p{b}", None]))
        games.append(
            ArenaGame(
                f"g{number}",
                f"p{a}",
                f"p{b}",
                winner,
                draw(st.integers(1, 25)),
                25,
                frozenset(draw(st.sets(st.sampled_from([f"p{a}", f"p{b}"])))),
                finished_at=draw(st.integers(0, 10**6)),
            )
        )
    return entrants, games


@given(arenas(), st.randoms(use_true_random=False), st.booleans())
def test_standings_depend_on_the_set_of_games_alone(
    arena: tuple[list[Entrant], list[ArenaGame]], shuffler: random.Random, over: bool
) -> None:
    entrants, games = arena
    standings = arena_standings(entrants, games, over=over)
    shuffled_games, shuffled_entrants = games[:], entrants[:]
    shuffler.shuffle(shuffled_games)
    shuffler.shuffle(shuffled_entrants)
    assert arena_standings(shuffled_entrants, shuffled_games, over=over) == standings
    assert [line.rank for line in standings] == list(range(1, len(entrants) + 1))
    scores = [line.score for line in standings]
    assert scores == sorted(scores, reverse=True)
    for line in standings:
        assert line.score == sheet_of(line.id, games).total == sum(line.games)


def test_ties_go_to_rating_while_it_runs_and_to_performance_once_over() -> None:
    entrants = [Entrant("a", "A", 1500), Entrant("b", "B", 1400), Entrant("c", "C", 2000)]
    games = [
        ArenaGame("1", "a", "c", "c", 25, 25, finished_at=1),
        ArenaGame("2", "b", "c", "b", 25, 25, finished_at=2),
        ArenaGame("3", "a", "c", "a", 25, 25, finished_at=3),
        ArenaGame("4", "b", "a", None, 25, 25, finished_at=4),
        ArenaGame("5", "c", "b", "c", 25, 25, finished_at=5),
        ArenaGame("6", "a", "b", "b", 25, 25, finished_at=6),
    ]
    running = arena_standings(entrants, games, over=False)
    assert [(line.name, line.score) for line in running] == [("B", 5), ("C", 4), ("A", 3)]
    # a: 2000-500, 2000+500, 1400, 1400-500 -> 1575; b: 2000+500, 1500, 2000-500, 1500+500
    assert performance("a", games, {"a": 1500, "b": 1400, "c": 2000}) == 1575
    assert performance("b", games, {"a": 1500, "b": 1400, "c": 2000}) == 1875
    tied = [Entrant("x", "X", 1500), Entrant("y", "Y", 1900), Entrant("z", "Z", 1000)]
    even = [
        ArenaGame("1", "x", "z", "x", 25, 25, finished_at=1),
        ArenaGame("2", "y", "z", "y", 25, 25, finished_at=2),
        ArenaGame("3", "x", "z", "z", 25, 25, finished_at=3),
        ArenaGame("4", "y", "x", "x", 25, 25, finished_at=4),
        ArenaGame("5", "y", "z", "y", 25, 25, finished_at=5),
    ]
    # x and y have 4 points, z 2; y is rated higher, x performed better: (1000 + 500, 1000 -
    # 500, 1900 + 500) / 3 = 1466 to y's (1000 + 500, 1500 - 500, 1000 + 500) / 3 = 1333.
    assert [line.name for line in arena_standings(tied, even, over=False)][:2] == ["Y", "X"]
    assert [line.name for line in arena_standings(tied, even, over=True)][:2] == ["X", "Y"]
    assert arena_standings(tied, even, over=True)[0].as_json().keys() >= {
        "rank",
        "name",
        "rating",
        "score",
        "games",
        "fire",
    }


@given(arenas(), st.integers(0, 7), st.booleans())
def test_a_line_says_what_the_next_win_is_worth_and_a_win_then_scores_it(
    arena: tuple[list[Entrant], list[ArenaGame]], player: int, berserk: bool
) -> None:
    entrants, games = arena
    me = entrants[player % len(entrants)].id
    (line,) = [line for line in arena_standings(entrants, games, over=False) if line.id == me]
    worth = line.as_json()["win"]
    opponent = next(one.id for one in entrants if one.id != me)
    later = max((one.finished_at for one in games), default=0) + 1
    cells = 25
    plies = berserk_plies(cells) if berserk else berserk_plies(cells) - 1
    won = ArenaGame("next", me, opponent, me, plies, cells, frozenset({me}), finished_at=later)
    after = sheet_of(me, [*games, won])
    # A berserk win gets its extra point only in a game of berserk_plies moves or more.
    assert after.total - sheet_of(me, games).total == worth + berserk
