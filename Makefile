# Two commands do all the set-up on a fresh machine with Python 3.11+ and make:
#   make run    the referee on a simulated table (no hardware needed)
#   make test   ruff, mypy --strict game/, and the whole pytest suite
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint typecheck pytest system-deps benchmarks clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test,dev]'
	touch $@ $(VENV)/.installed-run

# System packages the tests use: Debian's Chromium for the browser tests, systemd-analyze for the unit
# file checks. Installed with apt when we are root and they are missing; otherwise those tests skip.
system-deps:
	@missing=""; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	command -v systemd-analyze >/dev/null 2>&1 || missing="$$missing systemd"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing system packages:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	  else \
	    echo "note: missing$$missing (not root, so not installed); the tests that need them will skip"; \
	  fi; \
	fi

run: $(VENV)/.installed-run
	$(BIN)/referee demo

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .

typecheck: $(VENV)/.installed-test
	$(BIN)/mypy --strict game/

pytest: $(VENV)/.installed-test system-deps
	$(BIN)/pytest

test: lint typecheck pytest

benchmarks: $(VENV)/.installed-test
	@for b in benchmarks/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
