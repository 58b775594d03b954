"""Play on this device: the server serves Pyodide's runtime (the version package-lock.json
pins) and the engine's wheel under versioned paths, and says so in its configuration."""

from __future__ import annotations

import io
import json
import re
import shutil
import subprocess
import warnings
import zipfile
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

import sosgame.web
from sosgame.web import create_app
from sosgame.web.offline import pyodide
from sosgame.web.offline.wheel import engine_wheel

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ROOT = Path(__file__).resolve().parents[1]
LOCKED = json.loads((ROOT / "package-lock.json").read_text("utf-8"))["packages"][
    "node_modules/pyodide"
]["version"]
INSTALLED = (ROOT / "node_modules" / "pyodide" / "package.json").is_file()


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    executor = ThreadPoolExecutor(max_workers=1)
    app = create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}", computer=executor)
    with TestClient(app) as test_client:
        yield test_client
    executor.shutdown()


@pytest.fixture
def no_pyodide(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv(pyodide.PYODIDE_ENV, str(tmp_path / "missing"))
    pyodide.find_runtime.cache_clear()
    yield
    monkeypatch.undo()
    pyodide.find_runtime.cache_clear()


def test_pyodide_is_a_pinned_runtime_dependency() -> None:
    package = json.loads((ROOT / "package.json").read_text("utf-8"))
    assert package["dependencies"]["pyodide"] == LOCKED


@pytest.mark.skipif(not INSTALLED, reason="npm ci has not installed pyodide")
def test_the_config_reads_none_of_the_runtime_s_files(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every page load asks for the config: the 9.6 MB interpreter must not be read for it.
    client.get("/api/config")  # the trimmed library, built once
    read: list[str] = []
    original = Path.read_bytes

    def counted(path: Path) -> bytes:
        read.append(path.name)
        return original(path)

    monkeypatch.setattr(Path, "read_bytes", counted)
    offline = client.get("/api/config").json()["offline"]
    assert offline["available"] is True and len(offline["files"]) > 1
    assert read == []


@pytest.mark.skipif(not INSTALLED, reason="npm ci has not installed pyodide")
def test_the_config_lists_the_pinned_runtime_and_the_wheel_and_both_are_served_for_good(
    client: TestClient,
) -> None:
    offline = client.get("/api/config").json()["offline"]
    assert offline["available"] is True
    assert offline["pyodide"] == f"/offline/pyodide/{LOCKED}/"
    assert offline["levels"] == ["random", "easy", "medium", "hard"]
    urls = [item["url"] for item in offline["files"]]
    assert offline["engine"] in urls
    for item in offline["files"]:
        answer = client.get(item["url"], headers={"accept-encoding": "identity"})
        assert answer.status_code == 200, item
        assert len(answer.content) == item["bytes"]
        assert answer.headers["cache-control"] == "public, max-age=31536000, immutable"
    wasm = client.get(f"{offline['pyodide']}pyodide.asm.wasm", headers={"accept-encoding": "gzip"})
    assert wasm.headers["content-type"] == "application/wasm"
    assert wasm.headers["content-encoding"] == "gzip"
    assert wasm.content[:4] == b"\0asm"  # the client undid the compression


@pytest.mark.skipif(not INSTALLED, reason="npm ci has not installed pyodide")
def test_no_other_version_and_no_other_file_is_served(client: TestClient) -> None:
    assert client.get("/offline/pyodide/0.1.0/pyodide.mjs").status_code == 404
    assert client.get(f"/offline/pyodide/{LOCKED}/package.json").status_code == 404
    assert client.get(f"/offline/pyodide/{LOCKED}/console.html").status_code == 404
    wheel = engine_wheel()
    assert client.get(f"/offline/engine/0000/{wheel.name}").status_code == 404


def test_without_pyodide_the_server_runs_and_says_offline_play_is_not_installed(
    no_pyodide: None, client: TestClient
) -> None:
    offline = client.get("/api/config").json()["offline"]
    assert offline == {"available": False, "levels": ["random", "easy", "medium", "hard"]}
    assert client.get(f"/offline/pyodide/{LOCKED}/pyodide.mjs").status_code == 404
    assert client.get("/").status_code == 200


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_make_run_installs_the_npm_packages_and_runs_without_npm(tmp_path: Path) -> None:
    make = str(shutil.which("make"))
    planned = subprocess.run(
        [make, "-n", "-C", str(ROOT), "run"], capture_output=True, text=True, check=True
    ).stdout
    assert planned.index("npm ci") < planned.index("sosgame serve")
    # No npm on the path (nor anything else): make says so, and goes on to the server.
    without = subprocess.run(
        [make, "-s", "-C", str(ROOT), "node"],
        check=False,
        capture_output=True,
        text=True,
        env={"PATH": str(tmp_path)},
    )
    assert without.returncode == 0, without.stderr
    assert without.stdout.strip() == "npm not found: offline play is not installed"


def test_the_wheel_holds_the_core_and_the_players_and_no_interface() -> None:
    wheel = engine_wheel()
    names = zipfile.ZipFile(io.BytesIO(wheel.data)).namelist()
    assert "sosgame/game.py" in names and "sosgame/ai/device.py" in names
    assert "sosgame/search/negamax.py" in names and "sosgame/ai/book.json" in names
    for interface in ("web", "tui", "cli", "envs", "research"):
        assert not [name for name in names if name.startswith(f"sosgame/{interface}/")]
    assert any(name.endswith(".dist-info/WHEEL") for name in names)
    assert wheel.name.endswith("-py3-none-any.whl")
    # The same source gives the same bytes, so a browser keeps the wheel until it changes.
    engine_wheel.cache_clear()
    assert engine_wheel().data == wheel.data


def test_the_wheel_plays_with_nothing_but_the_standard_library(tmp_path: Path) -> None:
    import subprocess
    import sys

    (tmp_path / "engine.whl").write_bytes(engine_wheel().data)
    script = (
        "import sys, json; sys.path.insert(0, sys.argv[1]);"
        "from sosgame.ai import device;"
        "s = json.loads(device.start(json.dumps({'rows': 3, 'cols': 3, 'seats': ["
        "{'player': 'easy'}, {'player': 'medium'}]})));"
        "import sosgame.ai.device as d;"
        "assert 'numba' not in sys.modules and 'starlette' not in sys.modules;"
        "print(json.loads(device.act(json.dumps({'type': 'computer'})))['moved'])"
    )
    done = subprocess.run(
        [sys.executable, "-S", "-c", script, str(tmp_path / "engine.whl")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert len(done.stdout.strip()) == 3  # a move such as Sa1


@pytest.mark.skipif(not INSTALLED, reason="npm ci has not installed pyodide")
def test_the_standard_library_is_served_without_what_the_engine_never_uses(
    client: TestClient,
) -> None:
    served = client.get(f"/offline/pyodide/{LOCKED}/python_stdlib.zip")
    names = zipfile.ZipFile(io.BytesIO(served.content)).namelist()
    tops = {name.split("/")[0].removesuffix(".py") for name in names}
    assert {"json", "random", "dataclasses", "asyncio", "zipfile", "encodings", "pyodide"} <= tops
    assert not tops & pyodide.LEFT_OUT
    assert "encodings/utf_8.py" in names and "encodings/cp1252.py" not in names
    whole = (ROOT / "node_modules" / "pyodide" / "python_stdlib.zip").stat().st_size
    assert len(served.content) < whole * 0.7


def test_only_the_engine_worker_may_compile_webassembly(client: TestClient) -> None:
    worker = client.get("/static/engine-worker.js").headers["content-security-policy"]
    assert "script-src 'self' 'wasm-unsafe-eval';" in worker
    for path in ("/", "/static/app.js", "/api/config"):
        policy = client.get(path).headers["content-security-policy"]
        assert "script-src 'self';" in policy and "wasm" not in policy, path


_RULES_IN_SCRIPT = re.compile(
    r"""[!=]==?\s*["'][SO]["']"""  # a cell compared with a letter: a line being looked for
    r"""|["']SOS["']"""  # the line itself
    r"""|\[\s*1\s*,\s*-1\s*\]"""  # a diagonal's direction
)


def test_no_script_of_the_app_holds_a_copy_of_the_rules() -> None:
    """Online and on the device alike, the page sends a move's text and draws what the engine
    answers (its legal moves, lines, scores, turn and result): no script looks for a line,
    so the rules on a device are the engine's own, run in the worker."""
    static = Path(sosgame.web.__file__).parent / "static"
    scripts = sorted(static.glob("*.js"))
    assert {"devicegame.js", "engine-worker.js", "device.js"} <= {path.name for path in scripts}
    found = {
        path.name: _RULES_IN_SCRIPT.findall(path.read_text(encoding="utf-8")) for path in scripts
    }
    assert {name: hits for name, hits in found.items() if hits} == {}
    device_game = (static / "devicegame.js").read_text(encoding="utf-8")
    # A move goes to the engine as text; what is drawn is the engine's state.
    assert 'engineAct({ type: "move", move: `${letter}${cell}` })' in device_game
