"""The command line on a bare install, and with each optional extra alone.

Each case runs ``python -m sosgame`` in a subprocess in which the packages of the other extras
cannot be imported (``run_without.py``), as after ``pip install sosgame`` or
``pip install 'sosgame[EXTRA]'``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pexpect
import pytest

from sos_services import free_port
from sos_terminal import Screen, spawn_in_terminal
from sosgame import Game
from sosgame.extras import EXTRAS, Extra, install_command
from sosgame.record import Record, save

HERE = Path(__file__).parent
RUN_WITHOUT = str(HERE / "run_without.py")

# What each extra brings, its own dependencies among them, by top-level module name.
BROUGHT_BY = {
    "fast": ("numba", "llvmlite", "numpy", "tqdm", "openskill"),
    "tui": ("textual",),
    "cluster": ("distributed", "dask"),
    "web": (
        "starlette",
        "uvicorn",
        "sqlalchemy",
        "alembic",
        "redis",
        "psycopg",
        "argon2",
        "confusable_homoglyphs",
        "openskill",
        "rustworkx",
        "caissify_pairings",
    ),
    "envs": ("numpy", "gymnasium", "pettingzoo", "pyspiel", "open_spiel", "PIL"),
    "bot": ("httpx", "httpcore"),
    "tournaments": ("rustworkx", "caissify_pairings"),
}
EVERY_OPTIONAL = frozenset(name for names in BROUGHT_BY.values() for name in names)


def hidden_without(extra: str | None) -> str:
    """The modules to hide for an install with only ``extra`` (None: a bare install)."""
    kept = set(BROUGHT_BY[extra]) if extra else set()
    return ",".join(sorted(EVERY_OPTIONAL - kept))


def sosgame(
    *arguments: str, extra: str | None = None, stdin: str = "", cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, RUN_WITHOUT, hidden_without(extra), "-m", "sosgame", *arguments],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=240,
        check=False,
    )


def python(code: str, *, extra: str | None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, RUN_WITHOUT, hidden_without(extra), "-c", code],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("records") / "game.json"
    save(Record.from_game(Game(3, 3, moves=["Sa1", "Ob1", "Sc1"]), players=["Ann", "Bao"]), path)
    return path


def test_the_hidden_modules_cannot_be_imported_but_the_rest_can() -> None:
    done = python("import sosgame.game\nimport numpy\n", extra=None)
    assert done.returncode == 1 and "No module named 'numpy'" in done.stderr
    assert python("import numpy\n", extra="fast").returncode == 0


def test_every_extra_module_the_code_checks_for_is_hidden_on_a_bare_install() -> None:
    for modules in EXTRAS.values():
        assert set(modules) <= EVERY_OPTIONAL


@pytest.mark.parametrize(
    "command",
    [None, "replay", "show", "play", "serve", "worker", "solve", "hint", "analyze", "arena", "bot"],
)
def test_help_works_on_a_bare_install(command: str | None) -> None:
    done = sosgame(*([command] if command else []), "--help")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"usage: sosgame{' ' + command if command else ''}")
    assert done.stderr == ""


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        (["replay", "{record}"], "a1-b1-c1  Ann, ply 3"),
        (["show", "SOS/.O./S.S"], "a1-b1-c1"),
        (["solve", "3x3", "--json"], '"value": 0'),
        (["hint", "SO./.../..S", "--level", "hard", "--nodes", "300"], " (completes 1 SOS)"),
        (["analyze", "{record}", "--seconds", "0.05"], "Ann: 2 moves"),
        (
            ["arena", "easy", "random", "--size", "3", "--games", "2", "--jobs", "1"],
            "easy vs random: 3x3 general, 2 games",
        ),
    ],
)
def test_commands_that_need_no_extra_work_on_a_bare_install(
    arguments: list[str], expected: str, record_file: Path
) -> None:
    done = sosgame(*(argument.format(record=record_file) for argument in arguments))
    assert done.returncode == 0, done.stderr
    assert expected in done.stdout
    assert "Traceback" not in done.stderr


def test_the_line_mode_game_works_on_a_bare_install() -> None:
    done = sosgame("play", "--plain", "--size", "3", "--lang", "en", stdin="Sa1\nOb1\nSc1\nquit\n")
    assert done.returncode == 0, done.stderr
    assert "Scores: Player 1 1, Player 2 0\nPlayer 1 to move again: extra turn!" in done.stdout


def test_without_numba_the_solver_says_once_what_would_make_it_fast() -> None:
    done = sosgame("solve", "3x3")
    assert done.returncode == 0
    assert done.stderr.count(install_command("fast")) == 1


@pytest.mark.parametrize(
    ("arguments", "extra"),
    [
        (["serve"], "web"),
        (["serve", "--port", "8123", "--database", "sqlite://"], "web"),
        (["worker", "--redis", "redis://127.0.0.1:1/0"], "web"),
        (["play", "--lang", "en"], "tui"),
        (["play", "--size", "4", "--lang", "en"], "tui"),
        (["bot", "--server", "http://127.0.0.1:1", "--token", "sos_x"], "bot"),
    ],
)
def test_commands_that_need_an_extra_name_it_in_one_line(
    arguments: list[str], extra: Extra
) -> None:
    done = sosgame(*arguments)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith(
        f"sosgame {arguments[0]} needs the {extra} extra: {install_command(extra)}"
    )


# ------------------------------------------------------------------ each extra on its own


def test_with_only_fast_solve_and_hint_run_compiled() -> None:
    solved = sosgame("solve", "3x3", "--json", extra="fast")
    assert solved.returncode == 0, solved.stderr
    assert json.loads(solved.stdout)["value"] == 0
    assert install_command("fast") not in solved.stderr
    hinted = sosgame("hint", "3x3", "--nodes", "500", "--seed", "2", "--json", extra="fast")
    assert hinted.returncode == 0, hinted.stderr
    assert json.loads(hinted.stdout)["move"] in {str(move) for move in Game(3, 3).legal_moves}
    compiled = python("from sosgame.kernel import JIT\nassert JIT\n", extra="fast")
    assert compiled.returncode == 0, compiled.stderr


def test_with_only_tui_the_full_screen_game_plays(tmp_path: Path) -> None:
    arguments = [RUN_WITHOUT, hidden_without("tui"), "-m", "sosgame", "play"]
    arguments += ["--size", "3", "--names", "Ann", "Bao", "--lang", "en"]
    child = spawn_in_terminal(sys.executable, arguments, cwd=tmp_path)
    screen = Screen(child)
    try:
        screen.wait_for("Ann to move.")
        child.send("s")  # Sa1
        screen.wait_for("Bao to move.")
        child.send("q")  # Sa1 is in no file: quitting asks first
        screen.wait_for("Quit anyway?")
        child.send("\x1b[Z")  # shift+tab, from Cancel to Quit
        child.send("\r")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


def _wait_for_page(url: str, server: subprocess.Popen[str]) -> bytes:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise AssertionError(f"the server stopped: {server.communicate()[1]}")
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                body: bytes = response.read()
                return body
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.1)  # polling for an event (the server listening), not waiting out time
    raise AssertionError(f"nothing answered at {url}")


def test_with_only_web_serve_answers(tmp_path: Path) -> None:
    port = free_port()
    database = f"sqlite:///{tmp_path / 'store.sqlite3'}"
    command = [sys.executable, RUN_WITHOUT, hidden_without("web"), "-m", "sosgame", "serve"]
    server = subprocess.Popen(
        [*command, "--port", str(port), "--database", database],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        page = _wait_for_page(f"http://127.0.0.1:{port}/", server)
        assert b"<html" in page.lower()
        health = _wait_for_page(f"http://127.0.0.1:{port}/api/health", server)
        assert json.loads(health)
    finally:
        server.terminate()
        server.communicate(timeout=60)


_ENVIRONMENTS = """
import gymnasium
import pyspiel
import sosgame.envs
import sosgame.envs.openspiel
from sosgame.envs import sos_v0

env = sos_v0.env(rows=3, cols=3)
env.reset(seed=1)
agent = env.agent_selection
observation, _, _, _, _ = env.last()
env.step(int(observation["action_mask"].nonzero()[0][0]))
assert env.agent_selection != agent or env.rewards

gym_env = gymnasium.make("sosgame/SOS-v0", rows=3, cols=3, opponent="random")
observation, info = gym_env.reset(seed=1)
mask = info["action_mask"] if "action_mask" in info else observation["action_mask"]
gym_env.step(int(mask.nonzero()[0][0]))

game = pyspiel.load_game("python_sos", {"rows": 3, "cols": 3})
state = game.new_initial_state()
while not state.is_terminal():
    state.apply_action(state.legal_actions()[0])
assert len(state.returns()) == 2
print("three environments ran")
"""


def test_with_only_envs_the_three_environments_run() -> None:
    done = python(_ENVIRONMENTS, extra="envs")
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "three environments ran"


def test_output_to_a_closed_pipe_ends_quietly(record_file: Path) -> None:
    for arguments in (["replay", str(record_file)], ["show", "SOS/.O./S.S"]):
        read_end, write_end = os.pipe()
        os.close(read_end)  # as `| head -1` does once it has its line: every write then fails
        try:
            done = subprocess.run(
                [sys.executable, "-m", "sosgame", *arguments],
                stdout=write_end,
                stderr=subprocess.PIPE,
                text=True,
                timeout=120,
                check=False,
            )
        finally:
            os.close(write_end)
        assert done.stderr == ""
        assert done.returncode == 141
