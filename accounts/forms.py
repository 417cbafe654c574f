"""Parsing what players type: sign-up, log-in, profile, language and passwords.

Forms check the shape of the input and say what is wrong next to the field, in the
player's language; the writing itself is left to ``accounts.services``.
"""

from __future__ import annotations

import math
from typing import Any

from django import forms
from django.conf import settings
from django.contrib.admin import forms as admin_forms
from django.contrib.auth import forms as auth_forms
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.utils import formats, timezone, translation
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts import selectors, services, throttle
from accounts.models import Language, User
from accounts.validators import normalize_display_name, validate_display_name

# Long enough for any password manager, short enough that hashing a pasted novel
# cannot tie up a worker.
PASSWORD_MAX_LENGTH = 128


def _cap_length(field: forms.Field, max_length: int) -> None:
    """Add a length limit to a field Django built without one."""
    field.max_length = max_length  # type: ignore[attr-defined]
    field.validators.append(MaxLengthValidator(max_length))
    field.widget.attrs["maxlength"] = str(max_length)


class DisplayNameField(forms.CharField):
    """A display name, normalised before it is measured and validated, so that the
    length limit and the uniqueness check see the spelling that will be stored."""

    default_validators = [validate_display_name]

    def to_python(self, value: Any) -> str:
        text: str = super().to_python(value)
        if self.max_length is not None and len(text) > self.max_length * 4:
            # Hopelessly long: skip the (slow) normalisation, the limit refuses it.
            return text
        return normalize_display_name(text)


def lockout_message(lockout: throttle.Lockout) -> str:
    """Say that logging in is paused, when to come back and how the owner gets in
    at once, and nothing about whether the account exists."""
    minutes = math.ceil(lockout.seconds_left() / 60)
    paused = ngettext(
        "Too many failed attempts to log in. Logging in is paused for safety: "
        "try again in %(minutes)d minute, at %(time)s.",
        "Too many failed attempts to log in. Logging in is paused for safety: "
        "try again in %(minutes)d minutes, at %(time)s.",
        minutes,
    ) % {
        "minutes": minutes,
        "time": formats.time_format(timezone.localtime(lockout.retry_at)),
    }
    return f"{paused} {RESET_HINT}"


def _wait_words(lockout: throttle.Lockout) -> dict[str, Any]:
    minutes = math.ceil(lockout.seconds_left() / 60)
    return {
        "minutes": minutes,
        "time": formats.time_format(timezone.localtime(lockout.retry_at)),
    }


def signup_limit_message(lockout: throttle.Lockout) -> str:
    words = _wait_words(lockout)
    return (
        ngettext(
            "Too many new accounts have been created from your network recently. "
            "Please try again in %(minutes)d minute, at %(time)s.",
            "Too many new accounts have been created from your network recently. "
            "Please try again in %(minutes)d minutes, at %(time)s.",
            words["minutes"],
        )
        % words
    )


def reset_limit_message(lockout: throttle.Lockout) -> str:
    words = _wait_words(lockout)
    return (
        ngettext(
            "Too many password reset letters have been asked for recently. Nothing was "
            "sent; please check your inbox (and spam folder) for the letters already "
            "sent, or try again in %(minutes)d minute, at %(time)s.",
            "Too many password reset letters have been asked for recently. Nothing was "
            "sent; please check your inbox (and spam folder) for the letters already "
            "sent, or try again in %(minutes)d minutes, at %(time)s.",
            words["minutes"],
        )
        % words
    )


RESET_HINT = _(
    "If this is your account, a password reset link from your e-mail lets you in "
    "at once."
)


class SignupForm(auth_forms.UserCreationForm):
    """A new player: log-in name, display name, e-mail (for password resets) and a
    password typed twice, checked by the site's password validators."""

    class Meta:
        model = User
        fields = ("username", "display_name", "email")
        field_classes = {
            "username": auth_forms.UsernameField,
            "display_name": DisplayNameField,
        }
        help_texts = {
            "username": _(
                "For logging in and for your profile's address. Up to 150 letters, "
                "digits and @ . + - _"
            ),
            "email": _("Only for resetting a forgotten password; never shown."),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["email"].required = True
        self.fields["email"].widget.attrs["autocomplete"] = "email"
        self.fields["display_name"].widget.attrs["autocomplete"] = "nickname"
        for name in ("password1", "password2"):
            _cap_length(self.fields[name], PASSWORD_MAX_LENGTH)

    def clean_username(self) -> str:
        username: str = self.cleaned_data["username"]
        if selectors.username_taken(username=username):
            raise ValidationError(
                User._meta.get_field("username").error_messages["unique"],
                code="unique",
            )
        return username

    def clean_display_name(self) -> str:
        display_name: str = self.cleaned_data["display_name"]
        if selectors.display_name_taken(display_name=display_name):
            raise ValidationError(services.DISPLAY_NAME_TAKEN, code="taken")
        return display_name


class LoginForm(auth_forms.AuthenticationForm):
    """Django's log-in form, with every attempt judged (and throttled) by
    ``services.user_authenticate``. ``lockout`` is set when the answer is a
    lock-out, so the view can reply 429 with a Retry-After header."""

    def __init__(self, request: Any = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(request, *args, **kwargs)
        self.lockout: throttle.Lockout | None = None
        # Django only sets the username's max_length attribute after building the
        # field, so no length validator runs; add one so a pasted essay gets a
        # plain "too long" instead of a puzzling "wrong password".
        _cap_length(self.fields["username"], self.username_field.max_length or 150)
        _cap_length(self.fields["password"], PASSWORD_MAX_LENGTH)

    def clean(self) -> dict[str, Any]:
        return _throttled_clean(self)


class AdminLoginForm(admin_forms.AdminAuthenticationForm):
    """The admin's log-in, through the same throttle as every other door (Django's
    own form calls ``authenticate`` directly, unthrottled); staff only, as before."""

    def __init__(self, request: Any = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(request, *args, **kwargs)
        self.lockout: throttle.Lockout | None = None
        _cap_length(self.fields["username"], self.username_field.max_length or 150)
        _cap_length(self.fields["password"], PASSWORD_MAX_LENGTH)

    def clean(self) -> dict[str, Any]:
        return _throttled_clean(self)


def _throttled_clean(form: auth_forms.AuthenticationForm) -> dict[str, Any]:
    """``clean`` of a log-in form: judged (and throttled) by the service."""
    username = form.cleaned_data.get("username")
    password = form.cleaned_data.get("password")
    if username is None or not password:
        return form.cleaned_data
    try:
        form.user_cache = services.user_authenticate(
            request=form.request,
            username=username,
            password=password,
            address=throttle.client_address(form.request),
        )
    except services.LoginLockedOut as locked:
        form.lockout = locked.lockout  # type: ignore[attr-defined]
        raise ValidationError(
            lockout_message(locked.lockout), code="locked_out"
        ) from None
    except services.InvalidCredentials:
        raise form.get_invalid_login_error() from None
    form.confirm_login_allowed(form.user_cache)
    return form.cleaned_data


class ProfileForm(forms.ModelForm):
    """What other players see (display name, about me) and the player's own settings
    (e-mail, language)."""

    language = forms.ChoiceField(
        label=_("Language"),
        required=False,
        choices=[("", _("As my browser asks")), *Language.choices],
        help_text=_("The language the site speaks to you on every device."),
    )

    class Meta:
        model = User
        fields = ("display_name", "email", "bio", "language")
        field_classes = {"display_name": DisplayNameField}
        widgets = {"bio": forms.Textarea(attrs={"rows": 4})}
        help_texts = {
            "email": _("Only for resetting a forgotten password; never shown."),
            "bio": _("Up to 500 characters, shown on your public profile."),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["email"].required = True

    def clean_display_name(self) -> str:
        display_name: str = self.cleaned_data["display_name"]
        if selectors.display_name_taken(
            display_name=display_name, excluding=self.instance.pk
        ):
            raise ValidationError(services.DISPLAY_NAME_TAKEN, code="taken")
        return display_name


class LanguageForm(forms.Form):
    """The header's language switcher."""

    language = forms.ChoiceField(choices=settings.LANGUAGES)
    next = forms.CharField(required=False, max_length=2000)


class PasswordChangeForm(auth_forms.PasswordChangeForm):
    """The old password is checked through the log-in throttle: a session left
    open on a shared phone must not let anyone guess the password at leisure."""

    def __init__(self, *args: Any, request: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.request = request
        self.lockout: throttle.Lockout | None = None
        for name in ("old_password", "new_password1", "new_password2"):
            _cap_length(self.fields[name], PASSWORD_MAX_LENGTH)

    def clean_old_password(self) -> str:
        old_password: str = self.cleaned_data["old_password"]
        try:
            right = services.password_check(
                user=self.user,
                password=old_password,
                address=throttle.client_address(self.request),
            )
        except services.LoginLockedOut as locked:
            self.lockout = locked.lockout
            raise ValidationError(
                lockout_message(locked.lockout), code="locked_out"
            ) from None
        if not right:
            raise ValidationError(
                self.error_messages["password_incorrect"], code="password_incorrect"
            )
        return old_password


class SetPasswordForm(auth_forms.SetPasswordForm):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("new_password1", "new_password2"):
            _cap_length(self.fields[name], PASSWORD_MAX_LENGTH)


class PasswordResetForm(auth_forms.PasswordResetForm):
    """Django's reset form, but each letter goes out in its reader's language: the
    profile's if they chose one, otherwise the language of the page that asked."""

    def send_mail(
        self,
        subject_template_name: str,
        email_template_name: str,
        context: dict[str, Any],
        from_email: str | None,
        to_email: str,
        html_email_template_name: str | None = None,
    ) -> None:
        language = getattr(context.get("user"), "language", "")
        with translation.override(language or translation.get_language()):
            super().send_mail(
                subject_template_name,
                email_template_name,
                context,
                from_email,
                to_email,
                html_email_template_name,
            )
