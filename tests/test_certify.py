"""Certificates: the solver's proofs pass the independent checker, and tampered ones fail."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sosgame import Game
from sosgame.certify import CertificateError, check, load
from sosgame.cli import main
from sosgame.game import Mode
from sosgame.research.certificate import CertificateTooLargeError, certificate, write
from sosgame.research.distribute import solve_split, split_status
from sosgame.research.sample import extract
from sosgame.research.split import canonical
from sosgame.solver import solve


@cache
def _certificate(position: str, mode: Mode) -> dict[str, Any]:
    return certificate(Game.from_position(position, mode=mode), memory_mb=8)


def _fresh(position: str, mode: Mode) -> dict[str, Any]:
    return copy.deepcopy(_certificate(position, mode))


BOARDS = [
    (".../.../...", "general"),
    (".../.../...", "simple"),
    (".../.../.../...", "simple"),
    (".......", "general"),  # 1x7: the first player wins by one
    (".......", "simple"),  # the first player wins
    ("S.S/.../O..", "general"),
    ("S.S/.../O..", "simple"),
    ("..../....", "general"),  # rows of 4: a rectangle's four symmetries
]


@pytest.mark.parametrize(("position", "mode"), BOARDS)
def test_the_certificate_proves_the_solvers_value(position: str, mode: Mode) -> None:
    document = _fresh(position, mode)
    report = check(document)
    assert report.complete and report.checked == len(document["entries"])
    assert report.value == solve(Game.from_position(position, mode=mode), memory_mb=8).value


@pytest.mark.parametrize(("position", "mode"), BOARDS)
def test_a_claimed_value_off_by_one_fails(position: str, mode: Mode) -> None:
    for change in (-1, 1):
        document = _fresh(position, mode)
        document["value"] += change
        with pytest.raises(CertificateError, match="root's value"):
            check(document)


@pytest.mark.parametrize(("position", "mode"), BOARDS)
@pytest.mark.parametrize(("bound", "change"), [(1, 1), (3, -1)])
def test_a_root_entry_claiming_more_than_is_true_fails(
    position: str, mode: Mode, bound: int, change: int
) -> None:
    # A bound past the true value is a false claim, which the induction cannot let through:
    # some entry must fail, whatever the others say.
    document = _fresh(position, mode)
    rows = position.count("/") + 1
    root = canonical(position, rows, len(position.split("/", maxsplit=1)[0]))
    entry = next((entry for entry in document["entries"] if entry[0] == root), None)
    if entry is None or entry[bound] is None:
        pytest.skip("the root needs no such entry: a simple-mode bound that always holds")
    entry[bound] += change
    with pytest.raises(CertificateError):
        check(document)


def test_a_move_onto_a_full_cell_fails() -> None:
    document = _fresh(".../.../...", "general")
    entry = next(entry for entry in document["entries"] if entry[1] is not None and "S" in entry[0])
    row, col = divmod(entry[0].replace("/", "").index("S"), 3)
    entry[2] = f"O{'abc'[col]}{row + 1}"
    with pytest.raises(CertificateError, match="illegal"):
        check(document)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "other"}, "not a sosgame-certificate"),
        ({"mode": "misere"}, "mode must be"),
        ({"rows": 0}, "rows and cols"),
        ({"value": "0"}, "value a whole number"),
        ({"entries": {}}, "entries must be a list"),
        ({"entries": [["...", 0]]}, r"\[board, lower, move, upper\]"),
        ({"entries": [[".../.../...", 0, None, None]]}, "lower with move"),
        ({"entries": [["..S/.../...", None, None, 0]]}, "canonical"),
        ({"entries": [[".../.../...", None, None, 0]] * 2}, "two entries"),
    ],
)
def test_malformed_certificates_are_rejected(change: dict[str, Any], message: str) -> None:
    document = _fresh(".../.../...", "simple") | change
    with pytest.raises(CertificateError, match=message):
        check(document)


def test_a_sample_checks_part_of_the_entries_and_says_so() -> None:
    document = _fresh(".../.../.../...", "simple")
    report = check(document, sample=20, seed=3)
    assert not report.complete
    assert 20 <= report.checked <= 21 < report.entries


@settings(max_examples=10)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["general", "simple"]))
def test_certificates_of_random_mid_game_positions(seed: int, mode: Mode) -> None:
    import random

    chooser = random.Random(seed)
    game = Game(4, 4, mode=mode)
    while game.position().count(".") > 9 or not game.legal_moves:
        game.play(chooser.choice(list(game.legal_moves)))
        if game.is_over:
            return
    document = certificate(game, memory_mb=8)
    assert check(document).value == solve(game, memory_mb=8).value


def test_an_entry_limit_stops_a_large_certificate() -> None:
    with pytest.raises(CertificateTooLargeError, match="over 10 entries"):
        certificate(Game(3, 4), memory_mb=8, entry_limit=10)


def test_the_checker_imports_no_solver_code() -> None:
    code = (
        "import sys, sosgame.certify\n"
        "print([m for m in sys.modules if m.split('.')[1:2] in (['solver'], ['search'],"
        " ['kernel'])])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


def test_the_command_line_writes_and_checks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "3x3.json.gz"
    assert main(["solve", "3x3", "--mode", "simple", "--certificate", str(path)]) == 0
    capsys.readouterr()
    assert load(path)["value"] == 0
    assert main(["certify", str(path)]) == 0
    assert capsys.readouterr().out.startswith("proven: ")
    assert main(["certify", str(path), "--sample", "5", "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["complete"] is False and answer["checked"] == 6
    document = load(path)
    document["value"] = 1
    write(document, path)
    assert main(["certify", str(path)]) == 1
    assert "root's value 1" in capsys.readouterr().err
    path.write_text("{")
    assert main(["certify", str(path)]) == 1
    assert "cannot read certificate" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("size", "mode", "depth"),
    [((3, 3), "general", 2), ((3, 3), "simple", 1), ((1, 7), "simple", 2)],
)
def test_a_split_solve_proves_its_value_from_its_pieces_proofs(
    tmp_path: Path, size: tuple[int, int], mode: Mode, depth: int
) -> None:
    game = Game(*size, mode=mode)
    path = tmp_path / "root.json.gz"
    store = tmp_path / "store"
    exact = {"memory_mb": 8, "workers": 1, "progress": False, "exact_pieces": True}
    solve_split(game, depth, store, **exact)  # type: ignore[arg-type]  # values only
    split = solve_split(game, depth, store, certificate=path, **exact)  # type: ignore[arg-type]
    assert split.solved_now == split.pieces  # solved again, for their proofs
    report = check(load(path))
    assert report.complete and report.value == split.value == solve(game, memory_mb=8).value
    again = solve_split(game, depth, store, certificate=path, **exact)  # type: ignore[arg-type]
    assert again.solved_now == 0


def test_pieces_over_the_entry_limit_leave_no_certificate(tmp_path: Path) -> None:
    path = tmp_path / "root.json"
    runs = [
        solve_split(
            Game(3, 4),
            1,
            tmp_path,
            memory_mb=8,
            workers=1,
            progress=False,
            certificate=path,
            entry_limit=5,
            exact_pieces=True,
        )
        for _ in range(2)
    ]
    assert runs[0].unproven == runs[0].pieces and not path.exists()
    # Asking again with the same limit does not solve the pieces again.
    assert runs[1].solved_now == 0 and runs[1].unproven == runs[0].pieces


@pytest.mark.parametrize(
    ("size", "mode"),
    [((3, 3), "general"), ((3, 3), "simple"), ((1, 7), "general"), ((3, 4), "simple")],
)
def test_a_bounded_split_proves_its_value_from_the_bounds_its_pieces_need(
    tmp_path: Path, size: tuple[int, int], mode: Mode
) -> None:
    game = Game(*size, mode=mode)
    path = tmp_path / "root.json.gz"
    split = solve_split(game, 2, tmp_path, memory_mb=8, workers=2, progress=False, certificate=path)
    report = check(load(path))
    assert report.complete and report.assumed == 0
    assert report.value == split.value == solve(game, memory_mb=8).value
    proofs = sorted(tmp_path.glob("*/*.proof-*.json.gz"))
    assert proofs  # one per piece claim, read back by the next run
    stamps = [proof.stat().st_mtime_ns for proof in proofs]
    solve_split(game, 2, tmp_path, memory_mb=8, workers=1, progress=False, certificate=path)
    assert [proof.stat().st_mtime_ns for proof in proofs] == stamps
    assert check(load(path)).complete


def test_pieces_over_the_limit_become_assumed_claims_that_the_checker_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "root.json"
    split = solve_split(
        Game(3, 4),
        2,
        tmp_path,
        memory_mb=8,
        workers=1,
        progress=False,
        certificate=path,
        entry_limit=3,
    )
    document = load(path)
    report = check(document)
    assert split.unproven == report.assumed == len(document["assumed"]) > 0
    assert not report.complete and report.checked == report.entries
    assert main(["certify", str(path)]) == 0
    assert capsys.readouterr().out.startswith("holds if its assumptions do: ")
    # Every assumed claim is needed: without one, the entries above it fail.
    for index in range(len(document["assumed"])):
        fewer = copy.deepcopy(document)
        del fewer["assumed"][index]
        with pytest.raises(CertificateError):
            check(fewer)


@pytest.mark.parametrize(
    ("assumed", "message"),
    [
        ({}, "assumed must be a list"),
        ([["S../.../..."]], r"\[board, lower, upper\]"),
        ([["..S/.../...", 1, None]], "not canonical"),
        ([[".../.../..S", None, None]], "whole-number bounds"),
        ([[".../.../..S", 1.5, None]], "whole-number bounds"),
    ],
)
def test_malformed_assumed_claims_are_rejected(assumed: object, message: str) -> None:
    document = _fresh(".../.../...", "general") | {"assumed": assumed}
    with pytest.raises(CertificateError, match=message):
        check(document)


def test_a_kept_sample_checks_on_its_own_and_is_never_called_proven() -> None:
    whole = _fresh(".../.../.../...", "simple")
    sample = extract(whole, 20, seed=5)
    report = check(sample)
    assert report.sampled_from == len(whole["entries"]) > report.entries >= 20
    assert report.checked == report.entries and report.assumed > 0 and not report.complete
    kept = {entry[0]: entry for entry in whole["entries"]}
    assert all(kept[entry[0]] == entry for entry in sample["entries"])
    for text, lower, upper in sample["assumed"]:
        assert [kept[text][1], kept[text][3]] == [lower, upper]
    with pytest.raises(CertificateError):
        check(sample | {"assumed": []})


def test_a_sample_is_drawn_from_the_seed_and_keeps_the_root() -> None:
    whole = _fresh(".../.../.../...", "simple")
    first, again, other = (extract(whole, 30, seed=seed) for seed in (1, 1, 2))
    assert first == again and first["entries"] != other["entries"]
    root = canonical(whole["position"], 4, 3)
    assert root in {entry[0] for entry in first["entries"]}


def test_a_sample_is_only_written_from_entries_that_hold() -> None:
    whole = _fresh(".../.../.../...", "simple")
    wrong = next(entry for entry in whole["entries"] if entry[1] is not None and entry[1] < 1)
    wrong[1] += 1  # a claim one better than the proof gives
    with pytest.raises(CertificateError, match=f"board {re.escape(wrong[0])}"):
        extract(whole, len(whole["entries"]))


@pytest.mark.parametrize("count", [0, -3, 2.5, True])
def test_a_sample_size_must_be_a_whole_number(count: Any) -> None:
    with pytest.raises(CertificateError, match="sample size"):
        extract(_fresh(".../.../...", "simple"), count)


def test_sampled_from_must_cover_the_entries_kept() -> None:
    sample = extract(_fresh(".../.../.../...", "simple"), 10)
    with pytest.raises(CertificateError, match="sampled_from"):
        check(sample | {"sampled_from": len(sample["entries"]) - 1})


def test_the_command_line_extracts_a_sample(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    whole, kept = tmp_path / "whole.json.gz", tmp_path / "kept.json.gz"
    write(_fresh(".../.../.../...", "simple"), whole)
    assert main(["certify", str(whole), "--extract", "15", "--out", str(kept)]) == 0
    assert capsys.readouterr().out.startswith(f"wrote {kept}: ")
    assert main(["certify", str(kept)]) == 0
    assert capsys.readouterr().out.startswith("sample holds: ")
    assert main(["certify", str(kept), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["complete"] is False and answer["sampled_from"] > answer["entries"]
    assert main(["certify", str(whole), "--extract", "15"]) == 1
    assert "--extract and --out" in capsys.readouterr().err
    assert main(["certify", str(whole), "--extract", "5", "--out", "x", "--sample", "3"]) == 1
    assert "only one of them" in capsys.readouterr().err


KEPT = sorted((Path(__file__).resolve().parent.parent / "data" / "certificates").glob("*.json*"))


@pytest.mark.parametrize("path", KEPT, ids=[path.name for path in KEPT])
def test_every_kept_certificate_holds_on_a_sample_for_the_value_solved_json_names(
    path: Path,
) -> None:
    document = load(path)
    report = check(document, sample=150, seed=11)
    assert report.checked >= 150 and report.position.count(".") == report.rows * report.cols
    root = path.parent.parent.parent
    solved = json.loads((root / "docs" / "solved.json").read_text())
    values = {(entry["rows"], entry["cols"], entry["mode"]): entry["value"] for entry in solved}
    board = (report.rows, report.cols, report.mode)
    if board in values:
        assert values[board] == report.value
    else:
        # A solve still under way (its best moves unknown) whose kept pieces settle the value.
        store = root / "data" / "solves"
        folder = store / f"{report.rows}x{report.cols}-{report.mode}"
        piece = next(path for path in folder.glob("*.json") if not path.name.startswith("solved"))
        depth = sum(letter in "SO" for letter in json.loads(piece.read_text())["board"])
        game = Game(report.rows, report.cols, mode=report.mode)  # type: ignore[arg-type]
        status = split_status(game, depth, store)
        assert status.lower == status.upper == report.value
    # A kept sample says what it is a sample of; a whole proof assumes nothing.
    assert ("sampled_from" in document or "walks" in document) == (report.assumed > 0)


def test_the_repository_keeps_certificates() -> None:
    assert len(KEPT) >= 2
