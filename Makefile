# Rules service: `make run` serves it, `make test` checks everything. `make help` lists the rest.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
FLASK := $(BIN)/flask --app app
PORT ?= 5000

.DEFAULT_GOAL := help
.PHONY: help setup browser-tools run test validate check index db eval translations mutation mutation-all export stress bench clean

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-10s %s\n", $$1, $$2}'

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: requirements.txt | $(BIN)/activate
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

MO_FILES := $(patsubst %.po,%.mo,$(wildcard translations/*/LC_MESSAGES/messages.po))
%.mo: %.po $(VENV)/.installed
	$(BIN)/pybabel compile --statistics -i $< -o $@

setup: $(VENV)/.installed $(MO_FILES) ## Create .venv, install the pinned requirements, compile translations

# axe-core, injected into pages by the browser tests (skipped without npm).
node_modules/.installed: package.json package-lock.json
	@if command -v npm >/dev/null; then npm ci --no-audit --no-fund --silent && touch $@; else echo "npm not found: accessibility audit skipped"; fi

browser-tools: node_modules/.installed

validate: setup ## Validate the content files (file:line: message for every problem)
	$(FLASK) content validate

index: setup ## Build the search index if it is missing or older than the content
	$(FLASK) index build --if-stale

db: setup ## Apply the database migrations (SQLite in instance/, or DATABASE_URL)
	$(FLASK) db upgrade

run: setup index db ## Serve on http://127.0.0.1:$(PORT)
	$(FLASK) run --host 127.0.0.1 --port $(PORT)

check: setup ## Run every FAQ entry's and mistake's check through the rule engines
	$(FLASK) rules check

test: setup browser-tools validate check ## Validate content, run the rule checks and the whole test suite
	$(BIN)/python -m pytest -q

mutation: setup ## Mutation testing of the rule engines: a seeded sample of 400 mutants (N=… to change)
	rm -rf mutants
	$(BIN)/python scripts/mutation_sample.py $(or $(N),400)

mutation-all: setup ## Every mutant of the rule engines (hours on 2 cores)
	rm -rf mutants
	$(BIN)/mutmut run --max-children 2
	$(BIN)/python scripts/mutation_score.py

export: setup ## Write the static site into site/ (works from a USB stick)
	$(FLASK) export site

eval: setup index ## Search relevance on eval/search-queries.yaml (recall@3, MRR@10)
	$(BIN)/python -m rules_index.search.evaluate eval/search-queries.yaml

stress: setup ## Load and fault scenarios on loopback, memory under random searches: writes stress/RESULTS.md (~10 min)
	$(BIN)/python -m stress.run

bench: setup ## Benchmarks (HTTP, search vs SQLite FTS5, scale, engines, start-up): table + bench/results.json
	$(BIN)/python -m bench.run

translations: setup ## Extract interface strings into translations/messages.pot and update the catalogs
	$(BIN)/pybabel extract -F babel.cfg -k lazy_gettext -k _l --ignore-dirs=.venv -o translations/messages.pot .
	$(BIN)/pybabel update -i translations/messages.pot -d translations

clean: ## Remove the virtualenv and the built index
	rm -rf $(VENV) instance/index* node_modules mutants site
