"""The export: its documented shape, no card authors in it, and the import check:
rebuilt through the engine it ends the same way, with the same fail count on every
mission and the same votes as the database."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from django.test import Client

from games import engine
from games.engine import oracle
from games.families.resistance.models import Mission, Vote
from history import export
from tests.history.builders import Table, random_game
from tests.history.records import g1_evil_win, g4_scout_shot, g5_abandoned

pytestmark = pytest.mark.django_db

DOC = Path(__file__).resolve().parents[2] / "docs" / "export-format.md"


def _download(client: Client, table: Table) -> dict:
    response = client.get(f"/history/g/{table.game.code}/export.json")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"] == (
        f'attachment; filename="podpolye-{table.game.code}.json"'
    )
    return json.loads(response.content)


def _db_votes(table: Table) -> list[tuple[int, int, dict[str, bool]]]:
    where = {seat.pk: seat.position for seat in table.game.seats.all()}
    votes: dict[tuple[int, int], dict[str, bool]] = {}
    for vote in Vote.objects.filter(proposal__game=table.game).select_related(
        "proposal"
    ):
        key = (vote.proposal.mission_number, vote.proposal.attempt)
        votes.setdefault(key, {})[str(where[vote.seat_id])] = vote.approve
    return sorted((m, a, v) for (m, a), v in votes.items())


def _assert_rebuilds(table: Table, data: dict) -> None:
    game = table.refresh()
    state, outcome = export.rebuild(json.loads(json.dumps(data)))
    assert outcome is not None
    assert (outcome.winner.value, outcome.reason) == (game.winner, game.end_reason)
    final = engine.view(state, None)
    fails = {m["number"]: m["fails"] for m in final["missions"] if m["result"]}
    stored = dict(
        Mission.objects.filter(game=game, fails__isnull=False).values_list(
            "number", "fails"
        )
    )
    assert fails == stored
    rebuilt_votes = sorted(
        (h["mission"], h["attempt"], h["votes"]) for h in final["history"]
    )
    assert rebuilt_votes == _db_votes(table)
    assert export.verify(data) == []


def test_a_hand_built_game_exports_and_rebuilds(client: Client) -> None:
    table = g1_evil_win()
    data = _download(client, table)
    assert data["format"] == "podpolye-game" and data["version"] == 1
    assert data["setup"]["ruleset"] == "partisans"
    assert [p["username"] for p in data["players"]] == [
        "ann",
        "bob",
        "cat",
        "dan",
        "eve",
    ]
    assert data["result"] == {
        "winner": "evil",
        "reason": "three_failures",
        "roles": [
            {"position": 0, "side": "evil", "role": "traitor"},
            {"position": 1, "side": "evil", "role": "traitor"},
            {"position": 2, "side": "good", "role": "partisan"},
            {"position": 3, "side": "good", "role": "partisan"},
            {"position": 4, "side": "good", "role": "partisan"},
        ],
    }
    assert [(m["number"], m["result"], m["fails"]) for m in data["missions"]] == [
        (1, "fail", 1),
        (2, "success", 0),
        (3, "fail", 1),
        (4, "fail", 1),
        (5, None, None),
    ]
    assert data["proposals"][1] == {
        "mission": 2,
        "attempt": 1,
        "leader": 1,
        "team": [1, 3, 4],
        "votes": {"0": True, "1": True, "2": False, "3": False, "4": False},
        "approved": False,
    }
    assert data["shot"] is None and data["checks"] == []
    assert len(data["actions"]) == table.refresh().version
    assert data["actions"][0]["number"] == 1 and "at" in data["actions"][0]
    _assert_rebuilds(table, data)


def test_no_card_is_ever_attributed_to_a_seat(client: Client) -> None:
    table = g4_scout_shot()
    data = _download(client, table)
    plays = [a for a in data["actions"] if a["action"]["type"] == "play"]
    assert plays and all(a["action"] == {"type": "play"} for a in plays)
    final = engine.replay(
        engine.GameSetup.from_dict(data["setup"]),
        [(p, a) for p, a in table.game.actions.values_list("position", "payload")],
    )
    assert [
        leak for leak in oracle.find_leaks(final, None, data) if leak.kind == "card"
    ] == []
    assert data["shot"] == {"sniper": 1, "target": 0, "hit": True}
    _assert_rebuilds(table, data)


@pytest.mark.parametrize(
    ("ruleset", "options"),
    [
        ("partisans", {"scout": True, "check": True}),
        ("partisans", {"check": True}),
        ("trust_no_one", {}),
        ("werewolves", {"growing_patrol": True}),
        ("werewolves", {}),
    ],
)
def test_random_games_rebuild_from_their_export(
    ruleset: str, options: dict[str, bool]
) -> None:
    rng = random.Random(f"{ruleset}{sorted(options)}")
    for _ in range(2):
        table = random_game(ruleset, rng.randint(5, 10), rng.randint(0, 10**6),
                            options=options)  # fmt: skip
        _assert_rebuilds(table, export.game_export(table.refresh()))


def test_a_doctored_export_is_caught() -> None:
    table = g1_evil_win()
    data = json.loads(export.export_json(table.refresh()))
    data["missions"][1]["fails"] = 1
    assert export.verify(data) != []
    data = json.loads(export.export_json(table.refresh()))
    data["actions"][0]["action"]["team"] = [0]
    with pytest.raises(export.ExportError):
        export.rebuild(data)
    with pytest.raises(export.ExportError):
        export.rebuild({"format": "something else"})


def test_abandoned_and_private_games_are_not_exported_to_outsiders(
    client: Client,
) -> None:
    abandoned = g5_abandoned()
    assert (
        client.get(f"/history/g/{abandoned.game.code}/export.json").status_code == 404
    )
    private = random_game("partisans", 5, 4, private=True)
    assert client.get(f"/history/g/{private.game.code}/export.json").status_code == 404
    client.force_login(next(iter(private.users.values())))
    assert client.get(f"/history/g/{private.game.code}/export.json").status_code == 200


def test_the_format_is_documented() -> None:
    text = DOC.read_text(encoding="utf-8")
    for key in ("format", "version", "setup", "players", "actions", "result",
                "missions", "proposals", "checks", "shot", "display_name"):  # fmt: skip
        assert f"`{key}`" in text, key
