"""Site-wide pages: the front page, the health check, the error pages."""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from typing import Any

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import connection
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponsePermanentRedirect,
    JsonResponse,
)
from django.shortcuts import render
from django.templatetags.static import static
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import requires_csrf_token

from config.errors import PAGE_STATUSES, error_answer

logger = logging.getLogger(__name__)


def home(request: HttpRequest) -> HttpResponse:
    """The front page: what the site is, and every game it offers (from the installed
    game families, so a new family appears here by itself)."""
    from games import engine
    from games.kit.family import playable_rulesets, words_of

    games = []
    for code in playable_rulesets():
        ruleset = engine.get_ruleset(code)
        words = words_of(code)
        games.append(
            {
                "name": words.game,
                "tagline": words.tagline,
                "low": ruleset.min_players,
                "high": ruleset.max_players,
            }
        )
    return render(request, "home.html", {"games": games})


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page says: send them to the icon."""
    return HttpResponsePermanentRedirect(static("img/favicon.svg"))


# How long readiness waits for the database and for the channel layer: a check that
# waits longer than a load balancer's own time-out tells it nothing.
READY_TIMEOUT = 1.0


def _database_ok() -> bool:
    """``SELECT 1`` on a connection got within ``READY_TIMEOUT``: from the pool,
    not waiting out its usual time-out for a free connection."""
    try:
        pool = getattr(connection, "pool", None)
        if pool is not None:
            pool.open()
            conn = pool.getconn(timeout=READY_TIMEOUT)
            try:
                return conn.execute("SELECT 1").fetchone() == (1,)
            finally:
                pool.putconn(conn)
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except Exception:
        logger.warning("health check: database unreachable", exc_info=True)
        return False
    finally:
        connection.close()


async def _channel_layer_ok() -> bool:
    """Round trip one message through the layer: what a push needs to work."""
    layer = get_channel_layer()
    if layer is None:
        return False
    try:
        # The layer's default prefix, as every consumer's: channels-redis serves
        # all of a process's channels through one blocking read on one Redis key
        # per prefix, held by whichever receiver got there first; a channel of
        # another prefix waits behind that read and timed out whenever a socket
        # was open, so /healthz said "unreachable" on every busy server.
        channel = await layer.new_channel()
        token = uuid.uuid4().hex
        await layer.send(channel, {"type": "healthz.ping", "token": token})
        message = await layer.receive(channel)
        return message.get("token") == token
    except Exception:
        logger.warning("health check: channel layer unreachable", exc_info=True)
        return False


async def _within(check: Any, seconds: float) -> bool:
    try:
        return bool(await asyncio.wait_for(check, timeout=seconds))
    except TimeoutError:
        logger.warning("health check: no answer within %s s", seconds)
        return False


@never_cache
async def healthz_live(request: HttpRequest) -> JsonResponse:
    """Liveness: this process serves requests. It asks nothing of the database or
    Redis, so a blip of theirs never makes a supervisor restart every process."""
    return JsonResponse({"status": "ok"})


@never_cache
async def healthz(request: HttpRequest) -> JsonResponse:
    """Readiness (``/healthz/ready``, and ``/healthz``): this process can reach the
    database and the channel layer now, each asked within ``READY_TIMEOUT``. A
    proxy polls it to send requests only to processes that can serve them."""
    started = time.perf_counter()
    database, channel_layer = await asyncio.gather(
        _within(
            sync_to_async(_database_ok, thread_sensitive=False)(), READY_TIMEOUT + 0.5
        ),
        _within(_channel_layer_ok(), READY_TIMEOUT),
    )
    healthy = database and channel_layer
    return JsonResponse(
        {
            "status": "ok" if healthy else "unavailable",
            "database": "ok" if database else "unreachable",
            "channel_layer": "ok" if channel_layer else "unreachable",
            "ms": round((time.perf_counter() - started) * 1000, 1),
        },
        status=200 if healthy else 503,
    )


def _error(request: HttpRequest, status: int) -> HttpResponse:
    """The error page, or the API's JSON envelope for a path under /api/."""
    return error_answer(request, status, anonymous=status >= 500)


@requires_csrf_token
def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    return _error(request, 400)


@requires_csrf_token
def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    return _error(request, 403)


@requires_csrf_token
def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    return _error(request, 404)


@requires_csrf_token
def server_error(request: HttpRequest) -> HttpResponse:
    return _error(request, 500)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """A forged or stale form: say so plainly, in the user's language."""
    return render(request, "errors/csrf.html", status=403)


def error_preview(request: HttpRequest, code: int) -> HttpResponse:
    if code not in PAGE_STATUSES:
        raise Http404
    return _error(request, code)
