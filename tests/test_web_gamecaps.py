"""Every path that makes a game passes the same caps, counted in the store, so they hold
over server processes: new games, uploaded records, pools (a rated pool never pairs an
address with itself) and seeks; a paired game nobody opens is aborted without being loaded;
and loading games that are not in memory is paced per address."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, func, select

from sos_web import FakeTime, app_client, receive_type
from sosgame import Game
from sosgame.record import Record
from sosgame.web.config import ServerLimits
from sosgame.web.guards.gamecaps import Caps
from sosgame.web.live import unopened as unopened_module
from sosgame.web.live.hub import Hub, TooManyError
from sosgame.web.live.protocol import ProtocolError, parse_new_game
from sosgame.web.matchmaking import creation
from sosgame.web.matchmaking.seeks import SeekStore, member_of, parse_seek
from sosgame.web.storage.rows import HUMAN, SeatRow
from sosgame.web.storage.schema import games, players
from sosgame.web.storage.store import Store
from test_web_hubs import new_game, run, two_hubs
from test_web_pools import CASUAL, RATED, FakeClock, Player, lobbies

Message = dict[str, Any]
BOTS = [{"name": "Ann"}, {"name": "Bot", "player": "random"}]
PEOPLE = [{"name": "Ann"}, {"name": "Bao"}]


def _accounts(engine: Engine, *ids: int) -> None:
    """Accounts of these ids (as claimed names), for the seats of rated games."""
    with engine.begin() as db:
        db.execute(
            players.insert(),
            [
                {"id": n, "key": f"p{n}", "name": f"P{n}", "password_hash": "-",
                 "mu": 25.0, "sigma": 8.3, "games": 0, "created_ms": 0}
                for n in ids
            ],
        )  # fmt: skip


def _limit(*hubs: Hub, **limits: Any) -> None:
    for hub in hubs:
        hub.limits = replace(hub.limits, **limits)


def test_the_servers_cap_of_computer_games_holds_over_two_processes(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with two_hubs(tmp_path) as (one, two):
            _limit(one, two, computer_games_total=2)
            await new_game(one, seats=BOTS)
            await new_game(one, seats=BOTS)
            # The other process has none of them in memory: the store counts them.
            with pytest.raises(TooManyError, match="the server already runs 2"):
                await new_game(two, seats=BOTS)

    run(scenario)


def test_pool_games_count_for_the_caps_of_their_address(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobbies(tmp_path, clock) as (one, two):
            _limit(one.hub, two.hub, games_per_address=2)
            for _ in range(2):
                # Two guests of one address (names of one length) in a casual pool.
                ann, bao = Player(one, "Ann"), Player(two, "Bao")
                await ann.enter()
                await bao.enter()
                await one.sweep()
                await two.sweep()
                assert len(await ann.received("paired")) == 1
            with pytest.raises(ProtocolError, match="2 unfinished games") as refused:
                await Player(one, "Cay").enter()
            assert refused.value.code == "too_many_games"
            # Nor may it make a game any other way.
            with pytest.raises(TooManyError):
                await creation.create(
                    one.hub,
                    parse_new_game({"rows": 3, "cols": 3, "seats": PEOPLE}),
                    owner="10.0.0.3",
                )

    run(scenario)


def test_players_over_a_cap_meanwhile_wait_unpaired_and_hold_nobody_up(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobbies(tmp_path, clock) as (one, two):
            _limit(one.hub, two.hub, games_per_address=1)
            ann, bao = Player(one, "Ann"), Player(two, "Bao")
            await ann.enter()
            await bao.enter()
            # Their address makes a game another way before the sweep: it is at its cap.
            settings = parse_new_game({"rows": 3, "cols": 3, "seats": PEOPLE})
            await creation.create(one.hub, settings, owner="10.0.0.3")
            cyrus, dmitri = Player(one, "Cyrus"), Player(two, "Dmitri")
            await cyrus.enter()
            await dmitri.enter()
            for _ in range(2):
                await one.sweep()
                await two.sweep()
            assert not await ann.received("paired") and not await bao.received("paired")
            (for_cyrus,) = await cyrus.received("paired")
            (for_dmitri,) = await dmitri.received("paired")
            assert for_cyrus["game"] == for_dmitri["game"]

    run(scenario)


def test_a_rated_pool_never_pairs_one_address_with_itself(tmp_path: Path) -> None:
    async def scenario() -> None:
        clock = FakeClock()
        async with lobbies(tmp_path, clock) as (one, two):
            _accounts(one.hub.store.engine, 1, 2, 3)
            # One address (names of one length), two accounts.
            ann, bao = Player(one, "Ann", account=1), Player(two, "Bao", account=2)
            await ann.enter(RATED)
            clock.advance(1)
            await bao.enter(RATED)
            for _ in range(3):
                clock.advance(10)
                await one.sweep()
                await two.sweep()
            assert not await ann.received("paired") and not await bao.received("paired")
            cyrus = Player(two, "Cyrus", account=3)
            await cyrus.enter(RATED)
            await two.sweep()
            await one.sweep()
            (for_ann,) = await ann.received("paired")
            (for_cyrus,) = await cyrus.received("paired")
            assert for_ann["game"] == for_cyrus["game"]
            # The game is the longer waiting player's, for the caps.
            stored = await one.hub.db(one.hub.store.load, for_ann["game"])
            assert (stored.owner, stored.owner_player) == ("10.0.0.3", 1)

    run(scenario)


def _seek_game(given: Any, seated: Any) -> Any:
    rows = [SeatRow(seat, one.name, HUMAN, one.token_hash) for seat, one in enumerate(seated)]
    return creation.stored_game(
        kind="online", rows=given.rows, cols=given.cols, mode=given.mode, seats=rows
    )


def test_a_filled_seek_is_its_creators_game_within_the_creators_caps(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    seeks = SeekStore(store.engine)
    _accounts(store.engine, 1, 2)
    now = int(time.time() * 1000)
    caps = Caps.now(ServerLimits(games_per_address=1), now)
    rated = parse_seek({"rows": 5, "cols": 5, "rated": True, "days": 3})
    for seek_id in ("s1", "s2"):
        creator = member_of("h.ann", seek_id, "Ann", 1)
        assert seeks.create(seek_id, rated, creator, "1.2.3.4", now, per_address=3)
    bao = member_of("h.bao", "s1", "Bao", 2)
    # A rated seek is not for its creator's address.
    assert seeks.join("s1", bao, 0.0, now, _seek_game, address="1.2.3.4", caps=caps) == (
        "not_for_you"
    )
    assert seeks.join("s1", bao, 0.0, now, _seek_game, address="5.6.7.8", caps=caps) is None
    (summary,) = store.summaries(["playing"])
    stored = store.load(summary.id)
    assert stored is not None and (stored.owner, stored.owner_player) == ("1.2.3.4", 1)
    # The creator is at the cap now: the next seek is withdrawn as it would fill.
    bao = member_of("h.bao", "s2", "Bao", 2)
    assert seeks.join("s2", bao, 0.0, now, _seek_game, address="5.6.7.8", caps=caps) == "address"
    assert [seek.id for seek in seeks.open_seeks(now, 15_000)] == []
    assert store.count() == 1
    store.close()


def test_a_seek_is_refused_to_a_creator_who_may_make_no_game(tmp_path: Path) -> None:
    with (
        app_client(tmp_path / "games.sqlite3", games_per_address=1) as client,
        client.websocket_connect("/ws/lobby") as ann,
    ):
        ann.send_json({"v": 1, "type": "hello", "name": "Ann"})
        secret = receive_type(ann, "welcome")["lobby"]
        made = client.post("/api/games", json={"rows": 3, "cols": 3, "seats": PEOPLE})
        assert made.status_code == 201
        body = {"rows": 5, "cols": 5, "days": 3}
        refused = client.post(
            "/api/seeks", json=body, headers={"Authorization": f"Bearer {secret}"}
        )
        assert refused.status_code == 429, refused.text
        assert refused.json()["error"]["code"] == "too_many_games"


def _finished_record() -> Message:
    game = Game(3, 3)
    while not game.is_over:
        game.apply(next(iter(game.legal_moves)))
    data: Message = Record.from_game(game, players=["Ann", "Bao"]).to_dict()
    return data


def test_uploads_of_finished_records_count_as_games_made(tmp_path: Path) -> None:
    record = _finished_record()
    with app_client(tmp_path / "games.sqlite3", new_games_per_address=3) as client:
        for _ in range(3):
            assert client.post("/api/records", json=record).status_code == 201
        refused = client.post("/api/records", json=record)
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "too_many_games"
        assert "made 3 games in 600 seconds" in refused.json()["error"]["message"]
        # Every other way of making a game is refused as well.
        assert (
            client.post("/api/games", json={"rows": 3, "cols": 3, "seats": PEOPLE}).status_code
            == 429
        )


def test_uploads_are_paced_per_address_like_replays_before_their_body_is_read(
    tmp_path: Path,
) -> None:
    record = _finished_record()
    with app_client(tmp_path / "games.sqlite3", read_burst=2, reads_per_second=0.01) as client:
        for _ in range(2):
            assert client.post("/api/records", json=record).status_code == 201
        refused = client.post("/api/records", json=record)
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "rate_limited"
        # Refused before the body is read: not even a record's worth of garbage is looked at.
        garbage = client.post("/api/records", content=b"{not json")
        assert garbage.json()["error"]["code"] == "rate_limited"
        hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
        with hub.store.engine.connect() as db:
            assert db.execute(select(func.count()).select_from(games)).scalar_one() == 2


def test_a_paired_game_nobody_opens_is_aborted_without_being_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = FakeTime.install(monkeypatch)
    monkeypatch.setattr(unopened_module, "EVERY_SECONDS", 0.0)
    with (
        app_client(tmp_path / "games.sqlite3") as client,
        client.websocket_connect("/ws/lobby") as ann,
        client.websocket_connect("/ws/lobby") as bao,
    ):
        for socket in (ann, bao):
            socket.send_json({"v": 1, "type": "hello"})
            receive_type(socket, "welcome")
            socket.send_json({"v": 1, "type": "pool", "pool": CASUAL})
        game_id = receive_type(ann, "paired")["game"]
        receive_type(bao, "paired")
        hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
        limits = hub.limits
        fake.advance(limits.first_move_seconds + limits.first_move_grace_seconds + 1)
        deadline = time.monotonic() + 60
        stored = hub.store.load(game_id)
        while stored is not None and stored.status == "playing" and time.monotonic() < deadline:
            time.sleep(0.05)  # polling for the sweep, which runs in the app's own thread
            stored = hub.store.load(game_id)
        assert stored is not None and stored.status == "finished"
        assert stored.result is not None and stored.result["termination"] == "aborted"
        assert game_id not in hub.rooms
        # Opened now, it shows as aborted.
        assert client.get(f"/api/games/{game_id}").json()["status"] == "finished"


def test_a_game_moved_in_or_of_days_per_move_is_not_aborted_by_the_sweep(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    people = [SeatRow(0, "Ann", HUMAN, "a" * 64), SeatRow(1, "Bao", HUMAN, "b" * 64)]
    made = {}
    for name, clock, moves in [
        ("none", (60_000, 0, None), []),
        ("moved", (60_000, 0, None), ["Sa1"]),
        ("days", (0, 0, 3), []),
        ("local", None, []),
    ]:
        game = creation.stored_game(
            kind="online" if name != "local" else "local",
            rows=3,
            cols=3,
            mode="general",
            seats=[replace(row) for row in people],
            clock=clock,
            actions=moves,
        )
        store.create(game)
        made[name] = game.id
    later = int(time.time() * 1000) + 120_000
    ended = unopened_module.abort_unopened(store.engine, later, later)
    assert ended == [(made["none"], 1)]
    for name, game_id in made.items():
        stored = store.load(game_id)
        assert stored is not None
        assert stored.status == ("finished" if name == "none" else "playing"), name
    store.close()


def test_games_not_in_memory_are_loaded_at_the_clients_pace(tmp_path: Path) -> None:
    with app_client(tmp_path / "games.sqlite3") as client:
        games = [
            client.post("/api/games", json={"rows": 3, "cols": 3, "seats": PEOPLE}).json()["id"]
            for _ in range(4)
        ]
    # Another process (or after a restart): none of them is in memory.
    with app_client(
        tmp_path / "games.sqlite3", cold_load_burst=2, cold_loads_per_second=0.01
    ) as client:
        assert client.get(f"/api/games/{games[0]}").status_code == 200
        assert client.get(f"/api/games/{games[1]}/replay").status_code == 200
        refused = client.get(f"/api/games/{games[2]}")
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "rate_limited"
        with client.websocket_connect(f"/ws/games/{games[3]}") as socket:
            assert receive_type(socket, "error")["code"] == "rate_limited"
        # A game in memory costs no load.
        for _ in range(5):
            assert client.get(f"/api/games/{games[0]}").status_code == 200


def test_many_asking_at_once_for_a_game_being_loaded_count_as_one_load(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with app_client(tmp_path / "games.sqlite3") as client:
        game = client.post("/api/games", json={"rows": 3, "cols": 3, "seats": PEOPLE}).json()
    with app_client(
        tmp_path / "games.sqlite3", cold_load_burst=1, cold_loads_per_second=0.01
    ) as client:
        hub: Hub = client.app.state.hub  # type: ignore[attr-defined]
        load = hub.store.load

        def slow_load(game_id: str) -> Any:
            time.sleep(0.5)  # a large game read from a busy database
            return load(game_id)

        monkeypatch.setattr(hub.store, "load", slow_load)
        rates = client.app.state.server.loads  # type: ignore[attr-defined]
        charge = rates.allow

        async def slow_charge(client_address: str) -> bool:
            await asyncio.sleep(0.2)  # a round trip to the shared buckets (Redis)
            allowed: bool = await charge(client_address)
            return allowed

        monkeypatch.setattr(rates, "allow", slow_charge)
        with ThreadPoolExecutor(max_workers=8) as requests:
            answers = list(
                requests.map(lambda _: client.get(f"/api/games/{game['id']}").status_code, range(8))
            )
        assert answers == [200] * 8
