# Everything a fresh machine with Python 3.11 needs: `make demo` and `make test`.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test lint bench screenshots clean

$(BIN)/python:
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "need $(PYTHON) (set PYTHON=python3.x)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml
	$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

demo: $(STAMP)
	$(BIN)/skilldeck --demo

test: $(STAMP)
	$(BIN)/ruff check engine tui tests
	$(BIN)/python -m pytest

lint: $(STAMP)
	$(BIN)/ruff check engine tui tests
	$(BIN)/ruff format --check engine tui tests

bench: $(STAMP)
	$(BIN)/python tests/bench/bench_catalog.py

screenshots: $(STAMP)
	@echo "no screens yet: the TUI arrives with issue 3"

clean:
	rm -rf $(VENV) build *.egg-info tests/bench/.data
