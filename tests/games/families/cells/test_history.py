"""A finished cells game in history: the replay shows each player what they saw when,
and never more; the review turns every character card up; the export carries no
discarded mission card and rebuilds the game; the profile's figures count the
missions each player went on by the colour they were at the time, each number linked
to exactly its games."""

from __future__ import annotations

import itertools
import json
import random
import re
from typing import Any

import pytest
from django.test import Client

from games import engine
from games.engine import oracle
from games.families.cells.engine.rules import side_of
from games.state import action_log, game_setup
from history import export, figures, replay, selectors
from tests.games.families.cells.support import secret_words
from tests.history.builders import Table, deal, random_game

pytestmark = pytest.mark.django_db

GAMES = [(3, 101), (4, 102)]


def _states(table: Table) -> list[Any]:
    """The state after each step, rebuilt independently of the code under test."""
    game = table.refresh()
    state = engine.setup(game_setup(game))
    states = [state]
    for seat, action in action_log(game):
        state, _events = engine.apply(state, seat, action)
        states.append(state)
    return states


def _fragment(client: Client, table: Table, step: int, perspective: str) -> str:
    response = client.get(
        f"/history/g/{table.game.code}/replay/", {"step": step, "as": perspective}
    )
    assert response.status_code == 200
    return response.content.decode()


def _own_cards(page: str, seat: int) -> int:
    return len(re.findall(rf'data-seat="{seat}" data-slot="\w+" data-card=', page))


@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_the_replay_shows_each_player_what_they_saw_and_never_more(
    players: int, seed: int, client: Client
) -> None:
    table = random_game("cells", players, seed)
    states = _states(table)
    final = states[-1]
    words = secret_words()
    kinds = set()
    seen = {"first look": 0, "swap": 0, "peek": 0, "hand": 0}
    steps = replay.steps(table.game, {})
    users = {table.position[name]: user for name, user in table.users.items()}
    for step, state in enumerate(states):
        kinds.add(steps[step].kind)
        client.logout()
        everyone = _fragment(client, table, step, replay.EVERYONE)
        # Seen by everyone after the end, every character card of the step is up;
        # only the mission cards stay secret, forever.
        assert oracle.find_leaks(state, None, everyone, words, after=final) == []
        assert _own_cards(everyone, 0) == 3
        for seat in range(players):
            # Someone else watching: what the seat saw, without its mission hand.
            page = _fragment(client, table, step, str(seat))
            leaks = oracle.find_leaks(state, seat, page, words, after=final, own=False)
            assert leaks == [], (step, seat, leaks)
            assert "data-hand=" not in page
        for seat, user in users.items():
            # The player themself: their hand too, and still nothing more.
            client.force_login(user)
            page = _fragment(client, table, step, str(seat))
            assert oracle.find_leaks(state, seat, page, words, after=final) == []
            me = engine.view(state, seat)["me"]
            if me["cards"]:
                seen["first look"] += 1
                assert _own_cards(page, seat) == 3
            if me["swap"]:
                seen["swap"] += 1
                assert 'data-kind="swap"' in page
            if me["peek"]:
                seen["peek"] += 1
            if me["hand"]:
                seen["hand"] += 1
                assert "data-hand=" in page
    assert kinds >= {"deal", "confirm", "swap", "exchange", "mission", "discard"}
    assert seen["first look"] and seen["swap"] and seen["hand"]


def test_the_review_turns_every_card_up_and_never_a_discard(client: Client) -> None:
    for players, seed in GAMES:
        table = random_game("cells", players, seed + 10)
        final = _states(table)[-1]
        page = client.get(f"/history/g/{table.game.code}/").content.decode()
        assert oracle.find_leaks(final, None, page, secret_words()) == []
        end = engine.view(final, None)
        for cell in end["cells"]:
            for slot, colour in cell["cards"].items():
                seat = cell["seat"]
                mark = f'data-seat="{seat}" data-slot="{slot}" data-card="{colour}"'
                assert mark in page
        swaps = [t for t in end["touches"] if t["kind"] == "swap"]
        assert page.count("data-exchanged=") >= len(swaps)
        assert "data-discard" not in page and "data-hand" not in page


@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_the_export_leaves_the_discards_out_and_rebuilds_the_game(
    players: int, seed: int, client: Client
) -> None:
    table = random_game("cells", players, seed + 20)
    game = table.refresh()
    response = client.get(f"/history/g/{game.code}/export.json")
    assert response.status_code == 200
    data = json.loads(response.content)
    discards = [
        a["action"] for a in data["actions"] if a["action"]["type"] == "discard"
    ]
    assert discards and all(action == {"type": "discard"} for action in discards)
    final = engine.view(_states(table)[-1], None)
    assert [c["final"] for c in data["cells"]] == [c["cards"] for c in final["cells"]]
    assert [m["card"] for m in data["missions"]] == [
        m["card"] for m in final["missions"]
    ]
    assert export.verify(data) == []
    state, outcome = export.rebuild(data)
    assert outcome is not None and outcome.winner == game.winner
    assert engine.view(state, None)["missions"] == final["missions"]
    # Rebuilt, the deck and the discard pile are exactly the real game's.
    assert state.deck == _states(table)[-1].deck
    assert sorted(state.discards) == sorted(_states(table)[-1].discards)
    # A doctored record is caught.
    data["missions"][0]["card"] = (
        "red" if data["missions"][0]["card"] == "blue" else "blue"
    )
    try:
        problems = export.verify(data)
    except export.ExportError as error:
        problems = [str(error)]
    assert problems


def _expected_parts(table: Table, username: str) -> dict[str, set[str]]:
    """The games behind each figure of ``username``, worked out from the replay."""
    found: dict[str, set[str]] = {
        "cells_blue_missions": set(),
        "cells_blue_missions_succeeded": set(),
        "cells_red_missions": set(),
        "cells_red_missions_failed": set(),
    }
    seat = table.position[username]
    states = _states(table)
    code = table.game.code
    for before, after in itertools.pairwise(states):
        if len(after.missions) == len(before.missions):
            continue
        mission = after.missions[-1]
        if seat not in (mission.leader, mission.partner):
            continue
        success = mission.card == "blue"
        if side_of(after.cards, seat).value == "good":
            found["cells_blue_missions"].add(code)
            if success:
                found["cells_blue_missions_succeeded"].add(code)
        else:
            found["cells_red_missions"].add(code)
            if not success:
                found["cells_red_missions_failed"].add(code)
    return found


def test_the_profile_counts_missions_by_the_colour_at_the_time(client: Client) -> None:
    tables = [random_game("cells", players, seed + 30) for players, seed in GAMES]
    # A player of the first table; the second table's games must not count for them.
    subject = next(iter(tables[0].users))
    user = tables[0].users[subject]
    expected = _expected_parts(tables[0], subject)
    stats = selectors.player_stats(user, None)
    shown = figures.profile_figures(user.username, stats)

    def games(url: str) -> set[str]:
        page = client.get(url).content.decode()
        return set(re.findall(r'<li data-game="([^"]+)"', page))

    blue = shown.fact("cells-blue-missions-succeeded")
    red = shown.fact("cells-red-missions-failed")
    assert games(blue.count_url) == expected["cells_blue_missions_succeeded"]
    assert games(blue.total_url) == expected["cells_blue_missions"]
    assert games(red.count_url) == expected["cells_red_missions_failed"]
    assert games(red.total_url) == expected["cells_red_missions"]
    assert blue.total + red.total > 0
    profile = client.get(f"/u/{user.username}/").content.decode()
    assert 'data-stat="cells-blue-missions-succeeded"' in profile
    # The platform's own rows: by side and by table size.
    assert any(row.key.startswith("cells:") for row in shown.by_side)
    assert [row.key for row in shown.by_players] == [str(tables[0].game.seat_count)]


def test_an_abandoned_game_counts_for_no_figure(client: Client) -> None:
    """The colour at the time is written as the mission ends, and stays a secret
    if the game is abandoned: no figure and no list filter may count it."""
    names = [f"ab{i}" for i in range(3)]
    finished = deal("cells", names)
    finished.finish_randomly(random.Random(5))
    abandoned = deal("cells", names)
    rng = random.Random(3)
    while len(abandoned.state().missions) < 2:
        seat, action = engine.random_action(abandoned.state(), rng)
        abandoned.act(abandoned.name_at(seat), action)
    abandoned.abandon()
    for name in names:
        user = abandoned.users[name]
        expected = _expected_parts(finished, name)
        shown = figures.profile_figures(
            user.username, selectors.player_stats(user, None)
        )
        blue = shown.fact("cells-blue-missions-succeeded")
        red = shown.fact("cells-red-missions-failed")
        for fact, codes in expected.items():
            page = client.get("/history/", {"player": user.username, "fact": fact})
            listed = set(re.findall(r'<li data-game="([^"]+)"', page.content.decode()))
            assert listed == codes, (name, fact)
        assert blue.total + red.total == sum(
            1
            for m in finished.state().missions
            if finished.position[name] in (m.leader, m.partner)
        )
