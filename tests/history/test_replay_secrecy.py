"""The replay never shows more than it may: for every seat at every step of complete
games of each ruleset (both presets, alone and together), the page seen as that seat
holds nothing the seat did not know then, and no page ever says who played which
mission card (except to that player). The engine's leak oracle judges every page."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.test import Client

from games import engine
from games.engine import oracle
from games.families.resistance.words import WORDS
from games.state import action_log, game_setup
from history import replay
from tests.history.builders import Table, random_game

pytestmark = pytest.mark.django_db

COMBOS: list[tuple[str, dict[str, bool]]] = [
    ("partisans", {}),
    ("partisans", {"scout": True}),
    ("partisans", {"check": True}),
    ("partisans", {"scout": True, "check": True}),
    ("trust_no_one", {}),
    ("werewolves", {}),
    ("werewolves", {"growing_patrol": True}),
]


def _words(ruleset: str) -> dict[str, list[str]]:
    """Display strings of every secret value, for the oracle's text search: side
    and role names, and the mission cards' names.

    A role name found inside a side name ("Partisan" in "partisans") is left out:
    the text search would take a seat's known side for its unknown role. The
    ``data-role`` marks still show every role the page states.
    """
    words = WORDS[ruleset]
    sides = [str(words.good), str(words.evil)]
    found: dict[str, list[str]] = {
        "good": [sides[0]],
        "evil": [sides[1]],
        "success": [str(words.success_card)],
        "fail": [str(words.fail_card)],
    }
    for code, label in words.roles.items():
        name = str(label)
        if not any(name.casefold() in side.casefold() for side in sides):
            found[code] = [name]
    return found


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


def _card_leaks(leaks: list[Any]) -> list[Any]:
    return [leak for leak in leaks if leak.kind == "card"]


@pytest.mark.parametrize(("ruleset", "options"), COMBOS)
def test_no_replay_page_shows_what_its_seat_did_not_know(
    ruleset: str, options: dict[str, bool], client: Client
) -> None:
    seed = 7 + len(COMBOS) * len(options) + len(ruleset)
    table = random_game(ruleset, 6, seed, options=options)
    states = _states(table)
    final = states[-1]
    assert engine.outcome(final) is not None
    words = _words(ruleset)
    players = table.game.seat_count
    kinds = set()
    for step, state in enumerate(states):
        kinds.add(replay.steps(table.game, {})[step].kind)
        everyone = _fragment(client, table, step, replay.EVERYONE)
        # After the game every side, role and finished vote is public: only the
        # mission cards are still secret, from everyone, forever.
        assert oracle.find_leaks(final, None, everyone, words) == []
        # A vote in progress at this step stays "voted / not yet".
        in_progress = oracle.find_leaks(state, None, everyone)
        assert [leak for leak in in_progress if leak.kind == "vote"] == []
        for seat in range(players):
            page = _fragment(client, table, step, str(seat))
            assert oracle.find_leaks(state, seat, page, words) == [], (step, seat)
            assert _card_leaks(oracle.find_leaks(final, None, page, words)) == []
    assert kinds >= {"deal", "propose", "vote", "play"}


def test_a_player_sees_their_own_cards_in_their_own_replay_only(client: Client) -> None:
    table = random_game("partisans", 5, 11, options={"scout": True, "check": True})
    states = _states(table)
    final = states[-1]
    last = len(states) - 1
    seen_own_card = False
    for name, user in table.users.items():
        seat = table.position[name]
        client.force_login(user)
        own = _fragment(client, table, last, str(seat))
        assert oracle.find_leaks(final, seat, own) == []
        seen_own_card |= f'data-seat="{seat}" data-card=' in own
        for other in range(table.game.seat_count):
            if other != seat:
                page = _fragment(client, table, last, str(other))
                assert _card_leaks(oracle.find_leaks(final, seat, page)) == []
                assert "data-card=" not in page
        client.logout()
    assert seen_own_card
    anonymous = [_fragment(client, table, last, str(s)) for s in range(5)]
    assert all("data-card=" not in page for page in anonymous)


def test_the_whole_review_page_names_no_card_author(client: Client) -> None:
    rng = random.Random(5)
    for ruleset, options in COMBOS:
        table = random_game(ruleset, rng.randint(5, 10), rng.randint(0, 10**6),
                            options=options)  # fmt: skip
        final = _states(table)[-1]
        page = client.get(f"/history/g/{table.game.code}/").content.decode()
        assert oracle.find_leaks(final, None, page, _words(ruleset)) == []
