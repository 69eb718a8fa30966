# Agora: `make run` serves the product on http://127.0.0.1:8080; `make test` runs every test.
# Both install whatever is missing first (virtualenv, Python and npm packages, web build,
# Chromium for the browser tests), so they work on a fresh clone.

SHELL := /bin/bash
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
STAMPS := .make
WEB_SOURCES := $(shell find web/src web/public -type f 2>/dev/null) web/index.html \
	web/vite.config.ts web/tsconfig.json web/package.json
# Headless Chromium in this sandbox: no GPU, no sandboxing as root, no calls home. The browser
# tests run in its headless shell, the files that check a notification shown in the whole
# browser (tests/e2e/helpers.mjs, launch).
export AGORA_E2E_CHROMIUM ?= /usr/bin/chromium
export AGORA_E2E_HEADLESS_SHELL ?= /usr/lib/chromium/chromium-headless-shell
# Python keeps each module's bytecode once compiled (in .venv, and in the __pycache__ folders
# git ignores), even where the environment says not to (PYTHONDONTWRITEBYTECODE=1, as this
# sandbox's does): without it, every process compiled all it imports from source each time it
# started (a shard 2.5 of its 4 core-seconds), and a test run starts hundreds (docs/decisions.md,
# "make test's time: bytecode").
unexport PYTHONDONTWRITEBYTECODE

.PHONY: help run cluster serve test lint-and-web check test-python-fast test-python test-cluster test-web test-e2e screenshots lint format bench deps lock clean

run: deps $(STAMPS)/web-build ## Serve everything on http://127.0.0.1:8080 (Ctrl-C stops it)
	$(PY) -m agora run

cluster: deps $(STAMPS)/web-build $(STAMPS)/haproxy ## Two edges behind HAProxy on http://127.0.0.1:8080 and two Ray nodes (Ctrl-C stops it)
ifeq ($(filter bench,$(MAKECMDGOALS)),)
	$(PY) -m agora cluster
else
	@:
endif

serve: deps $(STAMPS)/web-build ## One edge against services that already run (AGORA_* settings)
	$(PY) -m agora serve

# The suites one after another, the checks beside the Python suite only: every suite keeps
# two cores busy by itself, and run side by side they took longer than one after another
# (docs/decisions.md, "make test's time"). The Python suite starts once the Python packages
# are in; what only the later suites need (the web build, Chromium, HAProxy: mostly downloads
# and apt's unpacking) is installed beside it, not before it (docs/decisions.md, "make test's
# time: installs beside the Python lane"). Each lane's output is printed whole when it ends.
test: ## Every test suite
	$(MAKE) --jobs=6 --output-sync=target test-python lint-and-web $(STAMPS)/web-build \
		$(STAMPS)/e2e-deps $(STAMPS)/browsers $(STAMPS)/haproxy
	$(MAKE) test-e2e
	$(MAKE) test-cluster

lint-and-web: deps $(STAMPS)/web-deps
	$(MAKE) lint
	$(MAKE) test-web

# The integration tests mostly wait (on Ray, the store, sockets, browsers' stand-ins, the push
# tests' quiet windows): four workers keep two cores busy (276 s against about 315 s with
# three, alone on this machine). They share one Ray head (tests/conftest.py).
TEST_WORKERS ?= 4
PYTEST := $(PY) -m pytest -q -p no:cacheprovider -n $(TEST_WORKERS) --dist loadgroup

test-python: deps
	$(PYTEST) -m "not cluster"

# Tests that start Ray nodes, edges and HAProxy of their own: one at a time, after the browser
# suite (beside the Python suite's workers they made two cores miss Ray's start deadlines).
# Collected from the files that mark tests so: the whole tree's collection (every module
# imported to select five tests) cost 6 s of a core more (docs/decisions.md).
CLUSTER_TEST_FILES = $(shell grep -rl --include='*.py' 'pytest.mark.cluster' tests)
test-cluster: deps $(STAMPS)/haproxy
	$(PY) -m pytest -q -p no:cacheprovider -m cluster $(CLUSTER_TEST_FILES)

check: deps $(STAMPS)/web-deps ## The edit loop: lint, the web's tests, every Python test not marked slow
	$(MAKE) --jobs=2 --output-sync=target test-python-fast lint-and-web

test-python-fast: deps
	$(PYTEST) -m "not slow and not cluster"

test-web: $(STAMPS)/web-deps
	cd web && npm test

# Browser test files run two at a time against one stack: each mostly waits on the pages
# it drives, and each makes people of its own.
E2E_FILES_AT_ONCE ?= 2

test-e2e: deps $(STAMPS)/web-build $(STAMPS)/e2e-deps $(STAMPS)/browsers
	$(PY) -m tests.e2e.harness node --test --test-concurrency=$(E2E_FILES_AT_ONCE) tests/e2e/

screenshots: ## The browser suite, saving each screen it passes at 390 and 1280 px in tests/e2e/screenshots/
	AGORA_E2E_SCREENSHOTS=1 $(MAKE) test-e2e

lint: deps $(STAMPS)/web-deps ## ruff (lint and format), Python import contracts, the chat pipeline's types (mypy), the TypeScript compiler, the web app's layers and import cycles
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports --no-cache
	$(VENV)/bin/mypy
	cd web && npm run typecheck
	cd web && npm run lint

format: deps
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

# `make bench ceiling sends` runs the scenarios named after `bench` (none named: every one);
# BENCH_ARGS passes options (`make bench ceiling BENCH_ARGS="--steps 100,200 --hold 60"`).
BENCH_SCENARIOS := $(filter-out bench,$(MAKECMDGOALS))

bench: deps $(STAMPS)/web-build $(STAMPS)/bench-deps $(STAMPS)/haproxy ## Load scenarios; prints figures, asserts nothing about time
	$(PY) -m loadtest.bench $(BENCH_SCENARIOS) $(BENCH_ARGS)

ifneq ($(filter bench,$(MAKECMDGOALS)),)
# The scenario names are arguments of bench, not targets of their own (`make bench cluster`
# runs the scenario: the cluster target above then does nothing).
$(filter-out cluster,$(BENCH_SCENARIOS)):
	@:
endif

deps: $(STAMPS)/python-deps

$(STAMPS):
	mkdir -p $(STAMPS)

# uv installs exactly what uv.lock names (versions and hashes), and fails when pyproject.toml
# changed without `make lock`. uv itself comes from pip, pinned and hashed.
UV := $(STAMPS)/uv/bin/uv

$(UV): requirements-uv.txt | $(STAMPS)
	$(PYTHON) -m venv $(STAMPS)/uv
	$(STAMPS)/uv/bin/pip install -qq --require-hashes --no-deps -r requirements-uv.txt
	touch $@

$(STAMPS)/python-deps: pyproject.toml uv.lock $(UV)
	$(UV) sync --quiet --locked --extra dev --python $(PYTHON)
	touch $@

lock: $(UV) ## Refresh uv.lock to the newest releases pyproject.toml allows
	$(UV) lock --upgrade --python $(PYTHON)

$(STAMPS)/web-deps: web/package.json web/package-lock.json | $(STAMPS)
	cd web && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The types are checked by `make lint` (npm run typecheck), not again by every build: `make
# test` ran the TypeScript compiler twice, once on its set-up's critical path.
$(STAMPS)/web-build: $(STAMPS)/web-deps $(WEB_SOURCES)
	cd web && npm run build
	touch $@

$(STAMPS)/e2e-deps: tests/e2e/package.json tests/e2e/package-lock.json | $(STAMPS)
	npm ci --prefix tests/e2e --no-audit --no-fund --loglevel=error
	touch $@

# The bench's Node load generator (socket.io-client) and Node relay baseline (socket.io).
$(STAMPS)/bench-deps: loadtest/node/package.json loadtest/node/package-lock.json | $(STAMPS)
	npm ci --prefix loadtest/node --no-audit --no-fund --loglevel=error
	touch $@

# `make --jobs` may want Chromium and HAProxy at once, and apt serves one install at a time
# (its lock refuses the other outright): ours take turns, and wait for anyone else's.
apt_install = flock $(STAMPS)/apt.lock sh -c 'apt-get -o DPkg::Lock::Timeout=300 update -qq && \
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=300 install -y -qq $(1)'

# The emoji font: prices and wallets show currency emoji (the points coin) in screenshots.
BROWSER_PACKAGES := chromium chromium-headless-shell fonts-noto-color-emoji

$(STAMPS)/browsers: | $(STAMPS)
	@if ! test -x $(AGORA_E2E_CHROMIUM) || ! test -x $(AGORA_E2E_HEADLESS_SHELL) || ! test -f /usr/share/fonts/truetype/noto/NotoColorEmoji.ttf; then \
		if [ "$$(id -u)" != 0 ]; then \
			echo "Missing: sudo apt-get install $(BROWSER_PACKAGES)"; exit 1; fi; \
		$(call apt_install,$(BROWSER_PACKAGES)); \
	fi
	touch $@

# Debian's HAProxy, in front of the edges of `make cluster` and of the cluster tests.
$(STAMPS)/haproxy: | $(STAMPS)
	@if ! command -v haproxy >/dev/null && ! test -x /usr/sbin/haproxy; then \
		if [ "$$(id -u)" != 0 ]; then \
			echo "Missing: sudo apt-get install haproxy"; exit 1; fi; \
		$(call apt_install,haproxy); \
	fi
	touch $@

help: ## What each target does
	@grep -hE '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed -E 's/^([a-z-]+):.*## /  make \1\t/' | expand -t 20

clean: ## Forget installs and builds (keeps var/ data)
	rm -rf $(VENV) $(STAMPS) web/node_modules web/dist tests/e2e/node_modules \
		loadtest/node/node_modules
