# `make demo` needs Python 3.11; `make test` also npm (the pinned Claude Code) and tmux (apt).
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# Exact versions for a reproducible suite (the snapshot tests draw with these textual/rich).
CONSTRAINTS := tests/constraints.txt

.PHONY: demo test lint bench screenshots tmux clean fuzz oracle claude-oracle agents-oracle

$(BIN)/python:
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "need $(PYTHON) (set PYTHON=python3.x)"; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): $(BIN)/python pyproject.toml $(CONSTRAINTS)
	$(BIN)/python -m pip install --quiet -c $(CONSTRAINTS) -e '.[test]'
	@touch $(STAMP)

demo: $(STAMP)
	$(BIN)/skilldeck --demo --backend offline

# The end-to-end test drives the installed command in tmux; install it when the machine lacks it.
tmux:
	@command -v tmux >/dev/null 2>&1 || { \
		echo "installing tmux for the end-to-end test"; \
		if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
		$$SUDO apt-get update -qq && $$SUDO apt-get install -y -qq tmux >/dev/null; }

# The pinned Claude Code (tests/oracle/VERSION) in .oracle/ (ignored by git), installed with npm
# when missing or another version: the compare tests run it (tests/engine/compare/test_compare.py).
claude-oracle:
	@if [ "$$(.oracle/node_modules/.bin/claude --version 2>/dev/null | cut -d' ' -f1)" != "$$(cat tests/oracle/VERSION)" ]; then \
		command -v npm >/dev/null 2>&1 || { echo "need npm to install the pinned Claude Code into .oracle/"; exit 1; }; \
		npm install --prefix .oracle --no-audit --no-fund @anthropic-ai/claude-code@$$(cat tests/oracle/VERSION); fi

# The other agents that read skill folders (tests/oracle/AGENTS pins each: agent, npm package,
# version), each in its own prefix .oracle/agents/<agent>/ (ignored by git, never on PATH), installed
# when missing or another version. Only `make oracle` needs them: the tests read the recordings.
agents-oracle:
	@while read -r agent package version; do \
		case "$$agent" in ''|'#'*) continue;; esac; \
		bin=.oracle/agents/$$agent/node_modules/.bin/$$agent; \
		home=$$(mktemp -d); have=$$(HOME=$$home timeout 120 $$bin --version 2>/dev/null); rm -rf "$$home"; \
		if ! printf '%s' "$$have" | grep -qF "$$version"; then \
			command -v npm >/dev/null 2>&1 || { echo "need npm to install $$package into .oracle/agents/"; exit 1; }; \
			mkdir -p .oracle/agents/$$agent; \
			timeout 900 npm install --prefix .oracle/agents/$$agent --no-audit --no-fund "$$package@$$version" </dev/null || exit 1; \
		fi; \
	done < tests/oracle/AGENTS

test: $(STAMP) tmux claude-oracle
	$(BIN)/ruff check engine tui tests
	$(BIN)/ruff format --check engine tui tests
	$(BIN)/mypy
	$(BIN)/python -m pytest

# The fuzz tests with many inputs and a new seed each time (make test runs them with a fixed
# seed and few inputs). Replay a failure with the seed it prints: make fuzz FUZZ_SEED=<seed>.
FUZZ_N ?= 3000
fuzz: $(STAMP)
	@seed=$${FUZZ_SEED:-$$(date +%s)}; \
	echo "fuzz seed $$seed, $(FUZZ_N) inputs per test (replay: make fuzz FUZZ_SEED=$$seed)"; \
	SKILLDECK_FUZZ_SEED=$$seed SKILLDECK_FUZZ_N=$(FUZZ_N) $(BIN)/python -m pytest tests/fuzz || \
		{ echo "fuzz failed with seed $$seed: make fuzz FUZZ_SEED=$$seed"; exit 1; }

# mypy checks what [tool.mypy] in pyproject.toml lists (engine/ and tui/, strictly).
lint: $(STAMP)
	$(BIN)/ruff check engine tui tests
	$(BIN)/ruff format --check engine tui tests
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python tests/bench/bench_catalog.py
	$(BIN)/python tests/bench/bench_scale.py
	$(BIN)/python tests/bench/bench_tui.py
	$(BIN)/python tests/bench/bench_watch.py
	$(BIN)/python tests/bench/bench_run.py
	$(BIN)/python tests/bench/bench_conversation.py
	$(BIN)/python tests/bench/bench_evals.py
	$(BIN)/python tests/bench/bench_compare.py
	$(BIN)/python tests/bench/bench_agents.py
	$(BIN)/python tests/bench/bench_usage.py

# Record what the pinned Claude Code decides for every permission case and loads and lists for
# every listing case (tests/oracle/README.md), then what the other agents send about skills for
# every agents case (tests/oracle/record_agents.py).
# Installs that version into .oracle/ (ignored by git) unless it is already there. The listing
# and permission tests read the committed recordings; the comparison's tests run that binary
# (`make test` installs it: claude-oracle above).
ORACLE_VERSION = $(shell cat tests/oracle/VERSION)
oracle: $(STAMP)
	@if [ "$$(.oracle/node_modules/.bin/claude --version 2>/dev/null | cut -d' ' -f1)" != "$(ORACLE_VERSION)" ]; then \
		npm install --prefix .oracle --no-audit --no-fund @anthropic-ai/claude-code@$(ORACLE_VERSION); fi
	$(BIN)/python -m tests.oracle.record
	$(BIN)/python -m tests.oracle.record_listing
	$(BIN)/python -m tests.oracle.record_invoke
	$(MAKE) agents-oracle
	$(BIN)/python -m tests.oracle.record_agents
	$(BIN)/python -m tests.oracle.record_plugins
	# The usage cases run Claude Code and Codex CLI (installed by agents-oracle above).
	$(BIN)/python -m tests.oracle.record_usage

screenshots: $(STAMP)
	$(BIN)/python tests/make_screenshots.py

clean:
	rm -rf $(VENV) build *.egg-info
