# The two commands a newcomer needs, and the pieces they are made of.
#   make run    set everything up, then serve the site on http://127.0.0.1:8000 (SQLite;
#               PORT=8080 / HOST=0.0.0.0 to serve elsewhere)
#   make test   set everything up, then run lint and the whole test suite
# DATABASE_URL and REDIS_URL switch either to PostgreSQL and Redis.

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat requirements.txt constraints.txt | cksum | cut -d' ' -f1)
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test setup lint pytest messages bench bench-engine bench-live bench-history bench-chaos bench-clubs bench-tournament bench-analysis bench-voice clean

run: setup
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py demo_data
	@echo "Podpolye: http://$(HOST):$(PORT)/  (demo players are listed above)"
	@# The site and, beside it, the turn clocks' runner (time-outs, practice bots).
	$(BIN)/python manage.py serve $(HOST):$(PORT)

test: setup lint pytest

setup: $(STAMP)

# constraints.txt pins every transitive dependency too (see its header).
$(STAMP): requirements.txt constraints.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt -c constraints.txt
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/lint-imports

# One pytest worker per core (each with its own test database and, for the browser
# tests, its own daphne); PYTEST_WORKERS=0 runs in one process.
PYTEST_WORKERS ?= auto
pytest: setup
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

# Refresh the translation catalogues after changing strings (needs GNU gettext).
# The compiled .mo files are committed, so running the site never needs gettext.
messages: setup
	$(BIN)/python manage.py makemessages --locale ru --locale en --locale fa --ignore '.venv/*' --ignore 'staticfiles/*' --ignore 'tests/*' --no-obsolete
	$(BIN)/python manage.py makemessages --domain djangojs --locale ru --locale en --locale fa --ignore '.venv/*' --ignore 'staticfiles/*' --ignore 'tests/*' --no-obsolete
	$(BIN)/python manage.py compilemessages --ignore '.venv/*'

# The benchmark scripts print their figures (see README). DATABASE_URL / REDIS_URL
# switch bench-live and bench-history to PostgreSQL and Redis too.
bench: bench-engine bench-live bench-history

bench-engine: setup
	$(BIN)/python -m bench.engine

bench-live: setup
	$(BIN)/python -m bench.live

bench-history: setup
	$(BIN)/python -m bench.history

# Not part of `make bench`: longer runs.
bench-clubs: setup
	$(BIN)/python -m bench.clubs

bench-tournament: setup
	$(BIN)/python -m bench.tournament

bench-analysis: setup
	$(BIN)/python -m bench.analysis

# The voice rooms in headless Chromium (SEATS="3 6 10").
SEATS ?= 3 6
bench-voice: setup
	$(BIN)/python -m bench.voice --seats $(SEATS)

# A reliability run on PostgreSQL (DATABASE_URL) with its
# own private redis-server; MINUTES=30 for the soak.
MINUTES ?= 10
bench-chaos: setup
	$(BIN)/python -m bench.chaos --minutes $(MINUTES)

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .mypy_cache .ruff_cache .hypothesis test-db.sqlite3*
