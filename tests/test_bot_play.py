"""The reference bot client against a real ``sosgame serve`` child: accepting and declining
challenges with the right reasons, whole games against a second client, two games at once, a
challenge waiting while the bot is busy, a level within a short clock, refused tokens, a
server killed with -9 and restarted mid-game, Ctrl-C, the soak of 200 games at 1 s + 0 (no
desync, none lost on time), each bot on its own process over PostgreSQL and Redis, and the
examples' bots."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sos_bots import example, first_legal
from sosgame.bot import BotClient, ChallengeFilter, ChallengeSpec, Range
from test_bot_client import sosgame_bot
from test_web_bots_streams import Server, Stream

HERE = Path(__file__).parent
CHALLENGE = {"rows": 3, "cols": 3, "mode": "general", "clock": None, "days": None, "rated": False}


# ------------------------------------------------------------------ against a real server


@pytest.fixture(name="server", scope="module")
def server_fixture(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    # Every test claims names: more than a client address may claim in a minute.
    many = {"SOSGAME_LOGIN_ATTEMPTS_PER_MINUTE": "1000"}
    server = Server(tmp_path_factory.mktemp("botclient") / "games.sqlite3", env=many)
    try:
        yield server
    finally:
        server.stop()


def secret(headers: dict[str, str]) -> str:
    return headers["authorization"].removeprefix("Bearer ")


def record_of(server: Server, game_id: str) -> list[str]:
    moves: list[str] = server.http.get(f"/api/games/{game_id}").json()["actions"]
    return moves


def test_the_token_s_refusals_are_one_line_errors(server: Server) -> None:
    revoked = sosgame_bot("--server", server.url, "--token", "sos_never_made", "--lang", "en")
    assert revoked.returncode == 2 and "refused the API token (401" in revoked.stderr
    server.http.post("/api/players", json={"name": "Narrow", "password": "a good one!"})
    made = server.http.post(
        "/api/tokens", json={"description": "read", "scopes": ["challenge:read"]}
    ).json()
    server.http.cookies.clear()
    narrow = sosgame_bot(
        "--server", server.url, "--lang", "en", env={"SOSGAME_BOT_TOKEN": made["token"]}
    )
    assert narrow.returncode == 2 and narrow.stderr.count("\n") == 1
    assert "lacks a scope the bot needs (403): bot:play, challenge:write" in narrow.stderr


def play_two(server: Server, one: BotClient, two: BotClient) -> None:
    async def both() -> None:
        await asyncio.wait_for(asyncio.gather(one.run(), two.run()), 60)

    asyncio.run(both())


def test_it_accepts_a_matching_challenge_and_declines_others_with_the_right_reason(
    server: Server,
) -> None:
    ann, bot = server.bot("Ann"), server.bot("Picky")
    client = BotClient(
        server.url,
        secret(bot),
        player=first_legal,
        accept=ChallengeFilter(sizes=frozenset({(3, 3)}), clock=Range(10, 20), rated=False),
        games=1,
    )
    events = Stream(server, "/api/stream/event", ann)

    def asked(**settings: Any) -> Any:
        return server.post("/api/challenge/Picky", ann, {**CHALLENGE, **settings})["challenge"]

    async def run() -> None:
        task = asyncio.create_task(client.run())
        try:
            for settings, reason in (
                ({"rows": 4}, "board"),
                ({"clock": {"initial": 60, "increment": 0}}, "tooSlow"),
                ({"rated": True}, "casual"),
            ):
                made = await asyncio.to_thread(asked, **settings)
                declined = await asyncio.to_thread(events.next, "challengeDeclined")
                assert declined["challenge"]["id"] == made["id"]
                assert declined["challenge"]["declineReason"] == reason
            await asyncio.to_thread(asked, clock={"initial": 15, "increment": 0})
            started = await asyncio.to_thread(events.next, "gameStart")
            assert started["game"]["seat"] == 0
            await asyncio.to_thread(
                server.post, f"/api/bot/game/{started['game']['id']}/resign", ann
            )
            await asyncio.wait_for(task, 30)
        finally:
            task.cancel()
            events.close()

    asyncio.run(run())
    (report,) = client.reports
    assert report.status == "finished" and report.seats == (1,)


def test_a_level_plays_within_a_short_clock(server: Server) -> None:
    one, two = server.bot("Deep"), server.bot("Fast")
    level = BotClient(server.url, secret(one), level="hard", seconds=5.0, games=1)
    quick = BotClient(
        server.url,
        secret(two),
        player=first_legal,
        games=1,
        # 8 s for all of its 8 moves, against 5 s a move asked for: it must share the clock
        # (with room left for a busy machine's pauses).
        challenge=ChallengeSpec("Deep", 4, 4, clock=(8, 0)),
    )
    play_two(server, level, quick)
    (report,) = level.reports
    assert report.result is not None and report.result["flagged"] == []
    assert report.result["termination"] in ("full-board", "sos")
    assert len(report.moves) == 16 and report.fallbacks == 0


def test_two_clients_play_whole_games_two_at_once_and_each_record_is_what_both_saw(
    server: Server,
) -> None:
    one, two = server.bot("Tic"), server.bot("Tac")
    at_once = 0

    def count(_report: Any) -> None:
        nonlocal at_once
        at_once = max(at_once, 1 + len(guest.under_way))  # the one that ended, and the rest

    host = BotClient(server.url, secret(one), player=first_legal, concurrency=2, games=4)
    guest = BotClient(
        server.url,
        secret(two),
        player=first_legal,
        concurrency=2,
        games=4,
        challenge=ChallengeSpec("Tic", 3, 4),
        on_game_end=count,
    )
    play_two(server, host, guest)
    assert at_once == 2  # another game still under way when one ended
    assert sorted(r.id for r in host.reports) == sorted(r.id for r in guest.reports)
    for report in host.reports + guest.reports:
        record = record_of(server, report.id)
        assert len(record) == 12 and report.moves == record and report.consistent
        assert all(record[ply] == move for ply, move in report.sent.items())


def test_a_challenge_that_comes_while_the_bot_is_busy_waits_for_its_game_to_end(
    server: Server,
) -> None:
    host = server.bot("Busy")
    guests = [
        BotClient(
            server.url,
            secret(server.bot(name)),
            player=first_legal,
            challenge=ChallengeSpec("Busy", 3, 3),
            games=1,
        )
        for name in ("Early", "Late")
    ]
    said: list[str] = []
    at_once: list[int] = []

    def heard(key: str, **values: object) -> None:
        said.append(key)
        if key == "bot.game_started":
            at_once.append(len(busy.under_way))

    busy = BotClient(server.url, secret(host), player=first_legal, games=2, say=heard)

    async def run() -> None:
        await asyncio.wait_for(asyncio.gather(busy.run(), *(one.run() for one in guests)), 60)

    asyncio.run(run())
    assert "bot.declined" not in said and at_once == [1, 1]  # one game at a time
    assert said.count("bot.accepted") == 2 and len(busy.reports) == 2
    assert all(len(one.reports) == 1 for one in guests)


class BotProcess:
    """``sosgame bot`` in a child process, its reports in an NDJSON file and what it says
    read line by line."""

    def __init__(self, server: Server, headers: dict[str, str], log: Path, *arguments: str):
        self.log = log
        environment = {**os.environ, "PYTHONPATH": str(HERE), "SOSGAME_BOT_TOKEN": secret(headers)}
        command = [sys.executable, "-m", "sosgame", "bot", "--server", server.url]
        command += ["--lang", "en", "--log-games", str(log), *arguments]
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=environment
        )
        self.said: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.said.append(line.rstrip("\n"))

    def wait_for(self, text: str, seconds: float = 30) -> None:
        deadline = time.monotonic() + seconds
        while not any(text in line for line in self.said):
            assert self.process.poll() is None or time.monotonic() < deadline, self.said
            assert time.monotonic() < deadline, self.said[-20:]
            time.sleep(0.05)

    def finish(self, seconds: float) -> int:
        try:
            status = self.process.wait(seconds)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise AssertionError("\n".join(self.said[-30:])) from None
        self._reader.join(5)
        return status

    def interrupt(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)

    def reports(self) -> list[dict[str, Any]]:
        if not self.log.exists():
            return []
        return [json.loads(line) for line in self.log.read_text().splitlines()]


def test_ctrl_c_stops_at_once_in_the_middle_of_a_move_with_one_line(
    server: Server, tmp_path: Path
) -> None:
    one, two = server.bot("Quick"), server.bot("Thinker")
    thinker = BotProcess(server, two, tmp_path / "t.ndjson", "--player", "sos_bots:stuck")
    thinker.wait_for("connected to")
    quick = BotProcess(
        server,
        one,
        tmp_path / "q.ndjson",
        "--player",
        "sos_bots:first_legal",
        "--challenge",
        "Thinker",
        "--challenge-size",
        "3x3",
    )
    try:
        thinker.wait_for("started")
        (line,) = [line for line in thinker.said if line.endswith(": started")]
        game_id = line.split()[1].rstrip(":")
        deadline = time.monotonic() + 30
        while not record_of(server, game_id):  # Quick moves: the thinker is on its first move
            assert time.monotonic() < deadline
            time.sleep(0.1)
        time.sleep(0.3)
        thinker.interrupt()
        started = time.monotonic()
        status = thinker.finish(20)
        assert time.monotonic() - started < 8, thinker.said  # the search is not waited for
        assert status == 0, thinker.said
        assert not any("Traceback" in line for line in thinker.said)
        assert thinker.said[-1] == "sosgame bot: stopped; 1 game under way goes on on the server"
        # A second Ctrl-C while the first is being handled leaves at once.
        quick.interrupt()
        quick.interrupt()
        assert quick.finish(10) in (0, 130)
        assert not any("Traceback" in line for line in quick.said)
    finally:
        thinker.interrupt()
        quick.interrupt()
        quick.finish(10)


def check_games(server: Server, *bots: BotProcess, games: int, moves: int) -> None:
    """Each bot reported ``games`` games, the same ones; each game's stored record is the moves
    both bots saw, each bot's moves stand at the plies it sent them; none lost on time."""
    seen = [{one["id"]: one for one in bot.reports()} for bot in bots]
    assert all(len(one) == games for one in seen), [len(one) for one in seen]
    assert len({frozenset(one) for one in seen}) == 1
    for game_id in seen[0]:
        record = record_of(server, game_id)
        assert len(record) == moves
        for one in seen:
            report = one[game_id]
            assert report["moves"] == record and report["consistent"], report
            assert all(record[int(ply)] == move for ply, move in report["sent"].items())
            assert report["result"]["termination"] == "full-board", report
            assert report["result"]["flagged"] == [] and report["fallbacks"] == 0


@pytest.mark.slow
def test_a_server_killed_mid_game_and_restarted_every_stream_resumes_and_games_finish(
    tmp_path: Path,
) -> None:
    server = Server(tmp_path / "games.sqlite3")
    try:
        one, two = server.bot("Kilo"), server.bot("Lima")
        host = BotProcess(
            server, one, tmp_path / "k.ndjson", "--player", "sos_bots:slow", "--games", "2"
        )
        host.wait_for("connected to")
        guest = BotProcess(
            server,
            two,
            tmp_path / "l.ndjson",
            "--player",
            "sos_bots:slow",
            "--games",
            "2",
            "--challenge",
            "Kilo",
            "--challenge-size",
            "4x4",
        )
        guest.wait_for("started")
        time.sleep(1.5)  # some moves in
        server.kill()
        time.sleep(0.5)
        server.start()
        assert host.finish(90) == 0 and guest.finish(90) == 0
        assert any("connecting again" in line for line in host.said + guest.said)
        check_games(server, host, guest, games=2, moves=16)
        assert all(one["reconnects"] > 0 for one in host.reports()[:1] + guest.reports()[:1])
    finally:
        server.stop()


SOAK = {
    "SOSGAME_NEW_GAMES_PER_ADDRESS": "1000",
    "SOSGAME_NEW_GAMES_PER_PLAYER": "1000",
    "SOSGAME_READS_PER_SECOND": "1000",
    "SOSGAME_READ_BURST": "1000",
    "SOSGAME_COLD_LOADS_PER_SECOND": "1000",
    "SOSGAME_COLD_LOAD_BURST": "1000",
}


def soak(servers: tuple[Server, Server], tmp_path: Path, games: int) -> None:
    first, second = servers
    one, two = first.bot("Soak1"), second.bot("Soak2")
    common = ["--player", "sos_bots:first_legal", "--games", str(games), "--sizes", "3x3"]
    host = BotProcess(first, one, tmp_path / "1.ndjson", *common)
    host.wait_for("connected to")
    guest = BotProcess(
        second,
        two,
        tmp_path / "2.ndjson",
        *common,
        "--challenge",
        "Soak1",
        "--challenge-size",
        "3x3",
        "--challenge-clock",
        "1+0",
    )
    assert guest.finish(240) == 0, guest.said[-20:]
    assert host.finish(30) == 0, host.said[-20:]
    check_games(first, host, guest, games=games, moves=9)


@pytest.mark.slow
@pytest.mark.alone
def test_soak_200_games_at_1_s_with_instant_movers_no_desync_none_lost_on_time(
    tmp_path: Path,
) -> None:
    server = Server(tmp_path / "games.sqlite3", env=SOAK)
    try:
        soak((server, server), tmp_path, 200)
    finally:
        server.stop()


@pytest.mark.slow
def test_each_bot_on_its_own_process_over_postgresql_and_redis_plays_its_games(
    postgres_url: str, redis_url: str, tmp_path: Path
) -> None:
    first = Server(postgres_url, redis_url, tmp_path / "first.log", env=SOAK)
    second = Server(postgres_url, redis_url, tmp_path / "second.log", env=SOAK)
    try:
        soak((first, second), tmp_path, 20)
    finally:
        first.stop()
        second.stop()


@pytest.mark.parametrize(
    ("name", "arguments", "size"),
    [
        ("bot_pettingzoo_policy", ["--episodes", "300"], (3, 3)),
        ("bot_openspiel", ["--rows", "3", "--cols", "3", "--simulations", "20"], (3, 3)),
    ],
)
def test_an_example_bot_plays_a_whole_game_on_the_server(
    server: Server, name: str, arguments: list[str], size: tuple[int, int]
) -> None:
    who = name.removeprefix("bot_").replace("_", "")[:12]
    mine, theirs = server.bot(who), server.bot(f"{who}Foe")
    main = example(name)["main"]
    mode = "simple" if name == "bot_pettingzoo_policy" else "general"
    played: list[Any] = []
    thread = threading.Thread(
        target=lambda: played.extend(
            main(["--server", server.url, "--token", secret(mine), "--games", "1", *arguments])
        )
    )
    thread.start()
    foe = BotClient(
        server.url,
        secret(theirs),
        player=first_legal,
        games=1,
        challenge=ChallengeSpec(who, *size, mode=mode),
    )
    # The example connects once trained: its event stream starts with the open challenge.
    asyncio.run(asyncio.wait_for(foe.run(), 60))
    thread.join(60)
    (report,) = played
    assert report.status == "finished" and report.fallbacks == 0
    assert report.moves == record_of(server, report.id) == foe.reports[0].moves
