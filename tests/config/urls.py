"""The site's URLs plus a few that fail on purpose, to see the error handlers answer:
under /api/ with the API's JSON envelope, elsewhere with the error page."""

from __future__ import annotations

from django.core.exceptions import SuspiciousOperation
from django.http import HttpRequest, HttpResponse
from django.urls import path

from config import urls as site


def crash(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug, on purpose")


def suspicious(request: HttpRequest) -> HttpResponse:
    raise SuspiciousOperation("a forged request, on purpose")


CALLS: list[str] = []


def cut_then_read(request: HttpRequest) -> HttpResponse:
    """Its connection is cut under it on the first call (after the middleware has
    read the user), then it reads."""
    from accounts.models import User
    from tests.config.pg import cut_connections

    CALLS.append(request.method or "")
    if not getattr(request, "_cut", False):
        request._cut = True  # type: ignore[attr-defined]
        cut_connections()
    return HttpResponse(str(User.objects.count()))


def cut_in_a_transaction(request: HttpRequest) -> HttpResponse:
    """Its connection is cut in the middle of a transaction, as a move's can be."""
    from django.db import transaction

    from accounts.models import User
    from tests.config.pg import cut_connections

    CALLS.append(request.method or "")
    with transaction.atomic():
        User.objects.select_for_update().first()
        cut_connections()
        return HttpResponse(str(User.objects.count()))


urlpatterns = [
    path("test-cut/", cut_then_read),
    path("api/v1/test-cut-in-transaction", cut_in_a_transaction),
    path("api/v1/test-crash", crash),
    path("api/v1/test-suspicious", suspicious),
    path("test-crash/", crash),
    path("test-suspicious/", suspicious),
    *site.urlpatterns,
]
handler400 = site.handler400
handler403 = site.handler403
handler404 = site.handler404
handler500 = site.handler500
