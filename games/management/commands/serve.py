"""``make run``'s site: daphne's development server and, beside it, the turn clocks'
runner (time-outs, away players, practice bots), as one command that stops both."""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandParser


class Command(BaseCommand):
    help = (
        "Serve the site on one computer: the development server (HTTP and "
        "WebSocket) and the turn clocks' runner beside it."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8000")
        parser.add_argument(
            "--noreload",
            action="store_true",
            help="Do not restart the server when the code changes.",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        # With the code reloader the server runs in a child process that runs
        # this command again (RUN_MAIN set): only the first one starts the runner.
        runner = None
        if os.environ.get("RUN_MAIN") != "true":
            runner = subprocess.Popen(  # noqa: S603 - this interpreter, our command
                [sys.executable, sys.argv[0], "run_clocks"],
                env=os.environ.copy(),
            )
        try:
            call_command(
                "runserver", options["addrport"], use_reloader=not options["noreload"]
            )
        finally:
            if runner is not None:
                runner.terminate()
                try:
                    runner.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    runner.kill()
