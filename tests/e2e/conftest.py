"""Browser tests: the real ASGI app under daphne, driven by Debian's Chromium.

The pieces, and why they are shaped this way:

``daphne_server`` (session)
    Runs ``python -m daphne config.asgi:application`` in a subprocess on a free port,
    exactly as production serves HTTP and WebSocket, with the test settings and the
    same DATABASE_URL / REDIS_URL. The subprocess is not run by pytest-django, so it
    is told the test database's name in ``DJANGO_TEST_DATABASE_NAME`` (honoured by
    ``config.settings.test``): the SQLite file ``test-db.sqlite3`` or PostgreSQL's
    ``test_<name>``. It is ready when /healthz answers 200 (database and channel
    layer both reachable) and is stopped before pytest-django drops the database.
    Its output goes to ``daphne_server.log_path``. The in-memory channel layer is
    per process, which is fine: browsers talk only to that one process.

``chromium`` (package: only while tests in tests/e2e run)
    Playwright's sync API keeps an asyncio loop marked "running" in the test thread
    for as long as it is started. Django then refuses database calls from that
    thread unless DJANGO_ALLOW_ASYNC_UNSAFE is set, and pytest-asyncio tests elsewhere
    would find a loop already running. So Playwright lives only while this package's
    tests run, and the variable is set for exactly that time. Missing Chromium skips
    the tests, or fails them when CI=true.

``new_player`` (function)
    ``new_player()`` opens a fresh browser context (its own cookies: one player),
    phone-sized and speaking Russian, and returns its page; ``new_player(user)``
    opens it already logged in as ``user`` (a session made in the test database, no
    log-in page). Contexts close at the end of the test, and any Content-Security-
    Policy violation or uncaught script error seen on their pages fails the test.
    It requests ``transactional_db``: rows a test creates are committed at once, so
    the daphne process sees them, and the tables are emptied after the test. Never
    use ``db`` in a browser test; its rows stay inside an uncommitted transaction.

Five players at one table::

    @pytest.mark.browser
    def test_five_seats(new_player):
        pages = [new_player(user) for user in UserFactory.create_batch(5)]
        for page in pages:
            page.goto("/games/")
        expect(pages[0].locator("main")).to_be_visible()
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

from tests.conftest import IN_CI

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page

    from accounts.models import User

BASE_DIR = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
]
STARTUP_SECONDS = 30
PHONE = {"width": 390, "height": 844}


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Whatever drives the browser is a browser test, so ``-m "not browser"`` skips
    it even if its author forgot the marker."""
    for item in items:
        if "chromium" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


@dataclass
class DaphneServer:
    url: str
    log_path: Path
    process: subprocess.Popen[bytes]

    def log_tail(self, lines: int = 40) -> str:
        text = (
            self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        )
        return "\n".join(text.splitlines()[-lines:])


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/healthz", timeout=2) as response:  # noqa: S310
            return response.status == 200
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return False


def _wait_until_healthy(server: DaphneServer) -> None:
    """Poll /healthz; the pause between polls is a wait on the process itself, so a
    daphne that dies at start-up is reported at once with its log."""
    for _ in range(STARTUP_SECONDS * 10):
        if _healthy(server.url):
            return
        try:
            code = server.process.wait(timeout=0.1)
        except subprocess.TimeoutExpired:
            continue
        pytest.fail(f"daphne exited with {code} at start-up:\n{server.log_tail()}")
    pytest.fail(
        f"daphne did not become healthy in {STARTUP_SECONDS}s:\n{server.log_tail()}"
    )


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


@pytest.fixture(scope="session")
def daphne_server(
    django_db_setup: None, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[DaphneServer]:
    """The site, served by daphne from the test database (see the module notes)."""
    port = _free_port()
    log_path = tmp_path_factory.mktemp("daphne") / "daphne.log"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        # After django_db_setup this is the test database pytest-django created.
        "DJANGO_TEST_DATABASE_NAME": str(connection.settings_dict["NAME"]),
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    command = [
        sys.executable,
        "-m",
        "daphne",
        "-b",
        "127.0.0.1",
        "-p",
        str(port),
        "--access-log",
        "-",
        "config.asgi:application",
    ]
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command, cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT
        )
    server = DaphneServer(
        url=f"http://127.0.0.1:{port}", log_path=log_path, process=process
    )
    try:
        _wait_until_healthy(server)
        yield server
    finally:
        _stop(process)


@pytest.fixture(scope="package")
def chromium() -> Iterator[Browser]:
    """Debian's Chromium under Playwright, for this package's tests only."""
    if not Path(CHROMIUM).exists():
        reason = f"{CHROMIUM} is missing (apt-get install chromium)"
        if IN_CI:
            pytest.fail(f"CI=true and {reason}: browser tests must run in CI")
        pytest.skip(reason)
    from playwright.sync_api import sync_playwright

    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    playwright = sync_playwright().start()
    try:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()
    finally:
        playwright.stop()
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


REPORT_CSP_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", function (event) {
  console.error("Content Security Policy violation: " + event.violatedDirective +
    " blocked " + (event.blockedURI || "inline") + " at " + event.sourceFile +
    ":" + event.lineNumber);
});
"""


@dataclass
class _Watch:
    """What went wrong on a player's pages that the test itself might not look at."""

    problems: list[str] = field(default_factory=list)

    def console(self, message: ConsoleMessage) -> None:
        if message.type == "error" and "Content Security Policy" in message.text:
            self.problems.append(f"CSP violation: {message.text}")

    def page_error(self, error: Any) -> None:
        self.problems.append(f"uncaught script error: {error}")


def session_cookie_for(user: User) -> str:
    """A logged-in session for ``user``, saved in the (shared) test database."""
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


@pytest.fixture
def new_player(
    transactional_db: None, chromium: Browser, daphne_server: DaphneServer
) -> Iterator[Callable[..., Page]]:
    """``new_player(user=None, *, locale="ru-RU", javascript=True, server=None) ->
    Page``: one player's own browser context on the daphne server, or on the site
    at ``server`` (see the module notes)."""
    contexts: list[BrowserContext] = []
    watch = _Watch()

    def open_player(
        user: User | None = None,
        *,
        locale: str = "ru-RU",
        javascript: bool = True,
        server: str | None = None,
    ) -> Page:
        url = server or daphne_server.url
        context = chromium.new_context(
            base_url=url,
            locale=locale,
            viewport=PHONE,
            java_script_enabled=javascript,
        )
        # Every CSP violation, whatever raised it, reaches the console as an error.
        context.add_init_script(REPORT_CSP_VIOLATIONS)
        contexts.append(context)
        if user is not None:
            context.add_cookies(
                [
                    {
                        "name": settings.SESSION_COOKIE_NAME,
                        "value": session_cookie_for(user),
                        "url": url,
                    }
                ]
            )
        page = context.new_page()
        page.on("console", watch.console)
        page.on("pageerror", watch.page_error)
        return page

    yield open_player
    for context in contexts:
        context.close()
    _sockets_gone()
    assert not watch.problems, "\n".join(watch.problems)


def _sockets_gone(seconds: float = 10.0) -> None:
    """Wait until the server has written every closed page's goodbye (presence
    deletes a socket's row, under the table's row lock): the test database is
    flushed next, and a flush racing those writes deadlocks on PostgreSQL."""
    from games.models import TableSocket

    deadline = time.monotonic() + seconds
    while TableSocket.objects.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.1)  # the last delete's transaction commits after its row is gone
