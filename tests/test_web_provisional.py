"""Ratings that resist farming, on SQLite and PostgreSQL: a new named player is provisional
(off the leaderboard, of little weight on others' ratings) until they have met enough
distinct established opponents or computer levels in rated games; accounts made to throw
games to another neither lift it nor end its provisional period; and the migration that
counts the opponents of the games rated before it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")
pytest.importorskip("openskill")

from sqlalchemy import create_engine, text

import test_web_store
from sosgame.web.people.players import Account, Players
from sosgame.web.people.ratings import COMPUTER_RATINGS, NEW_PLAYER, new_ratings
from sosgame.web.storage.store import Store
from test_web_players import QUIET, finished

url = test_web_store.url  # the fixture: a new database, SQLite and PostgreSQL
THROWN = (*QUIET[:4], "resign:1")  # two moves each, then the second seat resigns


@pytest.fixture
def store(url: str) -> Iterator[Store]:
    opened = Store(url)
    yield opened
    opened.close()


def _play(players: Players, store: Store, first: int, second: int | str, winner: int) -> None:
    """A rated game of two seats: ``first`` (a player's id) against a player or a level."""
    other = "human" if isinstance(second, int) else second
    game = finished(store, ["human", other], winners=[winner], actions=THROWN)
    players.link(game, 0, first)
    if isinstance(second, int):
        players.link(game, 1, second)
    assert players.rate(game, 10)


def _now(players: Players, account: Account) -> Account:
    found = players.get(account.id)
    assert found is not None
    return found


def test_accounts_made_to_throw_games_neither_lift_a_player_nor_list_it(store: Store) -> None:
    """The farm of the report: eight new accounts each throw three games to a ninth."""
    players = Players(store)  # the server's defaults: 5 opponents, a tenth of the weight
    ninth = players.claim("Ninth", "h", 1)
    fakes = [players.claim(f"Fake {number}", "h", 1) for number in range(8)]
    for _ in range(3):
        for fake in fakes:
            _play(players, store, ninth.id, fake.id, winner=0)
    assert players.leaderboard() == []  # nobody here is established
    farmed = _now(players, ninth)
    # The same 24 wins, had they counted in full (the report's 29.5, about the medium level).
    full = NEW_PLAYER
    losers = [NEW_PLAYER] * 8
    for _ in range(3):
        for number in range(8):
            full, losers[number] = new_ratings([full, losers[number]], [0, 1])
    assert full.shown > 0.9 * COMPUTER_RATINGS["medium"].shown
    assert farmed.rating.shown < full.shown / 3
    assert farmed.rating.shown < COMPUTER_RATINGS["medium"].shown / 3
    assert farmed.games == 24 and farmed.provisional
    assert farmed.to_json()["provisional"] is True


def test_the_computer_levels_and_established_players_end_the_provisional_period(
    store: Store,
) -> None:
    players = Players(store, established_opponents=3)
    ann, bao = players.claim("Ann", "h", 1), players.claim("Bao", "h", 1)
    assert ann.provisional
    for level in ("random", "easy"):
        _play(players, store, ann.id, level, winner=0)
    _play(players, store, ann.id, bao.id, winner=0)  # a provisional opponent does not count
    assert _now(players, ann).provisional
    _play(players, store, ann.id, "medium", winner=1)
    ann_now = _now(players, ann)
    assert not ann_now.provisional
    assert [account.name for account in players.leaderboard()] == ["Ann"]
    # Ann, established now, counts for Bao; one game of the same level twice does not.
    _play(players, store, bao.id, ann.id, winner=1)
    _play(players, store, bao.id, "easy", winner=0)
    _play(players, store, bao.id, "easy", winner=0)
    assert _now(players, bao).provisional
    _play(players, store, bao.id, "random", winner=0)
    assert not _now(players, bao).provisional
    assert {account.name for account in players.leaderboard()} == {"Ann", "Bao"}


def test_a_provisional_opponent_moves_an_established_rating_a_little(store: Store) -> None:
    players = Players(store, established_opponents=1, provisional_weight=0.1)
    ann, bao = players.claim("Ann", "h", 1), players.claim("Bao", "h", 1)
    _play(players, store, ann.id, "easy", winner=0)
    before = _now(players, ann)
    assert not before.provisional
    _play(players, store, bao.id, ann.id, winner=0)  # the provisional Bao beats Ann
    after = _now(players, ann)
    full, bao_full = new_ratings([before.rating, NEW_PLAYER], [1, 0])
    assert after.rating.mu - before.rating.mu == pytest.approx(0.1 * (full.mu - before.rating.mu))
    # Bao's rating takes all of it: Ann is established.
    assert _now(players, bao).rating.mu == pytest.approx(bao_full.mu)


def test_the_opponents_of_games_rated_before_the_upgrade_count(url: str, tmp_path: Path) -> None:
    from importlib import resources

    from alembic import command
    from alembic.config import Config

    (tmp_path / "new").mkdir(exist_ok=True)
    engine = create_engine(url)
    config = Config()
    with resources.as_file(resources.files("sosgame.web.storage") / "migrations") as folder:
        config.set_main_option("script_location", str(folder))
        with engine.begin() as db:
            config.attributes["connection"] = db
            command.upgrade(config, "0012")
            db.execute(
                text(
                    "INSERT INTO players (id, key, name, password_hash, mu, sigma, games,"
                    " created_ms) VALUES (1, 'ann', 'Ann', 'h', 30.0, 5.0, 3, 1),"
                    " (2, 'bao', 'Bao', 'h', 20.0, 5.0, 1, 1)"
                )
            )
            for game, other in (("g1", "human"), ("g2", "easy"), ("g3", "easy")):
                db.execute(
                    text(
                        "INSERT INTO games (id, kind, rows, cols, mode, players, status,"
                        " created_ms, updated_ms) VALUES"
                        f" ('{game}', 'online', 3, 3, 'general', 2, 'finished', 1, 1)"
                    )
                )
                db.execute(
                    text(
                        "INSERT INTO seats (game_id, seat, name, player) VALUES"
                        f" ('{game}', 0, 'Ann', 'human'), ('{game}', 1, 'B', '{other}')"
                    )
                )
                db.execute(
                    text(
                        "INSERT INTO player_seats (game_id, seat, player_id) VALUES"
                        f" ('{game}', 0, 1)" + (f", ('{game}', 1, 2)" if other == "human" else "")
                    )
                )
                for player in (1, 2) if other == "human" else (1,):
                    db.execute(
                        text(
                            "INSERT INTO rating_history (player_id, game_id, mu, sigma,"
                            f" rated_ms) VALUES ({player}, '{game}', 25.0, 8.0, 1)"
                        )
                    )
            if engine.dialect.name == "postgresql":  # the ids given by hand
                db.execute(text("SELECT setval('players_id_seq', 2)"))
    engine.dispose()
    store = Store(url)
    try:
        players = Players(store, established_opponents=2)
        ann, bao = players.find("Ann"), players.find("Bao")
        assert ann is not None and not ann.provisional  # Bao and the easy level
        assert bao is not None and bao.provisional  # Ann only
        assert [account.name for account in players.leaderboard()] == ["Ann"]
        with store.engine.begin() as db:
            met = db.execute(
                text("SELECT player_id, opponent FROM player_opponents ORDER BY 1, 2")
            ).all()
        assert [tuple(row) for row in met] == [(1, "#2"), (1, "easy"), (2, "#1")]
        assert players.claim("Chi", "h", 2).provisional  # new ids still follow
    finally:
        store.close()
