"""Thin views: parse the form, call one service, render or redirect.

The password views are Django's own with our forms and templates: they also rotate
the session after a change and consume the one-time reset link, which is easy to get
subtly wrong when copied, so those writes stay with Django.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login as auth_login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render, resolve_url
from django.urls import reverse_lazy
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST

from accounts import forms, limits, selectors, services, throttle
from accounts.models import User


def _safe_next(request: HttpRequest, candidate: str | None, default: str) -> str:
    """``candidate`` if it stays on this site, else ``default``: a crafted link must
    never bounce a player to someone else's site (an open redirect)."""
    if candidate and url_has_allowed_host_and_scheme(
        url=candidate,
        allowed_hosts={request.get_host()},
        require_https=request.is_secure(),
    ):
        return candidate
    return resolve_url(default)


def _remember_language(response: HttpResponse, language: str) -> None:
    """Keep the chosen language in the cookie too, so the site goes on speaking it
    after logging out (a visitor has no profile to read it from)."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


def signup(request: HttpRequest) -> HttpResponse:
    """A new player, logged in at once: the next thing they want is a table."""
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if request.user.is_authenticated:
        return redirect(_safe_next(request, next_url, settings.LOGIN_REDIRECT_URL))
    form = forms.SignupForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        address = throttle.client_address(request)
        try:
            limits.signup_count(address=address)
        except limits.LimitReached as limited:
            form.add_error(None, forms.signup_limit_message(limited.lockout))
            return _too_many(
                render(
                    request, "accounts/signup.html", {"form": form, "next": next_url}
                ),
                limited.lockout,
            )
        try:
            user = services.user_create(
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                display_name=form.cleaned_data["display_name"],
                password=form.cleaned_data["password1"],
            )
        except ValidationError as error:
            limits.signup_uncount(address=address)
            form.add_error(None, error)
        else:
            auth_login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
            messages.success(
                request,
                _("Welcome, %(name)s! Your account is ready.")
                % {"name": user.display_name},
            )
            return redirect(_safe_next(request, next_url, settings.LOGIN_REDIRECT_URL))
    return render(request, "accounts/signup.html", {"form": form, "next": next_url})


class LoginView(auth_views.LoginView):
    """Django's log-in, throttled (see ``forms.LoginForm``); a lock-out answers
    429 Too Many Requests with Retry-After, on the same page with the message."""

    form_class = forms.LoginForm
    redirect_authenticated_user = True

    def form_valid(self, form: forms.LoginForm) -> HttpResponse:  # type: ignore[override]
        response = super().form_valid(form)
        language = form.get_user().language
        if language:
            _remember_language(response, language)
        return response

    def form_invalid(self, form: forms.LoginForm) -> HttpResponse:  # type: ignore[override]
        return _too_many(super().form_invalid(form), form.lockout)


def _too_many(response: HttpResponse, lockout: throttle.Lockout | None) -> HttpResponse:
    """429 Too Many Requests with Retry-After, when there is a wait to tell."""
    if lockout is not None:
        response.status_code = 429
        response["Retry-After"] = str(lockout.seconds_left())
    return response


class LogoutView(auth_views.LogoutView):
    """POST only (Django refuses GET with 405), so a link or an image on another page
    cannot log a player out."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = super().post(request, *args, **kwargs)
        messages.info(request, _("You have logged out."))
        return response


login = LoginView.as_view()
logout = LogoutView.as_view()


@require_POST
def set_language(request: HttpRequest) -> HttpResponse:
    """The header's switcher: the cookie for everyone, the profile as well for a
    logged-in player, then back to the page they were on (on this site only)."""
    form = forms.LanguageForm(request.POST)
    next_url = request.POST.get("next", "")
    response = HttpResponseRedirect(_safe_next(request, next_url, "home"))
    if form.is_valid():
        language = form.cleaned_data["language"]
        if request.user.is_authenticated:
            services.user_set_language(user=request.user, language=language)
        _remember_language(response, language)
    return response


@login_required
def profile_edit(request: HttpRequest) -> HttpResponse:
    """The player's own profile and settings; saving goes to the public profile."""
    # The form works on its own copy of the user: a refused edit must not show up
    # in the header's name for the rest of this request.
    instance = User.objects.get(pk=request.user.pk)
    data = request.POST if request.method == "POST" else None
    form = forms.ProfileForm(data, instance=instance)
    if request.method == "POST" and form.is_valid():
        try:
            user = services.user_update_profile(
                user=request.user,
                display_name=form.cleaned_data["display_name"],
                email=form.cleaned_data["email"],
                bio=form.cleaned_data["bio"],
                language=form.cleaned_data["language"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            # Say "saved" in the language the next page will be in.
            language = user.language or translation.get_language_from_request(request)
            translation.activate(language)
            messages.success(request, _("Your profile has been saved."))
            response = redirect(user)
            if user.language:
                _remember_language(response, user.language)
            return response
    return render(request, "accounts/profile_edit.html", {"form": form})


def profile(request: HttpRequest, username: str) -> HttpResponse:
    """The public profile at /u/<username>/: the history work adds games and stats
    through the template's slot (accounts/_profile_extra.html)."""
    profile_user = get_object_or_404(selectors.profile_users(), username=username)
    return render(
        request,
        "accounts/profile.html",
        {
            "profile_user": profile_user,
            "is_owner": request.user.is_authenticated
            and request.user.pk == profile_user.pk,
        },
    )


class PasswordChangeView(auth_views.PasswordChangeView):
    """Django's, with the old password checked through the log-in throttle."""

    form_class = forms.PasswordChangeForm
    success_url = reverse_lazy("accounts:password_change_done")

    def get_form_kwargs(self) -> dict[str, Any]:
        kwargs = super().get_form_kwargs()
        kwargs["request"] = self.request
        return kwargs

    def form_invalid(self, form: forms.PasswordChangeForm) -> HttpResponse:  # type: ignore[override]
        return _too_many(super().form_invalid(form), form.lockout)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's, limited per e-mail address and per client address (see
    ``accounts.limits``): a refused request sends nothing and says when to retry."""

    form_class = forms.PasswordResetForm
    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password_reset_done")

    def form_valid(self, form: forms.PasswordResetForm) -> HttpResponse:  # type: ignore[override]
        try:
            limits.password_reset_count(
                email=form.cleaned_data["email"],
                address=throttle.client_address(self.request),
            )
        except limits.LimitReached as limited:
            form.add_error(None, forms.reset_limit_message(limited.lockout))
            return _too_many(super().form_invalid(form), limited.lockout)
        return super().form_valid(form)


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    """Django's; a completed reset also clears the account's failed log-ins, so the
    owner of an account someone is guessing at gets in at once."""

    form_class = forms.SetPasswordForm
    success_url = reverse_lazy("accounts:password_reset_complete")

    def form_valid(self, form: forms.SetPasswordForm) -> HttpResponse:  # type: ignore[override]
        response = super().form_valid(form)
        throttle.failures_clear(username=form.user.get_username())
        return response


password_change = PasswordChangeView.as_view()
password_change_done = auth_views.PasswordChangeDoneView.as_view()
password_reset = PasswordResetView.as_view()
password_reset_done = auth_views.PasswordResetDoneView.as_view()
password_reset_confirm = PasswordResetConfirmView.as_view()
password_reset_complete = auth_views.PasswordResetCompleteView.as_view()
