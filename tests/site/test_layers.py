"""The import contracts (``[tool.importlinter]`` in pyproject.toml, docs/layers.md):
every module of the site stands in a layer, and a wrong import fails the check with
the rule it breaks."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _config() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        config: dict[str, Any] = tomllib.load(file)["tool"]["importlinter"]
    return config


def _contract(key: str) -> dict[str, Any]:
    return next(c for c in _config()["contracts"] if c["id"] == key)


def _names(layers: list[str]) -> set[str]:
    """Every module a contract's layers name ("a | b", "a : b" list several)."""
    return {
        name.strip()
        for layer in layers
        for name in layer.replace(":", "|").split("|")
        if name.strip()
    }


def _packages(folder: Path) -> set[str]:
    """The Python modules and packages directly in ``folder``."""
    return {
        path.stem
        for path in folder.iterdir()
        if (path.suffix == ".py" and path.stem != "__init__")
        or (path.is_dir() and (path / "__init__.py").exists())
    }


def test_every_top_level_package_is_in_a_layer() -> None:
    site = _packages(ROOT) - {"tests", "manage"}
    assert set(_config()["root_packages"]) == site
    assert _names(_contract("top")["layers"]) == site


def test_every_module_of_games_is_in_a_layer() -> None:
    assert _names(_contract("games")["layers"]) == _packages(ROOT / "games")


def test_what_programs_see_is_above_the_table_and_the_room() -> None:
    """Issue #35: the shapes, payloads and checks of the API live in ``api``, the
    strict reading of frames in ``live``; ``games`` keeps none of them."""
    assert {"shapes", "payloads", "checks", "schemas"} <= _packages(ROOT / "api")
    assert "requests" in _packages(ROOT / "live")
    assert not {"payloads", "schemas", "requests"} & _packages(ROOT / "games")
    layers = _contract("top")["layers"]
    api = next(i for i, layer in enumerate(layers) if "api" in _names([layer]))
    live = next(i for i, layer in enumerate(layers) if "live" in _names([layer]))
    games = layers.index("games")
    assert api < live < games  # listed from the top


# --- a wrong import fails with the rule it breaks -----------------------------------

PLANTED = {
    # case: (contract id, module file, the import planted in it, as the report
    # names it)
    "top": (
        "top",
        "accounts/selectors.py",
        "from live import room",
        "accounts.selectors -> live.room",
    ),
    # What programs see moved up into api (issue #35): the table may not reach
    # back for it...
    "games-imports-api-shapes": (
        "top",
        "games/services.py",
        "from api import shapes",
        "games.services -> api.shapes",
    ),
    "games-imports-api-payloads": (
        "top",
        "games/selectors.py",
        "from api.payloads import player_json",
        "games.selectors -> api.payloads",
    ),
    # ...nor the strict reading of frames, now the live room's...
    "games-imports-live-requests": (
        "top",
        "games/views.py",
        "from live.requests import parse_json_object",
        "games.views -> live.requests",
    ),
    # ...and the live room may not use the API's checks.
    "live-imports-api-checks": (
        "top",
        "live/consumers.py",
        "from api.checks import move_of",
        "live.consumers -> api.checks",
    ),
    "games": (
        "games",
        "games/kit/records.py",
        "from games import services",
        "games.kit.records -> games.services",
    ),
    "families-kit": (
        "families-kit",
        "games/families/cells/stats.py",
        "from games import errors",
        "games.families.cells.stats -> games.errors",
    ),
    "engines-pure": (
        "engines-pure",
        "games/families/mafia/engine/view.py",
        "import django",
        "games.families.mafia.engine.view -> django",
    ),
}


def _copy(target: Path) -> None:
    """The site's Python files and its contracts, without tests or the venv."""
    for package in _config()["root_packages"]:
        shutil.copytree(
            ROOT / package,
            target / package,
            ignore=shutil.ignore_patterns("__pycache__", "*.html", "*.js", "*.css"),
        )
    shutil.copy(ROOT / "pyproject.toml", target / "pyproject.toml")


def _lint(tree: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--no-logo"],
        cwd=tree,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", "COLUMNS": "200"},
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.fixture(scope="module")
def tree(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("site")
    _copy(target)
    return target


def test_the_site_keeps_every_contract(tree: Path) -> None:
    ran = _lint(tree)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    for contract in _config()["contracts"]:
        assert f"{contract['name']} KEPT" in ran.stdout


def test_every_contract_has_a_planted_import() -> None:
    assert {case[0] for case in PLANTED.values()} == {
        contract["id"] for contract in _config()["contracts"]
    }


@pytest.mark.parametrize("case", sorted(PLANTED))
def test_a_planted_import_breaks_its_contract(tree: Path, case: str) -> None:
    """Each wrong import, planted alone in a copy of the site, fails the check; the
    report names the contract, the rule's guidance and the import."""
    key, where, line, shown = PLANTED[case]
    planted = tree.parent / f"planted-{case}"
    shutil.copytree(tree, planted)
    module = planted / where
    module.write_text(module.read_text() + f"\n{line}  # planted\n")

    ran = _lint(planted)

    assert ran.returncode == 1, ran.stdout + ran.stderr
    contract = _contract(key)
    report = ran.stdout.split("Broken contracts", 1)[1]
    assert f"{contract['name']} BROKEN" in ran.stdout
    assert shown in report
    # The contract's own words on how to mend it come with the failure.
    guidance = " ".join(contract["broken_contract_guidance"].split())
    assert guidance[:60] in " ".join(report.split())
    # No other contract is broken by it.
    others = [c["name"] for c in _config()["contracts"] if c["id"] != key]
    assert all(f"{name} KEPT" in ran.stdout for name in others)
