"""The strength table of docs/ai.md: ``sosgame arena`` for each pairing, mode and board size.

Each match is one ``python -m sosgame arena ... --json`` run; its JSON object is printed as a
line and appended to ``--out`` (if given), so a long run can be read while it goes on and
stopped at any time. The targets: ``hard`` scores at least 90% against ``medium``, ``medium``
80% against ``easy``, ``easy`` 95% against ``random``.

Run: ``python benchmarks/strength.py [--pairs hard-medium,medium-easy,easy-random]
[--modes general,simple] [--sizes 5,8] [--games N] [--seconds S] [--jobs N] [--out FILE]``;
``python benchmarks/strength.py --table FILE...`` prints the Markdown table of docs/ai.md from
such files, pooling the matches of one pairing, board and mode (run with different seeds).
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

TARGETS = {"hard-medium": 0.9, "medium-easy": 0.8, "easy-random": 0.95}


def arena(
    pair: str, mode: str, size: int, games: int, seconds: float, jobs: int | None, seed: int
) -> dict[str, Any]:
    """One match, as the JSON object ``sosgame arena --json`` prints."""
    level_a, level_b = pair.split("-")
    command = [
        sys.executable, "-m", "sosgame", "arena", level_a, level_b, "--size", str(size),
        "--mode", mode, "--games", str(games), "--seconds", str(seconds), "--seed", str(seed),
        "--json",
    ]  # fmt: skip
    if jobs is not None:
        command += ["--jobs", str(jobs)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    result: dict[str, Any] = json.loads(done.stdout)
    result["target"] = TARGETS.get(pair)
    result["command"] = "sosgame " + " ".join(command[3:])
    return result


def _elo(score: float) -> str:
    if score <= 0 or score >= 1:
        return "+inf" if score >= 1 else "-inf"
    return f"{-400 * math.log10(1 / score - 1):+.0f}"


def table(paths: list[Path]) -> str:
    """The Markdown strength table for the matches recorded in ``paths``."""
    pooled: dict[tuple[str, int, str], list[int]] = {}
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            match = json.loads(line)
            key = (f"{match['level_a']}-{match['level_b']}", match["rows"], match["mode"])
            counts = pooled.setdefault(key, [0, 0, 0])
            counts[0] += match["wins"]
            counts[1] += match["draws"]
            counts[2] += match["losses"]
    rows = [
        "| A vs B | board | mode | games | A wins / draws / losses | score | 95% interval"
        " | Elo (95% interval) | target |",
        "|---|---|---|---:|---|---:|---|---|---|",
    ]
    order = list(TARGETS)
    for (pair, size, mode), (wins, draws, losses) in sorted(
        pooled.items(), key=lambda item: (order.index(item[0][0]), item[0][1], item[0][2])
    ):
        games = wins + draws + losses
        score = (wins + draws / 2) / games
        spread = math.sqrt(
            (wins * (1 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score**2) / games
        )
        if spread == 0:  # the Wilson interval, as sosgame arena uses for a clean sweep
            z2 = 1.959964**2
            centre = (score + z2 / (2 * games)) / (1 + z2 / games)
            half = math.sqrt(score * (1 - score) / games + z2 / (4 * games**2))
            half *= 1.959964 / (1 + z2 / games)
            low = 0.0 if score <= 0 else centre - half
            high = 1.0 if score >= 1 else centre + half
        else:
            low = max(0.0, score - 1.959964 * spread / math.sqrt(games))
            high = min(1.0, score + 1.959964 * spread / math.sqrt(games))
        target = TARGETS[pair]
        verdict = "met" if score >= target else "not met"
        rows.append(
            f"| {pair.replace('-', ' vs ')} | {size}x{size} | {mode} | {games} |"
            f" {wins} / {draws} / {losses} | {100 * score:.1f}% |"
            f" {100 * low:.1f}% to {100 * high:.1f}% | {_elo(score)} ({_elo(low)} to"
            f" {_elo(high)}) | {100 * target:.0f}%: {verdict} |"
        )
    return "\n".join(rows)


def main() -> None:
    """Run the matches named on the command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", default=",".join(TARGETS))
    parser.add_argument("--modes", default="general,simple")
    parser.add_argument("--sizes", default="5,8")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--jobs", type=int)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--table", type=Path, nargs="+", metavar="FILE")
    arguments = parser.parse_args()
    if arguments.table:
        print(table(arguments.table))
        return
    for pair in arguments.pairs.split(","):
        for size in (int(size) for size in arguments.sizes.split(",")):
            for mode in arguments.modes.split(","):
                result = arena(
                    pair, mode, size, arguments.games, arguments.seconds, arguments.jobs,
                    arguments.seed,
                )  # fmt: skip
                line = json.dumps(result)
                print(line, flush=True)
                if arguments.out is not None:
                    with arguments.out.open("a", encoding="utf-8") as out:
                        out.write(line + "\n")


if __name__ == "__main__":
    main()
