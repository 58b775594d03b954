"""The command line on bad input and on the way out: one line naming what was wrong, nothing
left behind, and quick commands that load nothing they do not use."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import sosgame
from sos_cli import run
from sosgame import Cell, Game, Move, SosError, parse_action
from sosgame.i18n import error_text, translator
from sosgame.i18n.texts import TEXTS
from sosgame.record import Record, save
from sosgame.record import load as load_record

_HEAVY = ("numba", "numpy", "sosgame.kernel", "sosgame.ai", "sosgame.solver", "sosgame.search")
"""Modules that the quick commands must not load: the compiled kernel and the players."""

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
    heavy = [name for name in loaded if name.split(".")[0] in _HEAVY or name.startswith(_HEAVY)]
    assert heavy == []
    assert result.stdout  # the command did its work


def test_the_loaded_modules_check_sees_a_command_that_loads_the_players() -> None:
    # The same check on a command that does load them, so that it can fail.
    result = subprocess.run(
        [sys.executable, "-c", _LOADED, "hint", "--help"],
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
    "serve --database bogus://x",
    "serve --port -1",
    "serve --port 99999",
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
    attempts: list[Callable[[], object]] = [
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
