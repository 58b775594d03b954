"""An Arena's pairing tick on fixed inputs, each worked out by hand from lichess's rules, and
its invariants on random ones."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import networkx
from hypothesis import given
from hypothesis import strategies as st

from sosgame.tournaments.arena_pairing import (
    ArenaPair,
    FirstMoves,
    WaitingPlayer,
    min_weight_matching,
    pair_arena,
    pair_weight,
    pairings_closed,
    wait_seconds,
)
from sosgame.tournaments.settings import Clock

CLOCK = Clock(60, 0)  # 5x5: 60 s each, as lichess's 1+0: wait 15 s, closed in the last 30 s
CELLS = 25
START = 1_000_000
NOW = START + 60_000  # a minute in: no longer the first pairings
END = START + 3_600_000
LONG_AGO = NOW - 20_000


def player(
    name: str,
    rank: int,
    rating: int = 1500,
    *,
    last: str | None = "someone",
    since: int = LONG_AGO,
    firsts: tuple[bool, ...] = (),
) -> WaitingPlayer:
    return WaitingPlayer(name, rank, rating, FirstMoves.of(firsts), last, since)


def tick(players: list[WaitingPlayer], **options: object) -> set[frozenset[str]]:
    pairs = pair_arena(
        players,
        clock=CLOCK,
        cells=CELLS,
        now=options.pop("now", NOW),  # type: ignore[arg-type]
        starts_at=START,
        ends_at=END,
        coin=random.Random(1),
        **options,  # type: ignore[arg-type]
    )
    return {frozenset((pair.first, pair.second)) for pair in pairs}


def pairs(*names: str) -> set[frozenset[str]]:
    return {frozenset(names[i : i + 2]) for i in range(0, len(names), 2)}


def test_the_weight_grows_with_the_rank_gap_most_at_the_top() -> None:
    # Ranks from 0 in a group whose worst is 3: factors 2000, 1433, 866 for the better rank.
    a, b, c, d = (player(x, rank) for x, rank in zip("abcd", (1, 2, 3, 4), strict=True))
    assert pair_weight(a, b, 3) == 2000
    assert pair_weight(b, c, 3) == 1433
    assert pair_weight(c, d, 3) == 866
    assert pair_weight(a, c, 3) == 4000
    assert pair_weight(player("x", 2, 1400), player("y", 4, 1700), 3) == 2 * 1433 + 300


def test_neighbours_meet_unless_their_ratings_are_far_apart() -> None:
    # {ab, cd} costs 2000 + 866 plus the rating gaps; {ac, bd} 4000 + 2866 and no gap.
    close = [player("a", 1, 1000), player("b", 2, 2500), player("c", 3, 1000), player("d", 4, 2500)]
    assert tick(close) == pairs("a", "b", "c", "d")  # 2866 + 3000 < 6866
    far = [player("a", 1, 1000), player("b", 2, 3200), player("c", 3, 1000), player("d", 4, 3200)]
    assert tick(far) == pairs("a", "c", "b", "d")  # 2866 + 4400 > 6866


def test_no_one_plays_the_opponent_they_just_played() -> None:
    players = [
        player("a", 1, last="b"),
        player("b", 2, last="a"),
        player("c", 3, last="d"),
        player("d", 4),
    ]
    # a-b and c-d are out (c just played d: one side's memory is enough).
    assert tick(players) == pairs("a", "c", "b", "d")


def test_an_odd_newcomer_waits_for_the_next_tick() -> None:
    players = [player("a", 1), player("b", 2), player("c", 3, since=NOW - 15_000)]
    assert tick(players) == pairs("a", "b")


def test_the_newcomer_plays_when_the_others_cannot_meet() -> None:
    # a and b just met: without c there is no pair, so all three are matched; a-c costs
    # 2 * 2000, b-c 1 * 1150, so b plays c.
    players = [
        player("a", 1, last="b"),
        player("b", 2, last="a"),
        player("c", 3, since=NOW - 15_000),
    ]
    assert tick(players) == pairs("b", "c")


def test_a_lone_pair_plays_again_when_only_they_are_left() -> None:
    players = [player("a", 1, last="b"), player("b", 2, last="a")]
    assert tick(players) == set()
    assert tick(players, active=2) == pairs("a", "b")


def test_two_who_both_moved_first_three_games_running_do_not_meet() -> None:
    thrice = (True, True, True)
    players = [
        player("a", 1, firsts=thrice),
        player("b", 2, firsts=thrice),
        player("c", 3),
        player("d", 4),
    ]
    assert tick(players) == pairs("a", "c", "b", "d")


def test_the_first_move_goes_to_the_one_who_had_it_less() -> None:
    a = player("a", 1, firsts=(True, False, True))
    b = player("b", 2, firsts=(False, True, False))
    made = pair_arena([a, b], clock=CLOCK, cells=CELLS, now=NOW, starts_at=START, ends_at=END)
    assert made == [ArenaPair("b", "a")]
    # Equal histories: the lot decides, and both sides come up.
    even = [player("a", 1), player("b", 2)]
    firsts = {
        pair_arena(
            even,
            clock=CLOCK,
            cells=CELLS,
            now=NOW,
            starts_at=START,
            ends_at=END,
            coin=random.Random(seed),
        )[0].first
        for seed in range(20)
    }
    assert firsts == {"a", "b"}


def test_first_move_histories_as_lichess_counts_them() -> None:
    assert FirstMoves.of([True, True, True]) == FirstMoves(3, 3)
    assert FirstMoves.of([True, True, True, False]) == FirstMoves(-1, 2)
    assert FirstMoves.of([False, False, False, True]) == FirstMoves(1, -2)
    assert not FirstMoves(3, 3).could_meet(FirstMoves(3, 1))
    assert FirstMoves(2, 2).could_meet(FirstMoves(2, 2))


def test_nobody_is_paired_before_two_have_waited_long_enough() -> None:
    assert wait_seconds(CLOCK, CELLS) == 15
    fresh = [player("a", 1, since=NOW - 5_000), player("b", 2, since=NOW - 20_000)]
    assert tick(fresh) == set()
    assert tick(fresh, now=NOW + 11_000) == pairs("a", "b")
    # In a small tournament, when two thirds of its active players wait, nobody waits longer.
    assert tick(fresh, active=4) == set()
    assert tick(fresh, active=3) == pairs("a", "b")
    # Before anyone has played, nobody waits.
    assert tick([player("a", 1, last=None, since=NOW), player("b", 2, last=None, since=NOW)])


def test_the_wait_grows_with_the_expected_game() -> None:
    assert wait_seconds(Clock(15, 0), 9) == 8
    assert wait_seconds(Clock(45, 0), 9) == 10
    assert wait_seconds(Clock(180, 2), 49) == 24 + 2 * 25 // 10
    assert wait_seconds(Clock(1800, 0), 100) == 50


def test_no_pairing_in_the_last_seconds() -> None:
    two = [player("a", 1), player("b", 2)]
    assert pairings_closed(CLOCK, END - 29_000, END)
    assert not pairings_closed(CLOCK, END - 31_000, END)
    assert tick(two, now=END - 29_000) == set()
    assert pairings_closed(Clock(600, 0), END - 119_000, END)  # half of 10 minutes, at most 2


def test_the_first_pairings_are_neighbours_by_rank() -> None:
    players = [player(x, rank, last=None) for x, rank in zip("dcba", (4, 3, 2, 1), strict=True)]
    assert tick(players, now=START + 2_000) == pairs("a", "b", "c", "d")


def test_in_the_first_seconds_two_who_just_played_are_not_paired_again() -> None:
    # A short game ended within the first seconds: its players wait with two others.
    players = [
        player("a", 1, last="b", since=START),
        player("b", 2, last="a", since=START),
        player("c", 3, last=None, since=START),
        player("d", 4, last=None, since=START),
    ]
    made = tick(players, now=START + 14_000, active=4)
    assert len(made) == 2
    assert frozenset("ab") not in made


def test_over_a_hundred_waiting_the_best_ranked_are_matched_in_groups() -> None:
    # 230 waiting: two groups of 100 by rank are matched, and the 30 after are paired with
    # their neighbours; nobody is paired across groups.
    coin = random.Random(5)
    players = [
        player(f"p{rank:03}", rank, coin.randrange(1000, 2000), last=None) for rank in range(1, 231)
    ]
    made = tick(players)
    assert len(made) == 115
    group = {f"p{rank:03}": (rank - 1) // 100 for rank in range(1, 201)}
    for pair in made:
        a, b = sorted(pair)
        if a in group and b in group:
            assert group[a] == group[b]
        else:
            assert int(b[1:]) == int(a[1:]) + 1 and int(a[1:]) % 2 == 1


@st.composite
def waiting_rooms(draw: st.DrawFn) -> list[WaitingPlayer]:
    size = draw(st.integers(2, 24).map(lambda n: n - n % 2))
    names = [f"p{i}" for i in range(size)]
    ranks = draw(st.permutations(range(1, size + 1)))
    return [
        player(
            name,
            rank,
            draw(st.integers(800, 2400)),
            last=draw(st.sampled_from([None, *names])),
            firsts=tuple(draw(st.lists(st.booleans(), max_size=5))),
        )
        for name, rank in zip(names, ranks, strict=True)
    ]


@given(waiting_rooms())
def test_a_tick_pairs_as_many_as_the_rules_allow_and_never_a_player_twice(
    players: list[WaitingPlayer],
) -> None:
    made = pair_arena(
        players,
        clock=CLOCK,
        cells=CELLS,
        now=NOW,
        starts_at=START,
        ends_at=END,
        coin=random.Random(0),
    )
    seen = [name for pair in made for name in (pair.first, pair.second)]
    assert len(seen) == len(set(seen))
    by_name = {p.id: p for p in players}
    allowed = networkx.Graph()
    for i, a in enumerate(players):
        for b in players[i + 1 :]:
            if (
                a.last_opponent != b.id
                and b.last_opponent != a.id
                and a.first_moves.could_meet(b.first_moves)
            ):
                allowed.add_edge(a.id, b.id)
    for pair in made:
        assert allowed.has_edge(pair.first, pair.second)
        first, second = by_name[pair.first].first_moves, by_name[pair.second].first_moves
        assert (first.strike, first.balance) <= (second.strike, second.balance)
    assert len(made) == len(networkx.max_weight_matching(allowed, maxcardinality=True))


@given(
    st.lists(
        st.tuples(st.integers(0, 11), st.integers(0, 11), st.integers(1, 5000)),
        max_size=40,
    )
)
def test_the_matching_is_networkx_min_weight_matching(edges: list[tuple[int, int, int]]) -> None:
    unique = {(min(i, j), max(i, j)): w for i, j, w in edges if i != j}
    listed = [(i, j, w) for (i, j), w in unique.items()]
    graph = networkx.Graph()
    graph.add_weighted_edges_from(listed)
    theirs = networkx.min_weight_matching(graph)
    ours = min_weight_matching(listed)
    assert len(ours) == len(theirs)
    assert sum(unique[pair] for pair in ours) == sum(
        unique[(min(i, j), max(i, j))] for i, j in theirs
    )
    assert networkx.is_matching(graph, ours)


def test_pairing_without_the_extra_says_what_to_install() -> None:
    run_without = Path(__file__).parent / "run_without.py"
    code = (
        "from sosgame.tournaments.arena_pairing import pair_arena\n"
        "from sosgame.tournaments.settings import Clock\n"
        "pair_arena([], clock=Clock(60, 0), cells=9, now=0, starts_at=0, ends_at=1)\n"
    )
    done = subprocess.run(
        [sys.executable, str(run_without), "rustworkx", "-c", code],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 1
    assert "pip install 'sosgame[tournaments]'" in done.stderr
