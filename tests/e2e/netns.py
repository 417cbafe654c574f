"""Separate networks for browser tests: Linux network namespaces, a TURN server and
a daphne that every namespace reaches, for the voice tests that need browsers with
no direct route between them (tests/e2e/test_voice_turn_browser.py).

The shape::

    namespace 1 (10.N.1.2) ──veth── 10.N.1.1 ┐
    namespace 2 (10.N.2.2) ──veth── 10.N.2.1 ├─ the root namespace: daphne and
    namespace 3 (10.N.3.2) ──veth── 10.N.3.1 ┘  coturn, both on 10.N.1.1

Each namespace's default route is its veth's root end, so it reaches every address
of the root namespace (the kernel delivers a packet for any local address whichever
link it came in on), but forwarding is off on every root end: a packet from one
namespace to another's address is dropped by the root namespace ("no route to
host"). Two browsers in different namespaces can only meet through a server in the
root namespace: the TURN server's relay.

A browser runs inside its namespace through a wrapper that Playwright launches as
its Chromium (``exec ip netns exec <ns> /usr/bin/chromium "$@"``): Playwright still
drives it over its inherited pipe, so nothing listens on a port in the namespace.

Every name carries the test process's id (several runs share one machine), and
:class:`Networks` removes what it made when its ``with`` block ends, failed or not.
"""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import struct
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from tests.e2e.conftest import (
    BASE_DIR,
    CHROMIUM,
    DaphneServer,
    _stop,
    _wait_until_healthy,
)

IP = "/usr/sbin/ip" if os.access("/usr/sbin/ip", os.X_OK) else "ip"
TURNSERVER = "/usr/bin/turnserver"
READY_SECONDS = 30


def run(*command: str) -> str:
    """Run a command of ``ip`` and friends; a failure raises with its output."""
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)}: {done.stderr.strip()}")
    return done.stdout


def unavailable() -> str | None:
    """Why namespaces cannot be made here, or None."""
    if os.geteuid() != 0:
        return "needs root (ip netns add)"
    if not shutil.which(IP):
        return "needs iproute2 (ip netns)"
    if not os.access(TURNSERVER, os.X_OK):
        return "needs coturn (apt-get install coturn)"
    if not os.access(CHROMIUM, os.X_OK):
        return f"needs {CHROMIUM} (apt-get install chromium)"
    probe = f"pvprobe{os.getpid() % 100000}"
    try:
        run(IP, "netns", "add", probe)
        run(IP, "netns", "del", probe)
    except RuntimeError as error:
        return f"ip netns does not work here: {error}"
    return None


def _free_second_octet() -> int:
    """A 10.N.0.0/16 no route of this machine touches (the process id picks the
    first one tried, so two runs at once start apart)."""
    routes = run(IP, "-4", "route", "show", "table", "all")
    for step in range(150):
        octet = 100 + (os.getpid() + step * 7) % 150
        if f"10.{octet}." not in routes:
            return octet
    raise RuntimeError("no free 10.N.0.0/16 for the test's namespaces")


@dataclass
class Namespace:
    name: str
    host_link: str  # the veth's end in the root namespace
    inner_link: str  # its end in this namespace
    gateway: str  # the root end's address
    address: str  # this namespace's address
    chromium: Path  # the wrapper that runs Chromium in here

    def run(self, *command: str) -> str:
        return run(IP, "netns", "exec", self.name, *command)


@dataclass
class Networks:
    """``count`` namespaces linked to the root namespace (see the module notes)."""

    count: int
    folder: Path
    prefix: str = field(default_factory=lambda: f"pv{os.getpid() % 100000}")
    namespaces: list[Namespace] = field(default_factory=list)
    octet: int = 0

    @property
    def host(self) -> str:
        """The root namespace's address every namespace reaches: the servers'."""
        return self.namespaces[0].gateway

    def __enter__(self) -> Networks:
        try:
            self.octet = _free_second_octet()
            for index in range(1, self.count + 1):
                self._add(index)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def _add(self, index: int) -> None:
        name = f"{self.prefix}n{index}"
        host_link, inner_link = f"{self.prefix}h{index}", f"{self.prefix}c{index}"
        gateway, address = f"10.{self.octet}.{index}.1", f"10.{self.octet}.{index}.2"
        wrapper = self.folder / f"chromium-{name}"
        wrapper.write_text(f'#!/bin/sh\nexec {IP} netns exec {name} {CHROMIUM} "$@"\n')
        wrapper.chmod(0o755)
        namespace = Namespace(name, host_link, inner_link, gateway, address, wrapper)
        run(IP, "netns", "add", name)
        self.namespaces.append(namespace)
        run(IP, "link", "add", host_link, "type", "veth", "peer", "name", inner_link)
        run(IP, "link", "set", inner_link, "netns", name)
        # No forwarding from this link: the root namespace never passes a packet on
        # from one namespace to another (whatever the machine's own ip_forward).
        run("sysctl", "-qw", f"net.ipv4.conf.{host_link}.forwarding=0")
        run("sysctl", "-qw", f"net.ipv6.conf.{host_link}.disable_ipv6=1")
        run(IP, "addr", "add", f"{gateway}/24", "dev", host_link)
        run(IP, "link", "set", host_link, "up")
        run(IP, "-n", name, "addr", "add", f"{address}/24", "dev", inner_link)
        run(IP, "-n", name, "link", "set", inner_link, "up")
        run(IP, "-n", name, "link", "set", "lo", "up")
        run(IP, "-n", name, "route", "add", "default", "via", gateway)

    def __exit__(self, *exc: object) -> None:
        for namespace in self.namespaces:
            # Deleting the namespace deletes its veth end, and with it the pair.
            subprocess.run(
                [IP, "link", "del", namespace.host_link],
                check=False,
                capture_output=True,
            )
            subprocess.run(
                [IP, "netns", "del", namespace.name], check=False, capture_output=True
            )
        self.namespaces = []

    def routed(self, source: Namespace, target: Namespace) -> bool:
        """Whether the root namespace would pass a packet from ``source`` on to
        ``target`` (the kernel's own routing decision for it)."""
        done = subprocess.run(
            [
                IP,
                "route",
                "get",
                target.address,
                "from",
                source.address,
                "iif",
                source.host_link,
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        return done.returncode == 0

    def datagrams_reach(self, source: Namespace, target: Namespace) -> bool:
        """Whether UDP from ``source`` reaches a listener in ``target``: a probe is
        sent from ``source``, then a control datagram from the root namespace; the
        listener reports what arrived once the control one has (no waiting on a
        clock: the control's arrival is the event)."""
        listener = subprocess.Popen(
            [IP, "netns", "exec", target.name, sys.executable, "-c", LISTEN],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert listener.stdout is not None
            port = int(listener.stdout.readline())
            token = secrets.token_hex(4)
            source.run(
                sys.executable, "-c", SEND, target.address, str(port), f"probe-{token}"
            )
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as control:
                for _ in range(3):
                    control.sendto(b"control", (target.address, port))
            # Bounded only in case the control datagram itself were lost.
            output, _ = listener.communicate(timeout=READY_SECONDS)
            heard = output.split()
        finally:
            if listener.poll() is None:
                listener.kill()
                listener.wait()
        assert "control" in heard, heard
        return f"probe-{token}" in heard


# Run inside a namespace by datagrams_reach.
LISTEN = """
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind(("0.0.0.0", 0))
print(s.getsockname()[1], flush=True)
while True:
    data = s.recv(100).decode()
    print(data, flush=True)
    if data == "control":
        break
"""
SEND = """
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(3):
    s.sendto(sys.argv[3].encode(), (sys.argv[1], int(sys.argv[2])))
"""


# --- coturn ---------------------------------------------------------------------


def stun_answers(address: str, port: int) -> bool:
    """Whether a STUN Binding request to ``address:port`` (UDP) is answered."""
    transaction = secrets.token_bytes(12)
    request = struct.pack("!HHI", 0x0001, 0, 0x2112A442) + transaction
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.settimeout(0.5)
        try:
            probe.sendto(request, (address, port))
            answer = probe.recv(2048)
        except OSError:
            return False
    return answer[:2] == b"\x01\x01" and answer[8:20] == transaction


def free_udp_port(address: str) -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.bind((address, 0))
        return int(probe.getsockname()[1])


@dataclass
class Turn:
    """Debian's coturn on ``address``, its accounts made from ``secret`` (the
    ``use-auth-secret`` scheme the site's voice.ice uses)."""

    address: str
    folder: Path
    secret: str = field(default_factory=lambda: secrets.token_hex(16))
    port: int = 0
    process: subprocess.Popen[bytes] | None = None
    starts: int = 0

    @property
    def url(self) -> str:
        return f"turn:{self.address}:{self.port}?transport=udp"

    def start(self) -> None:
        """Start coturn (again, on the same port: a new process knows none of the
        old one's allocations) and wait until it answers STUN."""
        if not self.port:
            self.port = free_udp_port(self.address)
        self.starts += 1
        log = self.folder / f"turnserver-{self.starts}.log"
        command = [
            TURNSERVER, "-n", "--no-cli", "--no-tls", "--no-dtls", "--no-tcp",
            "--fingerprint", "--use-auth-secret",
            f"--static-auth-secret={self.secret}", "--realm=podpolye.test",
            f"--listening-ip={self.address}", f"--relay-ip={self.address}",
            f"--listening-port={self.port}",
            f"--userdb={self.folder / 'turndb'}",
            f"--pidfile={self.folder / 'turnserver.pid'}",
            f"--log-file={log}", "--simple-log", "--no-stdout-log",
        ]  # fmt: skip
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + READY_SECONDS
        while not stun_answers(self.address, self.port):
            if self.process.poll() is not None:
                raise RuntimeError(f"turnserver exited:\n{self.log_tail()}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"turnserver did not answer:\n{self.log_tail()}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.process = None

    def log_tail(self, lines: int = 30) -> str:
        log = self.folder / f"turnserver-{self.starts}.log"
        text = log.read_text(errors="replace") if log.exists() else ""
        return "\n".join(text.splitlines()[-lines:])


@contextmanager
def turnserver(address: str, folder: Path) -> Iterator[Turn]:
    turn = Turn(address, folder)
    try:
        turn.start()
        yield turn
    finally:
        turn.stop()


# --- the site, on an address the namespaces reach ---------------------------------


@contextmanager
def daphne_on(
    address: str, database: str, folder: Path, settings: dict[str, str]
) -> Iterator[DaphneServer]:
    """The site under daphne on ``address`` (tests/e2e/conftest.py's live server,
    bound elsewhere), with extra settings from the environment."""
    port = _free_tcp_port(address)
    log_path = folder / "daphne.log"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DJANGO_TEST_DATABASE_NAME": database,
        "DJANGO_ALLOWED_HOSTS": address,
        "PYTHONUNBUFFERED": "1",
        **settings,
    }
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    command = [
        sys.executable, "-m", "daphne", "-b", address, "-p", str(port),
        "--access-log", "-", "config.asgi:application",
    ]  # fmt: skip
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command, cwd=BASE_DIR, env=env, stdout=log, stderr=subprocess.STDOUT
        )
    server = DaphneServer(f"http://{address}:{port}", log_path, process)
    try:
        _wait_until_healthy(server)
        yield server
    finally:
        _stop(process)


def _free_tcp_port(address: str) -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((address, 0))
        return int(probe.getsockname()[1])
