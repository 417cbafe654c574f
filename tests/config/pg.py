"""Cutting the test database's connections from the server side, as a restart, a
failover or a proxy's idle kill would (pg_terminate_backend)."""

from __future__ import annotations

import psycopg
from django.conf import settings
from django.db import connection


def _admin() -> psycopg.Connection:
    database = settings.DATABASES["default"]
    return psycopg.connect(
        host=database["HOST"] or "127.0.0.1",
        port=database["PORT"] or 5432,
        user=database["USER"],
        password=database["PASSWORD"] or None,
        dbname="postgres",
        autocommit=True,
    )


def cut_connections() -> int:
    """End every server process of the test database; return how many there were."""
    with _admin() as admin:
        rows = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = %s AND pid <> pg_backend_pid()",
            [connection.settings_dict["NAME"]],
        ).fetchall()
    return len(rows)
