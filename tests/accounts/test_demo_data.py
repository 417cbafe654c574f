"""``manage.py demo_data``: ten players, one password, safe to repeat, never in
production by accident."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from pytest_django.fixtures import Settings

from accounts.management.commands.demo_data import DEMO_PASSWORD
from accounts.models import User
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def run(**options: object) -> str:
    out = StringIO()
    call_command("demo_data", stdout=out, **options)
    return out.getvalue()


def test_creates_ten_players_and_prints_them(settings: Settings) -> None:
    settings.DEBUG = True
    output = run()
    assert User.objects.filter(username__startswith="demo").count() == 10
    assert DEMO_PASSWORD in output
    assert "demo1 " in output
    assert "demo10" in output
    assert "Аня" in output
    assert User.objects.get(username="demo2").display_name == "Борис"


def test_is_idempotent_and_restores_the_password(settings: Settings) -> None:
    settings.DEBUG = True
    run()
    demo = User.objects.get(username="demo3")
    demo.set_password("changed-by-someone")
    demo.save()
    run()
    assert User.objects.filter(username__startswith="demo").count() == 10
    demo.refresh_from_db()
    assert demo.check_password(DEMO_PASSWORD)


def test_the_printed_password_logs_in(settings: Settings, client: Client) -> None:
    settings.DEBUG = True
    run()
    response = client.post(
        "/accounts/login/", {"username": "demo1", "password": DEMO_PASSWORD}
    )
    assert response.status_code == 302


def test_keeps_a_real_players_display_name_unique(settings: Settings) -> None:
    settings.DEBUG = True
    UserFactory(username="anna", display_name="аня")
    run()
    assert User.objects.get(username="demo1").display_name == "Аня (demo1)"


def test_refuses_without_debug_unless_forced(settings: Settings) -> None:
    settings.DEBUG = False
    with pytest.raises(CommandError, match="DEBUG is off"):
        run()
    assert not User.objects.exists()
    run(force=True)
    assert User.objects.count() == 10
