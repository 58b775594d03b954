"""Settings for the whole suite: nothing may depend on how fast this machine is today.

The tests are sorted into tiers here, by what they need, so that no test file has to say it:

* ``postgres``, ``redis``: a real server of that kind (the fixtures of ``sos_services``);
* ``browser``: chromium, or a live server process the browser tests drive;
* ``compiled``: the numba kernels compiled (their own tests, the solver's) or a C compiler;
* ``slow``: all of the above, and the modules whose searches take minutes.

``make check`` runs ``pytest -m "not slow"`` with ``NUMBA_DISABLE_JIT=1``: the fast loop, which
needs none of those; ``make test`` runs everything.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# The real PostgreSQL and Redis servers' fixtures, for every test module.
pytest_plugins = ["sos_services"]

# The interfaces speak the locale's language: the suite runs in English whatever the machine's
# locale is, and the tests that check other languages say so themselves.
for _variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_variable, None)
os.environ["LANG"] = "C.UTF-8"

# Hypothesis times each example (200 ms by default) and flags slow data generation: both
# fail on a machine busy with other work, so neither is checked. Speed lives in benchmarks.
settings.register_profile("sosgame", deadline=None, suppress_health_check=[HealthCheck.too_slow])
# The fast loop (``make check`` sets HYPOTHESIS_PROFILE) tries fewer examples of each property;
# the costliest properties take their count from it (``sos_strategies.examples``).
settings.register_profile("sosgame-fast", settings.get_profile("sosgame"), max_examples=10)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "sosgame"))

# The servers the tests start (`sosgame serve` in a child process) start their computers'
# workers at the first computer move, not with themselves: most never make one, and each
# worker loads the compiled kernels (seconds of a core). The tests of the readying itself
# call it directly.
os.environ.setdefault("SOSGAME_PREPARE_COMPUTERS", "0")
CHEAP_PASSWORDS = {"SOSGAME_PASSWORD_TIME_COST": "1", "SOSGAME_PASSWORD_MEMORY_KIB": "32"}
# Their passwords are hashed at argon2's least cost: a real hash takes a fifth of a second of
# a core (20 name claims: 3.9 s of CPU at the real cost, 0.16 s at the least). The tests of
# a flood of logins (tests/sos_hostile.py) and the lane's own tests hash at the real cost; so
# do servers made in the tests' process, unless made by ``sos_web.app_client``.
for _name, _value in CHEAP_PASSWORDS.items():
    os.environ.setdefault(_name, _value)

MARKS = {
    "postgres": "needs a real PostgreSQL server",
    "redis": "needs a real Redis server",
    "browser": "needs chromium or a live server process",
    "compiled": "needs the numba kernels compiled, or a C compiler",
    "slow": "left out of the fast loop (make check): any mark above, or minutes of search",
    "hostile": "times a probe game under attack (and so runs alone)",
    "alone": "times what another worker's load would skew: runs alone, after the rest",
}

# Marks by the fixtures a test uses (directly or through other fixtures).
FIXTURE_MARKS = {
    "postgres_server": "postgres",
    "postgres_url": "postgres",
    "redis_server": "redis",
    "redis_url": "redis",
    "server": "browser",
    "browser": "browser",
    "page": "browser",
    "context": "browser",
    "desktop": "browser",
    "phone": "browser",
}

# Marks by a fixture's parameter: the databases a test runs on, one parameter each.
PARAMETER_MARKS = {"postgresql": "postgres", "redis": "redis"}

# Marks by module: what a whole file needs. The modules marked only "slow" search for minutes
# (split solves, certificates, the opening book, subprocess runs of every extra).
MODULE_MARKS = {
    "test_kernel": "compiled",
    "test_solver": "compiled",
    "test_solver_split": "compiled",
    "test_solver_threads": "compiled",
    "test_cli_solve": "compiled",
    "test_ai_prove": "compiled",
    "test_ai_keep_value": "compiled",
    "test_ai_search": "compiled",
    "test_ai_book": "slow",
    "test_certify": "slow",
    "test_certify_walk": "slow",
    "test_envs_research": "slow",
    "test_extras": "slow",
    "test_tui_terminal": "slow",
    "test_web_shared": "slow",
    "test_web_hostile": "slow",
}

# Single tests of the fast modules that search for many seconds as plain Python, or start
# real server processes and wait out a server's deadline (by name, all their parameters).
SLOW_TESTS = {
    "test_clients_that_send_their_headers_slowly_are_cut_off_while_others_are_served",
    "test_the_h11_parser_cuts_slow_clients_off_too",
    "test_while_postgresql_is_down_http_answers_503_and_the_health_check_says_so",
    "test_serve_with_other_hosts_answers_for_them_only",
    "test_x_forwarded_for_is_believed_only_from_the_proxies_the_operator_names",
    "test_health_says_not_ok_while_a_real_redis_is_down_and_ok_once_it_is_back",
    "test_processes_started_together_on_a_sqlite_file_all_start",
    "test_serve_processes_started_at_the_same_moment_on_a_new_database_all_serve",
    "test_a_big_board_scrolls_with_its_labels_and_keeps_the_cursor_and_new_line_in_view",
    "test_hard_and_perfect_play_the_solved_move_whatever_the_budget",
    "test_hard_never_loses_in_the_mirror_seat",
    "test_no_reply_beats_the_mirror_strategy",
    "test_perfect_plays_one_of_the_solver_best_moves",
    "test_the_mirror_interval_holds_the_exact_value",
    "test_the_solved_table_and_its_json_agree",
    "test_a_random_sample_of_all_the_shipped_puzzles_is_proven_again",
}


def pytest_configure(config: pytest.Config) -> None:
    for name, meaning in MARKS.items():
        config.addinivalue_line("markers", f"{name}: {meaning}")


def marks_of(item: pytest.Item) -> set[str]:
    """The tier marks ``item`` gets from its fixtures, parameters, module and folder."""
    fixtures = getattr(item, "fixturenames", ())
    marks = {FIXTURE_MARKS[name] for name in fixtures if name in FIXTURE_MARKS}
    callspec = getattr(item, "callspec", None)
    if callspec is not None:
        marks |= {
            PARAMETER_MARKS[value]
            for value in callspec.params.values()
            if isinstance(value, str) and value in PARAMETER_MARKS
        }
    path = Path(str(item.path))
    if path.stem in MODULE_MARKS:
        marks.add(MODULE_MARKS[path.stem])
    if path.parent.name == "browser":
        marks.add("browser")
    if item.get_closest_marker("hostile") is not None:
        marks.add("alone")
    if marks or getattr(item, "originalname", item.name) in SLOW_TESTS:
        marks.add("slow")
    return marks


# The modules whose tests take longest (minutes of servers, subprocesses or searches in all),
# longest first. They come first, so that under `pytest -n --dist worksteal` the first
# worker starts on them and the others, once through their own share, take the short tests
# at the end of its queue: the workers finish together, not one alone with a long module.
FIRST_MODULES = (
    "test_web_shared",
    "test_web_edges",
    "test_solver_threads",
    "test_web_caps_at_once",
    "test_ai_keep_value",
    "test_ai_book",
    "test_web_shared_pools",
    "test_web_ws",
)


def _module_rank(item: pytest.Item) -> int:
    stem = Path(str(item.path)).stem
    return FIRST_MODULES.index(stem) if stem in FIRST_MODULES else len(FIRST_MODULES)


# Before the mark plugin deselects by -m, so that the marks given here count.
@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        for name in sorted(marks_of(item)):
            item.add_marker(name)
    # A stable sort: each module's tests stay together and in their order.
    items.sort(key=_module_rank)


def pytest_sessionstart(session: pytest.Session) -> None:
    """Build the compiled kernels once, before any test, into the disk cache.

    The test processes, servers and worker processes then load them (a process that found
    the cache incomplete would run its kernels as plain Python, far slower, and start a
    build of its own). The fast tier runs them as plain Python (``NUMBA_DISABLE_JIT=1``), so
    there is nothing to build.
    """
    from sosgame.kernel_cache import build_now, numba_wanted

    if not numba_wanted():
        return
    if build_now() != 0:
        pytest.exit("the compiled kernels could not be built", returncode=1)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    # A file whose every test belongs to a tier left out (say `pytest -m "not slow"
    # tests/test_kernel.py`) has run all it was asked to: that is no failure.
    chosen = session.config.option.markexpr or session.config.option.keyword
    if exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED and chosen:
        session.exitstatus = pytest.ExitCode.OK
