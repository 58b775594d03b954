"""``sosgame play`` in a real pseudo-terminal: it starts full-screen, takes keys, quits cleanly."""

from __future__ import annotations

import sys
from pathlib import Path

import pexpect
import pytest

from sos_terminal import Screen, spawn_in_terminal
from sosgame.cli import main
from sosgame.record import load


def spawn(*arguments: str, cwd: Path) -> pexpect.spawn:
    return spawn_in_terminal(sys.executable, ["-m", "sosgame", "play", *arguments], cwd=cwd)


def test_play_starts_full_screen_takes_moves_saves_and_quits(tmp_path: Path) -> None:
    child = spawn("--size", "3", "--names", "Ann", "Bao", "--lang", "en", cwd=tmp_path)
    screen = Screen(child)
    try:
        screen.wait_for("Ann to move.")
        child.send("s")  # Sa1
        screen.wait_for("Bao to move.")
        child.send("lo")  # Ob1
        screen.wait_for("Ann to move.")
        child.send("ls")  # Sc1: a line, and Ann moves again
        screen.wait_for("EXTRA TURN")
        child.send("\x13")  # ctrl+s: the save dialog, with its default file name
        screen.wait_for("Save the game")
        child.send("\r")
        screen.wait_for("Saved the game")
        child.send("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
    record = load(tmp_path / "sos-game.json")
    assert record.moves == ["Sa1", "Ob1", "Sc1"]
    assert record.players == ["Ann", "Bao"]


def test_without_textual_play_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from sosgame.cli import play

    monkeypatch.setattr(play, "missing", lambda extra: ("textual",) if extra == "tui" else ())
    assert main(["play", "--size", "3", "--lang", "en"]) == 1
    err = capsys.readouterr().err
    assert (
        err
        == "sosgame play needs the tui extra: pip install 'sosgame[tui]' (or play with --plain).\n"
    )


def test_play_loads_a_record_with_a_computer_seat(tmp_path: Path) -> None:
    from sosgame import Game
    from sosgame.record import Record, save

    save(Record.from_game(Game(3, 3, moves=["Sa1"]), players=["Ann", "Bao"]), tmp_path / "g.json")
    child = spawn(
        "--load",
        "g.json",
        "--seat-level",
        "2",
        "random",
        "--seed",
        "1",
        "--lang",
        "en",
        cwd=tmp_path,
    )
    screen = Screen(child)
    try:
        screen.wait_for("computer, random")
        screen.wait_for("Ann to move.")  # the computer has answered Sa1
        child.send("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


def test_play_with_piped_input_says_so_and_plays_the_line_mode_game() -> None:
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "sosgame", "play", "--size", "3", "--lang", "en"],
        input="Sa1\nquit\n",
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0
    assert done.stderr.count("\n") == 1 and "line-mode game" in done.stderr
    assert "Player 2 to move." in done.stdout


def test_plain_play_loads_a_record_too(tmp_path: Path) -> None:
    import subprocess

    from sosgame import Game
    from sosgame.record import Record, save

    save(Record.from_game(Game(3, 3, moves=["Sa1"]), players=["Ann", "Bao"]), tmp_path / "g.json")
    done = subprocess.run(
        [sys.executable, "-m", "sosgame", "play", "--plain", "--load", "g.json", "--lang", "en"],
        input="Ob1\nmoves\nquit\n",
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0
    assert "Moves: Sa1 Ob1" in done.stdout
    assert "Ann to move." in done.stdout


def test_play_without_options_opens_the_new_game_screen(tmp_path: Path) -> None:
    child = spawn("--lang", "en", cwd=tmp_path)
    screen = Screen(child)
    try:
        screen.wait_for("New game")
        child.send("\r")  # Enter in the first name field starts the game as it is set up
        screen.wait_for("Player 1 to move.")
        child.send("q")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0
