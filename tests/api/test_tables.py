"""Games and tables through the API: rulesets, opening, listing, joining, leaving,
starting and closing, each through the same services as the pages."""

from __future__ import annotations

import pytest

from games.kit.family import playable_rulesets
from games.models import Game, Seat
from tests.api.support import game, open_table, program

pytestmark = pytest.mark.django_db


def test_rulesets_describe_each_game() -> None:
    answer = program().get("rulesets")
    assert answer.status == 200
    games = {ruleset["code"]: ruleset for ruleset in answer.body["rulesets"]}
    assert set(games) == set(playable_rulesets())
    assert {"partisans", "trust_no_one", "werewolves", "cells"} <= set(games)
    partisans = games["partisans"]
    assert partisans["name"] == "Partisans"
    assert (partisans["min_players"], partisans["max_players"]) == (5, 10)
    options = {option["name"]: option for option in partisans["options"]}
    assert set(options) == {"scout", "check"}
    assert options["scout"]["type"] == "boolean"
    assert options["scout"]["default"] is False
    assert options["scout"]["label"] == "With the scout"
    assert options["scout"]["help"]
    assert partisans["house_decisions"]
    assert partisans["roles"]["sniper"] == "Sniper"
    assert {o["name"] for o in games["werewolves"]["options"]} == {
        "growing_patrol",
        "chat",
    }


def test_rulesets_in_russian() -> None:
    bot = program()
    bot.language = "ru"
    names = {r["code"]: r["name"] for r in bot.get("rulesets").body["rulesets"]}
    assert names["partisans"] == "Партизаны"
    assert names["werewolves"] == "Оборотни"


def test_open_a_table() -> None:
    host = program()
    answer = host.post(
        "tables",
        {
            "ruleset": "partisans",
            "seats": 6,
            "options": {"scout": True},
            "private": False,
            "name": "  Friday  ",
        },
    )
    assert answer.status == 201
    table = answer.body
    assert answer.headers["Location"] == f"/api/v1/tables/{table['code']}"
    assert table["name"] == "Friday"
    assert table["status"] == "open"
    assert table["seats"] == {"taken": 1, "total": 6}
    assert table["options"] == {"scout": True, "check": False, "chat": True}
    assert table["host"]["username"] == host.user.username
    assert table["players"] == [
        {
            "position": None,
            "username": host.user.username,
            "name": host.user.display_name,
            "host": True,
        }
    ]
    assert (table["version"], table["turn"]) == (0, 0)
    assert table["url"] == f"/games/t/{table['code']}/"
    assert Game.objects.get(code=table["code"]).host == host.user


def test_trust_no_one_chat_is_off_unless_chosen() -> None:
    bot = program()
    quiet = bot.post("tables", {"ruleset": "trust_no_one", "seats": 5}).body
    assert quiet["chat"] is False
    talk = bot.post(
        "tables", {"ruleset": "trust_no_one", "seats": 5, "options": {"chat": True}}
    ).body
    assert talk["chat"] is True


def test_lobby_lists_open_public_tables_only() -> None:
    public, _ = open_table(start=False, seats=6, seated=5)
    private, _ = open_table(start=False, seats=6, seated=5, private=True)
    started, _ = open_table()
    listed = program().get("tables")
    assert listed.status == 200
    codes = [table["code"] for table in listed.body["tables"]]
    assert codes == [public]
    assert listed.body["tables"][0]["seats"] == {"taken": 5, "total": 6}
    assert private not in codes and started not in codes


def test_mine_lists_my_open_and_playing_tables() -> None:
    waiting, players = open_table(start=False, seats=6, seated=5)
    me = players[2]
    playing, others = open_table()
    assert {t["code"] for t in me.get("tables?mine=1").body["tables"]} == {waiting}
    mine = {t["code"] for t in others[1].get("tables?mine=true").body["tables"]}
    assert mine == {playing}
    me.post(f"tables/{waiting}/leave")
    assert me.get("tables?mine=1").body["tables"] == []
    lobby = {t["code"] for t in me.get("tables?mine=0").body["tables"]}
    assert lobby == {waiting}


def test_table_detail_for_anyone_with_the_code() -> None:
    code, players = open_table(seats=5)
    answer = program().get(f"tables/{code}")
    assert answer.status == 200
    table = answer.body
    assert table["status"] == "playing"
    assert table["seats"] == {"taken": 5, "total": 5}
    assert sorted(p["position"] for p in table["players"]) == [0, 1, 2, 3, 4]
    assert {p["username"] for p in table["players"]} == {
        p.user.username for p in players
    }
    assert table["started_at"] is not None
    assert table["phase"] == "proposal"
    assert "role" not in str(table["players"])


def test_join_and_leave() -> None:
    code, _players = open_table(start=False, seats=6, seated=5)
    guest = program()
    joined = guest.post(f"tables/{code}/join")
    assert joined.status == 200
    assert joined.body["seats"] == {"taken": 6, "total": 6}
    again = guest.post(f"tables/{code}/join")
    assert again.status == 409
    assert again.code == "already_seated"
    late = program().post(f"tables/{code}/join")
    assert late.status == 409
    assert late.code == "table_full"
    left = guest.post(f"tables/{code}/leave")
    assert left.status == 200
    assert left.body["seats"]["taken"] == 5
    assert not Seat.objects.filter(user=guest.user).exists()
    twice = guest.post(f"tables/{code}/leave")
    assert twice.status == 403
    assert twice.code == "not_seated"


def test_open_join_and_start_answer_the_table_a_fresh_read_shows() -> None:
    """Each answers from the row its service just wrote (no third read of the
    table): what it says is what a GET of the table says right after."""
    host = program()
    opened = host.post("tables", {"ruleset": "partisans", "seats": 5})
    assert opened.status == 201
    code = opened.body["code"]
    assert opened.body == host.get(f"tables/{code}").body
    guests = [program() for _ in range(4)]
    for guest in guests:
        joined = guest.post(f"tables/{code}/join")
        assert joined.status == 200
        assert joined.body == guest.get(f"tables/{code}").body
    assert [p["username"] for p in joined.body["players"]][-1] == (
        guests[-1].user.username
    )
    started = host.post(f"tables/{code}/start")
    assert started.status == 200
    assert started.body["status"] == "playing"
    assert started.body == host.get(f"tables/{code}").body


def test_host_cannot_leave() -> None:
    code, players = open_table(start=False)
    answer = players[0].post(f"tables/{code}/leave")
    assert answer.status == 409
    assert answer.code == "host_cannot_leave"


def test_only_the_host_starts_a_full_table() -> None:
    code, players = open_table(start=False, seats=6, seated=5)
    not_full = players[0].post(f"tables/{code}/start")
    assert not_full.status == 409
    assert not_full.code == "table_not_full"
    assert "5" in not_full.body["error"]["message"]
    program().post(f"tables/{code}/join")
    not_host = players[1].post(f"tables/{code}/start")
    assert not_host.status == 403
    assert not_host.code == "not_host"
    started = players[0].post(f"tables/{code}/start")
    assert started.status == 200
    assert started.body["status"] == "playing"
    again = players[0].post(f"tables/{code}/start")
    assert again.code == "not_open"
    joined_late = program().post(f"tables/{code}/join")
    assert joined_late.code == "not_open"


def test_host_closes_a_table_before_the_start() -> None:
    code, players = open_table(start=False)
    assert players[1].delete(f"tables/{code}").code == "not_host"
    assert players[0].delete(f"tables/{code}").status == 204
    assert not Game.objects.filter(code=code).exists()
    assert players[0].get(f"tables/{code}").status == 404


def test_a_started_table_cannot_be_closed() -> None:
    code, players = open_table()
    answer = players[0].delete(f"tables/{code}")
    assert answer.status == 409
    assert answer.code == "not_open"
    assert game(code).status == "playing"


def test_open_a_table_with_a_turn_clock() -> None:
    """``turn_seconds`` takes the form's choices; the table shows its clock, and the
    clock starts with the game."""
    host = program()
    answer = host.post(
        "tables", {"ruleset": "partisans", "seats": 5, "turn_seconds": 60}
    )
    assert answer.status == 201
    assert answer.body["turn_seconds"] == 60
    assert answer.body["deadline"] is None
    assert Game.objects.get(code=answer.body["code"]).turn_seconds == 60
    plain = host.post("tables", {"ruleset": "partisans", "seats": 5})
    assert plain.body["turn_seconds"] == 0


@pytest.mark.parametrize("value", [45, -30, "60", 60.0, None, 100000])
def test_a_turn_clock_off_the_choices_is_refused(value: object) -> None:
    """Like the form: only the listed values; nothing is opened."""
    answer = program().post(
        "tables", {"ruleset": "partisans", "seats": 5, "turn_seconds": value}
    )
    assert answer.status == 400, answer.body
    assert "turn_seconds" in str(answer.body)
    assert not Game.objects.exists()


def test_the_document_lists_the_turn_clocks_choices() -> None:
    from api.views import api
    from games.models import TURN_CLOCK_CHOICES

    create = api.document()["components"]["schemas"]["TableCreateRequest"]
    clock = create["properties"]["turn_seconds"]
    assert clock["enum"] == list(TURN_CLOCK_CHOICES)
    assert clock["default"] == 0 and "docs/clocks.md" in clock["description"]
    table = api.document()["components"]["schemas"]["Table"]
    assert {"turn_seconds", "deadline"} <= set(table["properties"])
