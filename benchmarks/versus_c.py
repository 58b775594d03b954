"""The solver against a plain C alpha-beta solver, in the same run on the same machine.

Run: python benchmarks/versus_c.py [--cases 4x5:general ...] [--cflags "-O2"] [--threads N]

It compiles benchmarks/reference/sos_solve.c (standard C, no dependencies: negamax alpha-beta
over a 2^28-entry table, see its header) with ``cc`` and ``--cflags`` (``-O2`` by default) into
a temporary folder, then solves each case with the C program, with ``sosgame.solver.solve`` on
one thread and on ``--threads`` (by default every core), and with the command (``sosgame
solve 4x5 --mode general --json`` for 4x5 general); it checks that every value agrees and
prints nodes, seconds, CPU seconds (every thread's, and the command's start-up) and each
time as a multiple of the C program's. The machine may be shared: the nodes and the CPU
seconds hardly depend on its load, the seconds do. The C program finds the
value only; ``solve`` and the command also find every best first move. ``--cases`` adds 5x5
simple, for instance (the C program takes minutes there; ``--c-only`` skips the others).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

from sosgame import Game
from sosgame.kernel import JIT
from sosgame.solver import available_threads, solve, warm_up

SOURCE = Path(__file__).resolve().parent / "reference" / "sos_solve.c"
DEFAULT_CASES = ("4x4:general", "4x4:simple", "4x5:simple", "4x5:general")


class Row(NamedTuple):
    case: str
    program: str
    value: int
    nodes: int
    seconds: float
    cpu: float


def compile_reference(folder: Path, cflags: str) -> Path:
    """Compile the C solver into ``folder``; the path of the program."""
    compiler = os.environ.get("CC", "cc")
    if shutil.which(compiler) is None:
        sys.exit(f"no C compiler: {compiler!r} is not on the PATH (set CC)")
    program = folder / "sos_solve"
    subprocess.run([compiler, *shlex.split(cflags), "-o", str(program), str(SOURCE)], check=True)
    return program


def _children_cpu() -> float:
    """The CPU seconds of every finished child process so far."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_reference(program: Path, case: str, table_bits: int) -> Row:
    """The C program's value, nodes and seconds (its own clock, around the search)."""
    size, mode = case.split(":")
    cpu = _children_cpu()
    output = subprocess.run(
        [str(program), size, mode, str(table_bits)], check=True, capture_output=True, text=True
    ).stdout
    cpu = _children_cpu() - cpu
    found = re.fullmatch(r"value (-?\d+) nodes (\d+) seconds ([\d.]+)\s*", output)
    if found is None:
        sys.exit(f"unexpected output from the C solver: {output!r}")
    return Row(case, "C", int(found[1]), int(found[2]), float(found[3]), cpu)


def run_solve(case: str, threads: int) -> Row:
    """``solve()`` of the empty board, with its default table."""
    size, mode = case.split(":")
    rows, cols = map(int, size.split("x"))
    cpu = time.process_time()
    solution = solve(Game(rows, cols, mode=mode), threads=threads)  # type: ignore[arg-type]
    cpu = time.process_time() - cpu
    label = f"solve(), {threads} thread" + ("s" if threads > 1 else "")
    return Row(case, label, solution.value, solution.nodes, solution.seconds, cpu)


def run_command(case: str) -> Row:
    """The command line, timed from outside (start-up and kernel loading included)."""
    import json

    size, mode = case.split(":")
    sosgame = Path(sys.executable).with_name("sosgame")
    command = [str(sosgame), "solve", size, "--mode", mode, "--json"]
    cpu = _children_cpu()
    start = time.perf_counter()
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    seconds = time.perf_counter() - start
    cpu = _children_cpu() - cpu
    answer = json.loads(output)
    return Row(
        case, "sosgame solve (whole command)", answer["value"], answer["nodes"], seconds, cpu
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--cases", nargs="+", default=list(DEFAULT_CASES), metavar="RxC:MODE")
    parser.add_argument("--cflags", default="-O2", help="C compiler flags (default: -O2)")
    parser.add_argument("--table-bits", type=int, default=28, help="C table: 2^BITS entries")
    parser.add_argument("--threads", type=int, default=available_threads())
    parser.add_argument("--c-only", action="store_true", help="run the C program only")
    arguments = parser.parse_args()
    warm_up()
    rows: list[Row] = []
    with tempfile.TemporaryDirectory() as folder:
        program = compile_reference(Path(folder), arguments.cflags)
        print(
            f"C: cc {arguments.cflags}, 2^{arguments.table_bits} entries;"
            f" Python compiled kernel: {JIT}; cores: {available_threads()}",
            flush=True,
        )
        print(
            f"{'case':<12} {'program':<30} {'value':>5} {'nodes':>13} {'seconds':>8} {'x C':>6}"
            f" {'CPU s':>8} {'x C':>6}"
        )
        for case in arguments.cases:
            reference = run_reference(program, case, arguments.table_bits)
            results = [reference]
            if not arguments.c_only:
                results.append(run_solve(case, 1))
                if arguments.threads > 1:
                    results.append(run_solve(case, arguments.threads))
                results.append(run_command(case))
            for row in results:
                ratio = row.seconds / reference.seconds if reference.seconds else float("nan")
                cpu_ratio = row.cpu / reference.cpu if reference.cpu else float("nan")
                print(
                    f"{row.case:<12} {row.program:<30} {row.value:>5} {row.nodes:>13,}"
                    f" {row.seconds:>8.2f} {ratio:>6.2f} {row.cpu:>8.2f} {cpu_ratio:>6.2f}",
                    flush=True,
                )
            rows.extend(results)
    disagree = [
        row for row in rows if row.value != next(r for r in rows if r.case == row.case).value
    ]
    if disagree:
        sys.exit(f"the values disagree: {disagree}")
    print("every value agrees with the C program's")


if __name__ == "__main__":
    main()
