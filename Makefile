# Two commands do all the set-up on a fresh machine with Python 3.11+ and make:
#   make run    the referee on a simulated table (no hardware needed)
#   make test   ruff, mypy --strict on every package (game, tournament, firmware_bridge, hardware, vision,
#               referee), and the whole pytest suite
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint typecheck pytest system-deps system-deps-run benchmarks pi-check clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test,dev]'
	touch $@ $(VENV)/.installed-run

# System packages: DejaVu fonts for the camera's shipped classifier (rendered glyphs; without them it falls
# back to OpenCV's Hershey fonts and reads less well), and for the tests Debian's Chromium (browser tests)
# and systemd-analyze (unit file checks), and Mosquitto (the tournament network's tests start their own
# broker; the probe is the binary in /usr/sbin, often not on a user's PATH). Installed with apt when we are root and they are missing;
# otherwise a note says so and the tests that need them skip.
DEJAVU := /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf
define apt_install
	@missing=""; \
	for need in $(1); do \
	  pkg=$${need%%:*}; probe=$${need#*:}; \
	  case "$$probe" in /*) [ -e "$$probe" ] ;; *) command -v "$$probe" >/dev/null 2>&1 ;; esac || missing="$$missing $$pkg"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "installing system packages:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	  else \
	    echo "note: missing system packages$$missing (not root, so not installed)"; \
	  fi; \
	fi
endef

system-deps-run:
	$(call apt_install,fonts-dejavu-core:$(DEJAVU))

system-deps: system-deps-run
	$(call apt_install,chromium:chromium systemd:systemd-analyze espeak-ng:espeak-ng mosquitto:/usr/sbin/mosquitto)

run: $(VENV)/.installed-run system-deps-run
	$(BIN)/referee demo

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .

# referee/ is checked on its own code: the packages it imports (vision, hardware, firmware_bridge) are typed
# and checked by their own runs, so their errors are not reported twice here (--follow-imports=silent).
typecheck: $(VENV)/.installed-test
	$(BIN)/mypy --strict game/ tournament/
	$(BIN)/mypy --strict firmware_bridge/ hardware/ vision/
	$(BIN)/mypy --strict --follow-imports=silent referee/

pytest: $(VENV)/.installed-test system-deps
	$(BIN)/pytest

test: lint typecheck pytest

# The project on Debian arm64 (bookworm) under qemu, installed as docs/install-pi.md says; the root is
# built once and cached in ~/.cache/scrabble-referee/pi-root. Root only; 20-40 minutes with the root cached, so
# not in CI. PI_CHECK_STAGE="demo tests" runs some stages. See .ci/pi-check and docs/install-pi.md.
pi-check:
	$(call apt_install,qemu-user-static:/usr/bin/qemu-aarch64-static binfmt-support:/usr/sbin/update-binfmts debootstrap:/usr/sbin/debootstrap)
	.ci/pi-check

benchmarks: $(VENV)/.installed-test
	@for b in benchmarks/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
