"""Tournaments on the server: the store (settings read back, entrants joining, pausing and
withdrawing, a turn made once, a forfeit counted once)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")
pytest.importorskip("networkx")

from sqlalchemy import create_engine

from sosgame.tournaments.settings import parse_settings
from sosgame.web.storage.rows import HUMAN, SeatRow
from sosgame.web.storage.schema import players
from sosgame.web.storage.store import Store
from sosgame.web.tournaments.store import Planned, TournamentStore


def arena(starts_at: int, **more: Any) -> dict[str, Any]:
    """The body of a 5-minute 3x3 Arena of one minute a player."""
    return {
        "kind": "arena",
        "name": "Test Arena",
        "rows": 3,
        "cols": 3,
        "mode": "general",
        "clock": {"initial": 60, "increment": 0},
        "rated": False,
        "starts_at": starts_at,
        "minutes": 5,
        **more,
    }


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.sqlite3'}"
    database: str = request.getfixturevalue("postgres_url")
    return database


def _player(url: str, name: str) -> int:
    engine = create_engine(url)
    with engine.begin() as db:
        made = db.execute(
            players.insert().values(
                key=name.casefold(),
                name=name,
                password_hash="-",
                mu=25.0,
                sigma=8.3,
                games=0,
                created_ms=1,
            )
        )
        key = made.inserted_primary_key
        assert key is not None
        number: int = key[0]
    engine.dispose()
    return number


# --------------------------------------------------------------------------------- store


def test_the_store_reads_back_settings_entrants_and_makes_a_turn_once(url: str) -> None:
    Store(url).close()  # the migrations
    ann, bao = _player(url, "Ann"), _player(url, "Bao")
    store = TournamentStore(create_engine(url))
    settings = parse_settings(arena(1_000, bots=True, open=False))
    made = store.create(settings, ann, 500)
    assert made is not None
    found = store.get(made)
    assert found is not None and found.settings == settings and found.status == "created"
    assert found.creator_id == ann
    assert store.join(made, bao, 3, bot=False, now_ms=600) == "not_invited"
    store.invite(made, [bao])
    assert store.join(made, ann, 5, bot=False, now_ms=600) is None  # its creator
    assert store.join(made, bao, 3, bot=False, now_ms=700) is None
    assert store.leave(made, bao, withdraw=False, now_ms=800) is None
    snapshot = store.snapshot(made)
    assert snapshot is not None
    entrants = {one.name: one for one in snapshot.entrants}
    assert (entrants["Ann"].rating, entrants["Ann"].paused) == (5, False)
    assert (entrants["Bao"].rating, entrants["Bao"].paused) == (3, True)
    assert store.join(made, bao, 3, bot=False, now_ms=900) is None  # back from the pause
    assert store.due(999) == []
    assert store.due(1_000) == [made]

    def plan(_snapshot: Any) -> Planned:
        seats = [SeatRow(0, "Ann", HUMAN, "a" * 64), SeatRow(1, "Bao", HUMAN, "b" * 64)]
        from sosgame.web.matchmaking.creation import stored_game

        planned = Planned()
        game = stored_game(kind="online", rows=3, cols=3, mode="general", seats=seats)
        planned.games.append((game, ann, bao))
        planned.tokens.append(("a", "b"))
        return planned

    first = store.turn(made, 1, 1_000, plan)
    assert first is not None and len(first.games) == 1
    assert store.turn(made, 1, 1_001, plan) is None  # made once
    snapshot = store.snapshot(made)
    assert snapshot is not None and snapshot.turns == 1
    (game,) = snapshot.games
    assert (game.first_id, game.second_id, game.status) == (ann, bao, "playing")
    assert store.forfeit(game.game_id, ann, swiss=False)
    assert not store.forfeit(game.game_id, ann, swiss=False)  # counted once
    snapshot = store.snapshot(made)
    assert snapshot is not None
    assert {one.name: one.paused for one in snapshot.entrants} == {"Ann": True, "Bao": False}
    assert store.finish(made, 2_000) and not store.finish(made, 2_001)
    assert store.join(made, bao, 3, bot=False, now_ms=2_002) == "tournament_over"
    listed = store.listed()
    assert [(row.id, count) for row, count in listed["finished"]] == [(made, 2)]
    assert listed["upcoming"] == listed["playing"] == []
