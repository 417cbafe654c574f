"""Existing databases carry over: the Resistance family's records moved from the games
app to their own (games.families.resistance) without a row lost.

Finished games are played, and everything history shows of them (list, review page,
replay, stats, export) is read. The database is then taken back to the schema before
the move (the records in the games app's tables), where the rows are checked in
place, and migrated forward again: every page and figure must read exactly as
before."""

from __future__ import annotations

import random
import re

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from games.families.resistance.models import Mission, Proposal, Vote
from history import export, replay
from tests.games.conftest import play_until, seated_users, start_table

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE_THE_MOVE = [("games", "0001_initial"), ("resistance", None)]


def _latest() -> list[tuple[str, str]]:
    executor = MigrationExecutor(connection)
    return executor.loader.graph.leaf_nodes()


def _migrate(targets: list[tuple[str, str | None]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return MigrationExecutor(connection)


def _tables() -> set[str]:
    return set(connection.introspection.table_names())


def _everything_shown(
    codes: list[str], client: Client, username: str
) -> dict[str, str]:
    """Every history page of the games, with the CSRF tokens taken out."""
    pages = {}
    for code in codes:
        pages[f"review {code}"] = client.get(f"/history/g/{code}/").content.decode()
        pages[f"replay {code}"] = client.get(
            f"/history/g/{code}/replay/?step=7&as=all"
        ).content.decode()
        pages[f"export {code}"] = client.get(
            f"/history/g/{code}/export.json"
        ).content.decode()
    pages["list"] = client.get("/history/").content.decode()
    pages["profile"] = client.get(f"/u/{username}/").content.decode()
    tokens = re.compile(
        r'name="csrfmiddlewaretoken" value="[^"]+"|"X-CSRFToken": "[^"]+"'
    )
    return {name: tokens.sub("", page) for name, page in pages.items()}


def test_finished_games_read_the_same_after_the_records_move() -> None:
    games = []
    for ruleset, options, seed in [
        ("partisans", {"scout": True, "check": True}, 1),
        ("werewolves", {}, 2),
        ("trust_no_one", {}, 3),
    ]:
        game = start_table(ruleset, 7 if ruleset == "partisans" else 5, options)
        play_until(game, random.Random(seed), lambda g: False)
        game.refresh_from_db()
        assert game.status == game.Status.FINISHED
        games.append(game)
    player = seated_users(games[0])[0]
    client = Client()
    client.force_login(player)
    codes = [game.code for game in games]
    before = _everything_shown(codes, client, player.username)
    counts = (Mission.objects.count(), Proposal.objects.count(), Vote.objects.count())
    assert all(counts)
    latest = _latest()

    try:
        # Back to the schema before the move: the records in the games app's tables.
        old = _migrate(BEFORE_THE_MOVE)
        assert {"games_mission", "games_proposal", "games_vote"} <= _tables()
        assert not {t for t in _tables() if t.startswith("resistance_")}
        apps = old.loader.project_state(("games", "0001_initial")).apps
        assert (
            apps.get_model("games", "Mission").objects.count(),
            apps.get_model("games", "Proposal").objects.count(),
            apps.get_model("games", "Vote").objects.count(),
        ) == counts
    finally:
        # And forward again, as an existing database would be.
        _migrate(latest)
    assert {"resistance_mission", "resistance_proposal", "resistance_vote"} <= _tables()
    assert not {"games_mission", "games_proposal", "games_vote"} & _tables()
    assert (
        Mission.objects.count(),
        Proposal.objects.count(),
        Vote.objects.count(),
    ) == counts
    replay.forget_all()
    after = _everything_shown(codes, client, player.username)
    for name in before:
        assert after[name] == before[name], name
    for game in games:
        game.refresh_from_db()
        assert export.verify(export.game_export(game)) == []


def test_a_fresh_database_has_nothing_left_to_migrate() -> None:
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)
