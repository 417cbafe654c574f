"""Mark games nobody has moved in for a long time as abandoned, and close open tables
that never filled. Run it from cron once an hour."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db.models import Q
from django.utils import timezone

from games import errors, services
from games.models import Game


class Command(BaseCommand):
    help = (
        "Abandon games idle for --hours (default 48); "
        "close tables open for --days (default 7)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--hours", type=int, default=48)
        parser.add_argument("--days", type=int, default=7)

    def handle(self, *args: Any, **options: Any) -> None:
        now = timezone.now()
        idle_since = now - timedelta(hours=options["hours"])
        stale = Game.objects.filter(status=Game.Status.PLAYING).filter(
            Q(last_action_at__lt=idle_since)
            | Q(last_action_at__isnull=True, started_at__lt=idle_since)
        )
        abandoned = 0
        for game in stale:
            try:
                services.game_abandon(game=game, user=None)
            except errors.GameError:
                continue  # it moved or ended meanwhile
            abandoned += 1
        closed, _ = Game.objects.filter(
            status=Game.Status.OPEN,
            created_at__lt=now - timedelta(days=options["days"]),
        ).delete()
        self.stdout.write(
            f"abandoned {abandoned} idle games; closed {closed} stale rows"
        )
