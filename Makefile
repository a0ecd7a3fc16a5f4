# Two commands set everything up: `make run` and `make test`. See README.md.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test lint format install install-dev setup serve messages bench bench-scale clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Stamp files re-run pip only when pyproject.toml changes.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

setup: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_lessons
	$(BIN)/python manage.py load_demo

run: setup
	@echo ""
	@echo "Serving on http://$(HOST):$(PORT)/  (Ctrl-C stops)"
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

lint: install-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports --no-cache

format: install-dev
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

test: lint
	$(BIN)/python manage.py makemigrations --check --dry-run
	$(BIN)/pytest

# Production-style serving: needs DJANGO_DEBUG=0, DJANGO_SECRET_KEY, DJANGO_ALLOWED_HOSTS.
# No demo data here: its passwords are public.
serve: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py load_lessons
	$(BIN)/python manage.py collectstatic --noinput -v0
	$(BIN)/gunicorn tutor.wsgi --bind $(HOST):$(PORT) --workers $${WEB_CONCURRENCY:-3} --access-logfile -

# Regenerate translations (needs gettext); the compiled .mo files are committed.
messages: install-dev
	$(BIN)/python manage.py jinja_messages
	$(BIN)/python manage.py makemessages -l de -l fr --no-obsolete --no-location
	$(BIN)/python manage.py compilemessages

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .hypothesis .ruff_cache

# Web benchmark and fault test (docs/performance.md): gunicorn on 127.0.0.1:8100 and up
# with production settings, 50 simulated learners, a fresh database each run: SQLite,
# then PostgreSQL when DATABASE_URL is set, then SQLite with the sessions in Redis
# (BENCH_REDIS_URL, database 2 of 127.0.0.1:6379 by default; redis-server is started
# when it is installed and nothing answers). BENCH_ARGS adds options (e.g. --quick).
# Then the live-in-class run (issue 25, bench/live.py: 10 classes of 30 phones and their
# projectors at once, ~2 min each) on SQLite, and on PostgreSQL when DATABASE_URL is
# set; BENCH_LIVE_ARGS adds its options.
BENCH_ARGS ?=
BENCH_LIVE_ARGS ?=
BENCH_REDIS_URL ?= redis://127.0.0.1:6379/2
REDIS_PING = $(BIN)/python -c "import redis, sys; redis.Redis.from_url(sys.argv[1], socket_connect_timeout=1).ping()"
bench: install
	@status=0; \
	$(BIN)/python -m bench.web --db sqlite --faults $(BENCH_ARGS) || status=1; \
	if [ -n "$$DATABASE_URL" ]; then \
		$(BIN)/python -m bench.web --db postgres --faults $(BENCH_ARGS) || status=1; \
	else \
		echo "DATABASE_URL is not set: the PostgreSQL run is skipped."; \
	fi; \
	if ! $(REDIS_PING) "$(BENCH_REDIS_URL)" 2>/dev/null && command -v redis-server >/dev/null; then \
		redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no; \
		sleep 1; \
	fi; \
	if $(REDIS_PING) "$(BENCH_REDIS_URL)" 2>/dev/null; then \
		REDIS_URL="$(BENCH_REDIS_URL)" $(BIN)/python -m bench.web --db sqlite --faults $(BENCH_ARGS) || status=1; \
	else \
		echo "No Redis at $(BENCH_REDIS_URL): the run with the sessions in Redis is skipped."; \
	fi; \
	$(BIN)/python -m bench.live --db sqlite $(BENCH_LIVE_ARGS) || status=1; \
	if [ -n "$$DATABASE_URL" ]; then \
		$(BIN)/python -m bench.live --db postgres $(BENCH_LIVE_ARGS) || status=1; \
	else \
		echo "DATABASE_URL is not set: the live run on PostgreSQL is skipped."; \
	fi; \
	exit $$status

# Scale-out test (issue 17, docs/performance.md): two gunicorn instances behind HAProxy
# (apt-get installs it when missing) on one PostgreSQL ($$DATABASE_URL, else
# 127.0.0.1:5432, a fresh database each run); one server is killed mid-quiz. Then once
# more with the sessions in one Redis shared by both servers (BENCH_SCALE_REDIS_URL,
# emptied first; redis-server is started when it is installed and nothing answers).
BENCH_SCALE_REDIS_URL ?= redis://127.0.0.1:6379/3
bench-scale: install
	@status=0; \
	$(BIN)/python -m bench.scale $(BENCH_ARGS) || status=1; \
	if ! $(REDIS_PING) "$(BENCH_SCALE_REDIS_URL)" 2>/dev/null && command -v redis-server >/dev/null; then \
		redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no; \
		sleep 1; \
	fi; \
	if $(REDIS_PING) "$(BENCH_SCALE_REDIS_URL)" 2>/dev/null; then \
		$(BIN)/python -m bench.scale --redis-url "$(BENCH_SCALE_REDIS_URL)" $(BENCH_ARGS) || status=1; \
	else \
		echo "No Redis at $(BENCH_SCALE_REDIS_URL): the run with the sessions in Redis is skipped."; \
	fi; \
	exit $$status
