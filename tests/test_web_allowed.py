"""The state's ``allowed`` flags against the server's answers: games driven at random through
their states (moves, offers, answers, withdrawals, aborts, claims, resignations, players
leaving and coming back, rematches; undo, redo and hints in local games), and every action
sent is accepted exactly when the flag of its seat said it would be."""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")
pytest.importorskip("argon2")

from sos_web import FakeTime, Message, app_client
from sosgame.web.endpoints import sockets
from sosgame.web.guards.ratelimit import RateLimit

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

Client = Any
OFFERS = ("draw", "takeback", "rematch")
CLAIMS = ("win", "draw")


@pytest.fixture
def fake_time(monkeypatch: pytest.MonkeyPatch) -> FakeTime:
    return FakeTime.install(monkeypatch)


@pytest.fixture
def client(
    tmp_path: Path, fake_time: FakeTime, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Client]:
    # The walks send many messages at once; the flood limit is not what they test.
    monkeypatch.setattr(sockets, "RateLimit", lambda: RateLimit(1e6, 1e6))
    with app_client(tmp_path / "games.sqlite3") as test_client:
        yield test_client


class Player:
    """A connection holding the seats of ``token``; ``state`` is the last state it got."""

    def __init__(self, stack: ExitStack, client: Client, game: str, token: str) -> None:
        self.stack = ExitStack()
        stack.enter_context(self.stack)
        self.socket = self.stack.enter_context(client.websocket_connect(f"/ws/games/{game}"))
        self.state: Message = {}
        self.send(type="hello", token=token)
        self.sync()

    def send(self, **message: Any) -> None:
        self.socket.send_text(json.dumps({"v": 1, **message}))

    def read(self) -> Message:
        message: Message = self.socket.receive_json()
        if message["type"] == "state":
            self.state = message["game"]
        return message

    def sync(self) -> list[Message]:
        """Every message up to the answer to a ping: the state is then the game's."""
        self.send(type="ping")
        seen = []
        while (message := self.read())["type"] != "pong":
            seen.append(message)
        return seen

    def wait_state(self, check: Any, seconds: float = 5) -> None:
        """Ask again (a ping) until a state that passes ``check`` has come."""
        deadline = time.monotonic() + seconds
        while not check(self.state):
            assert time.monotonic() < deadline, "no such state came"
            time.sleep(0.01)
            self.sync()

    def act(self, **message: Any) -> bool:
        """Send ``message``; whether it was carried out (no error came back)."""
        self.send(**message)
        return not any(item["type"] == "error" for item in self.sync())

    def leave(self) -> None:
        self.stack.close()


def new_game(client: Client, players: int, kind: str) -> tuple[str, list[str]]:
    side = 4
    body = {"rows": side, "cols": side, "kind": kind}
    body["seats"] = [{"name": f"P{n}"} for n in range(players)]
    created = client.post("/api/games", json=body)
    assert created.status_code == 201, created.text
    game = created.json()
    tokens = [game["token"]]
    for seat in range(1, players if kind == "online" else 1):
        invite = game["links"]["seats"][seat].rsplit("/", 1)[1]
        taken = client.post(f"/api/games/{game['id']}/seats/{seat}", json={"invite": invite})
        assert taken.status_code == 200, taken.text
        tokens.append(taken.json()["token"])
    return game["id"], tokens


def a_move(rng: random.Random, state: Message) -> str:
    empty = [
        f"{chr(ord('a') + col)}{row + 1}"
        for row, line in enumerate(state["board"])
        for col, cell in enumerate(line)
        if cell == "."
    ]
    return rng.choice("SO") + rng.choice(empty)


class Walk:
    """One online game played at random by its seats, each on its own connection."""

    def __init__(self, client: Client, fake_time: FakeTime, rng: random.Random, seats: int):
        self.client, self.time, self.rng = client, fake_time, rng
        self.stack = ExitStack()
        self.game, self.tokens = new_game(client, seats, "online")
        self.players: dict[int, Player] = {}
        for seat in range(seats):
            self.join(seat)
        self.seen: Counter[tuple[str, bool]] = Counter()
        self.over = 0
        """Steps since the game ended."""

    def join(self, seat: int) -> None:
        self.players[seat] = Player(self.stack, self.client, self.game, self.tokens[seat])
        self.sync()

    def sync(self) -> None:
        for player in self.players.values():
            player.sync()

    @property
    def state(self) -> Message:
        return next(iter(self.players.values())).state

    def check(self, seat: int, flag: str, message: dict[str, Any]) -> None:
        """Seat ``seat`` sends ``message``: accepted exactly when its flag said so."""
        player = self.players[seat]
        before = player.state
        group, _, key = flag.partition(".")
        expected = before["allowed"][seat][group]
        expected = expected[key] if key else expected
        accepted = player.act(**message)
        self.sync()
        self.seen[flag, expected] += 1
        assert accepted == expected, (flag, seat, message, before)

    def leave(self, seat: int) -> None:
        """Seat ``seat`` goes away for longer than a claim waits for."""
        self.players.pop(seat).leave()
        watcher = next(iter(self.players.values()))
        if self.state["abandon"] is None or self.state["seats"][seat]["resigned"]:
            self.sync()
            return
        watcher.wait_state(lambda game: game["abandon"]["away"][seat] is not None)
        self.time.advance(61)
        # The state is sent again once a claim is allowed: nobody has to ask for it.
        after = self.state["abandon"]["after"]
        watcher.wait_state(
            lambda game: game["abandon"] is None or game["abandon"]["away"][seat] >= after
        )
        self.sync()

    def step(self) -> bool:
        """One action at random; ``False`` once the game has its rematch."""
        state, rng = self.state, self.rng
        self.over += state["result"] is not None
        if state["rematch"] is not None or self.over > 12:
            return False
        away = [seat for seat in range(len(state["seats"])) if seat not in self.players]
        seat = rng.choice(sorted(self.players))
        ply = {"ply": state["ply"]}
        standing = [offer["offer"] for offer in state["offers"]]
        kind = rng.choice(standing if standing and rng.random() < 0.7 else OFFERS)
        ply_of = {} if kind == "rematch" else ply
        action = rng.choices(
            ["move", "resign", "abort", "offer", "answer", "withdraw", "claim", "leave", "back"],
            [8, 1, 1, 3, 4, 3, 3, 2, 2],
        )[0]
        if action == "move":
            mover = state["turn"] if state["turn"] in self.players and rng.random() < 0.8 else seat
            move = a_move(rng, state) if "." in "".join(state["board"]) else "Sa1"
            self.check(mover, "can_move", {"type": "move", "move": move, **ply})
        elif action == "resign":
            self.check(seat, "can_resign", {"type": "resign", "seat": seat, **ply})
        elif action == "abort":
            self.check(seat, "can_abort", {"type": "abort", **ply})
        elif action in ("offer", "withdraw"):
            self.check(seat, f"can_{action}.{kind}", {"type": action, "offer": kind, **ply_of})
        elif action == "answer":
            accept = rng.random() < 0.5
            message = {"type": "answer", "offer": kind, "accept": accept, **ply_of}
            self.check(seat, f"can_answer.{kind}", message)
        elif action == "claim":
            claim = rng.choice(CLAIMS)
            self.check(seat, f"can_claim.{claim}", {"type": "claim", "claim": claim, **ply})
        elif action == "leave" and len(self.players) > 1:
            self.leave(seat)
        elif action == "back" and away:
            self.join(rng.choice(away))
        return True


def test_every_flag_says_whether_its_action_is_accepted_in_online_games(
    client: Client, fake_time: FakeTime
) -> None:
    seen: Counter[tuple[str, bool]] = Counter()
    for seed in range(4):
        rng, steps = random.Random(seed), 0
        while steps < 300:
            walk = Walk(client, fake_time, rng, seats=2 if seed % 2 else 3)
            with walk.stack:
                while walk.step() and steps < 300:
                    steps += 1
            seen += walk.seen
    flags = [
        "can_move",
        "can_resign",
        "can_abort",
        *(f"can_{what}.{kind}" for what in ("offer", "answer", "withdraw") for kind in OFFERS),
        *(f"can_claim.{claim}" for claim in CLAIMS),
    ]
    # Every flag was seen both ways, so each was really put to the test.
    assert [flag for flag in flags if not (seen[flag, True] and seen[flag, False])] == []


def test_every_flag_says_whether_its_action_is_accepted_in_local_games(client: Client) -> None:
    seen: Counter[tuple[str, bool]] = Counter()
    for seed in range(3):
        rng = random.Random(seed)
        game, (token,) = new_game(client, 2, "local")
        with ExitStack() as stack:
            player = Player(stack, client, game, token)
            for step in range(40):
                state = player.state
                turn, ply = state["turn"], {"ply": state["ply"]}
                allowed = state["allowed"][turn]
                # Undo first: nothing to take back yet.
                action = (
                    "undo"
                    if step == 0
                    else rng.choices(
                        ["move", "undo", "redo", "hint", "resign", "abort", "offer"],
                        [6, 2, 2, 1, 1, 1, 1],
                    )[0]
                )
                message: dict[str, Any] = {"type": action, **ply}
                if action == "move":
                    full = "." not in "".join(state["board"])
                    message["move"] = "Sa1" if full else a_move(rng, state)
                flag = f"can_{action}"
                if action == "hint":
                    message = {"type": "hint"}
                elif action == "resign":
                    message["seat"] = turn
                elif action == "offer":
                    message["offer"] = "draw"
                expected = allowed[flag]["draw"] if action == "offer" else allowed[flag]
                seen[flag, expected] += 1
                assert player.act(**message) == expected, (action, state)
                # Undo and redo are the game's, not a seat's: the flag is the same for each.
                assert state["allowed"][0][flag] == state["allowed"][1][flag] or action in (
                    "move",
                    "hint",
                    "resign",
                )
    for flag in ("can_move", "can_undo", "can_redo", "can_hint", "can_resign", "can_abort"):
        assert seen[flag, True] and seen[flag, False], flag
    assert seen["can_offer", False] and not seen["can_offer", True]


def test_the_browser_restates_no_rule_of_who_may_do_what() -> None:
    static = Path(__file__).resolve().parents[1] / "src" / "sosgame" / "web" / "static"
    script = (static / "fairplay.js").read_text("utf-8")
    # What it once worked out for itself: online games only, active seats, people only, a
    # ply to take back, the seats an offer waits for.
    for rule in ('"online"', '"human"', "resigned ?", "state.ply > 0", "function waitingFor"):
        assert rule not in script, rule
    assert "allowed" in script


def test_an_offer_says_which_seats_it_still_waits_for(client: Client) -> None:
    game, tokens = new_game(client, 3, "online")
    with ExitStack() as stack:
        players = [Player(stack, client, game, token) for token in tokens]
        assert players[0].act(type="move", move="Sa1", ply=0)
        assert players[0].act(type="offer", offer="draw", ply=1)
        players[1].sync()
        assert [offer["waiting"] for offer in players[1].state["offers"]] == [[1, 2]]
        assert players[1].act(type="answer", offer="draw", accept=True, ply=1)
        players[2].sync()
        assert [offer["waiting"] for offer in players[2].state["offers"]] == [[2]]
        # Whoever has accepted has nothing left to answer; the others have.
        allowed = [seat["can_answer"]["draw"] for seat in players[2].state["allowed"]]
        assert allowed == [False, False, True]
