"""Keep nginx's upstream list to the daphne processes that are ready.

Debian's nginx has no active health checks of its own: this polls each daphne's
``/healthz/ready`` (the database and Redis reachable now, answered within a second
or so) every ``--every`` seconds and writes ``--out`` with a ``server`` line per
process, marking ``down`` those that are not ready; when the list changes it runs
``--reload`` (``systemctl reload nginx``; nginx's reload drops no connection).

When no process is ready (the database or Redis is down for all of them at once)
none is marked down: emptying the upstream would turn a blip into 502s for every
page, while a process that cannot reach the database still answers its own clear
503 and is back with it. Standard library only: it runs with the system's python3.
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

TIMEOUT = 3.0


def ready(host: str, port: int) -> bool:
    try:
        with urllib.request.urlopen(
            f"http://{host}:{port}/healthz/ready", timeout=TIMEOUT
        ) as answer:
            return bool(answer.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def upstreams(host: str, ports: list[int], states: list[bool]) -> str:
    everyone_down = not any(states)
    lines = ["# Written by deploy/podpolye_upstreams.py from /healthz/ready."]
    for port, up in zip(ports, states, strict=True):
        down = "" if up or everyone_down else " down"
        lines.append(f"server {host}:{port} max_fails=2 fail_timeout=5s{down};")
    return "\n".join(lines) + "\n"


def write(path: str, text: str) -> bool:
    """Write ``text`` to ``path`` atomically; whether it changed."""
    try:
        with open(path, encoding="utf-8") as current:
            if current.read() == text:
                return False
    except FileNotFoundError:
        pass
    folder = os.path.dirname(os.path.abspath(path))
    fd, temporary = tempfile.mkstemp(dir=folder, prefix=".podpolye-upstreams-")
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)
    os.chmod(temporary, 0o644)
    os.replace(temporary, path)
    return True


def poll_once(args: argparse.Namespace) -> bool:
    states = [ready(args.host, port) for port in args.ports]
    changed = write(args.out, upstreams(args.host, args.ports, states))
    if changed and args.reload:
        subprocess.run(shlex.split(args.reload), check=False)  # noqa: S603
    return changed


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ports", type=int, nargs="+", required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--out", required=True, help="the upstream file nginx includes")
    parser.add_argument("--reload", default="", help="command run when it changes")
    parser.add_argument("--every", type=float, default=2.0)
    parser.add_argument("--once", action="store_true", help="poll once and exit")
    args = parser.parse_args(argv)
    if args.once:
        poll_once(args)
        return
    while True:
        try:
            poll_once(args)
        except Exception as exc:  # keep polling whatever one round met
            print(f"podpolye-upstreams: {exc!r}", file=sys.stderr, flush=True)
        time.sleep(args.every)


if __name__ == "__main__":
    main()
