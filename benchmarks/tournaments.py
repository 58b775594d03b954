"""An Arena's pairing tick, timed: one tick for 100 and 1,000 waiting players, and a
simulated Arena of 200 players with instant games, which gives a waiting player's time to a
new game.

A tick (:func:`sosgame.tournaments.arena_pairing.pair_arena`) is timed on players with random
ratings, ranks, first-move histories and last opponents, all waiting long enough; each
figure is the median of several rounds. Over 100 waiting, a tick matches two groups of 100
and pairs up to 600 more as neighbours, so the 1,000 costs little more than the 100.

The simulated Arena runs ticks every ``--every`` seconds of simulated time (lila's pairing
runs about every two seconds); every game ends at once, so each player waits again at the
tick after their last, and their wait is the simulated time until a tick pairs them plus the
ticks' own computing time. That is the pairing's share of the time between games, without
the server's other work.

Run: ``make bench`` or ``python benchmarks/tournaments.py [--rounds N] [--minutes M]
[--json]``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import time
from typing import Any

import networkx

from sosgame.tournaments.arena_pairing import (
    FirstMoves,
    WaitingPlayer,
    min_weight_matching,
    pair_arena,
    pair_weight,
)
from sosgame.tournaments.settings import Clock

CLOCK = Clock(60, 0)
CELLS = 25
TARGET_100_MS = 200


def waiting_room(size: int, seed: int, now: int) -> list[WaitingPlayer]:
    coin = random.Random(seed)
    ids = [f"p{i}" for i in range(size)]
    ranks = list(range(1, size + 1))
    coin.shuffle(ranks)
    return [
        WaitingPlayer(
            ids[i],
            ranks[i],
            coin.randrange(800, 2400),
            FirstMoves.of(coin.random() < 0.5 for _ in range(coin.randrange(6))),
            coin.choice(ids),
            now - coin.randrange(20_000, 60_000),
        )
        for i in range(size)
    ]


def time_tick(size: int, rounds: int) -> dict[str, float]:
    now, start, end = 10_000_000, 0, 100_000_000
    times, cpu, pairs = [], [], 0
    for round_number in range(rounds):
        players = waiting_room(size, round_number, now)
        began, began_cpu = time.perf_counter(), time.process_time()
        made = pair_arena(
            players,
            clock=CLOCK,
            cells=CELLS,
            now=now,
            starts_at=start,
            ends_at=end,
            coin=random.Random(round_number),
        )
        times.append((time.perf_counter() - began) * 1000)
        cpu.append((time.process_time() - began_cpu) * 1000)
        pairs = len(made)
    return {
        "players": size,
        "median_ms": statistics.median(times),
        "max_ms": max(times),
        "cpu_median_ms": statistics.median(cpu),
        "pairs": pairs,
    }


def time_matching(rounds: int) -> dict[str, float]:
    """The matching of 100 players alone, back to back: ours (rustworkx's) and networkx's
    ``min_weight_matching``, the reference, which must give the same pairs."""
    ours, theirs = [], []
    for round_number in range(rounds):
        players = sorted(waiting_room(100, round_number, 10_000_000), key=lambda p: p.rank)
        top = max(p.rank for p in players) - 1
        edges = [
            (i, j, pair_weight(a, b, top))
            for i, a in enumerate(players)
            for j, b in enumerate(players[i + 1 :], start=i + 1)
            if a.last_opponent != b.id and b.last_opponent != a.id
        ]
        graph = networkx.Graph()
        graph.add_weighted_edges_from(edges)
        began = time.process_time()
        made = min_weight_matching(edges)
        ours.append((time.process_time() - began) * 1000)
        began = time.process_time()
        reference = networkx.min_weight_matching(graph)
        theirs.append((time.process_time() - began) * 1000)
        assert made == {(min(i, j), max(i, j)) for i, j in reference}, "not networkx's pairs"
    return {
        "ours_cpu_median_ms": statistics.median(ours),
        "networkx_cpu_median_ms": statistics.median(theirs),
    }


def simulate(players: int, minutes: float, every: float, seed: int) -> dict[str, float]:
    """A simulated Arena with instant games: each player's waits (s) and each tick's time."""
    coin = random.Random(seed)
    ratings = {f"p{i}": coin.randrange(800, 2400) for i in range(players)}
    points = dict.fromkeys(ratings, 0)
    histories = dict.fromkeys(ratings, FirstMoves())
    last: dict[str, str | None] = dict.fromkeys(ratings, None)
    since = dict.fromkeys(ratings, 0)
    waits: list[float] = []
    ticks: list[float] = []
    start, end = 0, int(minutes * 60_000)
    now = start
    while now < end:
        order = sorted(ratings, key=lambda p: (-points[p], -ratings[p], p))
        rank = {p: place for place, p in enumerate(order, start=1)}
        room = [
            WaitingPlayer(p, rank[p], ratings[p], histories[p], last[p], since[p])
            for p in ratings
            if since[p] <= now
        ]
        began = time.perf_counter()
        made = pair_arena(
            room, clock=CLOCK, cells=CELLS, now=now, starts_at=start, ends_at=end, coin=coin
        )
        took = time.perf_counter() - began
        ticks.append(took * 1000)
        for pair in made:
            for player, first in ((pair.first, True), (pair.second, False)):
                waits.append((now - since[player]) / 1000 + took)
                histories[player] = histories[player].then(first)
            winner = coin.choice((pair.first, pair.second))
            points[winner] += 2
            last[pair.first], last[pair.second] = pair.second, pair.first
            # The game ends at once: both wait again from the next tick on.
            since[pair.first] = since[pair.second] = now + 1
        now += int(every * 1000)
    if not waits:
        raise SystemExit("--minutes is too short for a game to be played")
    waits.sort()
    ticks.sort()
    return {
        "players": players,
        "games": len(waits) // 2,
        "wait_p50_s": waits[len(waits) // 2],
        "wait_p95_s": waits[int(len(waits) * 0.95)],
        "tick_p50_ms": ticks[len(ticks) // 2],
        "tick_p95_ms": ticks[int(len(ticks) * 0.95)],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--every", type=float, default=2.0, help="seconds between ticks")
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    figures: dict[str, Any] = {
        "machine": f"{platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.2f}",
        "ticks": [time_tick(size, options.rounds) for size in (100, 1000)],
        "matching": time_matching(options.rounds),
        "arena": simulate(200, options.minutes, options.every, seed=1),
    }
    if options.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"Arena pairing ({figures['machine']})")
    for tick in figures["ticks"]:
        print(
            f"  one tick, {tick['players']:>5} waiting: median {tick['median_ms']:7.1f} ms"
            f" ({tick['cpu_median_ms']:.1f} ms of CPU), max {tick['max_ms']:7.1f} ms,"
            f" {tick['pairs']} pairs"
        )
    matching = figures["matching"]
    print(
        f"  the matching of 100 alone, CPU: {matching['ours_cpu_median_ms']:.1f} ms"
        f" (rustworkx), networkx.min_weight_matching"
        f" {matching['networkx_cpu_median_ms']:.1f} ms (the same pairs)"
    )
    arena = figures["arena"]
    print(
        f"  simulated Arena of {arena['players']} players, instant games, a tick every"
        f" {options.every:g} s for {options.minutes:g} min: {arena['games']} games; time to a"
        f" new game p50 {arena['wait_p50_s']:.2f} s, p95 {arena['wait_p95_s']:.2f} s;"
        f" tick p50 {arena['tick_p50_ms']:.1f} ms, p95 {arena['tick_p95_ms']:.1f} ms"
    )
    hundred = figures["ticks"][0]["median_ms"]
    verdict = "meets" if hundred < TARGET_100_MS else "misses"
    print(f"  100 waiting: {hundred:.1f} ms {verdict} the {TARGET_100_MS} ms goal")


if __name__ == "__main__":
    main()
