"""The reference bot client (``sosgame bot``, :mod:`sosgame.bot`): its challenge filter and
decline reasons, its players, its one-line errors, and against a real ``sosgame serve`` child:
accepting and declining challenges, whole games against a second client, two games at once,
a server killed with -9 and restarted mid-game, Ctrl-C, and the soak of 200 games at 1 s + 0
(no desync, none lost on time), also with each bot on its own process over PostgreSQL and
Redis."""

from __future__ import annotations

import asyncio
import json
import os
import runpy
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sos_bots import first_legal
from sosgame import Game, Move
from sosgame.bot import BotClient, BotError, ChallengeFilter, ChallengeSpec, Range
from sosgame.bot.backoff import Backoff
from sosgame.bot.filters import parse_range, parse_sizes
from sosgame.bot.players import BadMoveError, Turn, callable_mover, legal, load_callable
from test_web_bots_streams import Server, Stream

HERE = Path(__file__).parent
CHALLENGE = {"rows": 3, "cols": 3, "mode": "general", "clock": None, "days": None, "rated": False}


def challenge_of(**settings: Any) -> dict[str, Any]:
    return {**CHALLENGE, "id": "x", "challenger": "Ann", "destUser": "Bot", **settings}


# ------------------------------------------------------------------ the filter


@pytest.mark.parametrize(
    ("accept", "settings", "from_bot", "reason"),
    [
        (ChallengeFilter(), {}, False, None),
        (ChallengeFilter(sizes=frozenset({(5, 5)})), {}, False, "size"),
        (ChallengeFilter(modes=frozenset({"simple"})), {}, False, "mode"),
        (ChallengeFilter(rated=False), {"rated": True}, False, "casual"),
        (ChallengeFilter(casual=False), {}, False, "rated"),
        (ChallengeFilter(source="people"), {}, True, "noBot"),
        (ChallengeFilter(source="bots"), {}, False, "onlyBot"),
        (
            ChallengeFilter(clock=Range(60, 300)),
            {"clock": {"initial": 30, "increment": 0}},
            False,
            "tooFast",
        ),
        (
            ChallengeFilter(clock=Range(60, 300)),
            {"clock": {"initial": 600, "increment": 0}},
            False,
            "tooSlow",
        ),
        (
            ChallengeFilter(increment=Range(1, 5)),
            {"clock": {"initial": 60, "increment": 0}},
            False,
            "tooFast",
        ),
        (
            ChallengeFilter(clock=None),
            {"clock": {"initial": 60, "increment": 0}},
            False,
            "timeControl",
        ),
        (ChallengeFilter(days=None), {"days": 3}, False, "timeControl"),
        (ChallengeFilter(days=Range(1, 2)), {"days": 3}, False, "tooSlow"),
        (ChallengeFilter(untimed=False), {}, False, "timeControl"),
    ],
)
def test_the_filter_declines_with_the_reason_the_challenger_can_act_on(
    accept: ChallengeFilter, settings: dict[str, Any], from_bot: bool, reason: str | None
) -> None:
    assert accept.reason(challenge_of(**settings), from_bot=from_bot) == reason


def test_ranges_and_sizes_parse_and_anything_else_is_refused() -> None:
    assert parse_range("60-300", "--clock") == Range(60, 300)
    assert parse_range("30-", "--clock") == Range(30, None)
    assert parse_range("-5", "--clock") == Range(None, 5)
    assert parse_range("3", "--days") == Range(3, 3)
    assert parse_range("none", "--clock") is None
    assert parse_sizes("3x3, 5x4") == frozenset({(3, 3), (5, 4)})
    assert parse_sizes("any") is None
    for text in ("5-1", "fast", "1-2-3"):
        with pytest.raises(BotError, match="is not a range"):
            parse_range(text, "--clock")
    with pytest.raises(BotError, match="is not a board size"):
        parse_sizes("3by3")


def test_backoff_doubles_with_jitter_up_to_its_cap_and_starts_over_after_a_success() -> None:
    waits = Backoff(first=1.0, most=8.0)
    drawn = [waits.next() for _ in range(6)]
    for wait, ceiling in zip(drawn, [1, 2, 4, 8, 8, 8], strict=True):
        assert ceiling / 2 <= wait <= ceiling
    waits.reset()
    assert waits.next() <= 1.0


# ------------------------------------------------------------------ players


def test_a_callable_gets_seat_and_seconds_only_if_it_takes_them() -> None:
    seen: dict[str, Any] = {}

    def plain(game: Game) -> str:
        return "Sa1"

    def wide(game: Game, *, seat: int, seconds: float | None) -> Move:
        seen.update(seat=seat, seconds=seconds)
        return first_legal(game)

    game = Game(3, 3)
    assert callable_mover(plain)(game, Turn(0, 5.0, 1.0)) == "Sa1"
    callable_mover(wide)(game, Turn(1, 2.5, 1.0))
    assert seen == {"seat": 1, "seconds": 2.5}


def test_what_a_player_returns_must_be_a_legal_move() -> None:
    game = Game(3, 3, moves=["Sa1"])
    assert legal(game, "Ob2") == Move.parse("Ob2")
    for returned, why in (("Sa1", "already holds"), ("Xb2", "not a move"), (None, "not a move")):
        with pytest.raises(BadMoveError, match=why):
            legal(game, returned)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("first_legal", "write the module and the function"),
        ("no_such_module_here:play", "does not load"),
        ("sos_bots:nothing", "has no nothing"),
        ("sos_bots:NOT_CALLABLE", "a int cannot be called"),
    ],
)
def test_a_player_that_cannot_be_loaded_is_refused_naming_why(spec: str, message: str) -> None:
    with pytest.raises(BotError, match=message):
        load_callable(spec)


def test_a_level_spends_a_fair_share_of_its_clock_and_never_more_than_asked() -> None:
    from sosgame.bot.players import SAFETY_SECONDS, budget

    game = Game(3, 3, moves=["Sa1"])  # 8 empty cells: 4 moves each to come
    assert budget(game, None, 0, 2.0) == 2.0  # no clock: what was asked
    assert budget(game, 60.0, 0, 2.0) == 2.0
    assert budget(game, 1.0, 0, 2.0) == pytest.approx((1.0 - SAFETY_SECONDS) / 4)
    assert budget(game, 1.0, 2, 2.0) == pytest.approx((1.0 - SAFETY_SECONDS) / 4 + 1.6)
    assert budget(game, 0.1, 0, 2.0) == 0.0  # nearly flagged: the first legal move at once


def test_a_player_that_cannot_be_called_is_refused_from_python_too() -> None:
    with pytest.raises(BotError, match="cannot be called"):
        BotClient("http://localhost:8000", "t", player=3)  # type: ignore[arg-type]


def test_a_429_is_waited_out_as_retry_after_says() -> None:
    import httpx

    from sosgame.bot.session import Session

    times: list[float] = []

    def answer(request: httpx.Request) -> httpx.Response:
        times.append(time.monotonic())
        if len(times) == 1:
            return httpx.Response(
                429, headers={"retry-after": "0.3"}, json={"error": {"code": "rate_limited"}}
            )
        return httpx.Response(200, json={"ok": True})

    async def ask() -> Any:
        session = Session("http://fake", "t", transport=httpx.MockTransport(answer))
        try:
            return await session.post("/api/bot/game/g/resign")
        finally:
            await session.close()

    assert asyncio.run(ask()) == {"ok": True}
    assert len(times) == 2 and times[1] - times[0] >= 0.3


# ------------------------------------------------------------------ the command line


def sosgame_bot(*arguments: str, env: dict[str, str] | None = None, **more: Any) -> Any:
    environment = {**os.environ, "PYTHONPATH": str(HERE), **(env or {})}
    environment.pop("SOSGAME_BOT_TOKEN", None)
    return subprocess.run(
        [sys.executable, "-m", "sosgame", "bot", *arguments],
        capture_output=True,
        text=True,
        env={**environment, **(env or {})},
        timeout=60,
        check=False,
        **more,
    )


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--server", "localhost:8000", "--token", "t"], "is not a server address"),
        (
            ["--server", "http://127.0.0.1:9"],
            "no API token: give --token, or set SOSGAME_BOT_TOKEN",
        ),
        (["--server", "http://127.0.0.1:9", "--token", "t", "--sizes", "3"], "not a board size"),
        (["--server", "http://127.0.0.1:9", "--token", "t", "--clock", "9-1"], "--clock '9-1'"),
        (["--server", "http://127.0.0.1:9", "--token", "t", "--modes", "fast"], "--modes 'fast'"),
        (["--server", "http://127.0.0.1:9", "--token", "t", "--concurrency", "0"], "at least 1"),
        (
            ["--server", "http://127.0.0.1:9", "--token", "t", "--player", "nowhere:x"],
            "does not load",
        ),
        (
            ["--server", "http://127.0.0.1:9", "--token", "t", "--player", "sos_bots:NOT_CALLABLE"],
            "cannot be called",
        ),
        (["--server", "http://127.0.0.1:9", "--token", "t"], "cannot reach http://127.0.0.1:9"),
    ],
)
def test_bad_input_is_one_line_and_exit_status_2(arguments: list[str], message: str) -> None:
    done = sosgame_bot(*arguments, "--lang", "en")
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("sosgame: error: ") and message in done.stderr


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
                ({"rows": 4}, "size"),
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
        challenge=ChallengeSpec("Deep", 4, 4, clock=(3, 0)),
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
        time.sleep(1.0)  # Quick has moved: the thinker is on its first move
        thinker.interrupt()
        started = time.monotonic()
        status = thinker.finish(10)
        assert time.monotonic() - started < 5
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


# ------------------------------------------------------------------ the examples


def example(name: str) -> dict[str, Any]:
    """The namespace of ``examples/NAME.py`` (its folder importable, as when run)."""
    folder = str(HERE.parent / "examples")
    sys.path.insert(0, folder)
    try:
        return runpy.run_path(f"{folder}/{name}.py", run_name="example")
    finally:
        sys.path.remove(folder)


def test_the_example_players_of_trained_policies_give_legal_moves() -> None:
    pettingzoo = example("bot_pettingzoo_policy")
    values = pettingzoo["train"](3, 3, "simple", 300, 0)
    trained = pettingzoo["as_player"](values)
    openspiel = example("bot_openspiel")
    mcts = openspiel["as_player"](openspiel["mcts_bot"](3, 3, "simple", 20, 0))
    for moves in ([], ["Sa1"], ["Sa1", "Oc3", "Sb2"]):
        game = Game(3, 3, mode="simple", moves=moves)
        assert legal(game, trained(game, seat=game.turn)) in game.legal_moves
        assert legal(game, mcts(game)) in game.legal_moves


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


# ------------------------------------------------------------------ a move lost on the way


class FakeGame:
    """A game's stream and moves endpoint, over httpx's mock transport: the bot is seat 0
    of a 3x3 game; the opponent's answer to its first move ends the game. The first move's
    answer is lost on the network, after the move was applied (``applied``) or before."""

    def __init__(self, *, applied: bool) -> None:
        self.applied_when_lost = applied
        self.moves: list[str] = []
        self.posts: list[str] = []

    def state(self) -> dict[str, Any]:
        over = len(self.moves) >= 2
        return {
            "type": "gameState",
            "moves": list(self.moves),
            "ply": len(self.moves),
            "turn": len(self.moves) % 2,
            "status": "finished" if over else "playing",
            "result": {"winners": [0, 1]} if over else None,
            "clock": None,
        }

    def handle(self, request: Any) -> Any:
        import httpx

        path = request.url.path
        if path.endswith("/stream/g1"):
            full = {
                "type": "gameFull", "id": "g1", "rows": 3, "cols": 3, "mode": "general",
                "players": [{"seat": 0}, {"seat": 1}], "seats": [0], "state": self.state(),
            }  # fmt: skip
            return httpx.Response(200, content=(json.dumps(full) + "\n").encode())
        move = path.rsplit("/", 1)[1]
        self.posts.append(f"{move}?{request.url.query.decode()}")
        if len(self.posts) == 1:
            if self.applied_when_lost:
                self.moves += [move, "Oc3"]
            raise httpx.ReadError("connection reset", request=request)
        self.moves += [move, "Oc3"]
        return httpx.Response(200, json={"ok": True})


@pytest.mark.parametrize("applied", [True, False])
def test_a_move_whose_answer_is_lost_is_sent_again_only_if_the_stream_shows_it_missing(
    applied: bool,
) -> None:
    import httpx

    from sosgame.bot.game import GameLoop
    from sosgame.bot.players import callable_mover
    from sosgame.bot.session import Session

    fake = FakeGame(applied=applied)

    async def play() -> Any:
        session = Session("http://fake", "t", transport=httpx.MockTransport(fake.handle))
        loop = GameLoop(
            session, "g1", callable_mover(first_legal), most_seconds=1.0, say=lambda *a, **k: None
        )
        try:
            return await asyncio.wait_for(loop.run(), 10)
        finally:
            await session.close()

    report = asyncio.run(play())
    assert report.status == "finished" and report.moves == fake.moves
    expected = ["Sa1?ply=0"] if applied else ["Sa1?ply=0", "Sa1?ply=0"]
    assert fake.posts == expected
    assert report.reconnects >= 1
