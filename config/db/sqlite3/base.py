"""Django's SQLite backend, with the connections of finished requests kept for the
next ones.

daphne runs each HTTP request in a thread of its own, and each thread opens its own
connection; the request's end closes it (``games.apps.close_sqlite_after_request``),
since its thread is gone. A new connection costs little to open, but its first
statement reads the whole schema: about 0.7 ms of every page and every form POST, two
of them for a move made by a form. Here a closed connection goes to a small shelf
instead (at most :data:`KEPT` per database file), and the next request's thread takes
it from there, schema read.

A connection is kept only between uses, never inside a transaction, and only for
the very file it was opened on: the shelf is filed by the file's device and inode,
so a database file deleted and made again (a test run's) never gets an old
connection. A database in memory is not kept at all (closing it would destroy it,
and Django never does).
"""

from __future__ import annotations

import os
import threading
from typing import Any

from django.db.backends.sqlite3 import base

KEPT = 8
"""Idle connections kept per database file: a few more than the requests a process
runs at once on a quiet evening; any beyond these are closed."""

FileKey = tuple[str, int, int]

_idle: dict[FileKey, list[Any]] = {}
_lock = threading.Lock()


def _file_of(name: Any) -> FileKey | None:
    try:
        found = os.stat(name)
    except (OSError, TypeError, ValueError):
        return None
    return (os.path.abspath(name), found.st_dev, found.st_ino)


def idle_count() -> int:
    """How many connections wait on the shelf (for tests)."""
    with _lock:
        return sum(len(kept) for kept in _idle.values())


def forget_all() -> None:
    """Close every kept connection."""
    with _lock:
        kept = [conn for conns in _idle.values() for conn in conns]
        _idle.clear()
    for conn in kept:
        conn.close()


class DatabaseWrapper(base.DatabaseWrapper):
    _kept_as: FileKey | None = None

    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        key = None if self.is_in_memory_db() else _file_of(self.settings_dict["NAME"])
        self._kept_as = key
        if key is not None:
            with _lock:
                kept = _idle.get(key)
                conn = kept.pop() if kept else None
            if conn is not None:
                # What Django's schema editor turns off for a while, on again.
                conn.execute("PRAGMA foreign_keys = ON")
                return conn
        conn = super().get_new_connection(conn_params)
        if key is None and not self.is_in_memory_db():
            self._kept_as = _file_of(self.settings_dict["NAME"])  # made just now
        return conn

    def _close(self) -> None:
        conn = self.connection
        key = self._kept_as
        if (
            conn is not None
            and key is not None
            and not conn.in_transaction
            and _file_of(self.settings_dict["NAME"]) == key
        ):
            with _lock:
                kept = _idle.setdefault(key, [])
                if len(kept) < KEPT:
                    kept.append(conn)
                    return
        super()._close()
