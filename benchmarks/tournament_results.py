"""A player's page's tournaments, timed: :meth:`TournamentStore.entered` reading the 20
tournaments a player is in (each one's snapshot, as the standings need) from a SQLite store
that holds many other games' moves.

Each tournament has three games of the player's; the store holds ``--games`` games of 20
moves each besides. A snapshot counts the moves of its own tournament's games, so the time
should not grow with the other games.

Run: ``make bench`` or ``python benchmarks/tournament_results.py [--games N] [--rounds N]
[--json]``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import tempfile
import time
from pathlib import Path

from sqlalchemy import Connection, create_engine, insert

from sosgame.tournaments.settings import parse_settings
from sosgame.web.matchmaking.creation import stored_game
from sosgame.web.storage.rows import HUMAN, SeatRow
from sosgame.web.storage.schema import actions, players, tournament_games
from sosgame.web.storage.store import Store, insert_game
from sosgame.web.tournaments.store import ENTERED_SHOWN, TournamentStore

TARGET_MS = 200
"""The most a profile's tournaments may take to read, at the default number of games."""
MOVES = 20
GAMES_EACH = 3


def _player(db: Connection, name: str) -> int:
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
    return number


def build(path: Path, games: int) -> int:
    """A store of ``games`` games with their moves, and 20 Arenas the player ``Ann`` is in
    with some of them; Ann's id."""
    url = f"sqlite:///{path}"
    Store(url).close()  # the migrations
    engine = create_engine(url)
    seats = [SeatRow(0, "Ann", HUMAN, "a" * 64), SeatRow(1, "Bao", HUMAN, "b" * 64)]
    with engine.begin() as db:
        ann, bao = _player(db, "Ann"), _player(db, "Bao")
        made = []
        for _ in range(games):
            game = stored_game(kind="online", rows=5, cols=5, mode="general", seats=seats)
            insert_game(db, game)
            made.append(game.id)
        moves = [
            {"game_id": game, "ply": ply, "action": "Sa1", "created_ms": 1}
            for game in made
            for ply in range(1, MOVES + 1)
        ]
        db.execute(insert(actions), moves)
    store = TournamentStore(engine)
    for number in range(ENTERED_SHOWN):
        body = {
            "kind": "arena",
            "name": f"Arena {number}",
            "rows": 5,
            "cols": 5,
            "mode": "general",
            "clock": {"initial": 60, "increment": 0},
            "starts_at": 1_000 + number,
            "minutes": 60,
        }
        tournament_id = store.create(parse_settings(body), None, 1)
        assert tournament_id is not None
        for player in (ann, bao):
            store.join(tournament_id, player, 1500, bot=False, now_ms=2)
        with engine.begin() as db:
            for game_id in made[number * GAMES_EACH : (number + 1) * GAMES_EACH]:
                db.execute(
                    tournament_games.insert().values(
                        game_id=game_id,
                        tournament_id=tournament_id,
                        round=None,
                        first_id=ann,
                        second_id=bao,
                        berserk_first=False,
                        berserk_second=False,
                        forfeit=None,
                    )
                )
    engine.dispose()
    return ann


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=15_000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--json", action="store_true")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "games.sqlite3"
        ann = build(path, options.games)
        engine = create_engine(f"sqlite:///{path}")
        store = TournamentStore(engine)
        times = []
        for _ in range(options.rounds):
            started = time.perf_counter()
            found = store.entered(ann)
            times.append((time.perf_counter() - started) * 1000)
        engine.dispose()
    assert len(found) == ENTERED_SHOWN
    median = statistics.median(times)
    result = {
        "games": options.games,
        "moves": options.games * MOVES,
        "tournaments": len(found),
        "median_ms": round(median, 1),
        "rounds_ms": [round(one, 1) for one in times],
        "target_ms": TARGET_MS,
        "met": median <= TARGET_MS,
        "load_average": os.getloadavg()[0],
        "python": platform.python_version(),
    }
    if options.json:
        print(json.dumps(result))
        return
    print(
        f"{len(found)} tournaments of a player, from a store of {options.games:,} games"
        f" ({options.games * MOVES:,} moves): median {median:.1f} ms over {options.rounds}"
        f" rounds (target at most {TARGET_MS} ms: {'met' if median <= TARGET_MS else 'MISSED'});"
        f" load average {os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
