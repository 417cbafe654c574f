"""Cells at three and four, and Mafia with its moderator: every table phase fits a
phone and passes axe-core, audited as test_phone_tables_browser.py audits the
Resistance family's tables."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page

from tests.e2e.test_phone_tables_browser import audit_a_whole_game, game_ids

pytestmark = pytest.mark.browser

GAMES = [
    ("cells", 3, {}, 5),
    ("cells", 4, {}, 6),
    ("mafia_partisan", 10, {}, 7),
]


@pytest.mark.parametrize(
    ("ruleset", "players", "options", "seed"), GAMES, ids=game_ids(GAMES)
)
def test_every_phase_fits_and_passes_axe(
    new_player: Callable[..., Page],
    ruleset: str,
    players: int,
    options: dict[str, Any],
    seed: int,
) -> None:
    audit_a_whole_game(new_player, ruleset, players, options, seed)
