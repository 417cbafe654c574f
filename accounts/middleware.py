"""The language a logged-in user chose in their profile wins over the browser's."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from asgiref.sync import iscoroutinefunction, markcoroutinefunction
from django.http import HttpRequest, HttpResponse
from django.utils import translation


def _activate(request: HttpRequest, user: Any) -> None:
    language = getattr(user, "language", "") if user is not None else ""
    if language and user.is_authenticated:
        translation.activate(language)
        request.LANGUAGE_CODE = language  # type: ignore[attr-defined]


class UserLanguageMiddleware:
    """Runs after AuthenticationMiddleware; LocaleMiddleware has already picked the
    cookie's or the browser's language, which stays the choice for visitors and for
    users with no preference.

    Both sync and async: the site runs it in its sync mode, in the request's one
    thread (``config.middleware.OneThreadMiddleware``); in an async chain a sync-only
    middleware between async ones would cost two thread hops on every request."""

    sync_capable = True
    async_capable = True

    def __init__(
        self,
        get_response: Callable[[HttpRequest], HttpResponse | Awaitable[HttpResponse]],
    ) -> None:
        self.get_response = get_response
        self.is_async = iscoroutinefunction(get_response)
        if self.is_async:
            markcoroutinefunction(self)

    def __call__(self, request: HttpRequest) -> Any:
        if self.is_async:
            return self.__acall__(request)
        _activate(request, getattr(request, "user", None))
        return self.get_response(request)

    async def __acall__(self, request: HttpRequest) -> HttpResponse:
        user = await request.auser() if hasattr(request, "auser") else None
        _activate(request, user)
        return await self.get_response(request)  # type: ignore[misc]
