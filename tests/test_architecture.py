"""The layout of src/sosgame: no import cycle, research apart, a core on the standard library,
and extras that name what pyproject.toml gives them.

The import graph is read from the source with :mod:`ast`. Its edges are the imports a module
runs when it is first imported (at module level, in class bodies, under ``try`` or ``if``, but
not under ``if TYPE_CHECKING:``); a stricter graph counts as well the imports inside functions
and those for the type checker alone, since a module that reaches back into its importer there
is just as tangled.
"""

from __future__ import annotations

import ast
import re
import sys
import tomllib
from collections.abc import Iterator
from functools import cache
from importlib.metadata import packages_distributions
from pathlib import Path

from sosgame.extras import EXTRAS

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "sosgame"

CORE = (
    "sosgame",
    "sosgame.challenges",
    "sosgame.errors",
    "sosgame.files",
    "sosgame.game",
    "sosgame.geometry",
    "sosgame.legal",
    "sosgame.levels",
    "sosgame.limits",
    "sosgame.notation",
    "sosgame.outcome",
    "sosgame.ratings",
    "sosgame.record",
    "sosgame.seats",
    "sosgame.settings",
    "sosgame.snapshot",
    "sosgame.svg",
    "sosgame.table",
    "sosgame.text",
)
"""The rules core: it needs nothing beyond the standard library."""


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _run_at_import(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements of ``body`` that run when the module is imported, nested ones too."""
    for statement in body:
        yield statement
        if isinstance(statement, ast.If):
            if not _is_type_checking(statement.test):
                yield from _run_at_import(statement.body)
            yield from _run_at_import(statement.orelse)
        elif isinstance(statement, ast.Try):
            for block in (statement.body, statement.orelse, statement.finalbody):
                yield from _run_at_import(block)
            for handler in statement.handlers:
                yield from _run_at_import(handler.body)
        elif isinstance(statement, ast.ClassDef | ast.With):
            yield from _run_at_import(statement.body)


def imported(name: str, *, anywhere: bool = False) -> set[str]:
    """Every module, of sosgame or not, that importing module ``name`` imports by itself.

    With ``anywhere``, the imports inside functions and for the type checker too.
    """
    path = modules()[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    statements = ast.walk(tree) if anywhere else _run_at_import(tree.body)
    found: set[str] = set()
    for statement in statements:
        if isinstance(statement, ast.Import):
            found |= {alias.name for alias in statement.names}
        elif isinstance(statement, ast.ImportFrom):
            base = statement.module or ""
            if statement.level:
                anchor = package.split(".")[: len(package.split(".")) - statement.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            # `from package import module` imports that module (the package only as every
            # module's parent, which is not counted).
            submodules = {f"{base}.{alias.name}" for alias in statement.names} & modules().keys()
            found |= submodules or {base}
    return found


@cache
def graph(*, anywhere: bool = False) -> dict[str, frozenset[str]]:
    """The package's own modules, each with the package's modules it imports."""
    return {
        name: frozenset(imported(name, anywhere=anywhere) & modules().keys()) for name in modules()
    }


def cycles(*, anywhere: bool = False) -> list[set[str]]:
    """The import cycles: each set of modules that import one another (Tarjan's algorithm)."""
    edges = graph(anywhere=anywhere)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(name: str) -> None:
        index[name] = low[name] = len(index)
        stack.append(name)
        for other in sorted(edges[name]):
            if other not in index:
                visit(other)
                low[name] = min(low[name], low[other])
            elif other in stack:
                low[name] = min(low[name], index[other])
        if low[name] == index[name]:
            component = set()
            while True:
                member = stack.pop()
                component.add(member)
                if member == name:
                    break
            if len(component) > 1 or name in edges[name]:
                found.append(component)

    for name in sorted(edges):
        if name not in index:
            visit(name)
    return found


def test_the_graph_is_read_from_the_source() -> None:
    edges = graph()
    assert "sosgame.game" in edges["sosgame"]
    # from sosgame.i18n import texts_cli: a module named in a from-import
    assert "sosgame.i18n.texts_cli" in edges["sosgame.i18n.texts"]
    assert "sosgame.solver" in edges["sosgame.ai.players"]
    # Imports for the type checker alone and inside functions are not followed...
    assert "sosgame.research.distribute" not in edges["sosgame.cli.solve"]
    # ...but for the stricter graph.
    assert "sosgame.research.distribute" in graph(anywhere=True)["sosgame.cli.solve"]


def test_no_import_cycle() -> None:
    assert [sorted(cycle) for cycle in cycles()] == []


def test_no_import_cycle_even_inside_functions() -> None:
    assert [sorted(cycle) for cycle in cycles(anywhere=True)] == []


ROOMS = {"kernel": 2, "search": 2, "solver": 2, "ai": 2, "research": 3}
INTERFACES = ("cli", "tui", "web", "envs", "bot")
"""The rooms of docs/architecture.md beyond the rules core (1): the players and their solver
(2), research (3) and the interfaces (4)."""


def room(name: str) -> int:
    part = name.split(".")[1] if "." in name else ""
    return 4 if part in INTERFACES or part == "__main__" else ROOMS.get(part, 1)


def test_each_room_imports_only_the_rooms_above_it() -> None:
    # The command line starts the other interfaces, and may import them to do so.
    wrong = [
        f"{name} -> {target}"
        for name, targets in graph(anywhere=True).items()
        for target in targets
        if room(target) > room(name)
        or (
            room(name) == room(target) == 4
            and name.split(".")[1] not in ("cli", "__main__", target.split(".")[1])
        )
    ]
    assert sorted(wrong) == []


WEB_TOP = {"app", "config", "defaults", "api", "openapi", "browser"}
WEB_FOLDERS = {
    "endpoints",
    "live",
    "computer",
    "matchmaking",
    "people",
    "storage",
    "network",
    "guards",
    "offline",
    "tournaments",
}
"""The web app's top modules, which put it together, and its folders (docs/architecture.md)."""


def test_the_web_app_keeps_its_modules_in_their_folders() -> None:
    web = PACKAGE / "web"
    top = {path.stem for path in web.glob("*.py")} - {"__init__"}
    folders = {path.name for path in web.iterdir() if (path / "__init__.py").exists()}
    assert top == WEB_TOP
    assert folders == WEB_FOLDERS
    documented = (PACKAGE.parents[1] / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert {name for name in WEB_FOLDERS if f"`web/{name}/`" not in documented} == set()


def test_only_research_imports_research() -> None:
    # The command line loads the research tools inside the options that need them.
    importers = {
        name
        for name, targets in graph().items()
        if not name.startswith("sosgame.research")
        and any(target.startswith("sosgame.research") for target in targets)
    }
    assert importers == set()


def test_the_core_needs_only_the_standard_library() -> None:
    outside = {
        name: sorted(
            target
            for target in imported(name)
            if target.split(".")[0] not in sys.stdlib_module_names
            and target not in CORE
            and target != "__future__"
        )
        for name in CORE
    }
    assert {name: targets for name, targets in outside.items() if targets} == {}


MOST_LINES = 650
"""A module longer than this does more than one job: split it."""


def test_no_module_is_too_long_to_read() -> None:
    lines = {name: len(path.read_text("utf-8").splitlines()) for name, path in modules().items()}
    assert {name: count for name, count in lines.items() if count > MOST_LINES} == {}


# The packages of an extra that the code never imports by name.
NOT_IMPORTED_BY_NAME = {"psycopg"}  # SQLAlchemy loads it for a postgresql:// URL


def _package(requirement: str) -> str:
    return re.split(r"[\[<>=!~; ]", requirement)[0].lower().replace("_", "-")


def test_the_extras_name_the_modules_of_the_packages_pyproject_gives_them() -> None:
    pyproject = tomllib.loads((PACKAGE.parent.parent / "pyproject.toml").read_text("utf-8"))
    declared = pyproject["project"]["optional-dependencies"]
    assert set(EXTRAS) == set(declared) - {"all", "dev"}
    providers = packages_distributions()
    for extra, modules in EXTRAS.items():
        packages = {_package(requirement) for requirement in declared[extra]}
        brought = {_package(package) for module in modules for package in providers[module]}
        assert brought == packages - NOT_IMPORTED_BY_NAME, extra
