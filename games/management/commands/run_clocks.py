"""The turn clock's runner: plays the bot's move for every decision whose time ran
out, and the moves of bots seated at practice tables. Start one (or several: every
move is taken under the table's row lock, so two runners never play a move twice)
next to the daphne processes; see docs/clocks.md."""

from __future__ import annotations

import signal
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.db import close_old_connections

from games import services


class Command(BaseCommand):
    help = (
        "Play the bot's move where a turn clock ran out and for seated bots; "
        "loops every --interval seconds (default 1) until stopped, or once with --once."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--interval", type=float, default=1.0)
        parser.add_argument("--once", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        stopping = False

        def stop(signum: int, frame: Any) -> None:
            nonlocal stopping
            stopping = True

        signal.signal(signal.SIGTERM, stop)
        signal.signal(signal.SIGINT, stop)
        while True:
            played = services.clocks_run_once()
            if played and options["verbosity"] > 1:
                self.stdout.write(f"{played} move(s) played by the bot")
            if options["once"] or stopping:
                break
            # A long-running loop: drop a connection the database closed meanwhile.
            close_old_connections()
            time.sleep(options["interval"])
