"""Placeholder views; the accounts work replaces these."""

from django.contrib.auth import views as auth_views
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.i18n import set_language as django_set_language

from accounts.models import User

login = auth_views.LoginView.as_view()
logout = auth_views.LogoutView.as_view()


def signup(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


def set_language(request: HttpRequest) -> HttpResponse:
    return django_set_language(request)


def profile_edit(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


def profile(request: HttpRequest, username: str) -> HttpResponse:
    user = get_object_or_404(User, username=username)
    return render(request, "home.html", {"profile_user": user})
