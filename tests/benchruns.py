"""Running a benchmark script the way a person does: ``python -m bench.<name>`` in a
process of its own, with only the path, the project and, when given, the database
and Redis of this test run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def bench_env(tmp_path: Path, *, services: bool = True) -> dict[str, str]:
    """A bare environment; with ``services``, this run's ``DATABASE_URL`` and
    ``REDIS_URL`` where they are set."""
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HOME": str(tmp_path)}
    if services:
        for name in ("DATABASE_URL", "REDIS_URL"):
            if os.environ.get(name):
                env[name] = os.environ[name]
    return env


def run_bench(module: str, args: list[str], env: dict[str, str]) -> str:
    """``python -m module args``; fails the test with its error output unless it
    exits 0, and returns what it printed."""
    done = subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout
