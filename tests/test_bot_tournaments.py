"""The reference bot client in tournaments (``sosgame bot --tournament ID``), against a real
``sosgame serve`` child: two bots join an Arena open to bots at their start, play the games
it makes for them, and are paused in it when they stop; a tournament the bot may not join
stops it at the start with a line that names it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, select

from sos_bots import first_legal
from sosgame.bot import BotClient, BotError
from sosgame.web.live import clock as clocks
from sosgame.web.storage.schema import players, tournament_entrants
from test_bot_client import sosgame_bot
from test_web_bots_streams import Server
from test_web_tournaments import arena

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(name="server", scope="module")
def server_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    fast = {
        "SOSGAME_LOGIN_ATTEMPTS_PER_MINUTE": "1000",
        "SOSGAME_TOURNAMENT_TICK_SECONDS": "0.05",
        "SOSGAME_TOURNAMENT_SPEED": "20",
    }
    server = Server(tmp_path_factory.mktemp("bottournaments") / "games.sqlite3", env=fast)
    try:
        yield server
    finally:
        server.stop()


def secret(headers: dict[str, str]) -> str:
    return headers["authorization"].removeprefix("Bearer ")


def create(server: Server, headers: dict[str, str], **settings: object) -> str:
    made = server.http.post(
        "/api/tournaments", json=arena(clocks.now_ms(), **settings), headers=headers
    )
    assert made.status_code == 201, made.text
    tournament_id: str = made.json()["id"]
    return tournament_id


def paused_in(server: Server, tournament_id: str) -> dict[str, bool]:
    engine = create_engine(server.database)
    with engine.begin() as db:
        found = dict(
            db.execute(
                select(players.c.name, tournament_entrants.c.paused)
                .join(players, players.c.id == tournament_entrants.c.player_id)
                .where(tournament_entrants.c.tournament_id == tournament_id)
            ).all()
        )
    engine.dispose()
    return found


def test_two_bots_join_an_arena_play_its_games_and_pause_when_they_stop(server: Server) -> None:
    one, two = server.bot("ArenaOne"), server.bot("ArenaTwo")
    tournament_id = create(server, one, bots=True)
    clients = [
        BotClient(
            server.url, secret(headers), player=first_legal, games=2, tournaments=(tournament_id,)
        )
        for headers in (one, two)
    ]

    async def both() -> None:
        await asyncio.wait_for(asyncio.gather(*(client.run() for client in clients)), 90)

    asyncio.run(both())
    shown = server.http.get(f"/api/tournaments/{tournament_id}").json()
    made = {game["id"] for game in shown["games"]}
    for client in clients:
        played = {report.id for report in client.reports}
        assert len(played) == 2 and played <= made
    assert {line["name"] for line in shown["standings"]} == {"ArenaOne", "ArenaTwo"}
    # Both played the two games against each other: the tournament counts them.
    assert all(len(line["games"]) >= 2 for line in shown["standings"])
    assert paused_in(server, tournament_id) == {"ArenaOne": True, "ArenaTwo": True}


def test_a_tournament_the_bot_may_not_join_stops_it_with_a_line_naming_it(server: Server) -> None:
    person = server.bot("Organiser")
    closed = create(server, person, bots=False)
    bot = server.bot("Shut")
    client = BotClient(server.url, secret(bot), player=first_legal, tournaments=(closed,))
    with pytest.raises(
        BotError, match=f"cannot join the tournament '{closed}' \\(bots_not_allowed"
    ):
        asyncio.run(asyncio.wait_for(client.run(), 30))
    done = sosgame_bot(
        "--server",
        server.url,
        "--lang",
        "en",
        "--tournament",
        "no-such",
        env={"SOSGAME_BOT_TOKEN": secret(bot)},
    )
    said = done.stderr.splitlines()
    assert done.returncode == 2 and said[0].startswith("connected to") and len(said) == 2
    assert said[1].startswith("sosgame: error: cannot join the tournament 'no-such' (no_tournament")
