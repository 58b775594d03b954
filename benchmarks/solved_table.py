"""Solve the empty boards of docs/solved.md in both modes and write the table.

Run: nice python benchmarks/solved_table.py --write docs/solved.md
Strips 1xN and 2xN grow until a solve needs more than ``--max-nodes`` nodes; then 3x3 to 3x6,
4x4 and 4x5. Without ``--write`` the page goes to standard output. With ``--write`` the same
results also go, machine-readable, to the file of the same name ending in ``.json``
(docs/solved.json): a list of ``{"rows", "cols", "mode", "value", "best_moves", "nodes",
"seconds", "command", "version"}``, the value for the first player as on the page.

Boards solved in pieces (``sosgame solve RxC --split DEPTH``, whose results live under
data/solves/) get a section of their own, read from each store's ``solved-split*.json``, and
are listed in the JSON file too. ``--keep`` takes the small boards from the existing JSON file
instead of solving them again (to add new split results to the page without the 11 minutes).
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

from sosgame import Game, Move, __version__
from sosgame.certify import load
from sosgame.kernel import JIT
from sosgame.research.distribute import split_status
from sosgame.solver import NodeLimitError, Solution, TranspositionTable, solve, warm_up
from sosgame.solver.mirror import mirror_bounds

MODES = ("general", "simple")
FIXED = [(3, 3), (3, 4), (3, 5), (3, 6), (4, 4), (4, 5)]
COMMAND = "nice python benchmarks/solved_table.py --write docs/solved.md"

HEADER = f"""# Solved boards

The exact value of every empty board below, for the first player, with best play from both
players (two players). In general mode the value is the first player's points minus the second
player's; in simple mode it is 1 (first player wins), 0 (draw) or -1 (first player loses).
"Best" counts the first moves that reach the value; nodes and seconds are the solver's work
(`sosgame solve RxC --mode MODE` finds each one).

Reproduce the whole page with:

    {COMMAND}

"""

SPLIT_HEADER = """
## Larger boards, solved in pieces

These boards are solved by `sosgame solve RxC --mode MODE --split DEPTH`: the positions DEPTH
moves deep (symmetric and transposed ones once) are the pieces, and the value and best moves of
the empty board follow from them by negamax. By default each piece is asked only what the
search above it needs, "is it worth at least t?", by one null-window search, as a single
alpha-beta search with null windows (MTD(f)) asks of most of its moves; the bound each answer
gives is kept in a small JSON file per piece under `data/solves/RxC-MODE/` (`lower`, `upper`,
or `value` once they meet), and several tests run at once: the one the search needs next and
those it needs if that one does not cut it short. `--exact-pieces` solves every piece for its
exact value instead, at two to three times the nodes. Running the command again reads what
is there and tests nothing twice, so a long solve can stop and go on, on any machine;
`--workers N` runs N local processes and `--scheduler tcp://HOST:8786` a Dask cluster
(`pip install 'sosgame[cluster]'`); `--status` solves nothing and says how many pieces are
done (and how many have bounds only) and what they already settle (the least and most the
board can be worth). In simple mode every piece starts from the bounds of the mirror
strategy (below), so no test asks what it answers.
"Pieces" counts those the solve needed a bound of, of all the pieces at that depth. Nodes and
seconds add up every piece's work (seconds of solving, not wall-clock); memory is the table
per worker and the largest resident size a worker reached.

| board | mode | value | best | split | pieces | nodes | seconds | table MiB | peak MiB |
|---|---|---:|---:|---:|---:|---:|---:|---:|---:|
"""

UNFINISHED = """
Solves under way: what the pieces kept so far already settle (`sosgame solve RxC --mode MODE
--split DEPTH --status` says the same; the same command without `--status` goes on from
there). A value is the first player's final margin (general) or result (simple), as above.

| board | mode | split | pieces with bounds | nodes so far | at least | at most |
|---|---|---:|---:|---:|---:|---:|
"""

MIRROR = """
## Simple mode without search: the mirror strategy

Turning the board half a turn about its centre maps every line onto a line, and a player who
answers each move with the same letter in the opposite cell, and completes an SOS whenever
one can be completed, never loses a simple-mode game of two players. On a board with an even
side no cell is its own opposite, and the second player answers; on a board with both sides
odd the first player writes O in the centre cell, then answers. After each answer the board
is symmetric and no move completes an SOS: a threat the answer made would have a mirror
image, made by the opponent's move just before, which the answer would have completed
instead. The one line through both cells holds two equal neighbours (an even side), which no
SOS has, or is the centre's O between two equal letters (both sides odd), which wins if they
are S. So the opponent never scores. (`sosgame.solver.mirror`; the tests play the strategy
against every reply with the rules engine on eleven boards from 1x7 to 4x5, and check every
simple-mode value above against these bounds; `check_mirror(4, 6)` visits 36,721 positions in
15 s and finds no loss, `check_mirror(5, 5)` 20,356 in 9 s.)

In simple mode, then, every board with an even side is worth 0 or -1 to the first player,
and every board with both sides odd 0 or +1, before any search. Of the boards no search has
settled:
{examples}.

Which of the two 6x6 is, no search has found yet: from 4x6 (47.8 million nodes) to 5x6
(15.2 billion), six more cells cost about 320 times the nodes, so 6x6 would need some 5
trillion, about 40 days of one core of this machine.
"""

CERTIFICATES = """
## Certificates

`sosgame solve RxC --mode MODE --certificate FILE.json.gz` also writes a proof of the value:
for each position of the proof (up to symmetry), the move that forces the side to move's
bound, or the bound that every reply must respect. `sosgame certify FILE.json.gz` checks it
with the rules engine alone, without any solver code, and says "proven" only when every
entry holds; `--sample N` checks N random entries instead (a spot check, not a proof). A
proof grows fast with the board: 4x4 simple needs about 50,000 entries and 4x4 general about
500,000, checked in about a minute each.

With `--split`, the entries above the pieces follow from the bounds the solve found, and each
piece proves just the bounds they need of it (a simple-mode win needs only the winner's
moves: the first move with the fewest replies to answer, then one move per position the
loser can reach). Each piece's proof is kept beside its result
(`<piece>.proof-lower1.json.gz`, say), so a stopped run goes on. A piece whose proof would
be more than `--max-entries` entries is not proven in the file: its bounds are listed under
`assumed`, and `sosgame certify` then says the value holds *if* those claims do (they are the
pieces' results under `data/solves/`, which any run of the split solve re-derives), not that
it is proven.

A proof too large to keep whole is kept as a sample: `sosgame certify FILE.json.gz --extract N
--out KEPT.json.gz` checks N random entries of the whole proof (and every entry one move from
the root) and writes them with the claims of the whole proof that their checks use, listed as
`assumed`, and `sampled_from`, the whole proof's number of entries. `sosgame certify
KEPT.json.gz` then checks every kept entry and the root's value from those claims, and
reports a sample ("sample holds"), never a proof; a fresh run of the solve with
`--certificate` writes the whole proof again.

4x6 simple is kept that way: its whole proof (`sosgame solve 4x6 --mode simple --split 1
--certificate FILE`, the twelve pieces' proofs on one worker, the last seven in 47 minutes on
the shared machine) has 5,027,783 entries, 18 MB compressed. `--extract 50000` kept 50,013
of them (the root's among them) with the 105,954 claims they use, 809 KB; it took 73 s and
1.8 GB, and `sosgame certify` checks the kept file in 9 s. 2x10 simple is kept whole:
888,899 entries, 2.7 MB (its ten pieces' proofs in 8 min 15 s on one worker, 3.3 GB
resident); `sosgame certify` checks every entry in 67 s (5x5 simple's 878,761 in 111 s).
2x11 simple is kept as a sample too: its whole proof (twelve pieces, 61 minutes on one worker,
4.1 GB resident) has 4,561,546 entries, 13.6 MB; `--extract 50000` kept 50,013 with the 102,943
claims they use (35 s, 1.7 GB). 3x7 simple is kept whole: the first player's win (Sd3, an S on
the long edge's middle cell) needs the proof of that one piece only, 203,145 entries, 688 KB,
written in under 3 minutes on one worker (`sosgame solve 3x7 --mode simple --split 1 --workers
1 --memory 3072 --certificate FILE`); `sosgame certify` checks every entry in 37 s.

A proof too large even to write, such as a general-mode board of twenty cells or more (both
bounds at every position: 4x4 general alone needs 500,730 entries, 5x5 general would need
hundreds of millions), is sampled by random walks down it instead: `sosgame solve RxC --split
DEPTH --certificate FILE.json.gz --walks N [--seed S]`. Each walk starts at a bound the split
solve needs of one of its pieces, chosen at random, writes that position's entry as the whole
proof would (the move reaching a lower bound, found by null-window tests, or the upper bound
that every move must respect), and goes on, to the end of the game, from one of the positions
whose claims the entry needs, chosen at random. The file keeps the entries above the pieces,
those the walks met, the claims those entries need that none of them proves (`assumed`), and
`walks`. `sosgame certify` checks every kept entry, and the root's value from them, and
reports a sample ("sample holds: ... met on N random walks"), never a proof. `--walks N`
writes a new file; with `--add` it adds N walks to the walked certificate already in FILE
(same board and value), keeping its entries and drawing walks apart from its own, so a
sample can grow over several runs. Every walk
passes through a piece, so the positions near the root are checked most; each level deeper
holds the entries of fewer walks. Kept this way (one worker, at nice 5 beside a split solve at
nice 19): 2x10 general, 500 walks, 7,938 entries and 45,804 assumed claims, 193 KB, written in
131 s with a 3072 MiB table (3.4 GB resident); 3x7 general, 500 walks, 8,198 entries, 36,495
claims, 176 KB, 390 s; 5x5 general, 100 walks from its 183 pieces two moves deep, 2,117
entries, 10,335 claims, 51 KB, 1,539 s with a 4096 MiB table (4.4 GB resident); 4x6 general,
60 walks, 1,251 entries, 7,149 claims, 32 KB, 1,098 s with a 3072 MiB table (3.3 GB
resident), written when its pieces settled the value but not yet every best first move, by
`walk_certificate(Game(4, 6), walks=60, memory_mb=3072, depth=1, store="data/solves")` (from
`sosgame.research.walk`: the command would have tested the pieces for the best moves first);
2x11 general, 10 walks, 201 entries, 1,702 claims, 6 KB, 68 minutes with a 3072 MiB table
(about seven minutes a walk: each one's first tests search below a piece of 21 empty cells;
the run was stopped after the tenth, and they started from 5 of its 12 pieces).
Simple-mode results are sampled the same way where a whole proof would take hours: 2x12
simple, 500 walks, 7,041 entries, 25,520 claims, 115 KB, 292 s; 3x8 simple, 500 walks, 8,472
entries, 22,844 claims, 129 KB, 196 s; 4x7 simple, 100 walks, 1,869 entries, 6,257 claims,
35 KB, 779 s (each with a 3072 MiB table, 3.3 GB resident, by `sosgame solve RxC --mode
simple --split 1 --workers 1 --memory 3072 --certificate FILE --walks N`); 5x6 simple, 24
walks, 515 entries, 2,252 claims, 12 KB, with a 4096 MiB table (a run of 18 walks, stopped
after 66 minutes, kept the 16 it had finished, since the file is saved after each walk; a
second run added 8 more with `--add` in 71 minutes; they started from 13 of its 18
pieces). `sosgame certify` checks each of them in under 3 s. The
time goes to the tests that find a move reaching each lower bound just below the pieces,
where the positions are largest.
"""

CERTIFICATE_TABLE = """
Certificates kept in the repository (`data/certificates/`), each checked by `sosgame certify
FILE`: a whole proof where "of" is empty, a random sample of the whole proof's entries where
it gives their number, and the entries met on random walks down a proof never written where
it gives the walks.

| board | mode | value | entries | of | assumed | file |
|---|---|---:|---:|---:|---:|---|
"""


def _solve(rows: int, cols: int, mode: str, limit: int, table: TranspositionTable) -> Solution:
    return solve(Game(rows, cols, mode=mode), node_limit=limit, table=table)  # type: ignore[arg-type]


def _row(rows: int, cols: int, results: dict[str, Solution]) -> str:
    cells = [f"{rows}x{cols}"]
    for mode in MODES:
        solution = results[mode]
        cells += [
            f"{solution.value:+d}" if solution.value else "0",
            str(len(solution.best_moves)),
            f"{solution.nodes:,}",
            f"{solution.seconds:.2f}",
        ]
    return "| " + " | ".join(cells) + " |"


def _entry(rows: int, cols: int, mode: str, solution: Solution) -> dict[str, object]:
    return {
        "rows": rows,
        "cols": cols,
        "mode": mode,
        "value": solution.value,
        "best_moves": [str(move) for move in solution.best_moves],
        "nodes": solution.nodes,
        "seconds": round(solution.seconds, 3),
        "command": COMMAND,
        "version": __version__,
    }


def _kept(page: Path | None) -> dict[tuple[int, int, str], Solution]:
    if page is None:
        raise SystemExit("--keep needs --write FILE (its .json holds the boards to keep)")
    found = json.loads(page.with_suffix(".json").read_text(encoding="utf-8"))
    return {
        (entry["rows"], entry["cols"], entry["mode"]): Solution(
            entry["value"],
            tuple(Move.parse(text) for text in entry["best_moves"]),
            entry["nodes"],
            entry["seconds"],
        )
        for entry in found
        if "split" not in entry
    }


def _split_results(store: Path) -> list[dict[str, object]]:
    found = []
    for path in sorted(store.glob("*/solved-split*.json")):
        found.append(json.loads(path.read_text(encoding="utf-8")))
    found.sort(key=lambda entry: (entry["rows"] * entry["cols"], entry["rows"], entry["mode"]))
    return found


def _split_row(entry: dict[str, object]) -> str:
    value = int(entry["value"])  # type: ignore[call-overload]
    cells = [
        f"{entry['rows']}x{entry['cols']}",
        str(entry["mode"]),
        f"{value:+d}" if value else "0",
        str(len(entry["best_moves"])),  # type: ignore[arg-type]
        str(entry["split"]),
        f"{entry['tested']} of {entry['pieces']}" if "tested" in entry else str(entry["pieces"]),
        f"{entry['nodes']:,}",
        f"{entry['seconds']:,.0f}",
        str(entry["memory_mb"]),
        str(entry["peak_rss_mb"]),
    ]
    return "| " + " | ".join(cells) + " |"


def _unfinished_rows(store: Path) -> list[str]:
    rows = []
    for folder in sorted(store.iterdir()):
        pieces = [path for path in folder.glob("*.json") if not path.name.startswith("solved")]
        if any(folder.glob("solved-split*.json")) or not pieces:
            continue
        size, mode = folder.name.split("-")
        board_rows, board_cols = (int(part) for part in size.split("x"))
        found = [json.loads(path.read_text(encoding="utf-8")) for path in pieces]
        depth = sum(letter in "SO" for letter in found[0]["board"])
        game = Game(board_rows, board_cols, mode=mode)  # type: ignore[arg-type]
        status = split_status(game, depth, store)
        cells = [
            size,
            mode,
            str(depth),
            f"{status.solved + status.bounded} of {status.pieces}",
            f"{sum(result['nodes'] for result in found):,}",
            f"{status.lower:+d}" if status.lower else "0",
            f"{status.upper:+d}" if status.upper else "0",
        ]
        rows.append("| " + " | ".join(cells) + " |\n")
    return rows


def _certificate_rows(folder: Path) -> list[str]:
    rows = []
    for path in sorted(folder.glob("*.json*")):
        document = load(path)
        value = int(document["value"])
        cells = [
            f"{document['rows']}x{document['cols']}",
            str(document["mode"]),
            f"{value:+d}" if value else "0",
            f"{len(document['entries']):,}",
            _whole_proof(document),
            f"{len(document.get('assumed', [])):,}",
            f"`{path.as_posix()}`",
        ]
        rows.append("| " + " | ".join(cells) + " |\n")
    return rows


def _whole_proof(document: dict[str, object]) -> str:
    # What a kept certificate is a part of: nothing (it is whole), a proof's entries, or walks.
    if "sampled_from" in document:
        return f"{document['sampled_from']:,}"
    if "walks" in document:
        return f"{document['walks']:,} walks"
    return ""


def _mirror() -> str:
    boards = [(6, 6), (5, 7), (6, 7), (7, 7), (8, 8)]
    examples = "; ".join(
        f"{rows}x{cols} {'at most 0' if mirror_bounds(rows, cols)[1] == 0 else 'at least 0'}"
        for rows, cols in boards
    )
    return MIRROR.format(examples=examples)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write", type=Path, metavar="FILE", help="write the page to FILE")
    parser.add_argument("--max-nodes", type=int, default=400_000_000, help="per solve")
    parser.add_argument("--memory", type=int, default=2048, help="table size in MiB")
    parser.add_argument("--store", type=Path, default=Path("data/solves"), help="split results")
    parser.add_argument(
        "--certificates", type=Path, default=Path("data/certificates"), help="kept proofs"
    )
    parser.add_argument(
        "--keep", action="store_true", help="take the small boards from the existing JSON file"
    )
    arguments = parser.parse_args()
    kept = _kept(arguments.write) if arguments.keep else None
    warm_up()
    table = TranspositionTable(arguments.memory)
    started = time.perf_counter()
    lines = [
        "| board | general | best | nodes | seconds | simple | best | nodes | seconds |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    unreached: list[str] = []
    entries: list[dict[str, object]] = []

    def attempt(rows: int, cols: int) -> bool:
        results: dict[str, Solution] = {}
        for mode in MODES:
            try:
                if kept is not None:
                    results[mode] = kept[(rows, cols, mode)]
                    continue
                results[mode] = _solve(rows, cols, mode, arguments.max_nodes, table)
            except (NodeLimitError, KeyError):
                unreached.append(f"{rows}x{cols} {mode}")
                return False
        lines.append(_row(rows, cols, results))
        entries.extend(_entry(rows, cols, mode, results[mode]) for mode in MODES)
        print(lines[-1], file=sys.stderr, flush=True)
        return True

    for strip in (1, 2):
        cols = 3
        while cols <= 26 and attempt(strip, cols):
            cols += 1
    for rows, cols in FIXED:
        attempt(rows, cols)
    minutes = (time.perf_counter() - started) / 60
    footer = [
        "",
        f"Strips stop at the first size needing more than {arguments.max_nodes:,} nodes in a"
        " mode: " + (", ".join(unreached) if unreached else "none") + ".",
        "",
        f"Machine: {platform.machine()}, {platform.python_implementation()}"
        f" {platform.python_version()}, compiled kernel: {JIT}, table {arguments.memory} MiB;"
        f" the whole table took {minutes:.0f} minutes on a machine shared with other work,"
        " run with nice, so the seconds are wall-clock times and only indicative.",
    ]
    if kept is not None and arguments.write.exists():
        # The small boards were not solved again: their machine and timing line stays.
        old = arguments.write.read_text(encoding="utf-8").splitlines()
        footer = [""] + [line for line in old if line.startswith(("Strips stop", "Machine:"))]
        footer.insert(2, "")
    split = _split_results(arguments.store)
    entries.extend(split)
    page = HEADER + "\n".join(lines + footer) + "\n" + SPLIT_HEADER
    page += "".join(_split_row(entry) + "\n" for entry in split) or "| none yet |\n"
    unfinished = _unfinished_rows(arguments.store)
    if unfinished:
        page += UNFINISHED + "".join(unfinished)
    page += _mirror()
    page += CERTIFICATES
    kept_certificates = _certificate_rows(arguments.certificates)
    if kept_certificates:
        page += CERTIFICATE_TABLE + "".join(kept_certificates)
    if arguments.write:
        arguments.write.write_text(page, encoding="utf-8")
        table_file = arguments.write.with_suffix(".json")
        table_file.write_text(json.dumps(entries, indent=1) + "\n", encoding="utf-8")
    else:
        sys.stdout.write(page)


if __name__ == "__main__":
    main()
