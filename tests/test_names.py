"""Players' names, checked once in the core (:func:`sosgame.settings.check_names`) for
records, the command line, the terminal game and the web server."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from sos_cli import run
from sosgame import Game, InvalidSettingsError
from sosgame.i18n import error_text, translator
from sosgame.limits import NAME_MAX
from sosgame.record import Record, RecordError, load, save
from sosgame.settings import check_name, check_names

LONG = "x" * 100_000
BAD_NAMES = [
    ("\x1b]0;owned\x07", "name_control"),
    ("\x1b[2J", "name_control"),
    ("Ann\nBao", "name_control"),
    ("\ud800", "name_control"),
    ("Ann\u202e", "name_control"),
    ("A" * (NAME_MAX + 1), "name_long"),
    (LONG, "name_long"),
    ("   ", "name_empty"),
]


@pytest.mark.parametrize(("name", "code"), BAD_NAMES)
def test_the_core_refuses_names_no_terminal_or_file_can_show(name: str, code: str) -> None:
    with pytest.raises(InvalidSettingsError) as caught:
        check_names(["Ann", name])
    assert caught.value.code == code
    assert caught.value.field == "names"
    assert "seat 2" in str(caught.value)
    assert len(str(caught.value)) < 2 * NAME_MAX + 80  # never the whole of a long name
    assert "\x1b" not in str(caught.value) and "\n" not in str(caught.value)
    assert error_text(translator("en"), caught.value) == str(caught.value)


# "ann" in the full-width letters of East Asian text, which NFKC reads as the narrow ones.
@pytest.mark.parametrize("other", ["ann", " ANN ", "\uff21\uff4e\uff4e", "\uff41\uff4e\uff4e"])
def test_two_seats_may_not_share_a_name_in_any_case_or_width(other: str) -> None:
    with pytest.raises(InvalidSettingsError, match="seats 1 and 3 have the same name") as caught:
        check_names(["Ann", "Bao", other])
    assert caught.value.code == "name_same"


def test_good_names_pass_unchanged() -> None:
    names = ["Ann", "Bảo", "अनु", "A" * NAME_MAX, "Người chơi 1"]
    assert check_names(names) == names
    assert check_name("Zoë", 0) == "Zoë"


# ---------------------------------------------------------------------------- records


def _record_text(players: list[str]) -> str:
    data = Record.from_game(Game(3, 3), players=["Ann", "Bao"]).to_dict()
    return json.dumps(data | {"players": players})


@pytest.mark.parametrize(("name", "code"), BAD_NAMES)
def test_a_record_with_a_bad_name_is_refused_naming_the_field(name: str, code: str) -> None:
    with pytest.raises(RecordError) as caught:
        Record.from_json(_record_text(["Ann", name]))
    assert caught.value.field == "players[1]"
    assert len(str(caught.value)) < 2 * NAME_MAX + 100
    assert error_text(translator("vi"), caught.value).startswith("trường 'players[1]': tên")


def test_a_record_with_two_players_of_one_name_is_refused() -> None:
    with pytest.raises(RecordError, match="seats 1 and 2 have the same name: 'ann'"):
        Record.from_json(_record_text(["Ann", "ann"]))


def test_a_name_no_file_can_hold_is_refused_before_the_save(tmp_path: Path) -> None:
    record = Record.from_game(Game(3, 3), players=["Ann", "Bao"])
    record.players = ["Ann", "\udc80"]
    path = tmp_path / "game.json"
    with pytest.raises(RecordError, match="control or invisible character"):
        save(record, path)
    assert not path.exists()


def test_replay_refuses_a_record_whose_names_would_drive_the_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    path.write_text(_record_text(["\x1b]0;owned\x07", "Bao"]), encoding="utf-8")
    status, out, err = run(capsys, "replay", str(path))
    assert status == 1
    assert out == "" and "\x1b" not in err and err.count("\n") == 1
    assert "players[0]" in err and "control or invisible character" in err
    with pytest.raises(RecordError):
        load(path)


# ----------------------------------------------------------------------- command line


@pytest.mark.parametrize(("name", "code"), BAD_NAMES[:3] + BAD_NAMES[5:7])
def test_names_on_the_command_line_are_checked_by_the_core(
    capsys: pytest.CaptureFixture[str], name: str, code: str
) -> None:
    status, _, err = run(capsys, "play", "--plain", "--names", "Ann", name)
    assert status == 1
    assert err.startswith("sosgame: error: --names: the name of seat 2 ")
    assert err.count("\n") == 1 and "\x1b" not in err
    assert len(err) < 2 * NAME_MAX + 120


# ------------------------------------------------------------------------ terminal game


def test_the_new_game_screen_refuses_a_name_with_control_characters() -> None:
    from textual.widgets import Input

    from sos_tui import drive, text_of
    from sosgame.tui.app import SosApp
    from sosgame.tui.screens.setup import SetupScreen

    async def script(pilot: object) -> None:
        setup = pilot.app.screen  # type: ignore[attr-defined]
        assert isinstance(setup, SetupScreen)
        setup.query_one("#name-1", Input).value = "Bao\x1b[2J"
        await pilot.click("#start")  # type: ignore[attr-defined]
        await pilot.pause()  # type: ignore[attr-defined]
        assert "control or invisible character" in text_of(pilot, "#setup-error")  # type: ignore[arg-type]
        assert pilot.app.screen is setup  # type: ignore[attr-defined]
        assert setup.query_one("#name-1", Input).has_focus

    drive(SosApp(), script)  # type: ignore[arg-type]


# -------------------------------------------------------------------------------- web


@pytest.fixture
def client(tmp_path: Path) -> Iterator[object]:
    pytest.importorskip("starlette")
    pytest.importorskip("sqlalchemy")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from sosgame.web import create_app

    executor = ThreadPoolExecutor(max_workers=1)
    app = create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}", computer=executor)
    with TestClient(app) as test_client:
        yield test_client
    executor.shutdown()


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_web_refuses_an_upload_with_two_players_of_one_name(client: object) -> None:
    record = json.loads(_record_text(["Ann", "ann"]))
    uploaded = client.post("/api/records", json=record)  # type: ignore[attr-defined]
    assert uploaded.status_code == 400
    assert uploaded.json()["error"]["code"] == "bad_record"
    assert "seats 1 and 2 have the same name" in uploaded.json()["error"]["message"]


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_a_local_web_game_of_two_alike_names_downloads_a_record_that_loads(
    client: object,
) -> None:
    seats = [{"name": "Ann"}, {"name": "ANN"}]
    created = client.post("/api/games", json={"rows": 3, "cols": 3, "seats": seats}).json()  # type: ignore[attr-defined]
    headers = {"authorization": f"Bearer {created['token']}"}
    download = client.get(f"/api/games/{created['id']}/record", headers=headers)  # type: ignore[attr-defined]
    assert download.status_code == 200
    record = Record.from_json(download.text)
    assert record.players == ["Ann", "ANN (2)"]
    again = client.post("/api/records", json=record.to_dict())  # type: ignore[attr-defined]
    assert again.status_code == 201


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_the_web_takes_an_upload_no_deeper_than_a_record_file(client: object) -> None:
    record = json.loads(_record_text(["Ann", "Bao"]))
    record["meta"] = {"tags": {"a": "b"}}
    assert client.post("/api/records", json=record).status_code == 201  # type: ignore[attr-defined]
    nested = '{"meta": {"tags": {"a": [[[[[[1]]]]]]}}}'
    refused = client.post(  # type: ignore[attr-defined]
        "/api/records", content=nested, headers={"content-type": "application/json"}
    )
    assert refused.status_code == 400
    assert refused.json()["error"]["code"] == "bad_record"
    assert "more than 5 deep" in refused.json()["error"]["message"]


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_a_web_game_two_strangers_joined_under_one_name_still_downloads(client: object) -> None:
    body = {"rows": 3, "cols": 3, "kind": "online", "public": True, "seats": [{"name": "Ann"}]}
    body["seats"].append({"name": "Bao"})
    created = client.post("/api/games", json=body).json()  # type: ignore[attr-defined]
    game = created["id"]
    taken = client.post(f"/api/games/{game}/seats/1", json={"name": "ann"})  # type: ignore[attr-defined]
    assert taken.status_code == 200
    download = client.get(f"/api/games/{game}/record")  # type: ignore[attr-defined]
    assert download.status_code == 200
    assert Record.from_json(download.text).players == ["Ann", "ann (2)"]


def test_the_web_numbers_a_long_repeated_name_within_the_limit() -> None:
    pytest.importorskip("starlette")
    from sosgame.web.people.names import distinct_names

    names = distinct_names(["A" * NAME_MAX, "a" * NAME_MAX, "A" * NAME_MAX])
    assert names[1] == "a" * (NAME_MAX - 4) + " (2)"
    assert check_names(names) == names
