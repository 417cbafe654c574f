"""Playing through the API: each program reads only its own seat's view and acts
only in its own seat; refused moves answer with the error and a fresh view."""

from __future__ import annotations

from typing import Any

import pytest

from games import engine
from games.engine import oracle
from games.families.resistance.models import Vote
from games.models import GameAction, Seat
from tests.api.support import (
    Api,
    act,
    by_seat,
    game,
    open_table,
    play_until,
    program,
    state_of,
)

pytestmark = pytest.mark.django_db


def no_leaks(code: str, seat: int | None, payload: Any) -> None:
    leaks = oracle.find_leaks(state_of(code), seat, payload)
    assert leaks == [], leaks


def leader_of(code: str) -> int:
    return engine.view(state_of(code), None)["leader"]


def team_of(code: str) -> list[int]:
    view = engine.view(state_of(code), None)
    size = next(m["size"] for m in view["missions"] if m["number"] == view["mission"])
    return list(range(size))


@pytest.fixture
def table() -> tuple[str, dict[int, Api]]:
    code, players = open_table("partisans", 7, {"scout": True, "check": True})
    return code, by_seat(code, players)


def test_each_seat_sees_its_own_view(table: tuple[str, dict[int, Api]]) -> None:
    code, seats = table
    for position, player in seats.items():
        answer = player.get(f"tables/{code}/view")
        assert answer.status == 200
        body = answer.body
        assert body["seat"] == position
        assert body["status"] == "playing"
        assert (body["version"], body["turn"]) == (0, 0)
        assert body["view"]["me"]["seat"] == position
        assert body["view"] == engine.view(state_of(code), position)
        assert len(body["players"]) == 7
        no_leaks(code, position, body)


def test_spectator_gets_the_spectators_view(table: tuple[str, dict[int, Api]]) -> None:
    code, _ = table
    answer = program().get(f"tables/{code}/view")
    assert answer.status == 200
    assert answer.body["seat"] is None
    assert answer.body["view"]["me"] is None
    assert answer.body["view"]["legal"] == []
    assert answer.body["view"] == engine.view(state_of(code), None)
    no_leaks(code, None, answer.body)


def test_no_view_before_the_start() -> None:
    code, players = open_table(start=False)
    answer = players[0].get(f"tables/{code}/view")
    assert answer.status == 200
    assert answer.body["status"] == "open"
    assert answer.body["view"] is None
    assert answer.body["seat"] is None


def test_leader_proposes(table: tuple[str, dict[int, Api]]) -> None:
    code, seats = table
    leader = leader_of(code)
    answer = act(seats[leader], code, {"type": "propose", "team": team_of(code)})
    assert answer.status == 200, answer.body
    assert answer.body["version"] == 1
    assert answer.body["turn"] == 1
    assert answer.body["seat"] == leader
    assert answer.body["view"]["phase"] == "vote"
    assert answer.body["view"]["proposal"]["team"] == team_of(code)
    no_leaks(code, leader, answer.body)
    stored = GameAction.objects.get()
    assert stored.position == leader
    assert stored.payload == {"type": "propose", "team": team_of(code)}


def test_wrong_team_size_is_refused_with_a_fresh_view(
    table: tuple[str, dict[int, Api]],
) -> None:
    code, seats = table
    leader = seats[leader_of(code)]
    answer = act(leader, code, {"type": "propose", "team": [0]})
    assert answer.status == 409
    assert answer.code == "wrong_team_size"
    assert "exactly 2" in answer.body["error"]["message"]
    assert answer.body["view"]["view"]["phase"] == "proposal"
    assert answer.body["view"]["version"] == 0
    assert not GameAction.objects.exists()


def test_a_seat_out_of_the_table_is_refused(table: tuple[str, dict[int, Api]]) -> None:
    """Seat 8 at a table of seven: out of the table's seats, as 12 would be."""
    code, seats = table
    answer = act(seats[leader_of(code)], code, {"type": "propose", "team": [0, 8]})
    assert answer.status == 400
    assert answer.code == "out_of_range"
    assert answer.body["error"]["field"] == "action.team[1]"
    assert answer.body["error"]["message"].endswith("must be from 0 to 6.")
    assert game(code).version == 0


def test_not_your_turn(table: tuple[str, dict[int, Api]]) -> None:
    code, seats = table
    leader = leader_of(code)
    other = seats[(leader + 1) % 7]
    answer = act(other, code, {"type": "propose", "team": team_of(code)})
    assert answer.status == 409
    assert answer.code == "not_leader"
    assert answer.body["view"]["seat"] == (leader + 1) % 7
    assert not GameAction.objects.exists()


def test_acting_at_a_table_you_are_not_at(table: tuple[str, dict[int, Api]]) -> None:
    code, _ = table
    stranger = program()
    answer = act(stranger, code, {"type": "propose", "team": team_of(code)})
    assert answer.status == 403
    assert answer.code == "not_seated"
    assert answer.body["view"]["seat"] is None
    assert answer.body["view"]["view"]["me"] is None
    no_leaks(code, None, answer.body)
    assert not GameAction.objects.exists()


def test_no_request_can_act_in_another_seat(table: tuple[str, dict[int, Api]]) -> None:
    """The seat is the one the token's user holds, by construction: a body cannot
    name a seat (refused as an unknown field, at either level), and the leader's
    exact move sent with another player's token is that player's move, refused."""
    code, seats = table
    leader = leader_of(code)
    move = {"type": "propose", "team": team_of(code)}
    other = seats[(leader + 1) % 7]
    for body in (
        {"action": move, "turn": 0, "seat": leader},
        {"action": {**move, "seat": leader}, "turn": 0},
        {"action": move, "turn": 0, "position": leader},
        {"action": move, "turn": 0, "user": seats[leader].user.username},
    ):
        answer = other.post(f"tables/{code}/actions", body)
        assert answer.status == 400
        assert answer.code == "unknown_field"
    assert act(other, code, move).code == "not_leader"
    assert not GameAction.objects.exists()
    act(seats[leader], code, move)
    for position, player in seats.items():
        assert act(player, code, {"type": "vote", "approve": True}).status == 200
        assert GameAction.objects.latest("number").position == position
    voters = dict(Vote.objects.values_list("seat__position", "seat__user_id"))
    assert voters == {p: player.user.pk for p, player in seats.items()}


def test_stale_turn_is_409_with_a_fresh_view(table: tuple[str, dict[int, Api]]) -> None:
    code, seats = table
    leader = leader_of(code)
    voter = seats[(leader + 2) % 7]
    seen = voter.get(f"tables/{code}/view").body
    assert seen["turn"] == 0
    act(seats[leader], code, {"type": "propose", "team": team_of(code)})
    answer = voter.post(
        f"tables/{code}/actions",
        {"action": {"type": "vote", "approve": True}, "turn": seen["turn"]},
    )
    assert answer.status == 409
    assert answer.code == "table_moved_on"
    assert "moved on" in answer.body["error"]["message"]
    fresh = answer.body["view"]
    assert (fresh["version"], fresh["turn"]) == (1, 1)
    assert fresh["view"]["phase"] == "vote"
    assert fresh["view"]["legal"] == [{"type": "vote", "choices": [True, False]}]
    no_leaks(code, (leader + 2) % 7, answer.body)
    assert GameAction.objects.count() == 1


def test_others_voting_does_not_make_a_vote_stale(
    table: tuple[str, dict[int, Api]],
) -> None:
    code, seats = table
    leader = leader_of(code)
    act(seats[leader], code, {"type": "propose", "team": team_of(code)})
    late = seats[(leader + 3) % 7]
    seen = late.get(f"tables/{code}/view").body
    act(seats[leader], code, {"type": "vote", "approve": False})
    answer = late.post(
        f"tables/{code}/actions",
        {"action": {"type": "vote", "approve": True}, "turn": seen["turn"]},
    )
    assert answer.status == 200
    assert answer.body["version"] == 3


def test_second_vote_is_refused(table: tuple[str, dict[int, Api]]) -> None:
    code, seats = table
    leader = leader_of(code)
    act(seats[leader], code, {"type": "propose", "team": team_of(code)})
    voter = seats[(leader + 1) % 7]
    assert act(voter, code, {"type": "vote", "approve": True}).status == 200
    again = act(voter, code, {"type": "vote", "approve": False})
    assert again.status == 409
    assert again.code == "already_voted"
    assert again.body["view"]["view"]["me"]["vote"] is True
    assert Vote.objects.get().approve is True


def test_acting_before_the_start_and_after_the_end() -> None:
    code, players = open_table(start=False)
    early = act(players[0], code, {"type": "vote", "approve": True})
    assert early.status == 409
    assert early.code == "not_playing"
    assert early.body["view"]["view"] is None
    players[0].post(f"tables/{code}/start")
    seats = by_seat(code, players)
    play_until(code, seats, "over")
    assert game(code).status == "finished"
    late = act(seats[0], code, {"type": "vote", "approve": True})
    assert late.status == 409
    assert late.code == "game_over"  # the engine's code for the same fact
    final = late.body["view"]
    assert final["status"] == "finished"
    assert final["view"]["outcome"]["winner"] == "good"
    assert len(final["view"]["roles"]) == 5


def test_the_answer_to_a_move_is_that_moves_state(
    table: tuple[str, dict[int, Api]],
) -> None:
    code, seats = table
    leader = leader_of(code)
    answer = act(seats[leader], code, {"type": "propose", "team": team_of(code)})
    view = answer.body["view"]
    assert view == engine.view(state_of(code), leader)
    assert view["legal"] == [{"type": "vote", "choices": [True, False]}]


# --- Chat ---------------------------------------------------------------------------


def test_table_chat(table: tuple[str, dict[int, Api]]) -> None:
    code, seats = table
    posted = seats[0].post(f"tables/{code}/chat", {"text": "  hello  "})
    assert posted.status == 201
    message = posted.body
    assert message["text"] == "hello"
    assert message["channel"] == "table"
    assert message["author"]["username"] == seats[0].user.username
    listed = program().get(f"tables/{code}/chat")
    assert listed.status == 200
    assert listed.body["channels"] == ["table"]
    assert [m["id"] for m in listed.body["messages"]] == [message["id"]]
    seats[1].post(f"tables/{code}/chat", {"text": "second"})
    newer = seats[2].get(f"tables/{code}/chat?after={message['id']}").body
    assert [m["text"] for m in newer["messages"]] == ["second"]


def test_spectators_read_but_do_not_write(table: tuple[str, dict[int, Api]]) -> None:
    code, _ = table
    answer = program().post(f"tables/{code}/chat", {"text": "hi"})
    assert answer.status == 403
    assert answer.code == "not_seated"


def test_chat_rules_from_the_service(table: tuple[str, dict[int, Api]]) -> None:
    code, seats = table
    blank = seats[0].post(f"tables/{code}/chat", {"text": "   "})
    assert blank.status == 400
    assert blank.code == "chat_empty"
    for _ in range(5):
        assert seats[0].post(f"tables/{code}/chat", {"text": "x"}).status == 201
    fast = seats[0].post(f"tables/{code}/chat", {"text": "x"})
    assert fast.status == 429
    assert fast.code == "chat_too_fast"


def test_chat_off_at_trust_no_one() -> None:
    code, players = open_table("trust_no_one", 5)
    answer = players[0].post(f"tables/{code}/chat", {"text": "hi"})
    assert answer.status == 403
    assert answer.code == "chat_disabled"
    listed = players[0].get(f"tables/{code}/chat").body
    assert listed == {"channels": [], "messages": []}


def test_evil_channel_only_where_the_view_opens_it() -> None:
    code, players = open_table("partisans", 5, {"scout": True})
    seats = by_seat(code, players)
    evil = [s for s, side in enumerate(state_of(code).table.sides) if side == "evil"]
    good = [s for s in seats if s not in evil]
    early = seats[evil[0]].post(f"tables/{code}/chat", {"text": "x", "channel": "evil"})
    assert early.code == "chat_channel_closed"
    play_until(code, seats, "sniper")
    assert engine.view(state_of(code), None)["phase"] == "sniper"
    posted = seats[evil[0]].post(
        f"tables/{code}/chat", {"text": "shoot 2", "channel": "evil"}
    )
    assert posted.status == 201
    assert posted.body["channel"] == "evil"
    partner = seats[evil[1]].get(f"tables/{code}/chat?channel=evil").body
    assert [m["text"] for m in partner["messages"]] == ["shoot 2"]
    assert "evil" in partner["channels"]
    for seat in good:
        listed = seats[seat].get(f"tables/{code}/chat")
        assert "evil" not in listed.body["channels"]
        assert all(m["channel"] == "table" for m in listed.body["messages"])
        closed = seats[seat].get(f"tables/{code}/chat?channel=evil")
        assert closed.status == 403
        assert closed.code == "chat_channel_closed"
        wrote = seats[seat].post(
            f"tables/{code}/chat", {"text": "x", "channel": "evil"}
        )
        assert wrote.code == "chat_channel_closed"
    spectator = program().get(f"tables/{code}/chat?channel=evil")
    assert spectator.code == "chat_channel_closed"
    play_until(code, seats, "over")
    after = program().get(f"tables/{code}/chat?channel=evil").body
    assert [m["text"] for m in after["messages"]] == ["shoot 2"]


def test_seats_are_the_dealt_positions(table: tuple[str, dict[int, Api]]) -> None:
    _code, seats = table
    for position, player in seats.items():
        assert Seat.objects.get(user=player.user).position == position
