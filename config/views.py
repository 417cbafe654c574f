"""Site-wide pages: the front page, the health check, the error pages."""

from __future__ import annotations

import asyncio
import logging
import time
import uuid

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
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


def _database_ok() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            return cursor.fetchone() == (1,)
    except Exception:
        logger.exception("health check: database unreachable")
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
        message = await asyncio.wait_for(layer.receive(channel), timeout=2)
        return message.get("token") == token
    except Exception:
        logger.exception("health check: channel layer unreachable")
        return False


@never_cache
async def healthz(request: HttpRequest) -> JsonResponse:
    started = time.perf_counter()
    database = await sync_to_async(_database_ok, thread_sensitive=False)()
    channel_layer = await _channel_layer_ok()
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
