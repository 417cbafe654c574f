"""Error answers the site gives before (or instead of) any view: a page for people,
the API's JSON envelope for programs under /api/.

The envelope is the API's own (``api.plumbing.error_response``): ``{"error": {"code",
"message"}}`` with the status, in the caller's language, so a program reads a 400 or
a 503 from the middleware exactly as it reads one from an endpoint.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import translation

from api.errors import NotFound
from api.payloads import program_language
from api.plumbing import error_response
from live import requests as api_errors

API_PREFIX = "/api/"

# The page's wording for each status the site answers with an error page.
PAGE_STATUSES = (400, 403, 404, 429, 500, 503)

# The API's error for each status a handler may answer under /api/.
_API_ERRORS: dict[int, type[api_errors.RequestError]] = {
    400: api_errors.BadRequest,
    404: NotFound,
    500: api_errors.ServerError,
    503: api_errors.Unavailable,
}


def is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def api_error(request: HttpRequest, exc: api_errors.RequestError) -> HttpResponse:
    """The API's envelope for ``exc``, in the language the program asks for."""
    language = program_language(request.headers.get("Accept-Language", ""), None)
    with translation.override(language):
        response = error_response(exc)
    response["Content-Language"] = language
    return response


def error_page(
    request: HttpRequest, status: int, *, anonymous: bool = False
) -> HttpResponse:
    """The site's error page. ``anonymous``: render the header as for a visitor,
    without touching the session or the database (for answers given while the
    database or the cache is unreachable, or before the session is read)."""
    context: dict[str, object] = {"status": status}
    if anonymous:
        context["user"] = AnonymousUser()
        context["messages"] = []
    if hasattr(request, "LANGUAGE_CODE"):
        return render(request, "errors/error.html", context, status=status)
    # Answered before LocaleMiddleware ran: choose the language as it would.
    with translation.override(translation.get_language_from_request(request)):
        response = render(request, "errors/error.html", context, status=status)
        response["Content-Language"] = translation.get_language()
    return response


def error_answer(
    request: HttpRequest,
    status: int,
    exc: api_errors.RequestError | None = None,
    *,
    anonymous: bool = False,
) -> HttpResponse:
    """The answer for ``status``: the envelope under /api/, the page elsewhere."""
    if is_api(request):
        return api_error(
            request, exc or _API_ERRORS.get(status, api_errors.RequestError)()
        )
    return error_page(request, status, anonymous=anonymous)
