"""The production recipe in deploy/, brought up as written: two daphne processes
started by the systemd unit's own command line, the readiness poller writing nginx's
upstream list, and Debian's nginx with the recipe's proxy configuration in front.
A page and a WebSocket work through the proxy, and so do they while one daphne is
stopped (a rolling deploy). Only the install path (/srv/podpolye), the port and the
settings module (the test database's) differ from a server's.

Runs in the PostgreSQL pass (several processes share the database); needs nginx
(`apt-get install nginx`, which .ci/run does): under CI=true a missing nginx fails."""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import shutil
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client

from tests.conftest import IN_CI, uses_postgres
from tests.factories import UserFactory

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
STARTUP_SECONDS = 60


def _nginx() -> str | None:
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx",) if os.access(p, os.X_OK)), None
    )


pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        not uses_postgres(), reason="the recipe runs in the PostgreSQL pass"
    ),
    pytest.mark.django_db(transaction=True),
]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=30) as answer:  # noqa: S310
            return int(answer.status)
    except urllib.error.HTTPError as error:
        return int(error.code)
    except (urllib.error.URLError, OSError):
        return 0


def _wait_for(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    """Until ``url`` answers 200; a process that dies first fails with its log."""
    for _ in range(STARTUP_SECONDS * 10):
        if _status(url) == 200:
            return
        try:
            code = process.wait(timeout=0.1)
        except subprocess.TimeoutExpired:
            continue
        pytest.fail(f"exited with {code}:\n{log.read_text(errors='replace')[-3000:]}")
    pytest.fail(f"{url} not ready in {STARTUP_SECONDS}s:\n{log.read_text()[-3000:]}")


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def unit_command(unit: str, instance: str) -> list[str]:
    """The unit's ExecStart, with this checkout for /srv/podpolye."""
    text = (DEPLOY / "systemd" / unit).read_text()
    line = next(x for x in text.splitlines() if x.startswith("ExecStart="))
    command = line.removeprefix("ExecStart=").replace("%i", instance)
    return shlex.split(command.replace("/srv/podpolye", str(ROOT)))


class Recipe:
    def __init__(self, tmp: Path) -> None:
        self.tmp = tmp
        self.env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "DJANGO_TEST_DATABASE_NAME": str(connection.settings_dict["NAME"]),
            "PYTHONUNBUFFERED": "1",
        }
        self.env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        self.daphnes: dict[int, subprocess.Popen[bytes]] = {}
        self.nginx: subprocess.Popen[bytes] | None = None
        self.port = _free_port()
        self.upstreams = tmp / "podpolye-upstreams.conf"

    def start_daphne(self, port: int) -> None:
        log = self.tmp / f"daphne-{port}.log"
        with log.open("ab") as out:
            process = subprocess.Popen(
                unit_command("podpolye-daphne@.service", str(port)),
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        self.daphnes[port] = process
        _wait_for(f"http://127.0.0.1:{port}/healthz/ready", process, log)

    def poll_upstreams(self) -> str:
        subprocess.run(
            [
                sys.executable,
                str(DEPLOY / "podpolye_upstreams.py"),
                "--ports",
                *map(str, self.daphnes),
                "--out",
                str(self.upstreams),
                "--once",
            ],
            check=True,
            timeout=60,
        )
        return self.upstreams.read_text()

    def start_nginx(self, binary: str) -> None:
        http = (DEPLOY / "nginx" / "podpolye-http.conf").read_text()
        http = http.replace("/etc/nginx/podpolye-upstreams.conf", str(self.upstreams))
        (self.tmp / "podpolye-http.conf").write_text(http)
        proxy = DEPLOY / "nginx" / "podpolye-proxy.conf"
        tmp = self.tmp
        (tmp / "nginx.conf").write_text(
            f"""
worker_processes 1;
daemon off;
pid {tmp}/nginx.pid;
error_log {tmp}/nginx-error.log;
events {{ worker_connections 256; }}
http {{
    access_log {tmp}/nginx-access.log;
    client_body_temp_path {tmp}/body;
    proxy_temp_path {tmp}/proxy;
    fastcgi_temp_path {tmp}/fastcgi;
    uwsgi_temp_path {tmp}/uwsgi;
    scgi_temp_path {tmp}/scgi;
    include {tmp}/podpolye-http.conf;
    server {{
        listen 127.0.0.1:{self.port};
        server_name 127.0.0.1;
        location / {{
            include {proxy};
        }}
    }}
}}
"""
        )
        log = tmp / "nginx-out.log"
        with log.open("ab") as out:
            self.nginx = subprocess.Popen(
                [binary, "-p", str(tmp), "-c", str(tmp / "nginx.conf")],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        _wait_for(f"{self.url}/healthz/ready", self.nginx, tmp / "nginx-error.log")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self.nginx is not None:
            _stop(self.nginx)
        for process in self.daphnes.values():
            _stop(process)


@pytest.fixture
def recipe(tmp_path: Path) -> Iterator[Recipe]:
    binary = _nginx()
    if binary is None:
        if IN_CI:
            pytest.fail("nginx is not installed (.ci/run installs Debian's nginx)")
        pytest.skip("needs nginx: apt-get install -y nginx")
    tmp_path.chmod(0o755)  # nginx's workers run as another user
    running = Recipe(tmp_path)
    try:
        for _ in range(2):
            running.start_daphne(_free_port())
        upstreams = running.poll_upstreams()
        assert upstreams.count("server 127.0.0.1:") == 2, upstreams
        assert " down;" not in upstreams, upstreams
        running.start_nginx(binary)
        yield running
    finally:
        running.stop()


def _socket_says_hello(url: str, cookie: str) -> dict[str, object]:
    from websockets.asyncio.client import connect

    async def talk() -> dict[str, object]:
        async with connect(
            url.replace("http://", "ws://") + "/ws/ping/",
            additional_headers={
                "Cookie": f"{settings.SESSION_COOKIE_NAME}={cookie}",
                "Origin": url,
            },
            open_timeout=10,
        ) as ws:
            hello = json.loads(await asyncio.wait_for(ws.recv(), 10))
            await ws.send(json.dumps({"type": "ping"}))
            pong = json.loads(await asyncio.wait_for(ws.recv(), 10))
            return {"hello": hello, "pong": pong}

    return asyncio.run(talk())


def test_a_page_and_a_socket_through_the_proxy_also_in_a_rolling_restart(
    recipe: Recipe,
) -> None:
    user = UserFactory(display_name="Ася")
    browser = Client()
    browser.force_login(user)
    cookie = browser.cookies[settings.SESSION_COOKIE_NAME].value

    assert _status(f"{recipe.url}/") == 200
    assert _status(f"{recipe.url}/healthz/live") == 200
    said = _socket_says_hello(recipe.url, cookie)
    assert said["hello"] == {"type": "hello", "user": "Ася"}
    assert said["pong"]["type"] == "pong"

    # A rolling deploy: one daphne stops; nginx sends everything to the other.
    first, second = list(recipe.daphnes)
    _stop(recipe.daphnes[first])
    upstreams = recipe.poll_upstreams()
    assert f"127.0.0.1:{first} max_fails=2 fail_timeout=5s down;" in upstreams
    assert f"127.0.0.1:{second} max_fails=2 fail_timeout=5s;" in upstreams
    for _ in range(6):
        assert _status(f"{recipe.url}/") == 200
    for _ in range(2):
        said = _socket_says_hello(recipe.url, cookie)
        assert said["hello"] == {"type": "hello", "user": "Ася"}
    recipe.start_daphne(first)
    assert " down;" not in recipe.poll_upstreams()
    assert _status(f"{recipe.url}/") == 200
