# Rules service: `make run` serves it, `make test` checks everything. `make help` lists the rest.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
FLASK := $(BIN)/flask --app app
PORT ?= 5000

.DEFAULT_GOAL := help
.PHONY: help setup dev-setup editor browser-tools vendor run serve test test-slow test-all fuzz validate check index db db-or-read-only eval gate-eval translations mutation mutation-all export stress bench clean

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)

# Serving needs requirements.txt only; the test tools come from requirements-dev.txt. Packages
# are not byte-compiled at install (--no-compile): Python compiles what it imports on first use,
# and installing without it takes about 30 s instead of 50 on the project's 2-core machine.
PIP := $(BIN)/pip install --quiet --disable-pip-version-check --no-compile
$(VENV)/.installed: requirements.txt | $(BIN)/activate
	$(PIP) -r requirements.txt
	touch $@

$(VENV)/.dev-installed: requirements-dev.txt $(VENV)/.installed
	$(PIP) -r requirements-dev.txt
	touch $@

$(VENV)/.mutation-installed: requirements-mutation.txt $(VENV)/.dev-installed
	$(PIP) -r requirements-mutation.txt
	touch $@

MO_FILES := $(patsubst %.po,%.mo,$(wildcard translations/*/LC_MESSAGES/messages.po))
%.mo: %.po $(VENV)/.installed
	$(BIN)/pybabel compile --statistics -i $< -o $@

setup: $(VENV)/.installed $(MO_FILES) ## Create .venv, install what serving needs (requirements.txt), compile translations

dev-setup: setup $(VENV)/.dev-installed ## setup, plus the test tools (requirements-dev.txt)

# axe-core, injected into pages by the browser tests (skipped without npm), and MiniSearch, whose
# browser build static/vendor/ holds (make vendor). npm keeps its cache and logs in the checkout
# (.npm-cache/), not in the home folder.
NPM_CACHE := $(CURDIR)/.npm-cache
node_modules/.installed: package.json package-lock.json
	@if command -v npm >/dev/null; then npm_config_cache="$(NPM_CACHE)" npm_config_update_notifier=false npm ci --no-audit --no-fund --silent && touch $@; else echo "npm not found: accessibility audit skipped"; fi

browser-tools: node_modules/.installed

vendor: setup browser-tools ## Copy MiniSearch's browser build (the version package.json pins) into static/vendor/
	$(BIN)/python scripts/vendor_minisearch.py

editor: setup ## Add an editor: make editor NAME=anna DISPLAY="Anna R." (asks for the password twice)
	@test -n "$(NAME)" || { echo "usage: make editor NAME=<login name> [DISPLAY=<name shown in the public history>]"; exit 2; }
	$(FLASK) db upgrade
	$(FLASK) editors add "$(NAME)" $(if $(DISPLAY),--display-name "$(DISPLAY)")

validate: setup ## Validate the content files (file:line: message for every problem)
	$(FLASK) content validate

index: setup ## Build the search index if it is missing or older than the content
	$(FLASK) index build --if-stale

db: setup ## Apply the database migrations (SQLite in instance/, or DATABASE_URL)
	$(FLASK) db upgrade

# Reading never depends on the database: a server starts when it cannot be reached, and says so.
db-or-read-only: setup
	@$(FLASK) db upgrade || echo "The database cannot be used now: serving anyway, read-only (reports and the editors' area answer 503 until it can); run 'make db' once it can." >&2

run: setup index db-or-read-only ## Serve on http://127.0.0.1:5000 (PORT=… for another port)
	$(FLASK) run --host 127.0.0.1 --port $(PORT)

serve: setup index db-or-read-only ## Serve for production: gunicorn with gunicorn.conf.py (RULES_BIND, RULES_WORKERS, RULES_THREADS)
	$(BIN)/gunicorn --config gunicorn.conf.py

check: setup ## Run every FAQ entry's and mistake's check through the rule engines
	$(FLASK) rules check

# Both suites run on every CPU (pytest-xdist; a module stays on one worker, so its fixtures are
# made once) in a random order (pytest-randomly): the seed is printed first, SEED=… repeats an
# order, PYTEST_ARGS=--randomly-dont-reorganize keeps the files' order.
TEST_SEED := $(or $(SEED),$(shell od -An -N4 -tu4 /dev/urandom | tr -d ' '))
PYTEST := $(BIN)/python -m pytest -q -n auto --dist loadscope --randomly-seed=$(TEST_SEED) $(PYTEST_ARGS)

test: dev-setup validate check ## Validate content, run the rule checks and the fast test suite (what a change needs)
	@echo "test order seed $(TEST_SEED) (SEED=$(TEST_SEED) repeats it)"
	$(PYTEST) -m "not slow"

test-slow: dev-setup browser-tools ## The slow tests only: browser, kill, durability, server-process and fuzz tests
	@echo "test order seed $(TEST_SEED) (SEED=$(TEST_SEED) repeats it)"
	$(PYTEST) -m slow

test-all: test test-slow ## Everything: make test, then the slow tests (CI runs this)

# make test draws the same fuzz examples every run; make fuzz explores new ones (Hypothesis
# profile "explore", tests/conftest.py). A failure prints its seed: SEED=… repeats that run;
# FUZZ_EXAMPLES=… sets the examples per test (200).
FUZZ_SEED := $(or $(SEED),$(shell od -An -N4 -tu4 /dev/urandom | tr -d ' '))
FUZZ_TESTS ?= tests/test_fuzz_api.py tests/test_fuzz_pages.py
fuzz: dev-setup ## Fuzz the API and the pages with new examples (SEED=… repeats a run, FUZZ_TESTS=… narrows)
	@echo "fuzz seed $(FUZZ_SEED)"
	HYPOTHESIS_PROFILE=explore $(BIN)/python -m pytest -q -p no:cacheprovider --hypothesis-seed=$(FUZZ_SEED) $(FUZZ_TESTS)

mutation: dev-setup $(VENV)/.mutation-installed ## Mutation testing of the rule engines: a fresh random sample of 400 mutants, its seed printed (N=… to change)
	rm -rf mutants
	$(BIN)/python scripts/mutation_sample.py $(or $(N),400)

mutation-all: dev-setup $(VENV)/.mutation-installed ## Every mutant of the rule engines (hours on 2 cores)
	rm -rf mutants
	$(BIN)/mutmut run --max-children 2
	$(BIN)/python scripts/mutation_score.py

export: setup index db ## Write the static site into site/ and say what to open (BASE_URL=https://… for share links)
	$(FLASK) export site $(if $(BASE_URL),--base-url "$(BASE_URL)")

eval: setup ## Search relevance as the page shows it (the answer card, suggestions), on the tuning sets and the held-out ones
	$(BIN)/python -m rules_index.search.evaluate eval/search-queries.yaml eval/player-questions.yaml eval/table-talk.yaml eval/situations.yaml eval/table-4.yaml eval/table-5.yaml eval/table-6.yaml eval/table-7.yaml eval/table-8.yaml eval/table-9.yaml eval/table-10.yaml eval/table-11.yaml eval/table-12.yaml eval/table-13.yaml eval/table-14.yaml eval/table-15.yaml eval/table-16.yaml eval/spelling.yaml eval/out-of-scope.yaml eval/out-of-scope-3.yaml eval/out-of-scope-4.yaml eval/rules-at-large.yaml eval/held-out-table-talk.yaml eval/held-out-spelling.yaml eval/held-out-situations.yaml eval/held-out-spelling-2.yaml eval/held-out-table-2.yaml eval/held-out-table-3.yaml eval/held-out-out-of-scope.yaml eval/held-out-rules-at-large.yaml eval/held-out-what-it-is.yaml eval/held-out-fresh.yaml

gate-eval: dev-setup ## The change gate on every edit of 23 wrong and 4 right kinds, over 5 fresh seeds (~4 min): refused / held / live
	$(BIN)/python tests/corrections/gate_eval.py --seeds 5

stress: setup ## Load, fault and attack scenarios on loopback (slowloris and a login flood behind nginx, two hosts on one content remote): writes stress/RESULTS.md (~17 min)
	$(BIN)/python -m stress.run

bench: setup ## Benchmarks (HTTP, search vs SQLite FTS5, scale, engines, start-up, accept-to-visible): table + bench/results.json
	$(BIN)/python -m bench.run && $(BIN)/python -m bench.accept

translations: setup ## Extract interface strings into translations/messages.pot and update the catalogs
	$(BIN)/pybabel extract -F babel.cfg -k lazy_gettext -k _l -k plural_message:1,2 --ignore-dirs=.venv -o translations/messages.pot .
	$(BIN)/pybabel update -i translations/messages.pot -d translations

clean: ## Remove the virtualenv and the built index
	rm -rf $(VENV) instance/index* node_modules .npm-cache mutants site
