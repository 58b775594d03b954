"""The web app's store: Alembic migrations, transactions, and the ``serve`` command line."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")
pytest.importorskip("alembic")

from sqlalchemy import create_engine, inspect

from sosgame.cli import main
from sosgame.web.storage.rows import Change, Job, SeatRow, StoredGame
from sosgame.web.storage.store import Store


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A new, empty database: SQLite in a file, or a real PostgreSQL server's."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'new' / 'games.sqlite3'}"
    database: str = request.getfixturevalue("postgres_url")
    return database


def stored(game_id: str) -> StoredGame:
    seats = [SeatRow(0, "Ann", "human", "h" * 64), SeatRow(1, "Bot", "easy")]
    return StoredGame(game_id, "local", 3, 3, "general", seats, "playing", 1, 1)


def test_the_migrations_create_the_schema_once(url: str) -> None:
    Store(url).close()
    Store(url).close()  # a second start finds the schema up to date
    engine = create_engine(url)
    tables = set(inspect(engine).get_table_names())
    assert {"games", "seats", "actions", "jobs", "alembic_version"} <= tables
    assert {"players", "player_seats", "rated_games", "rating_history", "server_secrets"} <= tables
    assert {"sessions", "pool_entries", "chat_messages"} <= tables
    assert {"puzzle_players", "puzzle_ratings", "puzzle_attempts"} <= tables
    with engine.connect() as connection:
        version = connection.exec_driver_sql("SELECT version_num FROM alembic_version")
        assert version.scalar_one() == "0019"
    engine.dispose()


def test_games_stored_before_invites_stay_joinable_after_the_upgrade(
    url: str, tmp_path: Path
) -> None:
    from importlib import resources

    from alembic import command
    from alembic.config import Config

    (tmp_path / "new").mkdir(exist_ok=True)
    engine = create_engine(url)
    config = Config()
    with resources.as_file(resources.files("sosgame.web.storage") / "migrations") as folder:
        config.set_main_option("script_location", str(folder))
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            command.upgrade(config, "0001")
            connection.exec_driver_sql(
                "INSERT INTO games (id, kind, rows, cols, mode, players, status, created_ms,"
                " updated_ms) VALUES ('old', 'online', 3, 3, 'general', 2, 'open', 1, 1)"
            )
            connection.exec_driver_sql(
                "INSERT INTO seats (game_id, seat, name, player, token_hash) VALUES"
                " ('old', 0, 'Ann', 'human', 'h'), ('old', 1, 'Bao', 'human', NULL)"
            )
    engine.dispose()
    store = Store(url)
    game = store.load("old")
    assert game is not None
    assert game.public is True
    assert [row.invite for row in game.seats] == [None, None]
    assert [summary.id for summary in store.summaries(["open"], public_only=True)] == ["old"]
    store.close()


def test_changes_are_stored_and_undone_in_order(url: str) -> None:
    store = Store(url)
    store.create(stored("g1"))
    store.create(stored("g2"))
    store.write(
        [
            Change("g1", "playing", None, None, 5, first_ply=1, texts=("Sa1",)),
            Change("g2", "playing", None, None, 5, first_ply=1, texts=("Ob2",)),
        ]
    )
    store.write([Change("g1", "playing", None, {"remaining": [1]}, 6, first_ply=2, texts=("Ob1",))])
    store.write([Change("g2", "finished", {"winners": [0]}, None, 7, keep=0)])
    first, second = store.load("g1"), store.load("g2")
    assert first is not None and second is not None
    assert first.actions == ["Sa1", "Ob1"]
    assert first.clock == {"remaining": [1]}
    assert first.seats[0].token_hash == "h" * 64
    assert second.actions == []
    assert second.status == "finished"
    assert second.result == {"winners": [0]}
    assert store.load("nope") is None
    assert [item.id for item in store.summaries(["finished"])] == ["g2"]
    assert store.count() == 2


def test_a_failed_write_leaves_nothing_behind(url: str) -> None:
    store = Store(url)
    store.create(stored("g1"))
    store.write([Change("g1", "playing", None, None, 5, first_ply=1, texts=("Sa1",))])
    with pytest.raises(Exception, match=r"(?i)unique"):
        store.write([Change("g1", "finished", None, None, 6, first_ply=1, texts=("Oa1",))])
    again = store.load("g1")
    assert again is not None
    assert again.actions == ["Sa1"]
    assert again.status == "playing"


def test_a_seat_is_given_only_once(url: str) -> None:
    store = Store(url)
    game = stored("g1")
    game.seats[1] = SeatRow(1, "Bao", "human")
    store.create(game)
    assert store.take_seat("g1", 1, "Chi", "x" * 64)
    assert not store.take_seat("g1", 1, "Dan", "y" * 64)
    loaded = store.load("g1")
    assert loaded is not None
    assert loaded.seats[1].name == "Chi"


def test_a_change_for_a_version_that_is_no_longer_the_latest_writes_nothing(url: str) -> None:
    store = Store(url)
    store.create(stored("g1"))
    store.create(stored("g2"))
    first = Change("g1", "playing", None, None, 5, first_ply=1, texts=("Sa1",), version=0)
    assert store.write([first]) == set()
    late = Change("g1", "finished", {"winners": [0]}, None, 6, first_ply=1, texts=("Oc3",))
    other = Change("g2", "playing", None, None, 6, first_ply=1, texts=("Ob2",), version=0)
    # The refused change sinks neither the other game's change nor the game it was for.
    assert store.write([replace(late, version=0), other]) == {"g1"}
    one, two = store.load("g1"), store.load("g2")
    assert one is not None and two is not None
    assert (one.actions, one.status, one.result, one.version) == (["Sa1"], "playing", None, 1)
    assert (two.actions, two.version) == (["Ob2"], 1)
    assert store.write([replace(late, first_ply=2, version=1)]) == set()
    assert store.load("g1").version == 2  # type: ignore[union-attr]


def test_of_two_stores_racing_for_the_same_ply_exactly_one_wins(url: str) -> None:
    from concurrent.futures import ThreadPoolExecutor

    stores = [Store(url), Store(url)]
    games = [f"race{number}" for number in range(12)]
    for game_id in games:
        stores[0].create(stored(game_id))

    def attempt(which: int) -> set[str]:
        refused: set[str] = set()
        for game_id in games:
            text = "Sa1" if which == 0 else "Oa1"
            change = Change(game_id, "playing", None, None, 5, texts=(text,), version=0)
            try:
                refused |= stores[which].write([change])
            except Exception:  # SQLite may refuse the racing writer outright: also a loss
                refused.add(game_id)
        return refused

    with ThreadPoolExecutor(2) as pool:
        lost = list(pool.map(attempt, [0, 1]))
    for game_id in games:
        loaded = stores[0].load(game_id)
        assert loaded is not None
        assert len(loaded.actions) == 1 and loaded.version == 1
        winner = 0 if loaded.actions == ["Sa1"] else 1
        assert game_id not in lost[winner] and game_id in lost[1 - winner]
    for store in stores:
        store.close()


def test_a_computer_move_is_held_by_one_process_until_its_lease_runs_out(url: str) -> None:
    store = Store(url)
    store.create(stored("g1"))
    job = Job(ready_ms=100, holder="a", lease_ms=5_100)
    move = Change(
        "g1", "playing", None, None, 100, texts=("Sa1",), version=0, job=job, hands_over=True
    )
    assert store.write([move]) == set()
    assert store.queue.claim_due("b", 1_000, 5_000, 10) == []
    assert not store.queue.claim("g1", 1, "b", 1_000, 5_000)
    assert store.queue.claim("g1", 1, "a", 1_000, 5_000)  # the holder renews: until 6000
    store.queue.renew("a", ["g1"], [], 5_000, 5_000)  # until 10000
    assert store.queue.claim_due("b", 9_000, 5_000, 10) == []
    # The holder stopped renewing (it died): another process takes the move over, once.
    assert store.queue.claim_due("b", 10_001, 5_000, 10) == [("g1", 1)]
    assert store.queue.claim_due("c", 10_002, 5_000, 10) == []
    assert not store.queue.claim("g1", 1, "a", 10_003, 5_000)
    # The move made, the job goes with it; a stale version cannot be claimed.
    made = Change("g1", "playing", None, None, 11_000, 2, ("Ob1",), version=1, hands_over=True)
    assert store.write([made]) == set()
    assert store.queue.claim_due("c", 99_000, 5_000, 10) == []
    assert not store.queue.claim("g1", 1, "c", 99_000, 5_000)
    store.close()


def test_a_game_of_computers_only_is_claimed_only_while_watched(url: str) -> None:
    store = Store(url)
    game = stored("g1")
    game.seats[0] = SeatRow(0, "Bot", "medium")
    store.create(game)
    assert store.queue.offer("g1", 0, Job(ready_ms=0, holder=None, lease_ms=0, watched_ms=500))
    assert not store.queue.offer("g1", 0, Job(ready_ms=0, holder=None, lease_ms=0))
    assert not store.queue.offer("g1", 3, Job(ready_ms=0, holder=None, lease_ms=0))
    assert store.queue.claim_due("a", 1_000, 5_000, 10) == []  # nobody watched since 500
    store.queue.renew("w", [], ["g1"], 1_000, 5_000)  # a watcher: until 6000
    assert store.queue.claim_due("a", 2_000, 5_000, 10) == [("g1", 0)]
    store.queue.release("g1", "a")
    assert store.queue.claim("g1", 0, "b", 2_001, 5_000)
    store.close()


def test_a_hub_with_watchers_marks_a_computers_only_job_watched_and_may_take_it(
    url: str,
) -> None:
    store = Store(url)
    game = stored("g1")
    game.seats[0] = SeatRow(0, "Bot", "medium")
    store.create(game)
    # Left by a move made where nobody watched: no holder, not watched.
    assert store.queue.offer("g1", 0, Job(ready_ms=0, holder=None, lease_ms=0, watched_ms=0))
    assert not store.queue.claim("g1", 0, "a", 1_000, 5_000)
    assert store.queue.claim_due("a", 1_000, 5_000, 10) == []
    # A hub whose connections watch it asks for the move: it takes it, and marks it watched.
    assert store.queue.claim("g1", 0, "w", 1_000, 5_000, watching=True)
    store.queue.release("g1", "w")
    assert store.queue.claim_due("a", 2_000, 5_000, 10) == [("g1", 0)]
    store.queue.release("g1", "a")
    # A hub that makes no moves marks it watched by offering it again.
    assert store.queue.claim_due("a", 9_000, 5_000, 10) == []
    assert not store.queue.offer("g1", 0, Job(0, None, 0, watched_ms=14_000))
    assert store.queue.claim_due("a", 9_000, 5_000, 10) == [("g1", 0)]
    store.close()


def test_the_oldest_due_job_of_a_game_with_a_person_goes_first(url: str) -> None:
    store = Store(url)
    for number, (ready, watched) in enumerate([(300, 10_000), (200, None), (100, None)]):
        store.create(stored(f"g{number}"))
        store.queue.offer(f"g{number}", 0, Job(ready, None, 0, watched))
    assert store.queue.claim_due("a", 1_000, 5_000, 2) == [("g2", 0), ("g1", 0)]
    assert store.queue.claim_due("b", 1_000, 5_000, 2) == [("g0", 0)]
    assert store.queue.claim_due("b", 150, 5_000, 2) == []  # none due yet
    store.close()


def test_taking_a_seat_moves_the_game_to_its_next_version(url: str) -> None:
    store = Store(url)
    game = stored("g1")
    game.seats[1] = SeatRow(1, "Bao", "human")
    store.create(game)
    assert store.take_seat("g1", 1, None, "x" * 64)
    change = Change("g1", "playing", None, None, 5, texts=("Sa1",), version=0)
    assert store.write([change]) == {"g1"}
    assert store.write([replace(change, version=1)]) == set()
    store.close()


def test_serve_rejects_a_bad_port_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "70000"]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert "--port" in error


def test_serve_rejects_a_bad_database_url(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--database", "not a url"]) == 1
    assert "--database" in capsys.readouterr().err
