"""The reference bot client (``sosgame bot``, :mod:`sosgame.bot`) without a server: its
challenge filter and decline reasons, its players and their time budget, its waits (backoff,
``Retry-After``), a move whose answer is lost on the network, the example players of trained
policies, and the command line's one-line errors (exit status 2). Against a real server:
``test_bot_play.py``."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from sos_bots import example, first_legal
from sosgame import Game, Move
from sosgame.bot import BotClient, BotError, ChallengeFilter, Range
from sosgame.bot.backoff import Backoff
from sosgame.bot.filters import parse_range, parse_sizes
from sosgame.bot.players import BadMoveError, Turn, callable_mover, legal, load_callable

HERE = Path(__file__).parent
CHALLENGE = {"rows": 3, "cols": 3, "mode": "general", "clock": None, "days": None, "rated": False}


def challenge_of(**settings: Any) -> dict[str, Any]:
    return {**CHALLENGE, "id": "x", "challenger": "Ann", "destUser": "Bot", **settings}


# ------------------------------------------------------------------ the filter


@pytest.mark.parametrize(
    ("accept", "settings", "from_bot", "reason"),
    [
        (ChallengeFilter(), {}, False, None),
        (ChallengeFilter(sizes=frozenset({(5, 5)})), {}, False, "board"),
        (ChallengeFilter(modes=frozenset({"simple"})), {}, False, "board"),
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


def test_the_client_declines_only_with_reasons_the_server_takes() -> None:
    from sosgame.bot import DECLINE_REASONS
    from sosgame.web.matchmaking.challengelimits import DECLINE_REASONS as SERVER_REASONS

    assert set(DECLINE_REASONS) == set(SERVER_REASONS)


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


# ------------------------------------------------------------------ the examples


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


def test_a_game_the_bot_cannot_follow_stops_only_that_game() -> None:
    import httpx

    good = FakeGame(applied=True)
    good.moves = ["Sa1", "Oc3"]  # over at once: the bot has nothing to play

    def answer(request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path == "/api/account":
            return httpx.Response(
                200, json={"name": "Me", "bot": True, "scopes": ["bot:play", "challenge:write"]}
            )
        if path == "/api/stream/event":
            starts = [
                {"type": "gameStart", "game": {"id": game, "seat": 0, "status": "playing"}}
                for game in ("bad", "g1")
            ]
            return httpx.Response(200, content="".join(json.dumps(s) + "\n" for s in starts))
        if path.endswith("/stream/bad"):
            full = {
                "type": "gameFull", "id": "bad", "rows": 3, "cols": 3, "mode": "general",
                "players": [{"seat": 0}, {"seat": 1}], "seats": [0],
                "state": {**good.state(), "moves": ["Zz9"], "ply": 1, "status": "playing"},
            }  # fmt: skip
            return httpx.Response(200, content=(json.dumps(full) + "\n").encode())
        return good.handle(request)

    said: list[str] = []
    client = BotClient(
        "http://fake",
        "t",
        player=first_legal,
        games=1,
        transport=httpx.MockTransport(answer),
        say=lambda key, **values: said.append(key),
    )
    asyncio.run(asyncio.wait_for(client.run(), 20))
    assert "bot.game_failed" in said
    assert [report.id for report in client.reports] == ["g1"]


def test_a_player_module_of_the_folder_the_command_runs_in_can_be_named(
    tmp_path: Path,
) -> None:
    (tmp_path / "mybot.py").write_text("choose = 3\n")
    sosgame = Path(sys.executable).with_name("sosgame")  # as installed, not python -m
    command = [str(sosgame), "bot", "--server", "http://127.0.0.1:9", "--token", "t"]
    done = subprocess.run(
        [*command, "--player", "mybot:choose", "--lang", "en"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert "--player mybot:choose: a int cannot be called" in done.stderr  # found, imported
