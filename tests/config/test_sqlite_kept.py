"""On SQLite a finished request's connection is kept for the next request
(config/db/sqlite3): a new connection reads the whole schema with its first
statement, a cost every page and every form POST paid. Kept only between uses, only
for the very file it was opened on."""

from __future__ import annotations

import copy
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connections

from config.db.sqlite3 import base as kept
from tests.conftest import uses_postgres

pytestmark = pytest.mark.skipif(uses_postgres(), reason="SQLite's own backend")


@pytest.fixture
def database(tmp_path: Path, django_db_blocker: Any) -> Iterator[dict[str, Any]]:
    """A database file of the test's own, outside the test database."""
    settings = copy.deepcopy(connections["default"].settings_dict)
    settings["NAME"] = str(tmp_path / "kept.sqlite3")
    kept.forget_all()
    with django_db_blocker.unblock():
        yield settings
    kept.forget_all()


def _wrapper(settings: dict[str, Any]) -> kept.DatabaseWrapper:
    return kept.DatabaseWrapper(copy.deepcopy(settings), alias="kept-test")


def _raw(wrapper: kept.DatabaseWrapper) -> Any:
    wrapper.ensure_connection()
    return wrapper.connection


def test_the_next_request_gets_the_connection_the_last_one_closed(
    database: dict[str, Any],
) -> None:
    first = _wrapper(database)
    with first.cursor() as cursor:
        cursor.execute("CREATE TABLE t (n integer)")
        cursor.execute("INSERT INTO t VALUES (1)")
    raw = first.connection
    first.close()
    assert kept.idle_count() == 1
    # Another request, in a thread of its own as daphne runs each one.
    taken: list[Any] = []

    def request() -> None:
        second = _wrapper(database)
        taken.append(_raw(second))
        with second.cursor() as cursor:
            cursor.execute("SELECT n FROM t")
            taken.append(cursor.fetchall())
        second.close()

    thread = threading.Thread(target=request)
    thread.start()
    thread.join()
    assert taken == [raw, [(1,)]]
    assert kept.idle_count() == 1


def test_a_connection_inside_a_transaction_is_closed_not_kept(
    database: dict[str, Any],
) -> None:
    wrapper = _wrapper(database)
    raw = _raw(wrapper)
    raw.execute("BEGIN")
    raw.execute("CREATE TABLE t (n integer)")
    wrapper.close()
    assert kept.idle_count() == 0
    # Nothing of the open transaction was committed on its way out.
    assert _raw(_wrapper(database)).execute(
        "SELECT count(*) FROM sqlite_master WHERE name = 't'"
    ).fetchone() == (0,)


def test_a_file_made_again_never_gets_an_old_connection(
    database: dict[str, Any],
) -> None:
    wrapper = _wrapper(database)
    old = _raw(wrapper)
    wrapper.close()
    assert kept.idle_count() == 1
    os.remove(database["NAME"])
    Path(database["NAME"]).touch()  # a new file: another inode
    fresh = _wrapper(database)
    assert _raw(fresh) is not old
    fresh.close()


def test_at_most_so_many_are_kept(database: dict[str, Any]) -> None:
    wrappers = [_wrapper(database) for _ in range(kept.KEPT + 3)]
    raws = [_raw(wrapper) for wrapper in wrappers]
    assert len({id(raw) for raw in raws}) == kept.KEPT + 3
    for wrapper in wrappers:
        wrapper.close()
    assert kept.idle_count() == kept.KEPT


def test_the_site_runs_on_it() -> None:
    assert connections["default"].settings_dict["ENGINE"] == "config.db.sqlite3"
    assert isinstance(connections["default"], kept.DatabaseWrapper)
