"""One way to read a file and one way to write one (:mod:`sosgame.files`), and every command
that reads or writes records and certificates going through them."""

from __future__ import annotations

import gzip
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from sos_cli import run
from sosgame import FileError, Game
from sosgame.certify import CertificateError
from sosgame.certify import load as load_certificate
from sosgame.certify import write as write_certificate
from sosgame.files import check_text, nesting, read_text, write_file
from sosgame.limits import RECORD_MAX_BYTES, RECORD_MAX_DEPTH
from sosgame.record import Record, RecordError, load, save

DEEP = "[" * 100_000
DEEP_OBJECTS = '{"a":' * 5_000 + "1" + "}" * 5_000
CERTIFICATE = {
    "format": "sosgame-certificate",
    "version": 1,
    "rows": 1,
    "cols": 3,
    "mode": "simple",
    "position": "...",
    "value": 0,
    "entries": [],
}


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    save(Record.from_game(Game(3, 3, moves=["Sa1", "Ob1"]), players=["Ann", "Bao"]), path)
    return path


# ------------------------------------------------------------------------------ reading


def test_nesting_counts_brackets_outside_strings_only() -> None:
    assert nesting('{"a": [1, [2]], "b": "[[[[{{{"}') == 3
    assert nesting('"[[[\\"[[["') == 0
    assert nesting("[]" * 1000) == 1


@pytest.mark.parametrize("text", [DEEP, DEEP_OBJECTS])
def test_deep_json_is_refused_before_it_is_parsed(text: str) -> None:
    with pytest.raises(FileError, match="more than 5 deep") as caught:
        check_text(text, depth=5)
    assert caught.value.code == "file_too_deep"
    with pytest.raises(RecordError, match="more than 5 deep"):
        Record.from_json(text)


def test_binary_and_non_utf8_data_are_named_as_such() -> None:
    with pytest.raises(FileError, match="binary data") as caught:
        check_text(b'{"a": 1}\0\0\0', depth=5)
    assert caught.value.code == "file_binary"
    with pytest.raises(FileError, match="not UTF-8 text"):
        check_text(b'{"a": "\xff\xfe"}', depth=5)


def test_a_record_file_is_read_whole_and_checked(record_file: Path) -> None:
    assert load(record_file).players == ["Ann", "Bao"]
    assert json.loads(read_text(record_file, most=10_000, depth=RECORD_MAX_DEPTH))["rows"] == 3


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda path: path.write_text(DEEP), "it nests lists or objects more than 5 deep"),
        (
            lambda path: path.write_bytes(b"\x7fELF\0\0\0\x01" * 20),
            "it holds binary data, not text",
        ),
        (lambda path: path.write_bytes(b'{"rows": "\xe9"}'), "it is not UTF-8 text"),
        (
            lambda path: path.write_text(" " * (RECORD_MAX_BYTES + 1)),
            "it is larger than 1,048,576 bytes",
        ),
        (os.mkfifo, "it is a device, a pipe or a socket, not a regular file"),
        (lambda path: path.mkdir(), "Is a directory"),
    ],
    ids=["deep", "binary", "latin-1", "large", "fifo", "folder"],
)
def test_a_file_that_is_no_record_is_refused_with_its_name_and_why(
    tmp_path: Path, make: object, words: str
) -> None:
    path = tmp_path / "odd.json"
    make(path)  # type: ignore[operator]
    with pytest.raises(RecordError) as caught:
        load(path)
    assert str(caught.value) == f"cannot read {str(path)!r}: {words}"
    assert caught.value.code == "record_unreadable"


def test_a_device_is_refused_without_reading_it() -> None:
    with pytest.raises(RecordError, match="not a regular file"):
        load("/dev/zero")
    with pytest.raises(CertificateError, match="not a regular file"):
        load_certificate("/dev/zero")


def test_a_compressed_certificate_is_limited_once_decompressed(tmp_path: Path) -> None:
    path = tmp_path / "bomb.json.gz"
    path.write_bytes(gzip.compress(b" " * (4 * 1024 * 1024)))
    with pytest.raises(FileError, match="larger than 1,000 bytes"):
        read_text(path, most=1_000, depth=5, gzipped=True)
    cut = tmp_path / "cut.json.gz"
    cut.write_bytes(gzip.compress(json.dumps(CERTIFICATE).encode())[:-6])
    with pytest.raises(CertificateError, match="not whole gzip-compressed data"):
        load_certificate(cut)
    deep = tmp_path / "deep.json.gz"
    deep.write_bytes(gzip.compress(DEEP.encode()))
    with pytest.raises(CertificateError, match="more than 5 deep"):
        load_certificate(deep)


# ------------------------------------------------------------------------------ writing


def test_a_write_replaces_the_file_whole_and_keeps_its_permissions(tmp_path: Path) -> None:
    path = tmp_path / "kept.json"
    path.write_text("old")
    path.chmod(0o640)
    write_file(path, b"new")
    assert path.read_bytes() == b"new"
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(item.name for item in tmp_path.iterdir()) == ["kept.json"]


def test_a_write_goes_through_a_symbolic_link_to_its_target(tmp_path: Path) -> None:
    target = tmp_path / "target.json"
    target.write_text("old")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    write_certificate(CERTIFICATE, link)
    assert link.is_symlink()
    assert json.loads(target.read_text()) == CERTIFICATE


@pytest.mark.parametrize("kind", ["fifo", "folder"])
def test_a_write_refuses_what_is_not_a_regular_file(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "there"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.mkdir()
    with pytest.raises(CertificateError, match="cannot write certificate") as caught:
        write_certificate(CERTIFICATE, path)
    assert "not a regular file" in str(caught.value) or "Is a directory" in str(caught.value)
    assert stat.S_ISFIFO(path.stat().st_mode) if kind == "fifo" else path.is_dir()
    with pytest.raises(RecordError, match="cannot write"):
        save(Game(3, 3), path)
    assert sorted(item.name for item in tmp_path.iterdir()) == ["there"]


def test_a_failed_write_leaves_the_old_file_and_nothing_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "game.json"
    path.write_text("old")

    def full(*_: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(RecordError, match="No space left on device"):
        save(Game(3, 3), path)
    assert path.read_text() == "old"
    assert sorted(item.name for item in tmp_path.iterdir()) == ["game.json"]


# -------------------------------------------------------------------------- the commands


@pytest.mark.parametrize(
    "command",
    [
        ["replay", "{deep}"],
        ["replay", "{objects}"],
        ["play", "--plain", "--load", "{deep}"],
        ["analyze", "{deep}"],
        ["certify", "{deep}"],
        ["replay", "/dev/zero"],
        ["certify", "/dev/zero"],
        ["play", "--plain", "--load", "/dev/zero"],
    ],
)
def test_every_command_refuses_a_deep_or_endless_file_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text(DEEP)
    objects = tmp_path / "objects.json"
    objects.write_text(DEEP_OBJECTS)
    argv = [part.format(deep=deep, objects=objects) for part in command]
    status, out, err = run(capsys, *argv)
    assert status == 1, err
    assert out == ""
    assert err.startswith("sosgame: error: cannot read ") and err.count("\n") == 1
    assert "more than 5 deep" in err or "not a regular file" in err


@pytest.mark.parametrize("kind", ["fifo", "symlink"])
def test_solve_writes_its_certificate_through_a_link_and_never_over_a_pipe(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    path = tmp_path / "proof.json"
    target = tmp_path / "target.json"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        target.write_text("old")
        path.symlink_to(target)
    status, _, err = run(capsys, "solve", "1x3", "--mode", "simple", "--certificate", str(path))
    if kind == "fifo":
        assert status == 1
        assert err == (
            f"sosgame: error: cannot write certificate {path}: it is a device, a pipe or a"
            " socket, not a regular file\n"
        )
        assert stat.S_ISFIFO(path.stat().st_mode)
    else:
        assert status == 0, err
        assert path.is_symlink()
        assert load_certificate(target)["rows"] == 1


def test_replay_with_its_output_closed_says_so_in_one_line(record_file: Path) -> None:
    done = subprocess.run(
        f"{sys.executable} -m sosgame replay {record_file} >&-",
        shell=True,
        capture_output=True,
        text=True,
        check=False,
        env=dict(os.environ, LANG="C.UTF-8"),
    )
    assert done.returncode == 1
    assert done.stderr == (
        "sosgame: error: standard output is closed, so there is nowhere to write the answer\n"
    )


def test_certify_names_boards_that_do_not_fit_the_certificate_s_size(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "proof.json"
    assert run(capsys, "solve", "1x3", "--mode", "simple", "--certificate", str(path))[0] == 0
    document = load_certificate(path)
    for rows, cols in ((5, 5), (1, 9), (30, 30)):
        write_certificate(document | {"rows": rows, "cols": cols}, path)
        status, _, err = run(capsys, "certify", str(path))
        assert status == 1, err
        assert err.startswith("sosgame: error: ") and err.count("\n") == 1
        assert "Traceback" not in err and "internal error" not in err


def test_solve_refuses_a_pipe_for_its_certificate_before_it_solves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from sosgame.cli import solve as solve_command

    def never(*_: object, **__: object) -> None:
        raise AssertionError("solved before the certificate's path was checked")

    monkeypatch.setattr(solve_command, "solve", never)
    path = tmp_path / "proof.json"
    os.mkfifo(path)
    status, _, err = run(capsys, "solve", "3x3", "--certificate", str(path))
    assert status == 1
    assert err.endswith(": it is a device, a pipe or a socket, not a regular file\n")
    folder = tmp_path / "folder"
    folder.mkdir()
    status, _, err = run(capsys, "solve", "3x3", "--certificate", str(folder))
    assert (status, err) == (
        1,
        f"sosgame: error: cannot write certificate {folder}: Is a directory\n",
    )
