"""Django's PostgreSQL backend with a pool that is back as soon as the server is.

Django 5.2's psycopg pool checks each connection it hands out (with
``CONN_HEALTH_CHECKS``), but after every dead one it finds it sleeps before the next
(psycopg_pool's back-off: 1, 2, 4 … s). When the server has cut every connection (a
restart, a failover, ``pg_terminate_backend``) the pool holds nothing but dead ones,
and a request waited out the pool's whole timeout and answered 503, on every
process at once. Here a dead connection found on borrowing makes the pool check all
its idle connections at once, with no sleep, and the request gets a fresh one; the
pool's reconnection attempts, while the server is down, are tried every
``RECONNECT_EVERY`` seconds rather than at growing intervals, so the first request
after the server accepts again is served."""

from __future__ import annotations

from time import monotonic
from typing import Any

from django.db.backends.postgresql import base
from psycopg_pool import ConnectionPool, PoolTimeout
from psycopg_pool import base as pool_base

# psycopg_pool's one knob for its reconnection attempts is this class's constants
# (it reads them on every attempt): a short, constant pause instead of doubling.
RECONNECT_EVERY = 0.2
pool_base.AttemptWithBackoff.INITIAL_DELAY = RECONNECT_EVERY
pool_base.AttemptWithBackoff.DELAY_BACKOFF = 1.0


class Pool(ConnectionPool):
    """A pool created without its own check (``check=None``) that checks each
    connection as it hands it out, and on a dead one checks every idle one."""

    def getconn(self, timeout: float | None = None) -> Any:
        deadline = monotonic() + (self.timeout if timeout is None else timeout)
        while True:
            left = deadline - monotonic()
            if left <= 0:
                raise PoolTimeout(f"couldn't get a connection after {timeout} sec")
            conn = super().getconn(timeout=left)
            try:
                self.check_connection(conn)
            except Exception:
                # The pool closes and replaces a broken connection given back.
                self.putconn(conn)
                # A server that cut one connection has most likely cut them all.
                self.check()
                continue
            return conn


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self) -> Any:
        pool_options = self.settings_dict["OPTIONS"].get("pool")
        if self.alias == base.NO_DB_ALIAS or not pool_options:
            return None
        if self.alias not in self._connection_pools:
            options = {} if pool_options is True else dict(pool_options)
            kwargs = self.get_connection_params()
            kwargs["autocommit"] = True  # Django sets it as it needs later
            pool = Pool(
                kwargs=kwargs,
                open=False,
                configure=self._configure_connection,
                check=None,
                **options,
            )
            self._connection_pools.setdefault(self.alias, pool)
        return self._connection_pools[self.alias]
