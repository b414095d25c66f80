# The README's two quick-start commands are `make play` and `make test`.
# Both create .venv with the machine's python3 and install what is needed when .venv is
# missing or a requirements file changed (`make setup` is the shared step).

PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
ENGINE := game/compiled-engine.json
# the engine's modules, as setup.py lists them (its ENGINE)
ENGINE_SOURCES := $(shell sed -n 's/^ENGINE = (\(.*\))$$/\1/p' setup.py | tr -d '",')

.PHONY: setup play test test-slow lint bench clean

$(STAMP): requirements.txt requirements-dev.txt
	@$(PYTHON) -m venv $(VENV) 2>/dev/null || { \
	  echo "python3 -m venv failed: installing Debian's python3-venv"; \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -qq && apt-get install -y -qq python3-venv >/dev/null && $(PYTHON) -m venv $(VENV); \
	  else echo "please install the python3-venv package (e.g. sudo apt-get install python3-venv)"; exit 1; fi; }
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	@echo "compiling the clause learner and the genetic repair (numba, once: about a minute)"
	$(PY) -c "from solvers.search.learning import warm_up; warm_up()"
	$(PY) -c "from solvers.genetic.algorithm import warm_up; warm_up()"
	@touch $(STAMP)

# The propagation engine compiled ahead of time from its source (mypyc); again when it changes.
# Without a C compiler the build says so and the same source runs as Python.
$(ENGINE): $(STAMP) setup.py $(ENGINE_SOURCES)
	@echo "compiling the propagation engine (mypyc, once: about ten seconds)"
	@mkdir -p build && $(PY) setup.py -q build_ext --inplace >build/engine.log 2>&1 || true
	@$(PY) -c "import solvers.propagation as p; print('the propagation engine runs', \
	  'compiled' if p.ENGINE == 'compiled' else 'as Python (not compiled: why is in build/engine.log)')"
	@touch $(ENGINE)

setup: $(STAMP) $(ENGINE)

play: setup
	$(PY) main.py

test: setup
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(PY) -m pytest -q

test-slow: setup
	SDL_VIDEODRIVER=dummy SDL_AUDIODRIVER=dummy $(PY) -m pytest -q -m slow

lint: setup
	$(PY) -m ruff check .
	$(PY) -m mypy

bench: setup
	$(PY) main.py bench ../shared/corpus/csplib_prob014_rubin.jsonl --solver forward

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache
