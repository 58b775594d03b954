"""The command line: replay, show, and the line-mode game."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sos_cli import run
from sosgame import Game, Move
from sosgame.cli.plain import PlainGame
from sosgame.i18n import translator
from sosgame.record import Record, load, save
from sosgame.table import Seat, Table


@pytest.fixture
def record_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    game = Game(3, 3, mode="simple", moves=["Sa1", "Ob1", "Sc1"])
    save(Record.from_game(game, players=["Ann", "Bao"]), path)
    return path


def test_replay_json_has_the_documented_keys(
    capsys: pytest.CaptureFixture[str], record_file: Path
) -> None:
    status, out, _ = run(capsys, "replay", str(record_file), "--json")
    assert status == 0
    data = json.loads(out)
    assert {"position", "scores", "turn", "over", "winners", "moves", "lines"} <= set(data)
    assert data["position"] == "SOS/.../..."
    assert (data["scores"], data["over"], data["winners"]) == ([1, 0], True, [0])
    assert data["moves"] == ["Sa1", "Ob1", "Sc1"]
    assert data["lines"] == [{"owner": 0, "ply": 3, "cells": ["a1", "b1", "c1"]}]


def test_replay_prints_board_scores_lines_and_outcome(
    capsys: pytest.CaptureFixture[str], record_file: Path
) -> None:
    status, out, _ = run(capsys, "replay", str(record_file))
    assert status == 0
    assert "1  S - O - S" in out
    assert "Scores: Ann 1, Bao 0" in out
    assert "a1-b1-c1  Ann, ply 3" in out
    assert "Ann wins: the first SOS." in out


def test_replay_of_a_bad_record_is_one_line_naming_the_ply(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "bad.json"
    data = Record.from_game(Game(3, 3)).to_dict() | {"moves": ["Sa1", "Sa1"]}
    path.write_text(json.dumps(data), encoding="utf-8")
    status, out, err = run(capsys, "replay", str(path))
    assert status == 1 and out == ""
    assert err == "sosgame: error: moves[1] (ply 2): cannot play Sa1: a1 already holds S\n"
    status, _, err = run(capsys, "replay", str(tmp_path / "none.json"))
    assert status == 1 and err.startswith("sosgame: error: cannot read") and err.count("\n") == 1


def test_show_draws_a_position_and_lists_its_lines(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "show", "sos/.o./s.s")
    assert status == 0
    assert out.splitlines()[1] == "1  S - O - S"
    assert "3 SOS: a1-b1-c1, a1-b2-c3, c1-b2-a3" in out
    status, out, _ = run(capsys, "show", "S.O/.../OSS", "--svg")
    assert status == 0 and out.startswith("<svg")


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["show", "SO/.."], "the longer side must be at least 3"),
        (["show", "S.O/.X./OSS"], "row 2, column b holds 'X'"),
        (["play", "--plain", "--size", "30"], "--size must be from 1 to 26"),
        (["play", "--plain", "--size", "2"], "too small"),
        (["play", "--plain", "--players", "9"], "players must be from 2 to 8"),
        (["play", "--plain", "--names", "A", "B", "C", "--players", "2"], "gives 3 names"),
        (["play", "--plain", "--mode", "fast"], "invalid choice: 'fast'"),
        (["play", "--plain", "--size", "x"], "invalid int value: 'x'"),
        (["bogus"], "invalid choice: 'bogus'"),
        ([], "the following arguments are required: COMMAND"),
    ],
)
def test_every_failure_is_one_line_and_non_zero(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    status, _, err = run(capsys, *argv)
    assert status != 0
    assert words in err
    assert err.count("\n") == 1 and "Traceback" not in err


def session(lines: str, game: Game, language: str = "en", kinds: tuple[str, ...] = ()) -> str:
    out = io.StringIO()
    kinds = kinds or ("person",) * game.players
    seats = [Seat(f"P{seat}", kind) for seat, kind in enumerate(kinds)]
    table = Table(game, seats)
    status = PlainGame(table, translator(language), io.StringIO(lines), out).run()
    assert status == 0
    return out.getvalue()


def test_plain_game_shows_turns_scores_and_the_extra_turn() -> None:
    game = Game(3, 3)
    out = session("Sa1\nOb1\nSc1\n", game)
    assert "P0 made 1 SOS (a1-b1-c1) and moves again." in out
    assert "P0 to move again: extra turn!" in out
    assert "Scores: P0 1, P1 0" in out
    assert game.scores == (1, 0)


def test_plain_game_bad_input_gets_a_message_and_changes_nothing() -> None:
    game = Game(3, 3, moves=["Sa1"])
    before = game.copy()
    out = session("Sa1\nOz9\nhello\nsave\nresign:0\n", game)
    assert "Cell a1 already holds a letter." in out
    assert "Cell z9 is not on this 3x3 board." in out
    assert "'hello' is neither a move nor a command." in out
    assert "Say where to save: save FILE" in out
    assert "'resign:0' is neither a move nor a command." in out
    assert game == before


def test_plain_game_undo_resign_save_and_help(tmp_path: Path) -> None:
    game = Game(3, 3)
    path = tmp_path / "out.json"
    out = session(f"Sa1\nundo\nundo\nOb2\nhelp\nmoves\nsave {path}\nresign\nSa1\nquit\n", game)
    assert "Took back Sa1." in out
    assert "There is nothing to take back." in out
    assert "Commands:" in out and "Moves: Ob2" in out
    assert f"Saved the game to {path}." in out
    assert "P0 wins: every other player resigned." in out
    assert "The game is over." in out
    assert load(path).moves == ["Ob2"]
    assert game.actions[-1] == game.actions[-1].__class__(1)


def test_plain_game_speaks_vietnamese_and_hindi() -> None:
    assert "Đến lượt P0." in session("", Game(3, 3), "vi")
    assert "अब P0 की बारी है।" in session("", Game(3, 3), "hi")
    assert "luật" not in session("rules\n", Game(3, 3), "en")
    assert "Chế độ đơn giản" in session("rules\n", Game(3, 3), "vi")


def test_plain_game_with_three_players_and_piped_input_as_a_script() -> None:
    script = "Sa1\nSb1\nSc1\nOb2\nquit\n"
    result = subprocess.run(
        [sys.executable, "-m", "sosgame", "play", "--plain", "--size", "3", "--players", "3"],
        input=script,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "Players: Player 1, Player 2, Player 3." in result.stdout
    assert "Player 1> Ob2" in result.stdout
    assert result.stdout.rstrip().endswith("Goodbye.")


def test_the_console_script_reports_its_version() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "sosgame", "--version"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0 and result.stdout.startswith("sosgame ")


def test_replay_says_which_lines_were_on_the_starting_board(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "set-up.json"
    game = Game.from_position("SOS/.../...", scores=(1, 0), moves=["Sa3", "Ob3", "Sc3"])
    save(Record.from_game(game, players=["Ann", "Bao"]), path)
    status, out, err = run(capsys, "replay", str(path))
    assert status == 0, err
    assert "  a1-b1-c1  on the starting board\n" in out
    assert "  a3-b3-c3  Ann, ply 3\n" in out
    assert "None" not in out and "nobody" not in out


def test_plain_game_resign_takes_a_player_number_counted_from_1() -> None:
    game = Game(3, 3, players=3)
    out = session("resign 2\nresign 2\nresign 4\nresign x\nresign\n", game)
    assert "P1 resigns." in out
    assert "P1 has already resigned." in out
    assert out.count("There is no player") == 2
    assert "There is no player 4: give a number from 1 to 3." in out
    assert "P0 resigns." in out  # a bare resign: the player to move
    assert game.outcome is not None and game.outcome.winners == (2,)


def test_plain_game_refuses_words_after_a_command_that_takes_none() -> None:
    game = Game(3, 3, moves=["Sa1"])
    before = game.copy()
    out = session("undo everything\nquit now\nmoves\n", game)
    assert "'undo' takes nothing after it, not 'everything'." in out
    assert "'quit' takes nothing after it, not 'now'." in out
    assert "Moves: Sa1" in out  # still playing, nothing undone
    assert game == before


@pytest.mark.parametrize(
    ("extra", "option"),
    [
        (["--size", "7"], "--size"),
        (["--rows", "4"], "--rows"),
        (["--mode", "simple"], "--mode"),
        (["--names", "Ann", "Bao"], "--names"),
    ],
)
def test_options_a_loaded_record_settles_are_refused_with_load(
    capsys: pytest.CaptureFixture[str], record_file: Path, extra: list[str], option: str
) -> None:
    status, out, err = run(capsys, "play", "--plain", "--load", str(record_file), *extra)
    assert status == 1 and out == ""
    assert err == (
        "sosgame: error: --load takes the board, mode, players and names from the record:"
        f" leave out {option}\n"
    )


def test_two_players_may_not_share_a_name(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "play", "--plain", "--names", "Ann", " ann ")
    assert status == 1
    assert "--names: seats 1 and 2 have the same name: ' ann '" in err


def test_the_line_mode_game_edits_lines_and_recalls_them_at_a_terminal(tmp_path: Path) -> None:
    import pexpect

    from sos_terminal import spawn_in_terminal

    arguments = ["-m", "sosgame", "play", "--plain", "--size", "3", "--lang", "en"]
    child = spawn_in_terminal(sys.executable, arguments, cwd=tmp_path)
    try:
        child.expect_exact("Player 1> ")
        child.send("a1\x01S\r")  # type a1, jump to the start of the line (Ctrl-A), add the S
        child.expect_exact("Player 2> ")
        child.send("\x1b[A")  # the up arrow brings back Sa1...
        child.send("\x7f2\r")  # ...edited into Sa2: a backspace, then 2
        child.expect_exact("Player 1> ")
        child.send("moves\r")
        child.expect_exact("Moves: Sa1 Sa2")
        child.send("quit\r")  # two moves are not saved: it asks first
        child.expect_exact("Quit anyway?")
        child.send("no\r")
        child.expect_exact("Player 1> ")
        child.send("quit\r")
        child.expect_exact("Quit anyway?")
        child.send("yes\r")
        child.expect(pexpect.EOF)
    finally:
        child.close()
    assert child.exitstatus == 0


def test_quitting_the_line_mode_game_with_moves_not_saved_asks_first(tmp_path: Path) -> None:
    game = Game(3, 3)
    out = session("Sa1\nquit\nno\nmoves\nquit\nyes\nmoves\n", game)
    assert out.count("The moves since the game was last saved would be lost.") == 2
    assert "Moves: Sa1" in out
    assert out.rstrip().endswith("Goodbye.")
    assert out.count("Moves:") == 1  # nothing read after the yes
    path = tmp_path / "g.json"
    out = session(f"Sa1\nsave {path}\nquit\nmoves\n", Game(3, 3))
    assert "Quit anyway?" not in out and out.rstrip().endswith("Goodbye.")
    out = session("quit\nmoves\n", Game(3, 3, moves=["Sa1"]))  # as it began: nothing lost
    assert "Quit anyway?" not in out and "Moves:" not in out
    vietnamese = session("Sa1\nquit\ncó\n", Game(3, 3), "vi")
    assert vietnamese.rstrip().endswith(translator("vi")("goodbye"))


def test_the_line_mode_game_plays_against_computer_seats() -> None:
    pytest.importorskip("sosgame.ai")
    game = Game(3, 3)
    out = session("Sa1\nundo\nmoves\n", game, kinds=("person", "easy"))
    reply = out.split("P1 plays ", 1)[1].split(".", 1)[0]
    assert Move.parse(reply) in Game(3, 3, moves=["Sa1"]).legal_moves
    assert "Took back Sa1." in out and f"Took back {reply}." in out  # back to the person
    assert "Moves: (none yet)" in out
    # A computer that opens moves before the first prompt; one alone plays a whole game.
    opened = Game(3, 3)
    assert "P0 plays " in session("", opened, kinds=("easy", "person")) and opened.ply == 1
    alone = Game(3, 3)
    session("", alone, kinds=("random", "easy"))
    assert alone.is_over


def test_a_pipe_plays_the_line_mode_game_against_the_computer(tmp_path: Path) -> None:
    pytest.importorskip("sosgame.ai")
    result = subprocess.run(
        [sys.executable, "-m", "sosgame", "play", "--seat-level", "2", "hard", "--seed", "3"],
        input="Sa1\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=tmp_path,
        env={**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "LANGUAGE": ""},
    )
    assert result.returncode == 0, result.stderr
    assert "leave out --plain" not in result.stderr and "Traceback" not in result.stderr
    assert "Players: Player 1, Computer 2." in result.stdout
    assert "Computer 2 plays " in result.stdout
    assert result.stdout.rstrip().endswith("Goodbye.")


def test_the_line_mode_game_counts_seats_from_1_in_moves_and_undo() -> None:
    game = Game(3, 3)
    out = session("Sa1\nresign 2\nmoves\nundo\nmoves\n", game)
    assert "Moves: Sa1 resign 2" in out
    assert "Took back resign 2." in out
    assert "resign:" not in out


def test_a_game_won_against_the_computer_does_not_offer_undo() -> None:
    pytest.importorskip("sosgame.ai")
    game = Game(3, 3)
    out = session("resign\nundo\n", game, kinds=("person", "easy"))
    assert "P1 wins" in out
    assert "The game is over. Type save FILE or quit." in out
    assert "Type undo" not in out
    # Between people, undo reopens a finished game, and is offered.
    between_people = session("resign\n", Game(3, 3))
    assert "The game is over. Type undo, save FILE or quit." in between_people


def test_a_computer_seat_past_the_names_asks_for_its_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, err = run(capsys, "play", "--plain", "--names", "Ann", "--seat-level", "2", "hard")
    assert status == 1 and out == ""
    assert "from 1 to 1" not in err
    assert err == (
        "sosgame: error: --seat-level 2: --names sets the players, and seat 2 has no name;"
        " give every seat a name, the computer's too\n"
    )
