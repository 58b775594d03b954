"""The registry of the web server's error codes: every code the source raises is in it, each
has its text in every language and its place in docs/protocol.md, and the message on the
wire is the catalog's English text with the detail only its raise site knows."""

from __future__ import annotations

import ast
import json
import string
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from sosgame.i18n import LANGUAGES, translations
from sosgame.i18n.texts import TEXTS
from sosgame.web import create_app
from sosgame.web.live.errors import (
    ERRORS,
    Place,
    ProtocolError,
    UnknownErrorCodeError,
    error_body,
    error_response,
    error_status,
    text_key,
)
from sosgame.web.live.hub import TooManyError
from sosgame.web.live.protocol import error_message

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "src" / "sosgame" / "web"
PROTOCOL_DOC = ROOT / "docs" / "protocol.md"
MAKERS = {"ProtocolError", "error_message", "error_response", "error_body", "_closing_error"}
"""The calls whose first argument is an error code (``_closing_error``: a refusal written
before the app, in :mod:`sosgame.web.guards.deadlines`)."""


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    with TestClient(app) as test_client:
        yield test_client


def _modules() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text("utf-8")) for path in sorted(WEB.rglob("*.py"))}


def _error_classes(modules: dict[Path, ast.Module]) -> tuple[set[str], set[str]]:
    """The subclasses of ProtocolError in the source: those made like it (their first
    argument is a code), and those that make their own code (in ``super().__init__``)."""
    bases: dict[str, set[str]] = {}
    own_init: set[str] = set()
    for tree in modules.values():
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                bases[node.name] = {base.id for base in node.bases if isinstance(base, ast.Name)}
                if any(
                    isinstance(item, ast.FunctionDef) and item.name == "__init__"
                    for item in node.body
                ):
                    own_init.add(node.name)
    errors = {"ProtocolError"}
    while grown := {name for name, of in bases.items() if of & errors} - errors:
        errors |= grown
    errors.discard("ProtocolError")
    return errors - own_init, errors & own_init


def _name(call: ast.Call) -> str | None:
    func = call.func
    return (
        func.id
        if isinstance(func, ast.Name)
        else func.attr
        if isinstance(func, ast.Attribute)
        else None
    )


def _values(node: ast.expr, scope: ast.AST) -> set[str] | None:
    """The codes an argument can be: a string, either string of a conditional, or a name
    that ``scope`` only ever sets to such; ``None`` if it is not written out like that."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.IfExp):
        body, orelse = _values(node.body, scope), _values(node.orelse, scope)
        return None if body is None or orelse is None else body | orelse
    if isinstance(node, ast.Name):
        found: set[str] = set()
        for assign in ast.walk(scope):
            if isinstance(assign, ast.Assign) and any(
                isinstance(target, ast.Name) and target.id == node.id for target in assign.targets
            ):
                values = _values(assign.value, scope)
                if values is None:
                    return None
                found |= values
        return found or None
    return None


def _scopes(tree: ast.Module) -> dict[ast.Call, ast.AST]:
    """Each call of ``tree`` and the function it is written in (or the module)."""
    found: dict[ast.Call, ast.AST] = {}

    def visit(node: ast.AST, scope: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Call):
                found[child] = scope
            inner = child if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else scope
            visit(child, inner)

    visit(tree, tree)
    return found


def _raised_codes() -> tuple[dict[str, list[str]], list[str]]:
    """Every code the web source names where an error is made, with where; and the places
    whose code cannot be read (re-sending an error's own ``.code``, or a maker passing its
    parameter on, is not one of them)."""
    modules = _modules()
    like, with_own = _error_classes(modules)
    codes: dict[str, list[str]] = {}
    unreadable: list[str] = []
    for path, tree in modules.items():
        own_inits = {
            item
            for node in ast.walk(tree)
            if isinstance(node, ast.ClassDef) and node.name in with_own
            for item in node.body
            if isinstance(item, ast.FunctionDef) and item.name == "__init__"
        }
        for call, scope in _scopes(tree).items():
            name = _name(call)
            if not call.args or (
                name not in MAKERS | like and not (name == "__init__" and scope in own_inits)
            ):
                continue
            first = call.args[0]
            if isinstance(first, ast.Attribute) and first.attr == "code":
                continue  # an error already made, sent on
            if (
                isinstance(first, ast.Name)
                and isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef)
                and scope.name in MAKERS | {"__init__"}
                and first.id in {arg.arg for arg in scope.args.args}
            ):
                continue  # a maker passing its parameter on: its callers are read
            where = f"{path.relative_to(WEB)}:{call.lineno}"
            values = _values(first, scope)
            if values is None:
                unreadable.append(where)
                continue
            for code in values:
                codes.setdefault(code, []).append(where)
    return codes, unreadable


def test_making_an_error_with_an_unregistered_code_fails() -> None:
    with pytest.raises(UnknownErrorCodeError, match="'no_such_code' is not a registered"):
        ProtocolError("no_such_code", "whatever it says")
    with pytest.raises(UnknownErrorCodeError):
        TooManyError("too_many_things")
    with pytest.raises(UnknownErrorCodeError):
        error_message("no_such_code")
    with pytest.raises(UnknownErrorCodeError):
        error_response("no_such_code")
    with pytest.raises(UnknownErrorCodeError):
        error_status("no_such_code")


def test_every_code_raised_in_the_source_is_registered() -> None:
    codes, unreadable = _raised_codes()
    assert unreadable == []
    assert {code: where for code, where in codes.items() if code not in ERRORS} == {}
    # The walk finds the sites of every kind: a plain raise, a subclass, a socket's error
    # message, an HTTP answer, a subclass that names its own code and one made before the app.
    assert {"game_over", "too_many_games", "server_busy", "bad_host", "too_large"} <= set(codes)
    assert {"headers_too_large", "body_timeout", "internal", "storage_unavailable"} <= set(codes)


SERVES: dict[str, Place] = {
    "endpoints/errors.py": Place.HTTP,
    "endpoints/common.py": Place.HTTP,
    "endpoints/games.py": Place.HTTP,
    "endpoints/mine.py": Place.HTTP,
    "endpoints/puzzles.py": Place.HTTP,
    "endpoints/records.py": Place.HTTP,
    "guards/bodies.py": Place.HTTP,
    "guards/deadlines.py": Place.HTTP,
    "guards/middleware.py": Place.HTTP,
    "people/accounts.py": Place.HTTP,
    "people/passwords.py": Place.HTTP,
    "endpoints/play.py": Place.GAME,
    "live/room.py": Place.GAME,
    "matchmaking/lobby.py": Place.LOBBY,
}
"""Modules that serve one place (and maybe others): a code raised there may come there."""


def test_a_code_may_come_where_its_module_serves() -> None:
    codes, _ = _raised_codes()
    missing = {
        (code, where)
        for code, places in codes.items()
        for where in places
        if (serves := SERVES.get(where.partition(":")[0])) is not None
        and serves not in ERRORS[code].places
    }
    assert missing == set()


def test_every_registered_code_is_raised_somewhere() -> None:
    codes, _ = _raised_codes()
    assert set(ERRORS) - set(codes) == set()


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_code_has_its_text_in_every_language(language: str) -> None:
    catalog = translations(language)
    for code in ERRORS:
        english = TEXTS[text_key(code)]
        assert isinstance(english, str), code
        # The browser shows the text as it is: nothing to fill in.
        assert [name for _, name, _, _ in string.Formatter().parse(english) if name] == [], code
        translated = catalog.pgettext(text_key(code), english)
        assert translated.strip(), (language, code)
        assert (translated != english) == (language != "en"), (language, code)


def test_every_error_text_is_of_a_registered_code() -> None:
    keys = {key.removeprefix("web.error.") for key in TEXTS if key.startswith("web.error.")}
    # The browser's own: its words for a code it has no text for, and for no answer at all.
    assert keys - set(ERRORS) == {"other", "offline"}


def test_the_protocol_s_table_of_codes_is_the_registry() -> None:
    text = PROTOCOL_DOC.read_text("utf-8")
    section = text[text.index("## Error codes\n") :]
    section = section[: section.index("\n## ")]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    documented = {}
    for row in rows:
        code, status, where, _when = (cell.strip() for cell in row.strip("|").split("|"))
        documented[code.strip("`")] = (int(status), {Place(place) for place in where.split(", ")})
    assert documented == {code: (entry.status, entry.places) for code, entry in ERRORS.items()}


def test_every_code_has_a_place_and_an_error_status() -> None:
    for code, entry in ERRORS.items():
        assert entry.places, code
        assert 400 <= entry.status < 600, code
    assert ERRORS["not_your_turn"].places == {Place.GAME}
    assert ERRORS["headers_too_large"].status == 431


def test_the_message_is_the_catalog_s_english_and_the_detail() -> None:
    assert ProtocolError("game_over").message == "the game is over"
    assert ProtocolError("wrong_password").message == "wrong name or password"
    error = ProtocolError("bad_field", "field 'mode' must be 'general' or 'simple'")
    assert error.message == (
        "one of the values given is not allowed (field 'mode' must be 'general' or 'simple')"
    )
    assert error.status == 400 and error.detail == "field 'mode' must be 'general' or 'simple'"
    assert error_body("no_game") == {"code": "no_game", "message": "there is no such game"}
    assert error_message("stale", "ply 3, not 4") == {
        "v": 1,
        "type": "error",
        "code": "stale",
        "message": "the board changed before your move arrived; look again (ply 3, not 4)",
        "detail": "ply 3, not 4",
    }


def test_an_http_refusal_takes_its_status_and_text_from_the_registry(client: TestClient) -> None:
    missing = client.get("/api/games/nothing-here")
    assert missing.status_code == ERRORS["no_game"].status == 404
    assert missing.json() == {"error": {"code": "no_game", "message": "there is no such game"}}
    body = {"rows": 3, "cols": 3, "mode": "misère", "seats": [{"name": "A"}, {"name": "B"}]}
    refused = client.post("/api/games", json=body)
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert error["code"] == "bad_field"
    assert error["detail"] == "field 'mode' must be 'general' or 'simple'"
    assert error["message"] == ProtocolError("bad_field", error["detail"]).message
    nowhere = client.get("/api/no/such/path")
    assert nowhere.json() == {
        "error": {"code": "not_found", "message": "there is nothing at this address"}
    }


def test_a_socket_error_carries_the_catalog_s_text(client: TestClient) -> None:
    with client.websocket_connect("/ws/lobby") as socket:
        socket.send_text(json.dumps({"v": 1, "type": "ping"}))
        refused = json.loads(socket.receive_text())
    assert refused == {
        "v": 1,
        "type": "error",
        "code": "hello_first",
        "message": "the connection must say hello first",
    }
