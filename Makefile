# `make run` and `make test` set up everything they need on a fresh machine by themselves.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
SOURCES := src tests benchmarks examples

.PHONY: node install run test check fast lint typecheck kernels unit system browser bench catalogs book puzzles clean

# The packages install with uv (its parallel downloads take a third of pip's minute on a
# fresh machine), or with pip where uv cannot. Their bytecode is compiled at install, as pip
# does: where PYTHONDONTWRITEBYTECODE is set, every process the tests start would otherwise
# compile each module it imports anew.
$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check uv
	$(BIN)/uv pip install --quiet --compile-bytecode --python $(BIN)/python -e ".[dev,all]" || \
	  $(BIN)/python -m pip install --quiet --disable-pip-version-check -e ".[dev,all]"
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP) node
	$(BIN)/sosgame serve --host 127.0.0.1 --port 8000

lint: $(STAMP)
	$(BIN)/ruff check $(SOURCES)
	$(BIN)/ruff format --check $(SOURCES)

typecheck: $(STAMP)
	$(BIN)/mypy --strict src

# Debian packages the tests need: chromium for the browser tests (never a downloaded browser
# build) with the Noto fonts its Hindi pages need; PostgreSQL and Redis for the server's tests
# on real servers. Installed only when missing.
SYSTEM_PACKAGES := chromium:/usr/bin/chromium postgresql:/usr/lib/postgresql \
  redis-server:/usr/bin/redis-server nodejs:/usr/bin/node npm:/usr/bin/npm \
  fonts-noto-core:/usr/share/fonts/truetype/noto/NotoSansDevanagari-Regular.ttf
system:
	@missing=""; for entry in $(SYSTEM_PACKAGES); do \
	  test -e "$${entry#*:}" || missing="$$missing $${entry%%:*}"; done; \
	if [ -n "$$missing" ]; then \
	  SUDO=$$(test "$$(id -u)" -eq 0 || echo sudo); \
	  $$SUDO apt-get update && \
	  $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y $$missing; fi

browser: system

# The npm packages, at the versions package-lock.json pins, installed only when node_modules/
# lacks them: Pyodide, which the server hands the browser for play on the device, and the
# browser checks' Lighthouse and axe-core.
NODE_STAMP := node_modules/.package-lock.json
$(NODE_STAMP): package-lock.json | system
	npm ci --no-audit --no-fund

# For `make run`: the same install where npm is found; without it the server still runs, and
# its page says that offline play is not installed.
node:
	@if ! command -v npm >/dev/null; then echo "npm not found: offline play is not installed"; \
	elif [ ! $(NODE_STAMP) -nt package-lock.json ]; then npm ci --no-audit --no-fund; fi

# Three workers on two cores: most of the suite waits on servers, browsers and subprocesses
# (a run with two workers keeps the cores under half busy), so a third worker fills the
# waits. The tests that time what the load would skew run alone (below). Each worker takes a
# third of the tests in their order, and a worker with nothing left takes half of what another
# has left (--dist worksteal): a module's tests mostly stay on one worker, which starts its
# module-wide browser and server once, not once on each (on a machine whose cores are all busy,
# 7% less time than handing out one test at a time). tests/conftest.py puts the longest
# modules first: the first worker starts on them, and the run ends on short tests.
# The tests marked "alone" time something (a probe game under attack, Lighthouse's performance
# score): they run alone, after the rest, since the other worker's servers, browsers and
# searches beside them would skew the timings. Each tier ends with its slowest tests, to see
# where the run's time goes. Bytecode is kept (PYTHONDONTWRITEBYTECODE cleared), as in
# `make fast`: the hundreds of servers and workers the tests start then compile the package's
# modules once, not each anew.
unit: $(STAMP) system $(NODE_STAMP)
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -q -n 3 --dist worksteal -m "not alone" --durations=40
	PYTHONDONTWRITEBYTECODE= $(BIN)/pytest -q -m alone --durations=10

# The set-up steps that do not wait on each other run at once: the Debian packages and the
# npm packages install while pip does, and the compiled kernels build (one core for a minute
# on a fresh machine) while the linters and the type checker run on the other.
test:
	$(MAKE) --no-print-directory -j 4 lint typecheck kernels system $(NODE_STAMP)
	$(MAKE) --no-print-directory unit

# The compiled kernels in their disk cache (the tests' session also builds them if missing).
kernels: $(STAMP)
	$(BIN)/python -m sosgame.ai.build --wait

# The fast loop: lint, types and the tests that need no browser, database or Redis server, no C
# compiler and no compiled kernels (they run as plain Python); tests/conftest.py marks the rest
# "slow". It tries fewer examples of each property (the Hypothesis profile "sosgame-fast") and
# keeps compiled bytecode between runs, runs a sample of the widest parametrizations (the rest
# are marked slow with tests/sos_sample.py) and leaves out the timing tests that must run
# alone. Four workers on two cores: a third of the tier's time is waiting (the Textual tests'
# event loops), which the extra workers fill. `make test` still runs everything, every example.
fast: $(STAMP)
	PYTHONDONTWRITEBYTECODE= HYPOTHESIS_PROFILE=sosgame-fast NUMBA_DISABLE_JIT=1 $(BIN)/pytest -q -m "not slow and not alone" -n 4

check: lint typecheck fast

# The compiled kernels are built first: a benchmark started on an incomplete cache would time
# the plain-Python search that a first run uses while they are built.
bench: $(STAMP)
	$(BIN)/python -m sosgame.ai.build --wait
	$(BIN)/python benchmarks/first_move.py
	$(BIN)/python benchmarks/engine.py
	$(BIN)/python benchmarks/envs.py
	$(BIN)/python benchmarks/kernel.py && nice $(BIN)/python benchmarks/solver.py
	nice $(BIN)/python benchmarks/versus_c.py
	$(BIN)/python benchmarks/search.py
	$(BIN)/python benchmarks/web_load.py
	$(BIN)/python benchmarks/bots.py
	$(BIN)/python benchmarks/web_page.py
	$(BIN)/python benchmarks/offline.py
	$(BIN)/python benchmarks/analysis_web.py
	nice $(BIN)/python benchmarks/quality.py --nodes 600000
	nice $(BIN)/python benchmarks/book_reach.py
	nice $(BIN)/python benchmarks/mirror_split.py
	nice $(BIN)/python benchmarks/book_reach.py --size 5x5 --mode simple
	$(BIN)/python benchmarks/overrun.py
	nice $(BIN)/python benchmarks/simple_solve.py
	nice $(BIN)/python benchmarks/tui.py
	$(BIN)/python benchmarks/tournaments.py
	$(BIN)/python benchmarks/tournament_results.py

# The interface texts: English in src/sosgame/i18n/texts_*.py, a .po catalog per other language.
# Extract the template, merge it into each catalog (new texts arrive untranslated), compile.
LOCALE := src/sosgame/i18n/locale
catalogs: $(STAMP)
	$(BIN)/pybabel extract --no-default-keywords -k text:1c,2 -k plural:1c,2,3 --no-location \
	  --project sosgame --version 0.1 --copyright-holder "The sosgame developers" \
	  --msgid-bugs-address "the sosgame issue tracker" --width 100 \
	  -o $(LOCALE)/sosgame.pot src/sosgame/i18n/texts_*.py
	$(BIN)/pybabel update -D sosgame -i $(LOCALE)/sosgame.pot -d $(LOCALE) --no-fuzzy-matching \
	  --width 100
	$(BIN)/pybabel compile -D sosgame -d $(LOCALE) --statistics

# The opening book of perfect (src/sosgame/ai/book.json), from the exact solver; a board
# already in it is kept, so remove the file (or pass --again) to rebuild everything. 5x5
# simple, too large to solve position by position, takes the first player's moves from its
# certificate, and the second player's first move from the pieces of its split solve; the
# second player's walk stops at 20 empty cells, where the solver is quick at a second a move.
book: $(STAMP)
	nice $(BIN)/python -m sosgame.research.book_build
	nice $(BIN)/python -m sosgame.research.book_build --boards 5x5 --modes simple --seats first \
	  --certificate data/certificates/5x5-simple.json.gz
	nice $(BIN)/python -m sosgame.research.book_build --boards 5x5 --modes simple --seats second \
	  --pieces 2 --until 20 --memory 2048

# The puzzles (src/sosgame/ai/puzzles.json.gz), from games of the computer levels, each proven
# by the exact solver. The games already judged are kept in data/puzzles/work.jsonl, so a run
# stopped half-way goes on where it was; the last step proves every packed puzzle again.
puzzles: $(STAMP)
	nice $(BIN)/python -m sosgame.research.puzzles --games 400
	$(BIN)/python -m sosgame.research.puzzles --pack
	nice $(BIN)/python -m sosgame.research.puzzles --verify

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
