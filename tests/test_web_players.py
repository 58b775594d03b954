"""Named players in the store, on SQLite and PostgreSQL: claimed names (and names that only
look alike), sessions, OpenSkill ratings given exactly once per finished game (also with two
processes' stores at once), which games are rated, the catch-up at start, the lobby; and the
rating rules themselves."""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")
pytest.importorskip("openskill")

from hypothesis import given
from hypothesis import strategies as st
from sqlalchemy import text

import test_web_store
from sosgame.snapshot import Snapshot
from sosgame.web.people.players import NameConfusableError, NameTakenError, Players
from sosgame.web.people.ratings import (
    ARENA_MATCHES,
    COMPUTER_RATINGS,
    DAY_MS,
    NEW_PLAYER,
    fit_computer_ratings,
    moves_per_seat,
    new_ratings,
    places,
)
from sosgame.web.storage.rows import SeatRow, StoredGame
from sosgame.web.storage.store import Store

url = test_web_store.url  # the fixture: a new database, SQLite and PostgreSQL
_ids = itertools.count(1)
# Two quiet moves for each of up to four seats on a 3x3 board (S beside S makes no line).
QUIET = ("Sa1", "Sb1", "Sc1", "Sa2", "Sb2", "Sc2", "Sa3", "Sb3")


@pytest.fixture
def store(url: str) -> Iterator[Store]:
    opened = Store(url)
    yield opened
    opened.close()


def finished(
    store: Store,
    players: list[str],
    winners: list[int],
    *,
    kind: str = "online",
    actions: tuple[str, ...] | None = None,
    ended_ms: int = 1,
) -> str:
    """A finished game stored with these seats (``human`` or a level) and winners; its
    actions are two quiet moves per seat unless given."""
    game_id = f"g{next(_ids)}"
    if actions is None:
        actions = QUIET[: 2 * len(players)]
    seats = [SeatRow(n, f"seat {n}", player, "t" * 64) for n, player in enumerate(players)]
    result = {
        "termination": "resignation",
        "winners": winners,
        "scores": [0] * len(players),
        "flagged": [],
    }
    stored = StoredGame(
        game_id, kind, 3, 3, "general", seats, "finished", 1, ended_ms, result=result
    )
    stored.actions = list(actions)
    assert store.create(stored)
    return game_id


def at_once(threads: list[threading.Thread], stores: list[Store]) -> None:
    """Run the threads (each a server process) together, then close their stores."""
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    for other in stores:
        other.close()


def test_a_name_is_claimed_once_whatever_its_case(store: Store) -> None:
    players = Players(store)
    ann = players.claim("Ann", "hash", 1)
    with pytest.raises(NameTakenError):
        players.claim("ANN", "other", 2)
    found = players.find("aNN")
    assert found is not None
    assert (found.id, found.name, found.password_hash) == (ann.id, "Ann", "hash")
    assert found.rating == NEW_PLAYER
    assert players.count_players() == 1


def test_sessions_are_rows_that_end_one_by_one_or_all_at_once(url: str, store: Store) -> None:
    players = Players(store)
    ann, bao = players.claim("Ann", "h", 1), players.claim("Bao", "h", 1)
    first = players.start_session(ann.id, 10, 100)
    second = players.start_session(ann.id, 10, 100)
    theirs = players.start_session(bao.id, 10, 100)
    assert len({first, second, theirs}) == 3
    other_store = Store(url)  # another server process knows the same sessions
    try:
        found = Players(other_store).session_account(first, 20)
    finally:
        other_store.close()
    assert found is not None and found.id == ann.id
    assert players.session_account(first, 110) is None  # expired
    players.end_session(first)
    assert players.session_account(first, 20) is None
    assert players.session_account(second, 20) is not None
    assert players.end_sessions(ann.id) == 1
    assert players.session_account(second, 20) is None
    assert players.session_account(theirs, 20) is not None  # not another player's
    fresh = players.change_password(bao.id, "new hash", 30, 100)
    assert players.session_account(theirs, 40) is None
    now = players.session_account(fresh, 40)
    assert now is not None and now.password_hash == "new hash"
    players.start_session(ann.id, 200, 100)  # the expired rows go meanwhile
    with store.engine.begin() as db:
        left = db.execute(text("SELECT COUNT(*) FROM sessions")).scalar_one()
    assert left == 1


def test_a_name_that_looks_like_a_claimed_one_is_refused(store: Store) -> None:
    players = Players(store)
    alice = players.claim("alice", "h", 1)
    with pytest.raises(NameConfusableError):
        players.claim("\u0430lice", "h", 2)  # a Cyrillic a
    with pytest.raises(NameConfusableError):
        players.claim("al\u3164ice", "h", 2)  # a filler that shows nothing
    for same in ("\uff41\uff4c\uff49\uff43\uff45", "ALICE"):  # full width; capitals
        with pytest.raises(NameTakenError):
            players.claim(same, "h", 2)
    found = players.find("\uff41\uff4c\uff49\uff43\uff45")
    assert found is not None and found.id == alice.id
    assert players.claim("Alicia", "h", 3).name == "Alicia"  # different enough
    assert players.count_players() == 2


@pytest.mark.parametrize(
    ("claimed", "look_alike"),
    [
        ("Alice", "AIice"),  # a capital I for the l
        ("Paypal", "PaypaI"),
        ("Ian", "lan"),  # an l for the capital I
        ("bob", "b0b"),  # a zero for the o
        ("Ola", "0la"),
        ("Mary", "rnary"),  # r and n for the m
        ("will", "vvill"),  # two v for the w
        ("Bill", "Bi1|"),  # a one and a bar for the l
    ],
)
def test_look_alikes_within_one_script_are_refused(
    store: Store, claimed: str, look_alike: str
) -> None:
    players = Players(store)
    players.claim(claimed, "h", 1)
    with pytest.raises(NameConfusableError):
        players.claim(look_alike, "h", 2)
    players.claim("Mila", "h", 3)  # a lower-case i and an l stay two letters
    assert players.claim("Miia", "h", 4).name == "Miia"


def test_the_skeletons_of_names_claimed_before_are_filled_in(store: Store) -> None:
    players = Players(store)
    with store.engine.begin() as db:  # a name claimed before skeletons were kept
        db.execute(
            text(
                "INSERT INTO players (key, name, password_hash, mu, sigma, games, created_ms)"
                " VALUES ('paypal', 'paypal', 'h', 25.0, 8.3, 0, 1)"
            )
        )
    players.claim("\u03c1aypal", "h", 2)  # Greek rho: not seen yet, so allowed
    with store.engine.begin() as db:
        db.execute(text("DELETE FROM players WHERE name <> 'paypal'"))
    assert players.fill_skeletons() == 1
    assert players.fill_skeletons() == 0
    with pytest.raises(NameConfusableError):
        players.claim("\u03c1aypal", "h", 3)


def test_skeletons_stored_before_the_look_alikes_of_one_script_are_made_anew(
    url: str, tmp_path: Path
) -> None:
    from importlib import resources

    from alembic import command
    from alembic.config import Config
    from sqlalchemy import create_engine

    (tmp_path / "new").mkdir(exist_ok=True)
    engine = create_engine(url)
    config = Config()
    with resources.as_file(resources.files("sosgame.web.storage") / "migrations") as folder:
        config.set_main_option("script_location", str(folder))
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "0011")
            connection.execute(  # "Ian" as its skeleton was made then
                text(
                    "INSERT INTO players (key, name, password_hash, mu, sigma, games,"
                    " created_ms, skeleton) VALUES ('ian', 'Ian', 'h', 25.0, 8.3, 0, 1, 'ian')"
                )
            )
    engine.dispose()
    store = Store(url)
    try:
        players = Players(store)
        players.fill_skeletons()  # as every server does at start
        with pytest.raises(NameConfusableError):
            players.claim("lan", "h", 2)
    finally:
        store.close()


def test_a_game_between_named_players_is_rated_once(store: Store) -> None:
    players = Players(store, established_opponents=0)  # nobody provisional: full changes
    ann, bao = players.claim("Ann", "h", 1), players.claim("Bao", "h", 1)
    game = finished(store, ["human", "human"], winners=[1], actions=(*QUIET[:4], "resign:0"))
    players.link(game, 0, ann.id)
    players.link(game, 1, bao.id)
    assert players.rate(game, 10)
    assert not players.rate(game, 11)
    assert players.catch_up(12) == 0
    expected = new_ratings([NEW_PLAYER, NEW_PLAYER], [1, 0])
    after_ann, after_bao = players.get(ann.id), players.get(bao.id)
    assert after_ann is not None and after_bao is not None
    assert (after_ann.rating.mu, after_bao.rating.mu) == pytest.approx(
        (expected[0].mu, expected[1].mu)
    )
    assert after_bao.rating.shown > after_ann.rating.shown
    assert (after_ann.games, after_bao.games) == (1, 1)
    history = players.ratings_over_time(bao.id)
    assert [entry["game"] for entry in history] == [game]
    assert history[0]["mu"] == pytest.approx(expected[1].mu, abs=1e-3)
    page = players.history(bao.id)
    assert [(item["id"], item["seat"], item["rating"] is not None) for item in page] == [
        (game, 1, True)
    ]
    assert [account.name for account in players.leaderboard()] == ["Bao", "Ann"]


def test_two_processes_rating_the_same_games_at_once_rate_each_once(url: str, store: Store) -> None:
    players = Players(store, rated_per_pair=6)
    ann, bao = players.claim("Ann", "h", 1), players.claim("Bao", "h", 1)
    games = []
    for number in range(6):
        game = finished(store, ["human", "human"], winners=[number % 2])
        players.link(game, 0, ann.id)
        players.link(game, 1, bao.id)
        games.append(game)
    stores = [Store(url), Store(url)]  # two server processes
    rated: list[bool] = []
    lock = threading.Lock()
    barrier = threading.Barrier(2)

    def run(other: Store) -> None:
        mine = Players(other, rated_per_pair=6)
        barrier.wait()
        for game in games:
            done = mine.rate(game, 5)
            with lock:
                rated.append(done)

    at_once([threading.Thread(target=run, args=(other,)) for other in stores], stores)
    assert sorted(rated) == [False] * 6 + [True] * 6
    for account in (ann, bao):
        now = players.get(account.id)
        assert now is not None
        assert now.games == 6  # no rating lost to another's at the same time
        assert len(players.ratings_over_time(account.id)) == 6


def test_the_catch_up_rates_finished_games_left_unrated(store: Store) -> None:
    players = Players(store)
    ann, bao = players.claim("Ann", "h", 1), players.claim("Bao", "h", 1)
    rated = finished(store, ["human", "human"], winners=[0])
    players.link(rated, 0, ann.id)
    players.link(rated, 1, bao.id)
    with_guest = finished(store, ["human", "human"], winners=[0])
    players.link(with_guest, 0, ann.id)
    local = finished(store, ["human", "human"], winners=[0], kind="local")
    players.link(local, 0, ann.id)
    players.link(local, 1, bao.id)
    twice = finished(store, ["human", "human"], winners=[0])
    players.link(twice, 0, ann.id)
    players.link(twice, 1, ann.id)
    assert sorted(players.unrated()) == sorted([rated, with_guest, local, twice])
    assert players.catch_up(3) == 1  # only the game of two named players, online
    assert players.unrated() == []
    assert players.catch_up(4) == 0
    now = players.get(ann.id)
    assert now is not None and now.games == 1


@pytest.mark.parametrize(
    "actions",
    [
        ("resign:0",),
        ("resign:1",),
        ("Sa1", "resign:1"),
        ("Sa1", "Sb1", "Sc1", "resign:1"),  # seat 1 made one move only
    ],
)
def test_a_game_ended_before_two_moves_each_is_finished_but_unrated(
    store: Store, actions: tuple[str, ...]
) -> None:
    players = Players(store)
    ann, bao = players.claim("Ann", "h", 1), players.claim("Bao", "h", 1)
    game = finished(store, ["human", "human"], winners=[1], actions=actions)
    players.link(game, 0, ann.id)
    players.link(game, 1, bao.id)
    assert not players.rate(game, 2)
    assert players.unrated() == []  # decided: noted as not rated
    with store.engine.begin() as db:
        assert db.execute(text("SELECT rated FROM rated_games")).scalar_one() in (False, 0)
    for account in (ann, bao):
        now = players.get(account.id)
        assert now is not None and (now.rating, now.games) == (NEW_PLAYER, 0)


def test_three_games_resigned_at_once_leave_both_ratings_alone(store: Store) -> None:
    players = Players(store)
    mine, other = players.claim("Ann", "h", 1), players.claim("Ann2", "h", 1)
    for number in range(3):
        game = finished(store, ["human", "human"], winners=[0], actions=("resign:1",))
        players.link(game, 0, mine.id)
        players.link(game, 1, other.id)
        assert not players.rate(game, number)
    now = players.get(mine.id)
    assert now is not None and now.rating.shown == 0 and now.games == 0
    assert players.leaderboard() == []


def test_games_of_one_pair_are_rated_at_most_so_often_a_day(store: Store) -> None:
    players = Players(store, rated_per_pair=3)
    ann, bao, cam = (players.claim(name, "h", 1) for name in ("Ann", "Bao", "Cam"))
    hour = 3600 * 1000

    def play(seated: list[int], ended_ms: int) -> bool:
        game = finished(store, ["human"] * len(seated), winners=[0], ended_ms=ended_ms)
        for seat, player_id in enumerate(seated):
            players.link(game, seat, player_id)
        return players.rate(game, ended_ms)

    assert [play([ann.id, bao.id], n * hour) for n in range(1, 4)] == [True, True, True]
    before = [players.get(account.id) for account in (ann, bao)]
    assert not play([ann.id, bao.id], 4 * hour)  # the 4th in 24 hours
    assert not play([cam.id, bao.id, ann.id], 5 * hour)  # the pair again, with another
    assert [players.get(account.id) for account in (ann, bao)] == before
    assert play([ann.id, cam.id], 6 * hour)  # another pair
    assert play([bao.id, ann.id], DAY_MS + 1 * hour + 1)  # the first game is a day old


def test_the_pair_limit_holds_when_two_processes_rate_at_once(url: str, store: Store) -> None:
    players = Players(store)
    ann, bao = players.claim("Ann", "h", 1), players.claim("Bao", "h", 1)
    games = []
    for number in range(6):
        game = finished(store, ["human", "human"], winners=[number % 2], ended_ms=number + 1)
        players.link(game, 0, ann.id)
        players.link(game, 1, bao.id)
        games.append(game)
    stores = [Store(url), Store(url)]
    barrier = threading.Barrier(2)

    def run(other: Store, order: list[str]) -> None:
        mine = Players(other, rated_per_pair=3)
        barrier.wait()
        for game in order:
            mine.rate(game, 10)

    at_once(
        [
            threading.Thread(target=run, args=(stores[0], games)),
            threading.Thread(target=run, args=(stores[1], games[::-1])),
        ],
        stores,
    )
    for account in (ann, bao):
        now = players.get(account.id)
        assert now is not None and now.games == 3


def test_moves_per_seat_counts_a_scoring_seats_extra_moves() -> None:
    # Seat 0 completes a1-b1-c1 with its second move and moves again; resignations are no move.
    snapshot = Snapshot(3, 3, 2, "general", None, ("Sa1", "Ob1", "Sc1", "Sa3", "resign:1"))
    assert moves_per_seat(snapshot) == [3, 1]


def test_a_game_against_the_computer_moves_only_the_persons_rating(store: Store) -> None:
    players = Players(store)
    ann = players.claim("Ann", "h", 1)
    game = finished(store, ["human", "hard"], winners=[0])
    players.link(game, 0, ann.id)
    assert players.rate(game, 2)
    expected = new_ratings([NEW_PLAYER, COMPUTER_RATINGS["hard"]], [0, 1])[0]
    now = players.get(ann.id)
    assert now is not None
    assert now.rating.mu == pytest.approx(expected.mu)
    # Beating the strong level is worth more than beating the weakest.
    weak = new_ratings([NEW_PLAYER, COMPUTER_RATINGS["random"]], [0, 1])[0]
    assert expected.mu > weak.mu


def test_the_lobby_lists_public_open_games_with_ratings(store: Store) -> None:
    players = Players(store)
    ann = players.claim("Ann", "h", 1)
    seats = [
        SeatRow(0, "Ann", "human", "t" * 64),
        SeatRow(1, "?", "human"),
        SeatRow(2, "B", "easy"),
    ]
    clock = {"initial": 300_000, "increment": 3000, "remaining": [1, 1, 1], "since": None}
    public = StoredGame("pub", "online", 5, 6, "simple", seats, "open", 1, 1, public=True)
    public.clock = clock
    private = StoredGame("priv", "online", 3, 3, "general", list(seats), "open", 1, 2)
    assert store.create(public)
    assert store.create(private)
    players.link("pub", 0, ann.id)
    lobby = players.lobby()
    assert [game["id"] for game in lobby] == ["pub"]
    (game,) = lobby
    assert (game["rows"], game["cols"], game["mode"]) == (5, 6, "simple")
    assert game["clock"] == {"initial": 300, "increment": 3}
    assert game["open_seats"] == [1]
    ratings = [seat["rating"] for seat in game["seats"]]
    assert ratings[0]["rating"] == NEW_PLAYER.shown
    assert ratings[1] is None
    assert ratings[2]["rating"] == COMPUTER_RATINGS["easy"].shown


def test_login_attempts_are_limited_per_address(store: Store) -> None:
    players = Players(store)
    assert [players.attempt("1.2.3.4", 1000 + n, 60_000, 3) for n in range(3)] == [0, 0, 0]
    wait = players.attempt("1.2.3.4", 2000, 60_000, 3)
    assert 0 < wait <= 60_000
    assert players.attempt("5.6.7.8", 2000, 60_000, 3) == 0  # another address
    assert players.attempt("1.2.3.4", 1000 + 60_001, 60_000, 3) == 0  # the window moved on


# ------------------------------------------------------------------------- the rules


def test_the_computer_ratings_are_the_fit_of_the_measured_matches() -> None:
    assert fit_computer_ratings() == COMPUTER_RATINGS
    strength = ["random", "easy", "medium", "hard"]
    shown = [COMPUTER_RATINGS[level].mu for level in strength]
    assert shown == sorted(shown)  # each level beat the one below it in the arena
    assert {match.level_a for match in ARENA_MATCHES} | {"random"} == set(COMPUTER_RATINGS)


@given(st.integers(2, 8), st.data())
def test_places_put_winners_first_and_ties_together(players: int, data: st.DataObject) -> None:
    scores = data.draw(st.lists(st.integers(0, 20), min_size=players, max_size=players))
    best = max(scores)
    winners = [seat for seat in range(players) if scores[seat] == best]
    result = {"winners": winners, "scores": scores, "flagged": []}
    found = places(result, [])
    assert all(found[seat] == 0 for seat in winners)
    for a in range(players):
        for b in range(players):
            if scores[a] > scores[b]:
                assert found[a] < found[b]
            if scores[a] == scores[b]:
                assert found[a] == found[b]
    rated = new_ratings([NEW_PLAYER] * players, found)
    assert len(rated) == players
    for a in range(players):
        for b in range(players):
            if found[a] < found[b]:
                assert rated[a].mu > rated[b].mu


def test_a_resigned_seat_ranks_below_those_still_playing() -> None:
    # Seat 0 resigned with the most points; seat 2 played on with the fewest.
    result = {"winners": [1], "scores": [5, 3, 1], "flagged": []}
    ranks = places(result, [0])
    assert ranks[1] == 0
    assert ranks[2] < ranks[0]
    flagged = places({**result, "flagged": [2]}, [])
    assert flagged[0] < flagged[2]  # out of time counts as out
