"""A tournament's turn (an Arena's tick, a Swiss's round) is planned outside the database's
lock and stored in it only if what it was planned from is unchanged; the turn's row still
decides which process made it."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")
pytest.importorskip("networkx")

from sqlalchemy import create_engine

from sosgame.tournaments.settings import parse_settings
from sosgame.web.matchmaking.creation import stored_game
from sosgame.web.storage.rows import HUMAN, SeatRow
from sosgame.web.storage.schema import server_secrets
from sosgame.web.storage.store import Store
from sosgame.web.tournaments.store import Planned, Snapshot, TournamentStore
from test_web_tournaments import _player, arena


def _started(tmp_path: Path) -> tuple[str, TournamentStore, str, dict[str, int]]:
    """An Arena under way with Ann and Bao in it: the database, its store, its id and the
    players' ids."""
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    Store(url).close()  # the migrations
    ids = {name: _player(url, name) for name in ("Ann", "Bao")}
    store = TournamentStore(create_engine(url))
    made = store.create(parse_settings(arena(1_000)), ids["Ann"], 500)
    assert made is not None
    for number in ids.values():
        assert store.join(made, number, 0, bot=False, now_ms=600) is None
    assert store.due(1_000) == [made]
    return url, store, made, ids


def _pairs(snapshot: Snapshot) -> Planned:
    """Everyone not paused against the next, as a plan."""
    planned = Planned()
    ready = [one for one in snapshot.entrants if not one.paused and not one.withdrawn]
    for first, second in zip(ready[::2], ready[1::2], strict=False):
        seats = [SeatRow(0, first.name, HUMAN, "a" * 64), SeatRow(1, second.name, HUMAN, "b" * 64)]
        game = stored_game(kind="online", rows=3, cols=3, mode="general", seats=seats)
        planned.games.append((game, first.player_id, second.player_id))
        planned.tokens.append(("a", "b"))
    return planned


def test_a_turn_is_planned_without_holding_the_write_lock(tmp_path: Path) -> None:
    url, store, made, _ = _started(tmp_path)
    other = create_engine(url, connect_args={"timeout": 0.2})

    def plan(snapshot: Snapshot) -> Planned:
        # Another process writes meanwhile: SQLite lets it only if no lock is held.
        with other.begin() as db:
            db.execute(server_secrets.insert().values(name=f"probe{len(seen)}", value="-"))
        seen.append(snapshot)
        return _pairs(snapshot)

    seen: list[Snapshot] = []
    planned = store.turn(made, 1, 1_000, plan)
    other.dispose()
    assert planned is not None and len(planned.games) == 1 and len(seen) == 1
    after = store.snapshot(made)
    assert after is not None and after.turns == 1
    assert [game.game_id for game in after.games] == [planned.games[0][0].id]


def test_a_turn_planned_from_a_state_changed_meanwhile_is_planned_again(tmp_path: Path) -> None:
    _, store, made, ids = _started(tmp_path)
    seen: list[Snapshot] = []

    def plan(snapshot: Snapshot) -> Planned:
        if not seen:  # Bao pauses, through another process, while the pairing is worked out
            assert store.leave(made, ids["Bao"], withdraw=False, now_ms=1_000) is None
        seen.append(snapshot)
        return _pairs(snapshot)

    assert store.turn(made, 1, 1_000, plan) is None  # Bao paused: nobody to pair now
    assert [[one.paused for one in snapshot.entrants] for snapshot in seen] == [
        [False, False],
        [False, True],
    ]
    after = store.snapshot(made)
    assert after is not None and after.games == () and after.turns == 0


def test_a_turn_made_by_another_process_meanwhile_is_not_made_again(tmp_path: Path) -> None:
    _, store, made, _ = _started(tmp_path)
    theirs: list[Planned | None] = []

    def plan(snapshot: Snapshot) -> Planned:
        if not theirs:  # another process makes the same turn while this one plans it
            theirs.append(store.turn(made, 1, 1_000, _pairs))
        return _pairs(snapshot)

    assert store.turn(made, 1, 1_000, plan) is None
    (made_there,) = theirs
    after = store.snapshot(made)
    assert made_there is not None and after is not None and after.turns == 1
    assert [game.game_id for game in after.games] == [made_there.games[0][0].id]
