"""The "deduction" figure (docs/stats.md): of a player's votes as good on teams the
public odds leaned on, those that went with the lean. Worked out by hand on Ann's
record (tests/history/records.py)."""

from __future__ import annotations

import re
from importlib import import_module

import pytest
from django.apps import apps
from django.test import Client

from accounts.models import User
from games.families.resistance import deduction
from games.families.resistance.models import Proposal
from games.families.resistance.stats import player_facts
from history import figures, selectors
from tests.history.records import Record, anns_record

pytestmark = pytest.mark.django_db


@pytest.fixture
def record() -> Record:
    return anns_record()


def _ann() -> User:
    return User.objects.get(username="ann")


def test_the_lean_counted_by_hand() -> None:
    # 5 players, 2 evil: after [0, 1, 3] had a fail, seats 0, 1, 3 are evil in 4
    # of the 9 pairs left, seats 2 and 4 in 3: a pair of 2 and 4 holds 6/9 < 0.8.
    assert deduction.lean("trust_no_one", 5, [([0, 1, 3], 1)], [2, 4]) == "approve"
    assert deduction.lean("trust_no_one", 5, [([0, 1, 3], 1)], [0, 1]) == "reject"
    assert deduction.lean("trust_no_one", 5, [], [0, 1]) == ""
    # Clean missions are no facts: the odds stay even.
    assert deduction.lean("partisans", 5, [([0, 1], 0)], [0, 1]) == ""


def test_g3_leans_as_projected(record: Record) -> None:
    """G3 (dan and eve evil): M1 and M2 before any fail are even; M3 [cat, eve]
    after M2's fail leans to approve (6/9 < 4/5); M4's two teams [ann, dan, eve]
    and [ann, bob, eve] after M3's fail hold 7/6 < 6/5: approve."""
    leans = list(
        Proposal.objects.filter(game=record.g3.game)
        .order_by("mission_number", "attempt")
        .values_list("public_lean", flat=True)
    )
    assert leans == ["", "", "approve", "approve", "approve"]
    assert set(
        Proposal.objects.exclude(game=record.g3.game).values_list(
            "public_lean", flat=True
        )
    ) <= {"", "approve", "reject"}


def test_anns_deduction(record: Record, client: Client) -> None:
    """Ann, good in G3, approved M3's team (with the lean), rejected M4's first
    (against it) and approved its second (with it): 2 of 3. Her other games as
    good had no fail card: no lean, nothing counted."""
    stats = selectors.player_stats(_ann(), _ann())
    assert stats.seats is not None
    facts = player_facts(stats.seats)
    assert (facts.with_odds, facts.lean_votes) == (2, 3)
    client.force_login(_ann())
    shown = figures.profile_figures("ann", stats).fact("deduction")
    assert (shown.count, shown.total, shown.percent) == (2, 3, "67%")

    def games(url: str) -> set[str]:
        page = client.get(url).content.decode()
        return set(re.findall(r'<li data-game="([^"]+)"', page))

    assert games(shown.count_url) == {record.g3.game.code}
    assert games(shown.total_url) == {record.g3.game.code}
    profile = client.get("/u/ann/", headers={"accept-language": "en"})
    assert "(deduction)" in profile.content.decode()


def test_the_migration_fills_the_same_leans(record: Record) -> None:
    projected = dict(Proposal.objects.values_list("pk", "public_lean"))
    Proposal.objects.update(public_lean="")
    migration = import_module(
        "games.families.resistance.migrations.0003_proposal_public_lean"
    )
    migration.fill_leans(apps, None)
    assert dict(Proposal.objects.values_list("pk", "public_lean")) == projected
    assert "approve" in projected.values()
