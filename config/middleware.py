"""Site-wide guards at the HTTP boundary, before and around every view.

``RefuseNulMiddleware`` answers 400 for a NUL character anywhere a request carries
text (path, query, cookies, form fields, a JSON body): PostgreSQL cannot store or
even compare a string holding one, so without this each view would fail its own way
(a 500, or an HTML page for a program).

``UnavailableMiddleware`` turns the loss of a backing service into a clear 503 at
once: the cache (Redis: the log-in throttle, the chat and sign-up limits) or the
database connection. A read-only request that lost its database connection is tried
once more on a fresh one first, since it changed nothing.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction, sync_to_async
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.db import DatabaseError, InterfaceError, OperationalError, connection
from django.http import HttpRequest, HttpResponse

from config.errors import error_answer
from live import requests as api_errors

logger = logging.getLogger(__name__)

NUL = "\x00"
# A NUL written as a JSON escape: "\u0000" after an even number of backslashes (an
# odd number would make the first backslash itself the escaped character).
_JSON_NUL = re.compile(rb"(?<!\\)(?:\\\\)*\\u0000")
_FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

GetResponse = Callable[[HttpRequest], HttpResponse | Awaitable[HttpResponse]]


def _any_nul(pairs: Iterable[tuple[str, Iterable[Any]]]) -> bool:
    for key, values in pairs:
        if NUL in key:
            return True
        for value in values:
            if isinstance(value, str) and NUL in value:
                return True
    return False


def _body_has_nul(request: HttpRequest) -> bool:
    content_type = (request.content_type or "").lower()
    try:
        if content_type in _FORM_TYPES:
            # Read the raw body first: it is kept, so whoever reads the request
            # next (a form view, or the API reading the body itself) still can.
            request.body  # noqa: B018
            return _any_nul(request.POST.lists())
        if content_type.endswith("json"):
            body = request.body
            return b"\x00" in body or _JSON_NUL.search(body) is not None
    except (RequestDataTooBig, TooManyFieldsSent):
        # Too big to read here: the view (or Django) refuses it with its own 400/413.
        return False
    return False


def has_nul(request: HttpRequest) -> bool:
    """Whether any text the request carries holds a NUL character."""
    if NUL in request.path or NUL in request.path_info:
        return True
    if _any_nul(request.GET.lists()):
        return True
    if _any_nul((name, [value]) for name, value in request.COOKIES.items()):
        return True
    return request.method not in SAFE_METHODS and _body_has_nul(request)


class _SyncAndAsync:
    """Both sync and async: the site runs it in its sync mode (``OneThreadMiddleware``
    comes last), and an async chain (a test's, or one without that) costs it no
    thread hop."""

    sync_capable = True
    async_capable = True

    def __init__(self, get_response: GetResponse) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def answer_first(self, request: HttpRequest) -> HttpResponse | None:
        return None

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self.__acall__(request)
        return self.answer_first(request) or self.get_response(request)

    async def __acall__(self, request: HttpRequest) -> HttpResponse:
        answer = self.answer_first(request)
        if answer is not None:
            return answer
        return await self.get_response(request)  # type: ignore[misc]


class RefuseNulMiddleware(_SyncAndAsync):
    """400 for a NUL character in the path, the query, a cookie, a form field or a
    JSON body: the API's JSON envelope under /api/, the error page elsewhere. Placed
    before the session is read, so a NUL in a cookie never reaches the database."""

    def answer_first(self, request: HttpRequest) -> HttpResponse | None:
        if not has_nul(request):
            return None
        return error_answer(
            request, 400, api_errors.ForbiddenCharacter(), anonymous=True
        )


def _cache_unreachable(exc: BaseException) -> bool:
    try:
        from redis import exceptions as redis_errors
    except ImportError:  # pragma: no cover - redis comes with channels-redis
        return False
    return isinstance(exc, redis_errors.ConnectionError | redis_errors.TimeoutError)


# SQLSTATE classes and codes that mean the connection, not the query, failed:
# 08 connection exceptions; 57P01-03 the server shutting down or not yet up (what
# pg_terminate_backend, a restart or a failover send).
_CONNECTION_STATES = ("08", "57P01", "57P02", "57P03")


def _database_unreachable(exc: BaseException) -> bool:
    """A connection error, as opposed to an error in the query itself (a deadlock,
    a constraint): judged from the driver's error, since by the time a view's
    exception arrives here a transaction's exit may already have replaced the
    broken connection."""
    if not isinstance(exc, OperationalError | InterfaceError):
        return False
    if isinstance(exc, InterfaceError):
        return True
    cause = exc.__cause__
    state = getattr(cause, "sqlstate", None)
    if state is not None:
        return str(state).startswith(_CONNECTION_STATES)
    try:
        import psycopg
    except ImportError:  # pragma: no cover - SQLite-only installs
        psycopg = None  # type: ignore[assignment]
    if psycopg is not None and isinstance(cause, psycopg.OperationalError):
        # psycopg's own connection failures ("server closed the connection",
        # "consuming input failed") carry no SQLSTATE.
        return True
    if connection.connection is None:
        return True
    try:
        return not connection.is_usable()
    except DatabaseError:
        return True


class UnavailableMiddleware(_SyncAndAsync):
    """A 503 "temporarily unavailable" when the cache or the database cannot be
    reached, instead of a generic 500 (the JSON envelope under /api/). The rest of
    the site goes on working: only requests that need the missing service fail.

    Placed right after AuthenticationMiddleware, it reads the session and the user
    first, itself: a connection the server cut between the pool's check and this
    first query is replaced and the read tried once more (a read changes nothing,
    whatever the request's method). A view that loses its connection is run again
    only for a request that changes nothing (GET, HEAD, OPTIONS); one that may have
    written is never repeated and answers 503."""

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self.__acall__(request)
        try:
            _read_twice(lambda: request.user.is_authenticated)
        except (OperationalError, InterfaceError) as exc:
            if not _database_unreachable(exc):
                raise
            return _unavailable(request)
        return self.get_response(request)

    async def __acall__(self, request: HttpRequest) -> HttpResponse:
        try:
            user = await request.auser()  # type: ignore[attr-defined]
        except (OperationalError, InterfaceError) as exc:
            if not await sync_to_async(_database_unreachable)(exc):
                raise
            await sync_to_async(connection.close)()
            try:
                user = await request.auser()  # type: ignore[attr-defined]
            except (OperationalError, InterfaceError):
                await sync_to_async(connection.close)()
                return await sync_to_async(_unavailable)(request)
        request.user = user  # type: ignore[assignment]
        return await self.get_response(request)  # type: ignore[misc]

    def process_exception(
        self, request: HttpRequest, exception: Exception
    ) -> HttpResponse | None:
        if _cache_unreachable(exception):
            logger.warning("cache unreachable: %s %s", request.method, request.path)
            return error_answer(request, 503, api_errors.Unavailable())
        if not _database_unreachable(exception):
            return None
        logger.warning("database unreachable: %s %s", request.method, request.path)
        connection.close()
        retried = _view_again(request)
        return retried if retried is not None else _unavailable(request)


def _read_twice(read: Callable[[], object]) -> None:
    """``read`` (a query, or a lazy object that queries), tried once more on a
    fresh connection if the first one turns out to be dead."""
    try:
        read()
    except (OperationalError, InterfaceError) as exc:
        if not _database_unreachable(exc):
            raise
        connection.close()
        read()


def _unavailable(request: HttpRequest) -> HttpResponse:
    logger.warning("database unreachable: %s %s", request.method, request.path)
    connection.close()
    return error_answer(request, 503, api_errors.Unavailable(), anonymous=True)


def _view_again(request: HttpRequest) -> HttpResponse | None:
    """The view once more, for a request that changed nothing; else None."""
    match = request.resolver_match
    if (
        request.method not in SAFE_METHODS
        or match is None
        or getattr(request, "_database_retried", False)
        or connection.in_atomic_block
        or iscoroutinefunction(match.func)
    ):
        return None
    request._database_retried = True  # type: ignore[attr-defined]
    try:
        response: HttpResponse = match.func(request, *match.args, **match.kwargs)
    except (OperationalError, InterfaceError):
        connection.close()
        return None
    return response


class OneThreadMiddleware:
    """Last in ``MIDDLEWARE``, and sync only, so that Django runs every middleware
    above it in its sync mode: all of them, and the view, in the one thread the
    request is handed to.

    Under daphne the chain is otherwise async, and Django runs each of its own
    middleware classes (``MiddlewareMixin``: the session, CSRF, authentication,
    messages...) in async mode by handing ``process_request`` and
    ``process_response`` to that thread and back: 21 trips between the event loop
    and the thread for one page, each waiting for a loop that may be drawing a
    table's pushes. With this, a request makes three."""

    sync_capable = True
    async_capable = False

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)
