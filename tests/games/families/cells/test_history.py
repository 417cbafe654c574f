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
from unittest import mock

import pytest
from django.test import Client

from games import engine, services
from games.engine import oracle
from games.families.cells.engine.rules import side_of
from games.state import action_log, game_setup, load_state
from history import export, figures, replay, selectors
from tests.api.support import program
from tests.games.families.cells.support import secret_words
from tests.history.builders import Table, deal, player, random_game

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
    assert "seed" not in _keys(data) and "seed" not in data["setup"]
    final = engine.view(_states(table)[-1], None)
    assert [c["final"] for c in data["cells"]] == [c["cards"] for c in final["cells"]]
    assert [m["card"] for m in data["missions"]] == [
        m["card"] for m in final["missions"]
    ]
    assert export.verify(data) == []
    state, outcome = export.rebuild(data)
    assert outcome is not None and outcome.winner == game.winner
    assert engine.view(state, None)["missions"] == final["missions"]
    # Rebuilt from stand-ins, the deck and the discard pile hold as many cards, of
    # the same kinds, as the real game's; their order is the rebuild's own.
    real = _states(table)[-1]
    assert (len(state.deck), len(state.discards)) == (
        len(real.deck),
        len(real.discards),
    )
    assert sorted(state.deck + state.discards) == sorted(real.deck + real.discards)
    assert state.reshuffles == real.reshuffles
    assert engine.view(state, None) == final
    # A doctored record is caught.
    data["missions"][0]["card"] = (
        "red" if data["missions"][0]["card"] == "blue" else "blue"
    )
    try:
        problems = export.verify(data)
    except export.ExportError as error:
        problems = [str(error)]
    assert problems


def _seeded(seed: int, names: list[str]) -> Table:
    """A three-player cells table started with ``seed``."""
    users = {name: player(name) for name in names}
    game = services.game_create(
        host=users[names[0]], ruleset="cells", seat_count=3, options={}
    )
    for name in names[1:]:
        services.seat_join(game=game, user=users[name])
    game.refresh_from_db()
    with mock.patch("games.services.secrets.randbits", return_value=seed):
        services.game_start(game=game, user=users[names[0]])
    return Table(game=game, users=users)


def _play_missions(table: Table, revealed: list[str] | None = None) -> list[str]:
    """Everyone confirms, then every turn is a mission with the next seat. Without
    ``revealed`` the discards follow a fixed pattern; with it, they turn up those
    cards. Returns the cards turned up."""
    for seat in range(3):
        table.act(table.name_at(seat), {"type": "confirm"})
    shown: list[str] = []
    while table.state().outcome is None:
        number = len(shown)
        leader = table.state().current
        partner = (leader + 1) % 3
        table.act(table.name_at(leader), {"type": "mission", "partner": partner})
        for seat, first in ((leader, number % 2 == 0), (partner, number % 2 == 1)):
            hand = sorted(table.state().hand)
            if revealed is None:
                card = hand[-1] if first else hand[0]
            else:
                hand.remove(revealed[number])
                card = hand[0]
            table.act(table.name_at(seat), {"type": "discard", "card": card})
        shown.append(table.state().missions[-1].card)
    return shown


def _keys(node: Any) -> set[str]:
    if isinstance(node, dict):
        return set(node) | {k for value in node.values() for k in _keys(value)}
    if isinstance(node, list):
        return {k for value in node for k in _keys(value)}
    return set()


PER_TABLE = ("code", "name", "started_at", "finished_at", "players")


def test_two_games_with_the_same_public_record_export_the_same(
    client: Client,
) -> None:
    """Seeds 1 and 37 deal the same character cards and first player but different
    mission decks; played with the same public moves and the same cards turned up,
    the two games discarded different cards. Their exports must not differ: nothing
    in them (no seed) lets anyone work out the draws or the discards."""
    setups = [engine.GameSetup("cells", 3, {}, seed) for seed in (1, 37)]
    deals = [engine.setup(setup) for setup in setups]
    assert deals[0].cards == deals[1].cards
    assert deals[0].table.first == deals[1].table.first
    assert deals[0].deck != deals[1].deck
    first = _seeded(1, ["sa", "sb", "sc"])
    shown = _play_missions(first)
    second = _seeded(37, ["ta", "tb", "tc"])
    assert _play_missions(second, shown) == shown
    states = [first.state(), second.state()]
    assert states[0].reshuffles == states[1].reshuffles == 1
    discards = [
        [(m.leader_discard, m.partner_discard) for m in state.missions]
        for state in states
    ]
    assert discards[0] != discards[1]  # the secret the export must keep

    exports = []
    for table in (first, second):
        response = client.get(f"/history/g/{table.game.code}/export.json")
        data = json.loads(response.content)
        assert "seed" not in _keys(data)
        assert data["setup"] == {
            "ruleset": "cells",
            "players": 3,
            "options": {"chat": True},
            "first": deals[0].table.first,
        }
        assert export.verify(data) == []
        for entry in data["actions"]:
            entry.pop("at")
        exports.append({k: v for k, v in data.items() if k not in PER_TABLE})
    assert exports[0] == exports[1]
    # The rebuild deals stand-ins: the same public game, whichever seed was real.
    finals = [engine.view(export.rebuild(data)[0], None) for data in exports]
    assert finals[0] == finals[1] == engine.view(states[0], None)


def test_an_export_that_still_has_its_seed_rebuilds_from_it() -> None:
    table = random_game("cells", 3, 140)
    game = table.refresh()
    data = export.game_export(game)
    data["setup"] = game_setup(game).to_dict()
    state, _outcome = export.rebuild(data)
    real = load_state(game)
    assert (state.cards, state.deck) == (real.cards, real.deck)  # the real deal
    assert engine.view(state, None) == engine.view(real, None)
    assert export.verify(data) == []


def test_a_record_no_deck_could_make_does_not_rebuild() -> None:
    table = random_game("cells", 4, 141)
    data = export.game_export(table.refresh())
    for mission in data["missions"]:
        mission["card"] = "red"
    data["missions"] += [{**data["missions"][0], "number": n} for n in (8, 9)]
    with pytest.raises(export.ExportError):
        export.rebuild(data)
    data = export.game_export(table.refresh())
    del data["setup"]["first"]
    with pytest.raises(export.ExportError):
        export.rebuild(data)


def test_after_the_game_the_api_and_the_export_show_no_mission_card_held() -> None:
    """A finished game's view through the API, for every seat and a spectator, and
    the export: no hand, no discard, no seed (the API has no replay: its view is the
    game as it ended)."""
    table = random_game("cells", 4, 150)
    final = _states(table)[-1]
    code = table.game.code
    users = {table.position[name]: user for name, user in table.users.items()}
    for seat, user in [*users.items(), (None, None)]:
        answer = program(user).get(f"tables/{code}/view")
        assert answer.status == 200
        assert oracle.find_leaks(final, seat, answer.body) == []
        assert answer.body["view"]["legal"] == []
        assert "seed" not in _keys(answer.body)
        table_answer = program(user).get(f"tables/{code}")
        assert "seed" not in _keys(table_answer.body)
    data = export.game_export(table.refresh())
    assert oracle.find_leaks(final, None, data) == []


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
