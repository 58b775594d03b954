"""Checks followed by writes that several server processes make at the same moment: each cap
counted in the database holds, and a name is claimed once, on SQLite and PostgreSQL."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import pytest

import test_web_store
from sosgame.web.config import ServerLimits
from sosgame.web.guards.gamecaps import CapError, Caps
from sosgame.web.live import clock as clocks
from sosgame.web.matchmaking.creation import stored_game
from sosgame.web.matchmaking.poolstore import Entry, PoolStore
from sosgame.web.matchmaking.seeks import SeekStore, member_of, parse_seek
from sosgame.web.people.players import NameConfusableError, NameTakenError, Players
from sosgame.web.storage.rows import HUMAN, SeatRow
from sosgame.web.storage.schema import seeks
from sosgame.web.storage.store import Store
from sosgame.web.storage.turns import in_turn, lock_key

url = test_web_store.url  # the fixture: a new database, SQLite and PostgreSQL

PROCESSES = 6
Result = TypeVar("Result")


@pytest.fixture
def stores(url: str) -> Iterator[list[Store]]:
    """One store per server process, on the same database."""
    opened = [Store(url) for _ in range(PROCESSES)]
    yield opened
    for store in opened:
        store.close()


def at_once(stores: list[Store], task: Callable[[Store, int], Result]) -> list[Result]:
    """``task(store, number)`` in each process at the same moment."""
    start = threading.Barrier(len(stores))

    def run(number: int) -> Result:
        start.wait()
        return task(stores[number], number)

    with ThreadPoolExecutor(len(stores)) as pool:
        return list(pool.map(run, range(len(stores))))


def test_login_attempts_at_once_pass_the_cap_of_an_address_never(stores: list[Store]) -> None:
    def attempt(store: Store, _number: int) -> list[int]:
        return [Players(store).attempt("1.2.3.4", 1000, 60_000, 4) for _ in range(3)]

    waits = [wait for tries in at_once(stores, attempt) for wait in tries]
    assert waits.count(0) == 4
    assert all(wait > 0 for wait in waits if wait != 0)


def test_pool_entries_at_once_pass_the_cap_of_an_address_never(stores: list[Store]) -> None:
    def enter(store: Store, number: int) -> str | None:
        entry = Entry(
            f"e{number}", "p", f"player{number}", "Ann", None, 1500.0, f"t{number}", "h",
            "1.2.3.4", 1000,
        )  # fmt: skip
        return PoolStore(store.engine).enter(entry, 1000, per_address=2)

    assert sorted(at_once(stores, enter), key=str) == [None, None] + ["too_many"] * 4


def test_seeks_at_once_pass_the_cap_of_an_address_never(stores: list[Store]) -> None:
    settings = parse_seek({"rows": 5, "cols": 5})

    def create(store: Store, number: int) -> bool:
        creator = member_of(f"h.secret{number}", f"s{number}", "Ann", None)
        return SeekStore(store.engine).create(
            f"s{number}", settings, creator, "1.2.3.4", 1000, per_address=2
        )

    assert sorted(at_once(stores, create)) == [False] * 4 + [True] * 2
    with stores[0].engine.begin() as db:
        assert len(db.execute(seeks.select()).all()) == 2


def test_look_alike_names_claimed_at_once_are_claimed_once(stores: list[Store]) -> None:
    def claim(store: Store, number: int) -> str:
        try:
            Players(store).claim(["Ann", "\u0410nn", "A\u0578n"][number % 3], "hash", 1)
        except (NameTakenError, NameConfusableError) as error:
            return type(error).__name__
        return "claimed"

    assert at_once(stores, claim).count("claimed") == 1


def test_a_transaction_in_turn_waits_for_another_of_its_key(stores: list[Store]) -> None:
    first, second = stores[0], stores[1]
    order: list[str] = []
    inside = threading.Event()

    def later() -> None:
        inside.wait()
        with in_turn(second.engine, "k"):
            order.append("second")

    waiting = threading.Thread(target=later)
    waiting.start()
    with in_turn(first.engine, "k"):
        inside.set()
        waiting.join(timeout=0.5)  # still waiting for this transaction
        order.append("first")
    waiting.join()
    assert order == ["first", "second"]


def test_lock_keys_are_postgresqls_bigints_and_differ_by_key() -> None:
    keys = [lock_key(f"login:10.0.0.{number}") for number in range(1000)]
    assert len(set(keys)) == 1000
    assert all(-(2**63) <= key < 2**63 for key in keys)
    assert lock_key("ह ơ\udcff") == lock_key("ह ơ\udcff")


@pytest.mark.parametrize("computer", [False, True])
def test_games_made_at_once_pass_the_caps_never(stores: list[Store], computer: bool) -> None:
    # Of one address; with a computer seat, of six addresses under the server's cap.
    limits = ServerLimits(games_per_address=2, computer_games_total=2)
    caps = Caps.now(limits, clocks.now_ms())

    def make(store: Store, number: int) -> bool:
        second = SeatRow(1, "Bot", "easy") if computer else SeatRow(1, "Bao", HUMAN, "b" * 64)
        game = stored_game(
            kind="local",
            rows=3,
            cols=3,
            mode="general",
            seats=[SeatRow(0, "Ann", HUMAN, "a" * 64), second],
            owner=f"1.2.3.{number}" if computer else "1.2.3.4",
        )
        try:
            return store.create(game, caps=caps)
        except CapError:
            return False

    assert sorted(at_once(stores, make)) == [False] * 4 + [True] * 2
    assert stores[0].count() == 2
