"""The language a logged-in user chose in their profile wins over the browser's."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils import translation


class UserLanguageMiddleware:
    """Runs after AuthenticationMiddleware; LocaleMiddleware has already picked the
    cookie's or the browser's language, which stays the choice for visitors and for
    users with no preference."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        language = getattr(user, "language", "") if user is not None else ""
        if language and user is not None and user.is_authenticated:
            translation.activate(language)
            request.LANGUAGE_CODE = language  # type: ignore[attr-defined]
        return self.get_response(request)
