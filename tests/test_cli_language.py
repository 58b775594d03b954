"""The command line speaks the locale's language, or the one ``--lang`` names: its help, its
messages, argparse's own words and its output, from the same catalogs as the games."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sosgame import Game
from sosgame.cli import main
from sosgame.cli.language import choose_language
from sosgame.record import Record, save


def sosgame(*arguments: str, lang: str) -> subprocess.CompletedProcess[str]:
    environment = dict(os.environ, LANG=lang)
    return subprocess.run(
        [sys.executable, "-m", "sosgame", *arguments],
        capture_output=True,
        text=True,
        env=environment,
        timeout=120,
        check=False,
    )


def test_help_follows_the_locale() -> None:
    vietnamese = sosgame("--help", lang="vi_VN.UTF-8")
    assert vietnamese.returncode == 0
    assert vietnamese.stdout.startswith("cách dùng: sosgame")
    assert "Trò chơi SOS, đúng theo luật." in vietnamese.stdout
    assert "tùy chọn:" in vietnamese.stdout
    hindi = sosgame("solve", "--help", lang="hi_IN.UTF-8")
    assert hindi.stdout.startswith("उपयोग: sosgame solve")
    assert "दो खिलाड़ियों वाली स्थिति को ठीक-ठीक हल करें" in hindi.stdout
    assert "यह सहायता दिखाएँ और बाहर निकलें" in hindi.stdout
    english = sosgame("solve", "--help", lang="C.UTF-8")
    assert english.stdout.startswith("usage: sosgame solve")


def test_argparse_errors_and_the_command_s_own_errors_are_translated() -> None:
    missing = sosgame("solve", lang="vi_VN.UTF-8")
    assert missing.returncode == 2
    assert missing.stderr == (
        "sosgame solve: lỗi: thiếu các đối số bắt buộc sau: POSITION|RxC"
        " (xem 'sosgame solve --help')\n"
    )
    turn = sosgame("hint", "3x3", "--turn", "5", lang="hi_IN.UTF-8")
    assert turn.returncode == 1
    assert turn.stderr == "sosgame: त्रुटि: --turn 1 से 2 तक का कोई खिलाड़ी होना चाहिए, 5 नहीं\n"


def test_output_is_translated_and_json_never_is(tmp_path: Path) -> None:
    solved = sosgame("solve", "SO./.../...", lang="vi_VN.UTF-8")
    assert solved.returncode == 0, solved.stderr
    assert solved.stdout.startswith("giá trị +1: bên đến lượt thắng cách 1 điểm")
    path = tmp_path / "game.json"
    save(Record.from_game(Game(3, 3, moves=["Sa1", "Ob1"]), players=["An", "Bảo"]), path)
    replayed = sosgame("replay", str(path), lang="hi_IN.UTF-8")
    assert "खेल अभी चल रहा है: 2 चालों के बाद अब An की बारी है।" in replayed.stdout
    as_json = sosgame("replay", str(path), "--json", lang="hi_IN.UTF-8")
    assert json.loads(as_json.stdout)["moves"] == ["Sa1", "Ob1"]


def test_lang_on_the_command_line_wins_over_the_locale(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "vi_VN.UTF-8")
    assert choose_language(["play", "--lang", "hi"]) == "hi"
    assert choose_language(["play", "--lang=en"]) == "en"
    assert choose_language(["play", "--lang", "fr"]) == "vi"  # not ours: argparse says so
    assert main(["play", "--plain", "--lang", "en", "--size", "99"]) == 1
    assert capsys.readouterr().err == "sosgame: error: --size must be from 1 to 26, not 99\n"


def test_argparse_speaks_english_again_after_a_translated_run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import argparse

    monkeypatch.setenv("LANG", "hi_IN.UTF-8")
    with pytest.raises(SystemExit):
        main(["solve"])
    assert "ये तर्क ज़रूरी हैं" in capsys.readouterr().err
    parser = argparse.ArgumentParser(prog="other")
    assert parser.format_usage().startswith("usage: other")


def test_every_command_takes_lang_and_its_help_says_so(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from sosgame.cli import _COMMANDS

    monkeypatch.setenv("LANG", "C.UTF-8")
    for command in _COMMANDS:
        with pytest.raises(SystemExit) as stop:
            main([command, "--lang", "vi", "--help"])
        assert stop.value.code == 0, command
        out = capsys.readouterr().out
        assert out.startswith(f"cách dùng: sosgame {command}"), command
        assert "--lang {en,vi,hi}" in out, command
    assert main(["show", "SO./.../...", "--lang", "hi"]) == 0
    assert main(["replay", "nowhere.json", "--lang", "vi"]) == 1
    assert "không" in capsys.readouterr().err.lower()
