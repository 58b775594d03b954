"""The first compile of the kernels is announced once, on the progress line of a terminal."""

from __future__ import annotations

import io
import os

import pytest

from sosgame.ai import alphabeta
from sosgame.cli import main
from sosgame.first_compile import announcing
from sosgame.kernel import _jit, compiling
from sosgame.kernel import warm_up as kernel_warm_up
from sosgame.solver import warm_up as solver_warm_up


class Terminal(io.StringIO):
    """Standard error as a terminal: the progress line is drawn on it."""

    def isatty(self) -> bool:
        return True


def forget_warm_ups() -> None:
    # Each warm-up runs once per process; these tests run them again.
    for warm_up in (kernel_warm_up, alphabeta.warm_up, solver_warm_up):
        warm_up.cache_clear()


def hint(monkeypatch: pytest.MonkeyPatch, compiled: bool, *options: str) -> str:
    monkeypatch.setattr(_jit, "compiled_before", lambda what: compiled)
    forget_warm_ups()
    stderr = Terminal()
    monkeypatch.setattr("sys.stderr", stderr)
    assert main(["hint", "3x3", "--level", "hard", "--nodes", "50", *options]) == 0
    return stderr.getvalue()


def test_a_hint_says_once_that_it_prepares_the_fast_search_when_not_compiled(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    drawn = hint(monkeypatch, False)
    assert drawn.count("preparing the fast search (first run only)") == 1
    assert drawn.endswith("\r")  # wiped: the answer starts on a clean line
    assert capsys.readouterr().out.strip()  # the move, on standard output
    vietnamese = hint(monkeypatch, False, "--lang", "vi")
    assert vietnamese.count("đang chuẩn bị tìm kiếm nhanh (chỉ lần chạy đầu)") == 1


def test_no_notice_once_compiled_or_into_a_pipe(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "preparing" not in hint(monkeypatch, True)
    monkeypatch.setattr(_jit, "compiled_before", lambda what: False)
    forget_warm_ups()
    assert main(["hint", "3x3", "--level", "hard", "--nodes", "50"]) == 0
    assert "preparing" not in capsys.readouterr().err  # captured: not a terminal


def test_nested_warm_ups_show_one_notice_and_none_without_a_program_s_notice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_jit, "compiled_before", lambda what: False)
    shown: list[str] = []

    class Notice:
        def __enter__(self) -> None:
            shown.append("on")

        def __exit__(self, *exception: object) -> None:
            shown.append("off")

    with announcing(Notice), compiling("outer"), compiling("inner"):
        assert shown == ["on"]
    assert shown == ["on", "off"]
    with compiling("alone"):
        pass
    assert shown == ["on", "off"]


def test_a_worker_process_shows_no_notice(monkeypatch: pytest.MonkeyPatch) -> None:
    from sosgame import first_compile
    from sosgame.processes import tie_to_parent

    monkeypatch.setattr(_jit, "compiled_before", lambda what: False)
    monkeypatch.setattr("signal.signal", lambda *arguments: None)  # this is no worker
    monkeypatch.setattr("sosgame.processes._kill_me_with_my_parent", lambda: True)
    shown: list[str] = []

    class Notice:
        def __enter__(self) -> None:
            shown.append("on")

        def __exit__(self, *exception: object) -> None:
            pass

    with announcing(Notice):
        tie_to_parent(os.getppid())  # as a forked worker starts, with its command's notice
        assert first_compile.notice() is None
        with compiling("worker"):
            pass
    assert shown == []
