"""Move quality: how often each level keeps a position's exact value, judged by the solver.

Positions come from seeded random play on 4x5 and 5x5 boards, stopped with 16 to 20 empty
cells still to fill (the 4x5 board with 20 is the empty board, taken once). In simple mode the
random moves complete no SOS and, while they can, hand none over, so the side to move never
has a win lying on the board and the positions are real fights. Each level and budget (wall
time with ``--seconds``, a fixed number of nodes with ``--nodes``, which does not depend on the
machine's load) chooses a move in each position; the exact solver gives the position's value
and every move keeping it, for the side to move (general: future points for minus against;
simple: 1 win, 0 draw, -1 loss). The report gives, per level and budget, the share of moves that
keep the value, the mean value lost, and in simple mode how many won positions were thrown
away; then the same per board, mode and number of empty cells, with what the positions are
like: their values, and the share of legal moves that keep the value (what a random move
would keep). The load average is printed before and after.

Exact values are cached in ``benchmarks/quality_values.json`` (kept in the repository), so a
rerun only times the players (a chosen move needs a solve only when it loses value).
Run: ``nice python benchmarks/quality.py [--positions N] [--seconds 0.5] [--nodes 600000]
[--levels hard] [--modes simple] [--json]``; ``--prepare`` only solves the positions (so two
runs, one per mode, can share the cache afterwards).
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import platform
import random
import time
from dataclasses import dataclass, field
from pathlib import Path

from sosgame import Game, Move
from sosgame.ai import make_player
from sosgame.ai.heuristics import quiet_handovers
from sosgame.ai.state import State
from sosgame.game import MODES
from sosgame.kernel import JIT
from sosgame.solver import TranspositionTable, solve, warm_up

CACHE = Path(__file__).with_name("quality_values.json")
SETS = ((4, 5, (16, 17, 18, 19, 20)), (5, 5, (16, 17, 18, 19, 20)))
"""Boards and the numbers of empty cells at which positions are taken."""
LEVELS = ("medium", "hard", "perfect")


class Values:
    """Exact values and best moves of positions, kept in a JSON file between runs.

    ``"mode:position"`` holds the value for the side to move; ``"best:mode:position"`` the
    moves keeping it, so a chosen move needs a solve of its own only when it loses value.
    """

    def __init__(self, path: Path, memory_mb: int) -> None:
        self.path = path
        self.known: dict[str, int | str] = json.loads(path.read_text()) if path.exists() else {}
        self.table = TranspositionTable(memory_mb)
        self.added: dict[str, int | str] = {}

    def _solve(self, game: Game) -> None:
        key = f"{game.mode}:{game.position()}"
        start = Game.from_position(game.position(), mode=game.mode)
        solution = solve(start, table=self.table)
        best = " ".join(str(move) for move in solution.best_moves)
        for name, found in ((key, solution.value), (f"best:{key}", best)):
            self.known[name] = self.added[name] = found

    def of(self, game: Game) -> int:
        """The exact value of ``game`` for the side to move (0 once the game is over)."""
        if game.is_over:
            return 0
        key = f"{game.mode}:{game.position()}"
        if key not in self.known:
            self._solve(game)
        return int(self.known[key])

    def best(self, game: Game) -> set[str]:
        """The moves keeping the value of ``game``."""
        key = f"best:{game.mode}:{game.position()}"
        if key not in self.known:
            self._solve(game)
        return set(str(self.known[key]).split())

    def of_move(self, game: Game, move: Move) -> int:
        """The exact value of playing ``move`` in ``game``, for the side that plays it."""
        if str(move) in self.best(game):
            return self.of(game)
        after = game.copy()
        lines = len(after.play(move))
        if lines and game.mode == "simple":
            return 1
        if lines:
            return lines + self.of(after)
        return -self.of(after)

    def save(self) -> None:
        """Add the values found to the file (as it is now: runs may share it), sorted."""
        if self.added:
            known = json.loads(self.path.read_text()) if self.path.exists() else {}
            known.update(self.added)
            text = json.dumps(dict(sorted(known.items())), indent=0, separators=(",", ":"))
            self.path.write_text(text + "\n")
            self.added.clear()


def _random_moves(game: Game) -> list[Move]:
    """The moves random play chooses from: any in general mode; in simple mode those
    completing no SOS, and of them the ones handing none over while there are any."""
    moves = list(game.legal_moves)
    if game.mode != "simple":
        return moves
    moves = [move for move in moves if not game.copy().play(move)]
    state = State(game)
    safe = {
        state.move(index, letter) for count, index, letter in quiet_handovers(state) if not count
    }
    return [move for move in moves if move in safe] or moves


def positions(rows: int, cols: int, mode: str, empty: int, count: int) -> list[Game]:
    """Up to ``count`` different positions with ``empty`` empty cells, by seeded random play."""
    found: dict[str, Game] = {}
    for seed in range(count):
        rng = random.Random(f"{rows}x{cols}:{mode}:{empty}:{seed}")
        game = Game(rows, cols, mode=mode)  # type: ignore[arg-type]
        while game.position().count(".") > empty:
            moves = _random_moves(game)
            if not moves:
                break
            game.play(rng.choice(moves))
        if not game.is_over and game.position().count(".") == empty:
            # The solver values a position for the side to move whatever the seats' scores.
            text = game.position()
            found.setdefault(text, Game.from_position(text, mode=mode))  # type: ignore[arg-type]
    return list(found.values())


@dataclass
class Tally:
    """What one level at one budget did over a group of positions."""

    kept: int = 0
    moves: int = 0
    lost: float = 0.0
    wins_thrown: int = 0
    seconds: float = 0.0
    missed: list[str] = field(default_factory=list)

    def add(self, game: Game, best: int, value: int, spent: float) -> None:
        """Count one move worth ``value`` where ``best`` was possible."""
        self.moves += 1
        self.kept += value == best
        self.lost += best - value
        self.wins_thrown += game.mode == "simple" and best == 1 and value < 1
        self.seconds = max(self.seconds, spent)
        if value != best:
            self.missed.append(f"{game.rows}x{game.cols} {game.position()} ({best} -> {value})")


@dataclass
class Kind:
    """What the positions of one set are like."""

    positions: int = 0
    values: list[int] = field(default_factory=list)
    keeping: list[float] = field(default_factory=list)


def _budgets(arguments: argparse.Namespace, level: str) -> list[tuple[str, float]]:
    if level == "medium":
        return [("-", 0.0)]
    timed = [("s", float(seconds)) for seconds in arguments.seconds]
    return timed + [("nodes", float(nodes)) for nodes in arguments.nodes]


def _label(unit: str, amount: float) -> str:
    return "-" if unit == "-" else f"{amount:g} s" if unit == "s" else f"{amount:,.0f} nodes"


def main() -> None:
    """Judge every level and budget, and print tables (or JSON)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=10, help="positions per set (10)")
    parser.add_argument("--seconds", type=float, nargs="*", default=[0.5])
    parser.add_argument("--nodes", type=int, nargs="*", default=[], help="fixed node budgets")
    parser.add_argument("--levels", nargs="+", choices=LEVELS, default=["hard"])
    parser.add_argument("--modes", nargs="+", choices=MODES, default=list(MODES))
    parser.add_argument("--boards", nargs="+", default=[f"{r}x{c}" for r, c, _ in SETS])
    parser.add_argument("--memory", type=int, default=512, help="the solver's table, MiB")
    parser.add_argument("--prepare", action="store_true", help="only solve the positions")
    parser.add_argument("--json", action="store_true")
    arguments = parser.parse_args()
    load_before = os.getloadavg()
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    warm_up()
    values = Values(CACHE, arguments.memory)
    groups = {
        (mode, f"{rows}x{cols}", empty): positions(rows, cols, mode, empty, arguments.positions)
        for mode in arguments.modes
        for rows, cols, empties in SETS
        if f"{rows}x{cols}" in arguments.boards
        for empty in empties
    }
    tallies: dict[tuple[str, str, str, float], Tally] = {}
    by_set: dict[tuple[str, str, str, float, str, str, int], Tally] = {}
    kinds: dict[tuple[str, str, int], Kind] = {}
    for (mode, board, empty), found in groups.items():
        for game in found:
            best = values.of(game)
            keeping = values.best(game)
            values.save()  # a long run keeps what it solved even if it is stopped
            kind = kinds.setdefault((mode, board, empty), Kind())
            kind.positions += 1
            kind.values.append(best)
            kind.keeping.append(len(keeping) / len(game.legal_moves))
            if arguments.prepare:
                continue
            for level in arguments.levels:
                for unit, amount in _budgets(arguments, level):
                    budget = {"s": {"seconds": amount}, "nodes": {"nodes": int(amount)}}
                    player = make_player(level, seed=1, **budget.get(unit, {}))  # type: ignore[arg-type]
                    start = time.perf_counter()
                    move = player.choose_move(game)
                    spent = time.perf_counter() - start
                    value = values.of_move(game, move)
                    share = spent / amount if unit == "s" else spent
                    tallies.setdefault((mode, level, unit, amount), Tally()).add(
                        game, best, value, share
                    )
                    key = (mode, level, unit, amount, board, mode, empty)
                    by_set.setdefault(key, Tally()).add(game, best, value, share)
    values.save()
    load_after = os.getloadavg()
    report = _report(tallies, by_set, kinds)
    report |= {"python": platform.python_version(), "compiled": JIT, "started": started}
    report |= {"load_before": load_before, "load_after": load_after}
    if arguments.json:
        print(json.dumps(report, indent=2))
        return
    _print(report)


def _report(
    tallies: dict[tuple[str, str, str, float], Tally],
    by_set: dict[tuple[str, str, str, float, str, str, int], Tally],
    kinds: dict[tuple[str, str, int], Kind],
) -> dict[str, object]:
    rows = [
        {
            "mode": mode,
            "level": level,
            "budget": _label(unit, amount),
            "positions": tally.moves,
            "kept": tally.kept,
            "kept_share": round(tally.kept / tally.moves, 3),
            "mean_lost": round(tally.lost / tally.moves, 3),
            "wins_thrown": tally.wins_thrown if mode == "simple" else None,
            "slowest": round(tally.seconds, 3),
            "slowest_unit": "share of budget" if unit == "s" else "seconds",
            "missed": tally.missed,
        }
        for (mode, level, unit, amount), tally in sorted(tallies.items())
    ]
    sets = []
    for (mode, board, empty), kind in kinds.items():
        entry: dict[str, object] = {"mode": mode, "board": board, "empty": empty}
        entry["positions"] = kind.positions
        entry["values"] = {str(v): kind.values.count(v) for v in sorted(set(kind.values))}
        entry["random_keeps"] = round(sum(kind.keeping) / max(1, len(kind.keeping)), 3)
        entry["kept"] = {
            f"{level} {_label(unit, amount)}": tally.kept
            for (_, level, unit, amount, b, m, e), tally in sorted(by_set.items())
            if (m, b, e) == (mode, board, empty)
        }
        sets.append(entry)
    return {"rows": rows, "sets": sets}


def _print(report: dict[str, object]) -> None:
    print(f"started {report['started']}, compiled: {report['compiled']}")
    print("load average before: {:.2f} {:.2f} {:.2f}".format(*report["load_before"]))  # type: ignore[arg-type]
    print("load average after:  {:.2f} {:.2f} {:.2f}".format(*report["load_after"]))  # type: ignore[arg-type]
    print()
    print("| mode | level | budget | positions | keeps value | mean lost | wins thrown | slowest |")
    print("|---|---|---|---:|---:|---:|---:|---:|")
    rows: list[dict[str, object]] = report["rows"]  # type: ignore[assignment]
    for row in rows:
        thrown = "" if row["wins_thrown"] is None else str(row["wins_thrown"])
        slowest = row["slowest"]
        shown = f"{100 * slowest:.0f}%" if row["slowest_unit"] != "seconds" else f"{slowest:.2f} s"  # type: ignore[operator]
        print(
            f"| {row['mode']} | {row['level']} | {row['budget']} | {row['positions']} |"
            f" {row['kept']} ({100 * row['kept_share']:.1f}%) | {row['mean_lost']:.2f} |"  # type: ignore[operator]
            f" {thrown} | {shown} |"
        )
    sets: list[dict[str, object]] = report["sets"]  # type: ignore[assignment]
    columns = sorted({name for entry in sets for name in entry["kept"]})  # type: ignore[attr-defined]
    print()
    print(
        "| board | mode | empty | positions | values | random move keeps | "
        + " | ".join(columns)
        + " |"
    )
    print("|---|---|---:|---:|---|---:|" + "---:|" * len(columns))
    for entry in sets:
        shown_values = ", ".join(f"{v}: {n}" for v, n in entry["values"].items())  # type: ignore[attr-defined]
        kept = entry["kept"]
        cells = " | ".join(f"{kept.get(name, '')}" for name in columns)  # type: ignore[attr-defined]
        print(
            f"| {entry['board']} | {entry['mode']} | {entry['empty']} | {entry['positions']} |"
            f" {shown_values} | {100 * entry['random_keeps']:.0f}% | {cells} |"  # type: ignore[operator]
        )
    for row in rows:
        for miss in row["missed"]:  # type: ignore[attr-defined]
            print(f"missed: {row['mode']} {row['level']} {row['budget']}: {miss}")
    for (mode, level), group in itertools.groupby(rows, key=lambda r: (r["mode"], r["level"])):
        shares = [f"{row['budget']}: {100 * row['kept_share']:.1f}%" for row in group]  # type: ignore[operator]
        print(f"{mode} {level}: " + ", ".join(shares))


if __name__ == "__main__":
    main()
