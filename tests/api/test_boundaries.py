"""Who may import whom: the platform (``games``) never imports the API (``api``
builds on ``games``, not the other way round), and the API names no game: a family's
shapes reach it through ``Programs.view_schema`` and ``Programs.move_schema`` alone."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, Literal

import pytest
from pydantic import Field, RootModel

from api import checks, shapes
from games import engine
from games.families import FAMILIES
from games.kit.family import Family, Programs
from live.requests import RequestError

ROOT = Path(__file__).resolve().parents[2]


def _imports(path: Path) -> Iterator[str]:
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module


def test_no_games_module_imports_api() -> None:
    found = [
        (str(path.relative_to(ROOT)), name)
        for path in sorted((ROOT / "games").rglob("*.py"))
        for name in _imports(path)
        if name == "api" or name.startswith("api.")
    ]
    assert found == []


IMPORT_EVERY_GAMES_MODULE = """
import importlib, os, pkgutil, sys
os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.test"
import django
django.setup()
def api_modules():
    return {name for name in sys.modules if name == "api" or name.startswith("api.")}
loaded_by_the_app_registry = api_modules()
import games
for info in pkgutil.walk_packages(games.__path__, "games."):
    importlib.import_module(info.name)
print(len(sys.modules), sorted(api_modules() - loaded_by_the_app_registry))
"""


def test_importing_every_games_module_loads_nothing_of_api() -> None:
    """Django's app registry loads ``api``'s app, models and admin for itself; every
    module of ``games`` (consumers, selectors, families...) adds nothing of ``api``,
    directly or through another package."""
    ran = subprocess.run(
        [sys.executable, "-c", IMPORT_EVERY_GAMES_MODULE],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    modules, extra = ran.stdout.strip().split(" ", 1)
    assert int(modules) > 100  # the walk did import the platform
    assert extra == "[]"


def test_the_api_names_no_game() -> None:
    names = {*FAMILIES, *engine.ruleset_codes()}
    for path in sorted((ROOT / "api").rglob("*.py")):
        if "migrations" in path.parts:
            continue
        text = path.read_text().lower()
        assert not [name for name in names if name in text], path


# --- A family the site does not have joins the shapes by its two schemas alone -------


class ToyView(shapes.Answer):
    """A toy game's view."""

    ruleset: Literal["toy"]
    players: int
    coins: list[int]


class ToyTake(shapes.Request):
    type: Literal["take"]
    coins: int = Field(ge=1, le=3)


class ToyMove(RootModel[Annotated[ToyTake, Field(discriminator="type")]]):
    """A toy game's move."""


class ToyFamily(Family):
    code = "toy"
    programs = Programs(ToyView, ToyMove)


@pytest.fixture
def toy_installed(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    real_codes = shapes.playable_rulesets()
    real_family_of = shapes.family_of
    toy = ToyFamily()

    def family_of(code: str) -> Family:
        return toy if code == "toy" else real_family_of(code)

    for module in (shapes, checks):
        monkeypatch.setattr(module, "family_of", family_of)
    monkeypatch.setattr(shapes, "playable_rulesets", lambda: (*real_codes, "toy"))
    shapes.shapes.cache_clear()
    yield
    shapes.shapes.cache_clear()


def _tags(schema: dict[str, Any]) -> set[str]:
    return set(schema["discriminator"]["mapping"])


@pytest.mark.usefixtures("toy_installed")
def test_a_new_familys_schemas_join_the_view_and_the_moves() -> None:
    made = shapes.shapes()
    view = made.View.model_validate({"ruleset": "toy", "players": 2, "coins": [3]})
    assert isinstance(view.root, ToyView)
    partisans = made.View.model_validate(
        engine.view(engine.setup(engine.GameSetup("partisans", 5, seed=1)), 0)
    )
    assert type(partisans.root).__name__ == "ResistanceView"
    documented = made.View.model_json_schema()
    assert {"toy", "partisans", "werewolves"} <= _tags(documented)
    assert "ToyMove" in str(made.Action.model_json_schema())
    # Over the socket, a move is checked by the schema of its table's family.
    message = {"type": "act", "action": {"type": "take", "coins": 2}, "turn": 0}
    act = checks.checked(made.SocketMessage, message).root
    assert checks.move_of("toy", act.action, seats=2) == {"type": "take", "coins": 2}
    with pytest.raises(RequestError) as refused:
        checks.move_of("toy", {"type": "take", "coins": 4}, seats=2)
    assert (refused.value.code, refused.value.field) == ("out_of_range", "action.coins")
    with pytest.raises(RequestError) as foreign:
        checks.move_of("partisans", {"type": "take", "coins": 2}, seats=5)
    assert foreign.value.code == "invalid_choice"
    assert foreign.value.field == "action.type"
