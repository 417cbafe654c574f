"""The step-through replay: its steps, its controls, and "see as" giving exactly the
engine's view of each seat at each step."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from games import engine
from games.engine import oracle
from games.state import action_log, game_setup
from history import replay
from tests.history.builders import Table, random_game
from tests.history.records import g1_evil_win, g4_scout_shot, g5_abandoned

pytestmark = pytest.mark.django_db


def _states(table: Table) -> list[Any]:
    game = table.refresh()
    state = engine.setup(game_setup(game))
    states = [state]
    for seat, action in action_log(game):
        state, _events = engine.apply(state, seat, action)
        states.append(state)
    return states


def _stripped(view: dict[str, Any]) -> dict[str, Any]:
    return {**view, "me": {**view["me"], "card": None, "cards": {}}}


def test_a_seat_sees_at_each_step_exactly_the_engines_view() -> None:
    table = random_game("partisans", 6, 3, options={"scout": True, "check": True})
    game = table.game
    states = _states(table)
    for step, state in enumerate(states):
        for seat in range(game.seat_count):
            expected = engine.view(state, seat)
            assert replay.view_at(game, step, seat, viewer_seat=seat) == expected
            assert replay.view_at(game, step, seat, viewer_seat=None) == _stripped(
                expected
            )
            other = (seat + 1) % game.seat_count
            assert replay.view_at(game, step, seat, viewer_seat=other) == _stripped(
                expected
            )


def test_everyone_is_the_spectator_view_with_the_final_reveal() -> None:
    table = random_game("partisans", 7, 8, options={"scout": True, "check": True})
    game = table.game
    states = _states(table)
    final = engine.view(states[-1], None)
    for step, state in enumerate(states):
        spectator = engine.view(state, None)
        shown = replay.view_at(game, step, None)
        assert shown["roles"] == final["roles"]
        assert [c["result"] for c in shown["checks"]] == [
            c["result"] for c in final["checks"][: len(shown["checks"])]
        ]
        # Everything else is the spectator's view at that step, unchanged.
        for key in spectator:
            if key not in ("roles", "checks", "sniper"):
                assert shown[key] == spectator[key], key
        assert shown["me"] is None
        if spectator["proposal"] is not None and spectator["phase"] == "vote":
            assert shown["proposal"]["votes"] is None  # voted / not yet, never how


def test_steps_are_labelled_from_public_events_in_order() -> None:
    table = g1_evil_win()
    game = table.refresh()
    names = {position: name.capitalize() for name, position in table.position.items()}
    steps = replay.steps(game, names)
    assert len(steps) == game.version + 1
    assert [s.number for s in steps] == list(range(game.version + 1))
    assert steps[0].kind == "deal"
    assert "Ann" in steps[0].label
    assert steps[1].kind == "propose"
    assert "Ann" in steps[1].label and "Cat" in steps[1].label
    kinds = [s.kind for s in steps]
    assert kinds.count("propose") == 5
    assert kinds.count("vote") == 25
    assert kinds.count("play") == 2 + 3 + 2 + 3
    # Neither a vote's content nor a card appears before the vote is counted.
    first_vote = steps[2]
    assert first_vote.kind == "vote" and not first_vote.milestone
    last_vote = steps[6]
    assert last_vote.milestone
    last_card = steps[8]
    assert last_card.kind == "play" and last_card.milestone
    for step in steps:
        if step.kind == "play" and not step.milestone:
            assert "fail" not in step.label.lower()


def test_every_step_kind_including_check_claim_and_shot() -> None:
    table = random_game("partisans", 7, 21, options={"scout": True, "check": True})
    kinds = {step.kind for step in replay.steps(table.game, {})}
    table4 = g4_scout_shot()
    kinds |= {step.kind for step in replay.steps(table4.game, {})}
    assert kinds >= {"deal", "propose", "vote", "play", "check", "claim", "shoot"}


def _links(page: str) -> dict[str, str]:
    found = {}
    for name in ("first", "prev", "next", "last"):
        match = re.search(rf'id="replay-{name}"[^>]*href="([^"]+)"', page)
        assert match, name
        found[name] = match.group(1).replace("&amp;", "&")
    return found


def test_first_previous_next_last_and_the_slider(client: Client) -> None:
    table = g1_evil_win()
    game = table.refresh()
    last = game.version
    base = f"/history/g/{game.code}/"
    page = client.get(base, {"step": 10, "as": "2"}).content.decode()
    links = _links(page)
    assert "step=0" in links["first"] and "as=2" in links["first"]
    assert "step=9" in links["prev"]
    assert "step=11" in links["next"]
    assert f"step={last}" in links["last"]
    assert f'type="range" name="step" min="0" max="{last}" value="10"' in page
    assert "data-replay-prev aria-disabled" not in page
    start = client.get(base, {"step": 0}).content.decode()
    assert 'data-replay-first aria-disabled="true"' in start
    assert 'data-replay-prev aria-disabled="true"' in start
    assert "step=0" in _links(start)["prev"]
    end = client.get(base, {"step": 10_000}).content.decode()
    assert f'value="{last}"' in end
    assert 'data-replay-next aria-disabled="true"' in end
    nonsense = client.get(base, {"step": "x", "as": "99"})
    assert nonsense.status_code == 200
    assert 'value="0"' in nonsense.content.decode()


def test_the_fragment_swaps_in_and_puts_the_page_url_in_the_address_bar(
    client: Client,
) -> None:
    table = g1_evil_win()
    code = table.game.code
    response = client.get(
        f"/history/g/{code}/replay/",
        {"step": 3, "as": "all"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<section id="replay"')
    assert "<html" not in body
    assert response["HX-Push-Url"] == f"/history/g/{code}/?step=3&as=all#replay"


def _perspectives(page: str) -> list[str]:
    select = page.split('id="replay-as"')[1].split("</select>")[0]
    return re.findall(r'<option value="([^"]+)"', select)


def test_see_as_lists_everyone_and_each_player(client: Client) -> None:
    table = g1_evil_win()
    page = client.get(f"/history/g/{table.game.code}/").content.decode()
    assert _perspectives(page) == ["all", "0", "1", "2", "3", "4"]


def test_as_a_player_the_board_shows_their_role_and_partners(client: Client) -> None:
    table = g1_evil_win()  # ann (0) and bob (1) evil
    page = client.get(f"/history/g/{table.game.code}/replay/", {"step": 0, "as": "0"})
    body = page.content.decode()
    assert 'data-seat="0" data-side="evil" data-role="traitor"' in body
    assert 'data-seat="1" data-side="evil"' in body  # her partner
    assert 'data-seat="2" data-side' not in body  # a good player she did not know
    good = client.get(f"/history/g/{table.game.code}/replay/", {"step": 0, "as": "2"})
    assert 'data-seat="0" data-side' not in good.content.decode()


def test_an_abandoned_game_replays_only_as_a_spectator(client: Client) -> None:
    table = g5_abandoned()
    game = table.refresh()
    page = client.get(f"/history/g/{game.code}/", {"as": "0", "step": game.version})
    body = page.content.decode()
    assert page.status_code == 200
    assert 'data-side="' not in body
    assert 'data-role="' not in body
    assert _perspectives(body) == ["all"]
    state = _states(table)[-1]
    assert oracle.find_leaks(state, None, body) == []
