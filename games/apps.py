from typing import Any

from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


def close_sqlite_after_request(sender: Any, **kwargs: Any) -> None:
    """``request_finished`` receiver: an HTTP request's SQLite connection is closed
    when the request ends. SQLite connections persist (``CONN_MAX_AGE`` in the
    settings) for the sockets, whose database work all runs in one long-lived
    thread; daphne runs each HTTP request in a thread of its own, so the request's
    connection would otherwise wait for the garbage collector with its file open.
    Never inside a transaction (a test's)."""
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        if connection.vendor == "sqlite" and not connection.in_atomic_block:
            connection.close()


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = _("Games")

    def ready(self) -> None:
        from django.core.signals import request_finished

        request_finished.connect(
            close_sqlite_after_request, dispatch_uid="games.close_sqlite_after_request"
        )
