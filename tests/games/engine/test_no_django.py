"""Every engine is pure Python: importing all of them must not pull in Django.

The platform's engine (``games/engine``) and each family's (``games/families/<family>/
engine``) are replayed, fuzzed, benchmarked and used by bots without Django.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from games.families import FAMILIES

ROOT = Path(__file__).resolve().parents[3]

PROBE = """
import importlib, json, pkgutil, sys
import games.engine
from games.families import FAMILIES
packages = [("games.engine", games.engine.__path__)]
for family in FAMILIES:
    package = importlib.import_module(f"games.families.{family}.engine")
    packages.append((package.__name__, package.__path__))
names = sorted(
    info.name
    for prefix, path in packages
    for info in pkgutil.walk_packages(path, prefix + ".")
)
for name in names:
    importlib.import_module(name)
django = sorted(m for m in sys.modules if m.startswith("django"))
print(json.dumps({"imported": names, "django": django}))
"""


def _engine_sources() -> list[Path]:
    folders = [ROOT / "games" / "engine"]
    folders += [ROOT / "games" / "families" / family / "engine" for family in FAMILIES]
    return sorted(path for folder in folders for path in folder.rglob("*.py"))


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
    expected = {"games.engine.core", "games.engine.text", "games.engine.oracle"}
    for family in FAMILIES:
        expected |= {
            f"games.families.{family}.engine.rulesets",
            f"games.families.{family}.engine.oracle",
        }
    assert expected <= set(report["imported"])


def test_no_engine_source_imports_django() -> None:
    sources = _engine_sources()
    assert len(sources) >= 10
    pattern = re.compile(r"^\s*(from|import)\s+django", re.MULTILINE)
    for path in sources:
        assert not pattern.search(path.read_text(encoding="utf-8")), path


def test_the_family_packages_above_the_engines_import_nothing() -> None:
    """``games/__init__.py``, ``games/families/__init__.py`` and each family's own
    ``__init__.py`` are imported on the way to an engine: they must stay empty of
    imports (a Django app's models load elsewhere)."""
    families = ROOT / "games" / "families"
    inits = [ROOT / "games" / "__init__.py", families / "__init__.py"]
    inits += [families / family / "__init__.py" for family in FAMILIES]
    pattern = re.compile(r"^\s*(from|import)\s+(?!__future__)", re.MULTILINE)
    for path in inits:
        assert not pattern.search(path.read_text(encoding="utf-8")), path
