"""Certificates drawn by random walks down a proof: they check, they assume only true claims,
they are never called proven, and a false claim in them fails."""

from __future__ import annotations

import copy
import io
import json
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from sosgame import Game
from sosgame.certify import CertificateError, check, load
from sosgame.cli import main
from sosgame.errors import InvalidSettingsError
from sosgame.game import Mode
from sosgame.research.distribute import solve_split
from sosgame.research.split import canonical
from sosgame.research.walk import walk_certificate
from sosgame.solver import solve

BOARDS = [((3, 3), "general"), ((3, 4), "general"), ((3, 4), "simple"), ((1, 9), "general")]


@cache
def _walked(size: tuple[int, int], mode: Mode, walks: int = 12, seed: int = 0) -> dict[str, Any]:
    return walk_certificate(Game(*size, mode=mode), walks=walks, seed=seed, memory_mb=8)


def _fresh(size: tuple[int, int], mode: Mode) -> dict[str, Any]:
    return copy.deepcopy(_walked(size, mode))


@cache
def _value(position: str, mode: Mode) -> int:
    return solve(Game.from_position(position, mode=mode), memory_mb=8).value


@pytest.mark.parametrize(("size", "mode"), BOARDS)
def test_a_walked_certificate_checks_and_is_never_called_proven(
    size: tuple[int, int], mode: Mode
) -> None:
    document = _fresh(size, mode)
    report = check(document)
    assert report.walks == 12 and report.checked == report.entries == len(document["entries"])
    assert report.value == solve(Game(*size, mode=mode), memory_mb=8).value
    assert not report.complete


@pytest.mark.parametrize(("size", "mode"), BOARDS)
def test_every_claim_a_walk_assumes_is_true(size: tuple[int, int], mode: Mode) -> None:
    # What the sample takes as given must be what an exact solve says of each board.
    assumed = _fresh(size, mode)["assumed"]
    assert assumed
    for text, lower, upper in assumed:
        value = _value(text, mode)
        assert (lower is None or value >= lower) and (upper is None or value <= upper), text


@pytest.mark.parametrize(("size", "mode"), BOARDS)
def test_every_entry_of_a_walk_claims_what_is_true(size: tuple[int, int], mode: Mode) -> None:
    for text, lower, _, upper in _fresh(size, mode)["entries"]:
        value = _value(text, mode)
        assert (lower is None or value >= lower) and (upper is None or value <= upper), text


def test_the_walks_reach_the_end_of_the_game() -> None:
    # Each walk writes entries down to the last empty cells, not only near the root.
    document = _fresh((3, 4), "general")
    empties = {text.count(".") for text, *_ in document["entries"]}
    assert max(empties) == 12 and min(empties) <= 2


def test_more_walks_keep_more_entries_and_the_seed_chooses_them() -> None:
    few, many = _walked((3, 4), "general", 3), _walked((3, 4), "general", 30)
    assert len(few["entries"]) < len(many["entries"])
    assert _walked((3, 4), "general", 3, 1) == walk_certificate(
        Game(3, 4), walks=3, seed=1, memory_mb=8
    )
    assert _walked((3, 4), "general", 3, 1)["entries"] != few["entries"]


@pytest.mark.parametrize(("size", "mode"), BOARDS)
def test_a_claim_past_the_true_value_fails(size: tuple[int, int], mode: Mode) -> None:
    for change in (-1, 1):
        document = _fresh(size, mode)
        document["value"] += change
        with pytest.raises(CertificateError, match="root's value"):
            check(document)
    document = _fresh(size, mode)
    entry = next(entry for entry in document["entries"] if entry[1] is not None)
    entry[1] += 1  # one better than the walk proved: the move no longer reaches it
    with pytest.raises(CertificateError, match="does not prove"):
        check(document)


def test_without_its_assumptions_a_walk_proves_nothing() -> None:
    document = _fresh((3, 4), "general")
    with pytest.raises(CertificateError):
        check(document | {"assumed": []})


@pytest.mark.parametrize("walks", [0, -2, 1.5, True, "3"])
def test_walks_must_be_a_whole_number(walks: Any) -> None:
    with pytest.raises(InvalidSettingsError, match="walks must be"):
        walk_certificate(Game(3, 3), walks=walks, memory_mb=8)
    with pytest.raises(CertificateError, match="walks must be"):
        check(_fresh((3, 3), "general") | {"walks": walks})


@pytest.mark.parametrize(("size", "mode"), [((3, 4), "general"), ((3, 4), "simple")])
def test_a_walk_from_a_split_solve_starts_at_its_pieces(
    tmp_path: Path, size: tuple[int, int], mode: Mode
) -> None:
    game = Game(*size, mode=mode)
    split = solve_split(game, 2, tmp_path, memory_mb=8, workers=1, progress=False)
    document = walk_certificate(game, walks=10, memory_mb=8, depth=2, store=tmp_path)
    report = check(document)
    assert report.value == split.value and report.walks == 10 and not report.complete
    root = canonical(game.position(), *size)
    kept = {entry[0]: entry for entry in document["entries"]}
    assert root in kept  # the entries above the pieces follow from their stored bounds
    for text, lower, upper in document["assumed"]:
        value = _value(text, mode)
        assert (lower is None or value >= lower) and (upper is None or value <= upper), text


def test_a_split_solve_that_has_not_settled_the_value_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidSettingsError, match="finish the split solve first"):
        walk_certificate(Game(3, 4), walks=2, memory_mb=8, depth=1, store=tmp_path)


class _Terminal(io.StringIO):
    """Standard error as a terminal, where the bar of walks is drawn."""

    def isatty(self) -> bool:
        return True


def test_the_command_line_writes_and_checks_a_walked_certificate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "walked.json.gz"
    terminal = _Terminal()
    with monkeypatch.context() as patched:
        patched.setattr(sys, "stderr", terminal)
        command = ["solve", "3x4", "--certificate", str(path), "--walks", "4", "--seed", "2"]
        assert main(command) == 0
    assert capsys.readouterr().out.startswith("value 0")
    shown = terminal.getvalue()
    assert "4/4" in shown and "walk" in shown  # the bar of walks done and left
    # Not on a pipe or in a log: there the bar would be nothing but noise.
    assert main(command) == 0
    assert "walk" not in capsys.readouterr().err
    assert load(path)["walks"] == 4
    assert main(["certify", str(path)]) == 0
    assert capsys.readouterr().out.startswith("sample holds: ")
    assert main(["certify", str(path), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["walks"] == 4 and answer["complete"] is False
    split = ["solve", "3x4", "--split", "1", "--store", str(tmp_path), "--workers", "1"]
    assert main([*split, "--no-progress", "--certificate", str(path), "--walks", "3"]) == 0
    assert "walk" not in capsys.readouterr().err
    assert load(path)["walks"] == 3 and check(load(path)).value == 0
    assert main(["solve", "3x4", "--walks", "3"]) == 1
    assert "--walks needs --certificate" in capsys.readouterr().err
    assert main(["solve", "3x4", "--certificate", "x", "--walks", "3", "--max-entries", "9"]) == 1
    assert "only one of them" in capsys.readouterr().err
    # Refused before the solve, which may take hours on a large board.
    refused = tmp_path / "refused.json"
    assert main([*split, "--certificate", str(refused), "--walks", "0"]) == 1
    assert "walks must be a whole number" in capsys.readouterr().err and not refused.exists()


def test_each_walk_hands_over_the_certificate_of_the_walks_so_far() -> None:
    saved: list[dict[str, Any]] = []
    final = walk_certificate(Game(3, 4), walks=4, seed=5, memory_mb=8, on_walk=saved.append)
    assert [sample["walks"] for sample in saved] == [1, 2, 3, 4]
    assert saved[-1] == final
    sizes = [len(sample["entries"]) for sample in saved]
    assert sizes == sorted(sizes)
    for sample in saved:
        assert check(sample).value == 0


def test_a_walked_certificate_stopped_early_keeps_the_walks_it_finished(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from sosgame.research import walk

    finished = walk._Walker.walk
    calls = []

    def stopped_at_the_third(self: Any, bound: int, lower: bool, rng: Any) -> None:
        calls.append(bound)
        if len(calls) == 3:
            raise KeyboardInterrupt
        finished(self, bound, lower, rng)

    monkeypatch.setattr(walk._Walker, "walk", stopped_at_the_third)
    path = tmp_path / "stopped.json.gz"
    assert main(["solve", "3x4", "--certificate", str(path), "--walks", "9"]) == 130
    assert "stopped by Ctrl-C" in capsys.readouterr().err
    kept = load(path)
    assert kept["walks"] == 2 and check(kept).value == 0
    assert [file.name for file in tmp_path.iterdir()] == ["stopped.json.gz"]


def test_walks_added_to_an_earlier_certificate_keep_its_entries_and_draw_new_ones() -> None:
    game = Game(3, 4)
    first = walk_certificate(game, walks=3, seed=1, memory_mb=8)
    added = walk_certificate(game, walks=3, seed=1, memory_mb=8, earlier=first)
    assert added["walks"] == 6
    before = {entry[0]: entry for entry in first["entries"]}
    after = {entry[0]: entry for entry in added["entries"]}
    assert before.keys() < after.keys()  # the same seed alone would draw the same three walks
    report = check(added)
    assert report.value == 0 and report.walks == 6 and not report.complete
    # An earlier claim no new entry proves stays assumed.
    proven = set(after)
    for text, *_ in first.get("assumed", []):
        assert text in proven or text in {claim[0] for claim in added["assumed"]}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"cols": 5}, "cols 5, not 4"),
        ({"mode": "simple"}, "mode 'simple', not 'general'"),
        ({"value": 1}, "value 1, not 0"),
        ({"walks": None}, "not drawn by random walks"),
        ({"entries": [["x", 1]]}, "malformed"),
    ],
)
def test_walks_are_added_only_to_a_walked_certificate_of_the_same_board(
    change: dict[str, Any], message: str
) -> None:
    earlier = _fresh((3, 4), "general") | change
    with pytest.raises(InvalidSettingsError, match=message):
        walk_certificate(Game(3, 4), walks=2, memory_mb=8, earlier=earlier)


def test_walks_are_not_added_to_a_certificate_with_a_false_entry() -> None:
    earlier = _fresh((3, 4), "general")
    entry = next(entry for entry in earlier["entries"] if entry[1] is not None)
    entry[1] += 5  # a lower bound past the true value: its move cannot reach it
    with pytest.raises(InvalidSettingsError, match="malformed or false"):
        walk_certificate(Game(3, 4), walks=2, memory_mb=8, earlier=earlier)


def test_the_command_line_adds_walks_to_a_certificate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "walked.json.gz"
    assert main(["solve", "3x4", "--certificate", str(path), "--walks", "2"]) == 0
    first = load(path)
    assert main(["solve", "3x4", "--certificate", str(path), "--walks", "3", "--add"]) == 0
    added = load(path)
    assert added["walks"] == 5 and check(added).value == 0
    assert {entry[0] for entry in first["entries"]} <= {entry[0] for entry in added["entries"]}
    split = ["solve", "3x4", "--split", "1", "--store", str(tmp_path), "--workers", "1"]
    assert main([*split, "--no-progress", "--certificate", str(path), "--walks", "2", "--add"]) == 0
    assert load(path)["walks"] == 7 and check(load(path)).value == 0
    capsys.readouterr()
    assert main(["solve", "3x4", "--certificate", str(path), "--add"]) == 1
    assert "--add needs --walks" in capsys.readouterr().err
    missing = tmp_path / "missing.json.gz"
    assert main(["solve", "3x4", "--certificate", str(missing), "--walks", "2", "--add"]) == 1
    assert "there is none in" in capsys.readouterr().err and not missing.exists()
    other = tmp_path / "other.json.gz"
    assert main(["solve", "3x3", "--certificate", str(other), "--walks", "1"]) == 0
    capsys.readouterr()
    assert main(["solve", "3x4", "--certificate", str(other), "--walks", "1", "--add"]) == 1
    assert "same board" in capsys.readouterr().err
    assert check(load(other)).walks == 1  # left as it was
