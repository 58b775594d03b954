"""The command line on bad input and on the way out: one line naming what was wrong, nothing
left behind, and quick commands that load nothing they do not use."""

from __future__ import annotations

import io
import json
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import sosgame
from sos_cli import run
from sosgame import Cell, Game, Move, SosError, parse_action
from sosgame.cli import _COMMANDS
from sosgame.cli import progress as progress_module
from sosgame.cli.progress import Progress
from sosgame.i18n import error_text, translator
from sosgame.i18n.texts import TEXTS
from sosgame.record import Record, save
from sosgame.record import load as load_record

_HEAVY = ("numba", "numpy", "sosgame.kernel", "sosgame.ai", "sosgame.solver", "sosgame.search")
"""Modules that the quick commands must not load: the compiled kernel and the players."""


def _is_heavy(module: str) -> bool:
    # A package and its modules, not a light sibling whose name starts alike (kernel_cache).
    return any(module == name or module.startswith(f"{name}.") for name in _HEAVY)


_LOADED = """
import json, sys
from sosgame.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    save(Record.from_game(Game(3, 3, moves=["Sa1", "Ob1"]), players=["Ann", "Bao"]), path)
    return path


@pytest.mark.parametrize(
    "argv",
    [["--help"], ["show", "S.O/.O./S.S"], ["replay", "RECORD"], ["replay", "--help"]],
    ids=["help", "show", "replay", "replay-help"],
)
def test_quick_commands_load_neither_the_kernel_nor_the_players(
    argv: list[str], record_file: Path
) -> None:
    argv = [str(record_file) if argument == "RECORD" else argument for argument in argv]
    result = subprocess.run(
        [sys.executable, "-c", _LOADED, *argv], capture_output=True, text=True, check=True
    )
    loaded = json.loads(result.stderr.splitlines()[-1])
    heavy = [name for name in loaded if _is_heavy(name)]
    assert heavy == []
    assert result.stdout  # the command did its work


@pytest.mark.parametrize("command", _COMMANDS)
def test_no_command_s_help_loads_the_kernel_the_players_or_the_solver(command: str) -> None:
    result = subprocess.run(
        [sys.executable, "-c", _LOADED, command, "--lang", "en", "--help"],
        capture_output=True,
        text=True,
        check=True,
    )
    loaded = json.loads(result.stderr.splitlines()[-1])
    heavy = [name for name in loaded if _is_heavy(name)]
    assert heavy == []
    assert result.stdout.startswith(f"usage: sosgame {command}")


def test_the_loaded_modules_check_sees_a_command_that_loads_the_players() -> None:
    # The same check on a command that does load them, so that it can fail.
    result = subprocess.run(
        [sys.executable, "-c", _LOADED, "hint", "3x3", "--level", "random"],
        capture_output=True,
        text=True,
        check=True,
    )
    loaded = json.loads(result.stderr.splitlines()[-1])
    assert "sosgame.ai" in loaded


# ----------------------------------------------------------------------------- bad input


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    """Paths to throw at the commands: good files, and every kind of bad one."""
    from sosgame.research.certificate import certificate, write

    record = tmp_path / "game.json"
    save(Record.from_game(Game(3, 3, moves=["Sa1", "Ob1"]), players=["Ann", "Bao"]), record)
    proof = tmp_path / "proof.json"
    write(certificate(Game.from_position("SO./.../..."), memory_mb=8), proof)
    (tmp_path / "bad.json").write_text('{"x":', encoding="utf-8")
    (tmp_path / "plain.txt").write_text("not a folder", encoding="utf-8")
    return {
        "record": str(record),
        "proof": str(proof),
        "bad": str(tmp_path / "bad.json"),
        "missing": str(tmp_path / "missing" / "x.json"),  # in a folder that is not there
        "folder": str(tmp_path),
        "blocked": str(tmp_path / "plain.txt" / "x.json"),  # under a file: cannot be written
    }


BAD_INPUT = [
    "solve 3x3 --certificate {missing}",
    "solve 3x3 --certificate {folder}",
    "solve 3x3 --certificate {blocked}",
    "solve 3x3 --memory -1",
    "solve 3x3 --memory 0",
    "solve 3x3 --memory 100000000000",
    "solve 3x3 --threads 0",
    "solve 5x5 --threads 100000",
    "solve 3x3 --split 1 --workers 100000",
    "solve 3x3 --split -1",
    "solve 3x3 --split 1 --max-entries -1",
    "solve 27x27",
    "solve 0x3",
    "certify {missing}",
    "certify {folder}",
    "certify {bad}",
    "certify {record}",
    "certify {proof} --sample -3",
    "certify {proof} --sample 0",
    "certify {proof} --extract 10 --out {missing}",
    "certify {proof} --extract 10 --out {folder}",
    "certify {proof} --extract 10 --out {blocked}",
    "certify {proof} --extract -1 --out {folder}/sample.json",
    "analyze {missing}",
    "analyze {folder}",
    "analyze {bad}",
    "analyze {proof}",
    "analyze {record} --seconds 0",
    "analyze {record} --seconds -1",
    "analyze {record} --seconds nan",
    "replay {missing}",
    "replay {folder}",
    "replay {bad}",
    "show S.O/.X./OSS",
    "show 27x27",
    "show 0x0",
    "hint 27x27",
    "hint 3x3 --players 0",
    "hint 3x3 --players 99",
    "hint 3x3 --turn 0",
    "hint 3x3 --seconds 0",
    "hint 3x3 --nodes -1",
    "hint 3x3 --scores x",
    "arena hard medium --games 0",
    "arena hard medium --games -1",
    "arena hard medium --size 0",
    "arena hard medium --size 30",
    "arena hard medium --seconds 0",
    "arena hard medium --jobs 0",
    "arena hard medium --jobs 100000 --games 100000",
    "serve --database bogus://x",
    "serve --port 0 --database sqlite:///{folder}",
    "serve --port -1",
    "serve --port 99999",
    "serve --host 256.1.1.1 --port 0",
    "serve --host 192.0.2.1 --port 0",
    "serve --workers 0",
    "serve --redis bogus://x",
    "worker --redis bogus://x",
    "worker --database bogus://x --redis bogus://x",
    "play --plain --load {missing}",
    "play --plain --load {folder}",
    "play --plain --size -1",
    "play --plain --players 0",
]


@pytest.mark.parametrize("command", BAD_INPUT)
def test_bad_input_gets_one_line_naming_it_and_leaves_nothing_behind(
    command: str, files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = Path(files["folder"])
    before = sorted(folder.rglob("*"))
    status, out, err = run(capsys, *[part.format(**files) for part in command.split()])
    assert status == 1, (out, err)
    assert err.startswith("sosgame: error: ") and err.count("\n") == 1, err
    assert "Traceback" not in err
    assert sorted(folder.rglob("*")) == before  # no partial file, no folder made
    assert not Path(files["folder"] + ".partial").exists()


def test_a_certificate_that_cannot_be_written_is_named_with_why(
    files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    status, _, err = run(capsys, "solve", "3x3", "--certificate", files["missing"])
    assert status == 1
    assert err == (
        f"sosgame: error: cannot write certificate {files['missing']}: No such file or directory\n"
    )
    status, _, err = run(capsys, "certify", files["proof"], "--extract", "5", "--out", "/")
    assert status == 1 and "cannot write certificate /: " in err


def test_a_fault_of_the_program_itself_is_one_line_and_status_70(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from sosgame.cli import show

    def broken(arguments: object) -> int:
        raise KeyError("oops")

    monkeypatch.setattr(show, "run", broken)
    monkeypatch.delenv("SOSGAME_TRACEBACK", raising=False)
    status, _, err = run(capsys, "show", "S.O/.../OSS")
    assert status == 70
    assert err.startswith("sosgame: internal error (KeyError: 'oops')") and err.count("\n") == 1


def test_a_missing_level_names_only_the_one_required(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "arena", "hard")
    assert status == 2
    assert "the following arguments are required: LEVEL_B " in err


def test_the_worker_s_help_shows_redis_as_required(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "worker", "--help")
    assert status == 0
    usage = " ".join(out.split("\n\n")[0].split())
    assert "--redis URL" in usage and "[--redis URL]" not in usage
    status, _, err = run(capsys, "worker")
    assert status == 2 and "--redis" in err and err.count("\n") == 1


def test_a_whole_number_of_seconds_is_shown_as_written(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "hint", "3x3", "--seconds", "0")
    assert status == 1
    assert err == "sosgame: error: seconds must be a number greater than 0, not 0\n"


def test_show_draws_an_empty_board_for_a_size(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "show", "3x4")
    assert status == 0
    assert out.splitlines()[0].split() == ["a", "b", "c", "d"]
    assert len([line for line in out.splitlines() if line[:1].isdigit()]) == 3


# ----------------------------------------------------------------------------- languages


def _errors() -> list[SosError]:
    """An error of each kind the engine reports on bad input, from the public API."""
    from sosgame.ai import make_player
    from sosgame.research.walk import check_walks
    from sosgame.search.table import TranspositionTable
    from sosgame.solver import solve

    attempts: list[Callable[[], object]] = [
        lambda: make_player("easy", seed="x"),  # type: ignore[arg-type]
        lambda: make_player("easy", seconds=0.0),
        lambda: check_walks(0),
        lambda: solve(Game(3, 3, players=3)),
        lambda: solve(Game(3, 3), threads=0),
        lambda: solve(Game(3, 3), threads=100_000),
        lambda: TranspositionTable(0),
        lambda: Cell.parse("b99"),
        lambda: Cell.parse("9b"),
        lambda: Move.parse("Xb3"),
        lambda: Move.parse("Sb99"),
        lambda: parse_action("resign:x"),
        lambda: Game(27, 3),
        lambda: Game(3, 0),
        lambda: Game(2, 2),
        lambda: Game(3, 3, players=9),
        lambda: Game(3, 3, mode="odd"),  # type: ignore[arg-type]
        lambda: Game.from_position(""),
        lambda: Game.from_position("S.O/.."),
        lambda: Game.from_position("S.O/.X./..."),
        lambda: Game.from_position("S" * 27),
        lambda: Game.from_position("SOS/.../...", mode="simple"),
        lambda: Game.from_position("SOS/.../...", turn=3),
        lambda: Game.from_position("SOS/.../...", scores=[1]),
        lambda: Game.from_position("SOS/.../...", scores=[0, -1]),
        lambda: Game.from_position("SOS/.../...", scores=[2, 0]),
        lambda: Game.from_position("SOS/.../...", scores=[0, 0]),
        lambda: Game(3, 3).play("Sd1"),
        lambda: Game(3, 3, moves=["Sa1"]).play("Oa1"),
        lambda: Game(3, 3, mode="simple", moves=["Sa1", "Ob1", "Sc1"]).play("Sa2"),
        lambda: Game(3, 3).resign(5),
        lambda: Game(3, 3).undo(),
        lambda: Game(3, 3).play_all(["Sa1", "Sa1"]),
        lambda: Game(3, 3).letter_at("d4"),
        lambda: Record.from_json("{"),
        lambda: Record.from_json("[]"),
        lambda: Record.from_json('{"odd": 1}'),
        lambda: Record.from_dict(Record.from_game(Game(3, 3)).to_dict() | {"moves": ["Sa1", "a1"]}),
        lambda: Record.from_dict(Record.from_game(Game(3, 3)).to_dict() | {"rows": 30}),
        lambda: Record.from_dict(Record.from_game(Game(3, 3)).to_dict() | {"players": ["A"]}),
        lambda: load_record("/no/such/folder/game.json"),
    ]
    found = []
    for attempt in attempts:
        with pytest.raises(SosError) as caught:
            attempt()
        found.append(caught.value)
    return found


def test_every_error_code_reads_in_english_as_the_error_itself() -> None:
    english = translator("en")
    errors = _errors()
    assert all(error.code is not None for error in errors)
    for error in errors:
        assert error_text(english, error) == str(error)


def test_every_error_code_raised_in_the_source_has_a_text() -> None:
    source = Path(sosgame.__file__).parent
    codes = set()
    for path in source.rglob("*.py"):
        codes |= set(re.findall(r'\bcode="(\w+)"', path.read_text("utf-8")))
        codes |= {f"{side}_{kind}" for side in ("rows", "cols") for kind in ("whole", "range")}
    assert codes and {code for code in codes if f"error.{code}" not in TEXTS} == set()


def test_the_engine_s_errors_are_shown_in_the_player_s_language() -> None:
    vietnamese, hindi = translator("vi"), translator("hi")
    errors = {str(error): error for error in _errors()}
    rows = errors["rows must be from 1 to 26, not 27"]
    assert error_text(vietnamese, rows) == "số hàng phải từ 1 đến 26, không phải 27"
    assert error_text(hindi, rows) == "पंक्तियों की संख्या 1 से 26 तक होनी चाहिए, 27 नहीं"
    nested = errors[
        "moves[1] (ply 2): 'a1' is not a move: it must start with the letter S or O, as in 'Sb3'"
    ]
    assert error_text(vietnamese, nested) == (
        "moves[1] (nửa nước 2): 'a1' không phải một nước đi: nó phải bắt đầu bằng chữ S hoặc O,"
        " như 'Sb3'"
    )
    unreadable = next(error for error in errors.values() if error.code == "record_unreadable")
    assert error_text(vietnamese, unreadable).endswith(": không có tệp hoặc thư mục này")


def test_the_command_line_shows_engine_errors_and_its_own_notices_translated() -> None:
    environment = dict(os.environ, LANG="vi_VN.UTF-8")
    result = subprocess.run(
        [sys.executable, "-m", "sosgame", "hint", "27x27"],
        capture_output=True,
        text=True,
        env=environment,
        check=False,
    )
    assert result.returncode == 1
    assert result.stderr == "sosgame: lỗi: số hàng phải từ 1 đến 26, không phải 27\n"
    assert translator("vi")("cli.stopped") != translator("en")("cli.stopped")
    assert translator("hi")("cli.stopped") != translator("en")("cli.stopped")


@pytest.mark.parametrize(
    ("key", "one", "two"),
    [
        ("cli.analyze.blunders", "1 blunder", "2 blunders"),
        ("cli.analyze.mistakes", "1 mistake", "2 mistakes"),
        ("cli.analyze.moves", "1 move", "2 moves"),
        ("cli.arena.draws", "1 draw", "2 draws"),
        ("cli.arena.wins", "1 win", "2 wins"),
        ("cli.arena.losses", "1 loss", "2 losses"),
        ("error.scores_sum", "holds 1 SOS line", "holds 2 SOS lines"),
    ],
)
def test_counted_words_take_the_right_form_in_every_language(key: str, one: str, two: str) -> None:
    english = translator("en")
    values = {"total": 0}
    assert one in english(key, count=1, **values) and two in english(key, count=2, **values)
    hindi = translator("hi")
    assert hindi(key, count=1, **values) != hindi(key, count=2, **values)  # एक / अनेक
    vietnamese = translator("vi")  # no plural forms: the same words, the number changed
    assert vietnamese(key, count=1, **values) == vietnamese(key, count=2, **values).replace(
        "2", "1"
    )


def test_a_proof_or_sample_of_one_entry_says_entry() -> None:
    english = translator("en")
    report = {"position": "...", "mode": "general", "value": "0", "assumed": 0}
    for key in ("cli.certify.proven", "cli.certify.kept_sample", "cli.certify.walked"):
        one = english(key, count=1, entries=1, checked=1, sampled_from=9, walks=2, **report)
        assert " 1 entry " in one + " " and " 1 entries" not in one


def test_a_certificate_check_counts_its_entries(
    files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _ = run(capsys, "certify", files["proof"], "--sample", "1")
    assert status == 0
    assert re.match(r"sample holds: 2 of \d+ entries of SO\./\.\.\./\.\.\. ", out)
    status, out, _ = run(capsys, "certify", files["proof"])
    assert status == 0 and re.search(r"all \d+ entries hold", out)


# ----------------------------------------------------------------------------- long work


class _Terminal(io.StringIO):
    """Standard error as a terminal would be: what was written, and ``isatty()`` true."""

    def isatty(self) -> bool:
        return True


def test_progress_is_drawn_in_place_a_few_times_a_second_and_wiped() -> None:
    moments = iter([0.0, 0.05, 0.2, 0.21])
    stream = _Terminal()
    progress = Progress(stream, clock=lambda: next(moments))
    for text in ("one", "two", "three!", "four"):
        progress.show(text)
    progress.close()
    # "two" comes too soon after "one", and "four" after "three!": they are left out.
    assert stream.getvalue() == "\rone\rthree!\r      \r"


def test_progress_writes_nothing_where_standard_error_is_no_terminal() -> None:
    stream = io.StringIO()
    with Progress(stream) as progress:
        progress.show("working", now=True)
    assert stream.getvalue() == "" and not progress.shown


def _on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress_module, "_is_terminal", lambda stream: True)


def test_certify_shows_its_progress_and_stops_at_ctrl_c_in_one_line(
    files: dict[str, str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _on_a_terminal(monkeypatch)
    shown: list[str] = []

    def show(self: Progress, text: str, *, now: bool = False) -> None:
        shown.append(text)
        if len(shown) == 3:
            raise KeyboardInterrupt  # as Ctrl-C arrives while the entries are checked

    monkeypatch.setattr(Progress, "show", show)
    status, out, err = run(capsys, "certify", files["proof"])
    assert status == 130 and out == ""
    assert shown[0].startswith("checking entries: 1 of ")
    assert err == "sosgame: stopped by Ctrl-C\n"  # nothing was drawn, so nothing to wipe


def test_analyze_shows_its_progress_and_stops_at_ctrl_c_in_one_line(
    record_file: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _on_a_terminal(monkeypatch)
    shown: list[str] = []

    def show(self: Progress, text: str, *, now: bool = False) -> None:
        shown.append(text)
        if "move 1 of" in text:
            raise KeyboardInterrupt

    monkeypatch.setattr(Progress, "show", show)
    status, out, err = run(capsys, "analyze", str(record_file), "--seconds", "0.01")
    assert status == 130 and out == ""
    assert shown == ["analysing: move 0 of 2", "analysing: move 1 of 2"]
    assert err == "sosgame: stopped by Ctrl-C\n"


def test_json_output_is_the_same_on_a_terminal_and_in_a_pipe(
    files: dict[str, str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    status, piped, _ = run(capsys, "certify", files["proof"], "--json")
    assert status == 0
    _on_a_terminal(monkeypatch)
    status, shown, _ = run(capsys, "certify", files["proof"], "--json")
    assert status == 0 and shown == piped


def _sosgame_in_a_terminal(*arguments: str, cwd: Path) -> Any:
    from sos_terminal import spawn_in_terminal

    return spawn_in_terminal(sys.executable, ["-m", "sosgame", *arguments], cwd=cwd)


def test_the_ctrl_c_notice_is_in_the_player_s_language(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    from sos_terminal import take_ctrl_c

    environment = {
        name: value
        for name, value in os.environ.items()
        if name not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")
    }
    child = pexpect.spawn(
        sys.executable,
        ["-m", "sosgame", "solve", "5x5"],
        cwd=str(tmp_path),
        env={**environment, "LANG": "vi_VN.UTF-8", "TERM": "xterm"},
        dimensions=(24, 100),
        timeout=60,
        encoding="utf-8",
        preexec_fn=take_ctrl_c,
    )
    try:
        child.expect(r"đang giải [./]+: [\d,]+ nút")
        child.sendintr()
        child.expect_exact("sosgame: lệnh solve đã dừng vì Ctrl-C trước khi xong")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 130


def _children(pid: int) -> list[int]:
    found = subprocess.run(
        ["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True, check=False
    )
    return [int(word) for word in found.stdout.split()]


def _running(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie, dead but not yet reaped, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


def _gone_by(pids: list[int], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while any(_running(pid) for pid in pids):
        if time.monotonic() > deadline:
            return False
        time.sleep(0.05)
    return True


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads processes from /proc")
def test_ctrl_c_stops_arena_reports_the_finished_games_and_ends_its_workers(
    tmp_path: Path,
) -> None:
    pexpect = pytest.importorskip("pexpect")
    child = _sosgame_in_a_terminal(
        "arena", "medium", "easy", "--size", "6", "--games", "400", "--jobs", "2",
        "--seconds", "0.05", cwd=tmp_path,
    )  # fmt: skip
    try:
        child.expect(r"games played: [1-9]\d* of 400")  # progress shows on a terminal
        workers = _children(child.pid)
        child.sendintr()
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    text = child.before.decode()
    assert child.exitstatus == 130
    assert re.search(r"medium vs easy: 6x6 general, \d+ games?", text)
    assert re.search(r"sosgame: arena stopped by Ctrl-C after \d+ finished games?", text)
    assert "Traceback" not in text and "KeyboardInterrupt" not in text
    assert len(workers) == 2 and _gone_by(workers, 30)


@pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads processes from /proc")
def test_the_workers_of_a_killed_arena_die_with_it(tmp_path: Path) -> None:
    match = ["medium", "easy", "--size", "6", "--games", "400", "--jobs", "2", "--seconds", "0.05"]
    arena = subprocess.Popen(
        [sys.executable, "-m", "sosgame", "arena", *match],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while len(workers := _children(arena.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(workers) == 2
    finally:
        arena.kill()  # no chance to clean up: the system has to end the workers
        arena.wait()
    assert _gone_by(workers, 30)


def test_ctrl_c_stops_a_solve_that_shows_its_progress(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    child = _sosgame_in_a_terminal("solve", "5x5", cwd=tmp_path)
    try:
        child.expect(
            r"solving \.\.\.\.\./\.\.\.\.\./\.\.\.\.\./\.\.\.\.\./\.\.\.\.\.: [\d,]+ nodes"
        )
        child.sendintr()
        child.expect_exact("sosgame: solve stopped by Ctrl-C before it finished")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
    assert child.exitstatus == 130
    assert "Traceback" not in child.before.decode()


def test_in_a_pipe_a_solve_writes_no_progress(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "sosgame", "solve", "SO./.../..."],
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stderr == "" and result.stdout.startswith("value ")


def test_a_failed_save_in_the_line_mode_game_says_why_in_the_player_s_language(
    tmp_path: Path,
) -> None:
    from sosgame.cli.plain import PlainGame
    from sosgame.table import Seat, Table

    out = io.StringIO()
    target = tmp_path / "missing" / "game.json"
    commands = io.StringIO(f"save {target}\nquit\n")  # no move: quitting needs no answer
    table = Table(Game(3, 3), [Seat("An"), Seat("Bình")])
    PlainGame(table, translator("vi"), commands, out).run()
    assert f"Không lưu được ván đấu: không ghi được '{target}': không có tệp hoặc thư mục này" in (
        out.getvalue()
    )


def test_a_port_already_taken_is_named_before_the_server_starts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        status, _, err = run(capsys, "serve", "--port", str(port))
    assert status == 1
    assert (
        err == f"sosgame: error: cannot listen on 127.0.0.1 port {port}: Address already in use\n"
    )
