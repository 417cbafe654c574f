"""The engine is pure Python: importing all of it must not pull in Django."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

PROBE = """
import importlib, json, pkgutil, sys
import games.engine
names = sorted(
    info.name
    for info in pkgutil.walk_packages(games.engine.__path__, "games.engine.")
)
for name in names:
    importlib.import_module(name)
django = sorted(m for m in sys.modules if m.startswith("django"))
print(json.dumps({"imported": names, "django": django}))
"""


def test_importing_every_engine_module_loads_no_django() -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    report = json.loads(result.stdout)
    assert report["django"] == []
    assert {
        "games.engine.core",
        "games.engine.text",
        "games.engine.resistance.rules",
        "games.engine.resistance.view",
        "games.engine.resistance.oracle",
        "games.engine.resistance.bots",
        "games.engine.resistance.rulesets",
    } <= set(report["imported"])


def test_no_engine_source_imports_django() -> None:
    sources = sorted((ROOT / "games" / "engine").rglob("*.py"))
    assert len(sources) >= 10
    pattern = re.compile(r"^\s*(from|import)\s+django", re.MULTILINE)
    for path in sources:
        assert not pattern.search(path.read_text(encoding="utf-8")), path
