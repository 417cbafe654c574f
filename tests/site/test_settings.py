"""Production settings: Django's deploy check passes with no warnings, and the site
refuses to start without a real secret key and its host names.

Each case runs in a fresh interpreter, because settings are read once per process."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

BASE_DIR = Path(__file__).resolve().parents[2]
GOOD_KEY = secrets.token_urlsafe(64)


def production_env(**variables: str) -> dict[str, str]:
    """This process's environment without any DJANGO_* variable, plus ``variables``
    (DATABASE_URL and REDIS_URL pass through, as a real deployment has them)."""
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith("DJANGO_")
    }
    env["DJANGO_SETTINGS_MODULE"] = "config.settings.production"
    env.update(variables)
    return env


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *args],
        cwd=BASE_DIR,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_check_deploy_passes_with_no_warnings() -> None:
    result = run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        production_env(DJANGO_SECRET_KEY=GOOD_KEY, DJANGO_ALLOWED_HOSTS="example.org"),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout
    assert "WARNINGS" not in result.stdout + result.stderr


def test_production_is_strict_about_cookies_and_transport() -> None:
    code = (
        "import django; django.setup(); from django.conf import settings as s; "
        "print(s.DEBUG, s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, "
        "s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS >= 31536000, s.ALLOWED_HOSTS)"
    )
    result = run(
        ["-c", code],
        production_env(DJANGO_SECRET_KEY=GOOD_KEY, DJANGO_ALLOWED_HOSTS="example.org"),
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False True True True True ['example.org']"


@pytest.mark.parametrize(
    ("variables", "complaint"),
    [
        ({"DJANGO_ALLOWED_HOSTS": "example.org"}, "DJANGO_SECRET_KEY"),
        (
            {"DJANGO_SECRET_KEY": "", "DJANGO_ALLOWED_HOSTS": "example.org"},
            "DJANGO_SECRET_KEY",
        ),
        (
            {"DJANGO_SECRET_KEY": "too-short", "DJANGO_ALLOWED_HOSTS": "example.org"},
            "DJANGO_SECRET_KEY",
        ),
        (
            {
                "DJANGO_SECRET_KEY": "dev-only-insecure-key-change-me" + "x" * 40,
                "DJANGO_ALLOWED_HOSTS": "example.org",
            },
            "DJANGO_SECRET_KEY",
        ),
        (
            {"DJANGO_SECRET_KEY": "ab" * 40, "DJANGO_ALLOWED_HOSTS": "example.org"},
            "DJANGO_SECRET_KEY",
        ),
        ({"DJANGO_SECRET_KEY": GOOD_KEY}, "DJANGO_ALLOWED_HOSTS"),
        (
            {"DJANGO_SECRET_KEY": GOOD_KEY, "DJANGO_ALLOWED_HOSTS": " , "},
            "DJANGO_ALLOWED_HOSTS",
        ),
    ],
    ids=[
        "no-key",
        "empty-key",
        "short-key",
        "dev-key",
        "few-distinct-characters",
        "no-hosts",
        "blank-hosts",
    ],
)
def test_production_refuses_to_start_without(
    variables: dict[str, str], complaint: str
) -> None:
    result = run(
        ["-c", "import config.settings.production"], production_env(**variables)
    )
    assert result.returncode != 0
    assert "django.core.exceptions.ImproperlyConfigured" in result.stderr
    assert complaint in result.stderr.strip().splitlines()[-1]
