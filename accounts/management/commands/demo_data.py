"""``manage.py demo_data``: ten players to try the site with, one easy password.

``make run`` calls it every time, so it must be idempotent: existing demo players
are kept (their password is set back to the shared one, so the printed list is always
true). It refuses to run with DEBUG off unless ``--force``, so a production database
never gets accounts whose password is printed in the README.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts import services
from accounts.models import User

DEMO_PASSWORD = "podpolye-demo"  # noqa: S105 - a demo password, printed on purpose
DEMO_PLAYERS: tuple[tuple[str, str], ...] = (
    ("demo1", "Аня"),
    ("demo2", "Борис"),
    ("demo3", "Вера"),
    ("demo4", "Глеб"),
    ("demo5", "Даша"),
    ("demo6", "Егор"),
    ("demo7", "Женя"),
    ("demo8", "Зоя"),
    ("demo9", "Илья"),
    ("demo10", "Катя"),
)


class Command(BaseCommand):
    help = "Create ten demo players (demo1..demo10) sharing one easy password."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--force",
            action="store_true",
            help="Run even with DEBUG off (never do this on a public site).",
        )

    def handle(self, *args: Any, force: bool = False, **options: Any) -> None:
        if not settings.DEBUG and not force:
            raise CommandError(
                "DEBUG is off: this looks like production, where demo accounts with "
                "a published password must not exist. Use --force to insist."
            )
        rows = []
        for username, display_name in DEMO_PLAYERS:
            rows.append((username, self._ensure(username, display_name)))
        self.stdout.write(f"Demo players (password for all: {DEMO_PASSWORD}):")
        for username, display_name in rows:
            self.stdout.write(f"  {username:<8} {display_name}")

    def _ensure(self, username: str, display_name: str) -> str:
        """The demo player's display name, creating the player if needed."""
        user = User.objects.filter(username=username).first()
        if user is not None:
            services.user_set_password(user=user, password=DEMO_PASSWORD)
            return user.display_name
        try:
            user = services.user_create(
                username=username,
                email=f"{username}@example.org",
                display_name=display_name,
                password=DEMO_PASSWORD,
            )
        except ValidationError:
            # Someone real already goes by this display name: keep theirs unique.
            user = services.user_create(
                username=username,
                email=f"{username}@example.org",
                display_name=f"{display_name} ({username})",
                password=DEMO_PASSWORD,
            )
        return user.display_name
