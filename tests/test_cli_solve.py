"""``sosgame solve``: answers, JSON keys, and one-line errors."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys

import pytest

from sos_cli import run
from sosgame import Game
from sosgame.cli import main
from sosgame.solver import solve


@pytest.mark.parametrize("mode", ["general", "simple"])
def test_json_has_exactly_the_documented_keys(
    capsys: pytest.CaptureFixture[str], mode: str
) -> None:
    status, out, err = run(capsys, "solve", "3x4", "--mode", mode, "--json", "--memory", "16")
    assert status == 0, err
    answer = json.loads(out)
    assert list(answer) == ["value", "best_moves", "nodes", "seconds"]
    expected = solve(Game(3, 4, mode=mode), memory_mb=16)  # type: ignore[arg-type]
    assert answer["value"] == expected.value
    assert answer["best_moves"] == [str(move) for move in expected.best_moves]
    assert answer["nodes"] == expected.nodes
    assert isinstance(answer["seconds"], float)


def test_best_moves_are_listed_in_board_order_not_text_order(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # One column of O with a2, a10 and a11 empty: no move can score, so every move is best.
    column = ["O"] * 12
    for row in (1, 9, 10):
        column[row] = "."
    status, out, err = run(capsys, "solve", "/".join(column), "--json")
    assert status == 0, err
    assert json.loads(out)["best_moves"] == ["Sa2", "Oa2", "Sa10", "Oa10", "Sa11", "Oa11"]


def test_a_position_is_solved_for_the_side_to_move(capsys: pytest.CaptureFixture[str]) -> None:
    # S.S: the O in between takes the line, and the mover then fills the last cell quietly.
    status, out, _ = run(capsys, "solve", "S.S/.../...", "--json", "--memory", "16")
    assert status == 0
    answer = json.loads(out)
    assert "Ob1" in answer["best_moves"]
    assert answer["value"] == solve(Game.from_position("S.S/.../..."), memory_mb=16).value


def test_text_output_names_the_value_and_the_moves(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "solve", "1x4", "--memory", "16")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("value 0: a draw")
    assert lines[1].startswith("best moves (")
    assert lines[2].endswith(" s") and "nodes" in lines[2]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["SSS/SSS/SSS", "--mode", "simple"], "the game is over"),
        (["SOS/.../...", "--mode", "simple"], "already holds an SOS"),
        (["SOS/OSO/SOS"], "the game is over"),
        (["2x2"], "too small"),
        (["3y3"], "neither a board size"),
        (["7x7"], "empty cells"),
        (["3x3", "--memory", "0"], "memory"),
        (["3x3", "--memory", "100000000"], "memory"),
    ],
)
def test_bad_input_is_one_line_and_non_zero(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, "solve", *argv)
    assert status != 0 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_ctrl_c_stops_it_with_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted(*_: object, **__: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("sosgame.cli.solve.solve", interrupted)
    status, out, err = run(capsys, "solve", "4x4")
    assert status == 130 and out == ""
    assert err == "sosgame: solve stopped by Ctrl-C before it finished\n"


_SOLVE_THEN_SAY_SO = (
    "import signal\n"
    "import sys\n"
    # As in a terminal: a shell without job control starts background commands with Ctrl-C
    # ignored, and a test run may be one of them.
    "signal.signal(signal.SIGINT, signal.default_int_handler)\n"
    "import sosgame.cli.solve as command\n"
    "from sosgame.solver import warm_up\n"
    # Compiled first: an interrupt during numba's compilation can be lost in its clean-up.
    "warm_up()\n"
    "real_solve = command.solve\n"
    "def solve(*arguments, **options):\n"
    "    print('solving', flush=True)\n"
    "    return real_solve(*arguments, **options)\n"
    "command.solve = solve\n"
    "from sosgame.cli import main\n"
    "sys.exit(main(['solve', '5x5', '--memory', '64', '--threads', '2']))\n"
)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_real_interrupt_stops_a_long_solve_promptly() -> None:
    # 5x5 takes hours; the interrupt is sent as soon as the search is seen to start.
    child = subprocess.Popen(
        [sys.executable, "-c", _SOLVE_THEN_SAY_SO],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=dict(os.environ),
    )
    assert child.stdout is not None
    try:
        assert child.stdout.readline() == "solving\n"
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=120)
    finally:
        child.kill()  # a solve that did not stop must not go on after the test
        child.wait()
    assert child.returncode == 130 and out == ""
    assert err.strip() == "sosgame: solve stopped by Ctrl-C before it finished"


_WITHOUT_NUMBA = (
    "import sys\n"
    "class Block:\n"
    "    def find_spec(self, name, path=None, target=None):\n"
    "        if name.partition('.')[0] in ('numba', 'numpy'):\n"
    "            raise ImportError(name)\n"
    "sys.meta_path.insert(0, Block())\n"
    "from sosgame.cli import main\n"
    "main(['solve', '3x3', '--json'])\n"
    "sys.exit(main(['solve', '3x3', '--json']))\n"
)


def test_without_numba_it_still_solves_and_says_once_what_to_install() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _WITHOUT_NUMBA],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    expected = solve(Game(3, 3), memory_mb=16)
    assert [answer["value"] for answer in answers] == [expected.value] * 2
    assert answers[0]["best_moves"] == [str(move) for move in expected.best_moves]
    assert done.stderr.count("pip install 'sosgame[fast]'") == 1


def test_threads_are_passed_on_and_bad_counts_rejected(
    capsys: pytest.CaptureFixture[str],
) -> None:
    answers = []
    for threads in ("1", "2"):
        assert main(["solve", "3x3", "--json", "--threads", threads]) == 0
        answers.append(json.loads(capsys.readouterr().out))
    assert answers[0]["value"] == answers[1]["value"] == 0
    assert answers[0]["best_moves"] == answers[1]["best_moves"]
    assert main(["solve", "3x3", "--threads", "0"]) == 1
    assert "threads must be a whole number of at least 1, not 0" in capsys.readouterr().err
    assert main(["solve", "3x3", "--split", "1", "--threads", "2"]) == 1
    assert "--workers" in capsys.readouterr().err
