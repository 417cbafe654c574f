"""Stats on hand-built games whose numbers are known (tests/history/records.py), and
the promise behind them: every figure links to exactly the games it counts."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts.models import User
from games.families.resistance.stats import ResistanceFacts, player_facts
from history import figures, selectors
from tests.factories import UserFactory
from tests.history.records import Record, anns_record

pytestmark = pytest.mark.django_db


@pytest.fixture
def record() -> Record:
    return anns_record()


def _ann() -> User:
    return User.objects.get(username="ann")


def _tallies(table: dict[object, selectors.Tally]) -> dict[object, tuple[int, int]]:
    return {key: (tally.played, tally.won) for key, tally in table.items()}


def _summed(table: dict, kind: object) -> dict[object, tuple[int, int]]:
    """A (game, code) table summed over games, each code mapped by ``kind``."""
    sums: dict[object, list[int]] = {}
    for (_ruleset, code), tally in table.items():
        total = sums.setdefault(kind(code), [0, 0])
        total[0] += tally.played
        total[1] += tally.won
    return {key: (played, won) for key, (played, won) in sums.items()}


def _side(code: str) -> str:
    return code


def _role_kind(code: str) -> str:
    return code if code in ("scout", "sniper") else "plain"


def _facts(stats: selectors.PlayerStats) -> ResistanceFacts:
    assert stats.seats is not None
    return player_facts(stats.seats)


def test_anns_own_view_counts_every_finished_game(record: Record) -> None:
    stats = selectors.player_stats(_ann(), _ann())
    assert (stats.overall.played, stats.overall.won) == (5, 3)
    assert _summed(stats.by_side, _side) == {"evil": (1, 1), "good": (4, 2)}
    assert _tallies(stats.by_side) == {
        ("partisans", "evil"): (1, 1),
        ("partisans", "good"): (2, 1),
        ("trust_no_one", "good"): (1, 0),
        ("werewolves", "good"): (1, 1),
    }
    assert _summed(stats.by_role, _role_kind) == {"scout": (1, 0), "plain": (4, 3)}
    assert _tallies(stats.by_ruleset) == {
        "partisans": (3, 2),
        "trust_no_one": (1, 0),
        "werewolves": (1, 1),
    }
    assert _tallies(stats.by_players) == {5: (5, 3)}
    assert stats.abandoned == 1
    facts = _facts(stats)
    assert (facts.evil_missions_failed, facts.evil_missions) == (2, 2)
    assert (facts.approved_evil, facts.good_votes) == (5, 12)
    assert facts.votes_on_evil_teams == 7
    assert (facts.led_clean, facts.led_good) == (5, 6)


def test_a_private_game_counts_only_for_those_who_may_see_it(record: Record) -> None:
    for viewer in (None, UserFactory()):
        stats = selectors.player_stats(_ann(), viewer)
        assert (stats.overall.played, stats.overall.won) == (4, 2)
        assert _summed(stats.by_side, _side) == {"evil": (1, 1), "good": (3, 1)}
        assert _summed(stats.by_role, _role_kind) == {"scout": (1, 0), "plain": (3, 2)}
        assert "werewolves" not in stats.by_ruleset
        facts = _facts(stats)
        assert (facts.led_clean, facts.led_good) == (2, 3)
        assert (facts.approved_evil, facts.good_votes) == (5, 12)
    # Bob sat at the private table: he sees it in Ann's record too.
    bob = User.objects.get(username="bob")
    assert selectors.player_stats(_ann(), bob).overall.played == 5


def test_other_players_records(record: Record) -> None:
    """Cross-checks from the other seats of the same games."""
    bob = User.objects.get(username="bob")
    stats = selectors.player_stats(bob, bob)
    # G1 evil (won), G2 evil (lost), G3 good (lost), G4 sniper (won), G6 good (won).
    assert (stats.overall.played, stats.overall.won) == (5, 3)
    assert _summed(stats.by_role, _role_kind) == {"plain": (4, 2), "sniper": (1, 1)}
    # As evil bob went on G1 M4 (failed), G2 M1 (success), G4 M2 (success).
    facts = _facts(stats)
    assert (facts.evil_missions_failed, facts.evil_missions) == (1, 3)
    # Bob led G2's M2.1 as evil, so none of his proposals as good: G1 M2.1 was evil,
    # G3 M2 (ann, bob, dan) as good, G6 none (ann led everything).
    assert (facts.led_clean, facts.led_good) == (0, 1)


def test_abandoned_games_are_never_a_win_or_a_loss(record: Record) -> None:
    eve = User.objects.get(username="eve")
    stats = selectors.player_stats(eve, eve)
    assert stats.abandoned == 1
    assert stats.overall.played == 5  # G1, G2, G3, G4, G6; not G5


def _count_rows(client: Client, url: str) -> int:
    page = client.get(url).content.decode()
    return len(re.findall(r"<li data-game=", page))


def test_each_figure_links_to_exactly_the_games_it_counts(
    record: Record, client: Client
) -> None:
    client.force_login(_ann())
    stats = selectors.player_stats(_ann(), _ann())
    shown = figures.profile_figures("ann", stats)
    assert _count_rows(client, shown.overall.total_url) == 5
    assert _count_rows(client, shown.overall.count_url) == 3
    for rows in (shown.by_side, shown.by_role, shown.by_ruleset, shown.by_players):
        for row in rows:
            assert _count_rows(client, row.record.total_url) == row.record.total
            assert _count_rows(client, row.record.count_url) == row.record.count
    assert _count_rows(client, shown.abandoned_url) == 1
    # Per-mission, per-vote and per-proposal figures link to the games holding them.
    codes = {name: getattr(record, name).game.code for name in ("g1", "g2", "g3", "g4")}
    codes["g6"] = record.g6.game.code

    def games(url: str) -> set[str]:
        page = client.get(url).content.decode()
        return set(re.findall(r'<li data-game="([^"]+)"', page))

    assert games(shown.fact("evil-missions-failed").count_url) == {codes["g1"]}
    assert games(shown.fact("evil-missions-failed").total_url) == {codes["g1"]}
    assert games(shown.fact("approved-evil").count_url) == {
        codes[g] for g in ("g2", "g3", "g4")
    }
    assert games(shown.fact("approved-evil").total_url) == {
        codes[g] for g in ("g2", "g3", "g4")
    }
    assert games(shown.fact("approved-evil-teams").total_url) == {
        codes[g] for g in ("g2", "g3", "g4")
    }
    assert games(shown.fact("clean-proposals").count_url) == {
        codes[g] for g in ("g3", "g4", "g6")
    }
    assert games(shown.fact("clean-proposals").total_url) == {
        codes[g] for g in ("g2", "g3", "g4", "g6")
    }


def test_profile_shows_the_figures_with_their_links(
    record: Record, client: Client
) -> None:
    page = client.get("/u/ann/").content.decode()
    assert 'data-stat="played"' in page
    played = re.search(
        r'data-stat="played"><a href="([^"]+)"><span class="value">(\d+)', page
    )
    assert played is not None
    assert played.group(2) == "4"  # an anonymous visitor does not see G6
    assert "player=ann" in played.group(1)
    assert "<svg" in page  # the charts
    assert page.count("<li data-game=") == 5  # latest games: 4 finished + abandoned
