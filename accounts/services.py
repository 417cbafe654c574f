"""The only code that writes accounts: creating users, changing a profile or a
language, and judging a log-in attempt (which writes the throttle's counters).

Views and forms parse input and call one of these. Each validates what it writes
again (``full_clean`` and the display-name rules), so no caller, a form, the demo
data command or a future API, can store a user the site would refuse, and each write
is one transaction: a refused change leaves the row exactly as it was.
"""

from __future__ import annotations

from django.contrib.auth import authenticate
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from accounts import selectors, throttle
from accounts.models import Language, User
from accounts.validators import normalize_display_name, validate_display_name

DISPLAY_NAME_TAKEN = _("This display name is already taken.")


class InvalidCredentials(Exception):
    """The user name and password do not match an active account."""


class LoginLockedOut(Exception):
    """Too many recent failures for this user name or address: wait (see
    ``accounts.throttle`` for the policy)."""

    def __init__(self, lockout: throttle.Lockout) -> None:
        super().__init__(f"locked out until {lockout.retry_at.isoformat()}")
        self.lockout = lockout


def _username_taken_message() -> str:
    return str(User._meta.get_field("username").error_messages["unique"])


def _check_display_name(display_name: str, *, excluding: int | None) -> None:
    try:
        validate_display_name(display_name)
    except ValidationError as error:
        raise ValidationError({"display_name": error.error_list}) from error
    if selectors.display_name_taken(display_name=display_name, excluding=excluding):
        raise ValidationError(
            {"display_name": ValidationError(DISPLAY_NAME_TAKEN, code="taken")}
        )


def _taken_error(user: User) -> ValidationError | None:
    """After a unique violation (two sign-ups racing), say which name was taken."""
    if selectors.username_taken(username=user.username, excluding=user.pk):
        return ValidationError({"username": _username_taken_message()})
    if selectors.display_name_taken(display_name=user.display_name, excluding=user.pk):
        return ValidationError({"display_name": DISPLAY_NAME_TAKEN})
    return None


def user_create(
    *,
    username: str,
    email: str,
    display_name: str,
    password: str | None,
    language: str = "",
) -> User:
    """A new player. ``password=None`` makes an account that cannot log in with a
    password (until it is reset). Raises ``ValidationError`` keyed by field."""
    display_name = normalize_display_name(display_name)
    user = User(
        username=username,
        email=User.objects.normalize_email(email),
        display_name=display_name,
        language=language,
    )
    if password is None:
        user.set_unusable_password()
    else:
        user.set_password(password)
    if selectors.username_taken(username=username):
        raise ValidationError({"username": _username_taken_message()})
    _check_display_name(display_name, excluding=None)
    user.full_clean()
    try:
        with transaction.atomic():
            user.save()
    except IntegrityError as error:
        taken = _taken_error(user)
        if taken is None:
            raise
        raise taken from error
    return user


def user_update_profile(
    *, user: User, display_name: str, email: str, bio: str, language: str
) -> User:
    """Change what other players see and how the site speaks to this player.

    Works on a fresh, locked copy of the row, so a refused change leaves both the
    database and the caller's ``user`` object untouched; returns the saved copy."""
    display_name = normalize_display_name(display_name)
    try:
        with transaction.atomic():
            fresh = User.objects.select_for_update().get(pk=user.pk)
            fresh.display_name = display_name
            fresh.email = User.objects.normalize_email(email)
            fresh.bio = bio.strip()
            fresh.language = language
            _check_display_name(display_name, excluding=fresh.pk)
            fresh.full_clean()
            fresh.save(update_fields=["display_name", "email", "bio", "language"])
    except IntegrityError as error:
        taken = _taken_error(fresh)
        if taken is None:
            raise
        raise taken from error
    return fresh


def user_set_language(*, user: User, language: str) -> None:
    """Remember the language the player picked in the switcher."""
    if language not in Language.values:
        raise ValidationError(
            {"language": _("Unknown language.")}, code="invalid_choice"
        )
    User.objects.filter(pk=user.pk).update(language=language)
    user.language = language


def user_authenticate(
    *, request: HttpRequest | None, username: str, password: str, address: str
) -> User:
    """Judge one log-in attempt, throttled per user name and per address (the log-in
    page, the admin's log-in and the API's token all come here).

    The throttle is asked first and counts atomically, so while it says wait even
    the right password is refused, and simultaneous guesses cannot slip past it.
    Raises ``LoginLockedOut`` or ``InvalidCredentials``."""
    try:
        attempt = throttle.attempt_begin(username=username, address=address)
    except throttle.Throttled as throttled:
        raise LoginLockedOut(throttled.lockout) from None
    try:
        user = authenticate(request, username=username, password=password)
    except BaseException:
        attempt.abandoned()
        raise
    if user is None:
        lockout = attempt.failed()
        if lockout is not None:
            raise LoginLockedOut(lockout)
        raise InvalidCredentials
    attempt.succeeded()
    return user


def password_check(*, user: User, password: str, address: str) -> bool:
    """Whether ``password`` is the user's own, for a form that asks for it again
    (the password change): throttled like a log-in, so it cannot be used to guess.
    Raises ``LoginLockedOut`` while the throttle says wait."""
    try:
        attempt = throttle.attempt_begin(username=user.get_username(), address=address)
    except throttle.Throttled as throttled:
        raise LoginLockedOut(throttled.lockout) from None
    try:
        right = user.check_password(password)
    except BaseException:
        attempt.abandoned()
        raise
    if right:
        attempt.succeeded()
        return True
    lockout = attempt.failed()
    if lockout is not None:
        raise LoginLockedOut(lockout)
    return False


def user_set_password(*, user: User, password: str) -> None:
    """Set a password without the old one (the demo data command). The site's
    password forms go through Django's views, which also rotate the session."""
    user.set_password(password)
    user.save(update_fields=["password"])
