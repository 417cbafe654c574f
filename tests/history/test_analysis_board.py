"""The analysis board under a finished game's replay (docs/analysis.md): a heat-map
of the exact odds that each seat was evil, the public one and each seat's, the
moments that mattered said in words on the review, and nothing of it on a game that
is not finished."""

from __future__ import annotations

import pytest
from django.test import Client

from games.families.resistance.engine.analysis import analyse
from games.families.resistance.odds import views
from history import analysis
from tests.history.builders import random_game

pytestmark = pytest.mark.django_db


def test_smoke(client: Client) -> None:
    table = random_game("partisans", 10, 3, options={"scout": True, "check": True})
    page = client.get(f"/history/g/{table.game.code}/").content.decode()
    open("/tmp/an/review.html", "w").write(page)
    assert "data-analysis" in page
