"""How long the server takes to judge hostile JSON: the checks of ``sosgame.web.guards.jsonsafe``.

Each input is built to be as slow as possible for some check, at 8, 16, 32 and 256 KiB (the
largest body the server reads): a string of escaped quotes that is never closed (quadratic
in the earlier depth check), backslashes, unclosed brackets, empty arrays one after another,
an array of small integers (the parser's own work), one huge number, and an array of lone
surrogate escapes. Every figure is the median of ``--repeat`` runs of
``jsonsafe.loads`` (the answer, accepted or refused, is shown too). ``--before`` times the
earlier depth check (a token pattern that rescans an unclosed string from every quote) on
the same inputs, up to 32 KiB (it takes minutes at 256 KiB); ``--app`` times the whole
``POST /api/games`` through the app.

Run: ``python benchmarks/json_checks.py [--repeat 5] [--before] [--app] [--json]``.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import tempfile
import time
import warnings
from collections.abc import Callable
from pathlib import Path

from sosgame.web.guards import jsonsafe

KIB = 1024
SIZES = (8 * KIB, 16 * KIB, 32 * KIB, 256 * KIB)
INPUTS: dict[str, Callable[[int], str]] = {
    "escaped quotes, unclosed": lambda n: '"' + '\\"' * ((n - 1) // 2),
    "backslashes, unclosed": lambda n: '"' + "\\" * (n - 1),
    "[ only": lambda n: "[" * n,
    "[] again and again": lambda n: "[]" * (n // 2),
    "array of 1s": lambda n: "[" + ",".join(["1"] * (n // 2 - 1)) + "]",
    "one huge number": lambda n: "9" * n,
    "lone surrogates": lambda n: "[" + ",".join(['"\\ud800"'] * (n // 9)) + "]",
}
# The depth check before this rework, kept here only to measure it.
_BEFORE = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def before(text: str) -> None:
    """The earlier depth check's scan."""
    depth = 0
    for match in _BEFORE.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > jsonsafe.MAX_DEPTH:
                return
        elif token in "]}":
            depth -= 1


def judge(text: str) -> str:
    """What ``jsonsafe.loads`` answers, in a few words."""
    try:
        jsonsafe.loads(text)
    except jsonsafe.JsonError as error:
        return "refused: " + str(error).split(":")[0][:40]
    return "accepted"


def median_seconds(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def through_app(texts: dict[tuple[str, int], str], repeat: int) -> dict[tuple[str, int], float]:
    """The time of ``POST /api/games`` with each text as its body, through the whole app."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from sosgame.web import create_app

    seconds = {}
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(f"sqlite:///{Path(folder) / 'games.sqlite3'}", computers=False)
        with TestClient(app) as client:
            for key, text in texts.items():
                body = text.encode()

                def post(body: bytes = body) -> None:
                    assert client.post("/api/games", content=body).status_code in (400, 413)

                seconds[key] = median_seconds(post, repeat)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--before", action="store_true", help="time the earlier depth check")
    parser.add_argument("--app", action="store_true", help="time POST /api/games too")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    texts = {(name, size): make(size) for name, make in INPUTS.items() for size in SIZES}
    app = through_app(texts, args.repeat) if args.app else {}
    rows = []
    for (name, size), text in texts.items():
        row = {
            "input": name,
            "kib": size // KIB,
            "ms": 1000 * median_seconds(lambda text=text: judge(text), args.repeat),
            "answer": judge(text),
        }
        if args.before and size <= 32 * KIB:
            row["before_ms"] = 1000 * median_seconds(lambda text=text: before(text), 1)
        if (name, size) in app:
            row["app_ms"] = 1000 * app[name, size]
        rows.append(row)
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print("| input | KiB | check | before | POST /api/games | answer |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for row in rows:
        cells = [f"{row[key]:.2f} ms" if key in row else "" for key in ("before_ms", "app_ms")]
        print(
            f"| {row['input']} | {row['kib']} | {row['ms']:.2f} ms | {cells[0]} | {cells[1]}"
            f" | {row['answer']} |"
        )


if __name__ == "__main__":
    main()
