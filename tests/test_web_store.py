"""The web app's store: Alembic migrations, transactions, and the ``serve`` command line."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")
pytest.importorskip("alembic")

from sqlalchemy import create_engine, inspect

from sos_services import postgres_server, postgres_url  # noqa: F401 (fixtures)
from sosgame.cli import main
from sosgame.web.store import Change, SeatRow, Store, StoredGame


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
    assert {"games", "seats", "actions", "alembic_version"} <= tables
    with engine.connect() as connection:
        version = connection.exec_driver_sql("SELECT version_num FROM alembic_version")
        assert version.scalar_one() == "0002"
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
    with resources.as_file(resources.files("sosgame.web") / "migrations") as folder:
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


def test_serve_rejects_a_bad_port_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--port", "70000"]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert "--port" in error


def test_serve_rejects_a_bad_database_url(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--database", "not a url"]) == 1
    assert "--database" in capsys.readouterr().err
