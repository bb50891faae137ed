# skillforge: every target creates .venv and installs what it needs when missing.
SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | sha1sum | cut -c1-12)
SKILL ?= sample_skills/csv-insights

.PHONY: run test bench system-deps clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "skillforge needs Python >= 3.11 (set PYTHON=...)")'
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@rm -f $(VENV)/.installed-*
	@touch $(STAMP)

## make run: open skillforge on a sample skill
run: $(STAMP)
	$(BIN)/skillforge $(SKILL)

## make test: system packages (tmux, debootstrap, chromium...), then the whole suite
test: $(STAMP) system-deps
	$(BIN)/python -m pytest

## make bench: benchmarks, each printing one JSON document
bench: $(STAMP)
	@for b in tests/bench/bench_*.py; do $(BIN)/python $$b || exit 1; done

system-deps:
	@bash tools/system-deps.sh

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
