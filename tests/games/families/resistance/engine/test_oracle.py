"""The leak oracle itself: it must catch planted leaks of each kind in dicts, JSON and
HTML, and pass legitimate payloads (one's own role, evil partners shown to evil,
finished votes, the post-game reveal)."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from games.engine import view
from games.engine.oracle import find_leaks, secrets
from games.families.resistance.engine import GameState, Leak, Phase, Secret
from tests.games.families.resistance.engine.support import (
    act,
    new_game,
    play_through,
    propose,
)


def _table() -> GameState:
    """Partisans, seven players, both presets: a check done after mission 2 and a vote
    on mission 3 in progress with three votes in."""
    state = play_through(new_game("partisans", 7, seed=5, scout=True, check=True), "SF")
    holder = state.token
    target = next(s for s in range(7) if s not in state.former_holders)
    state = act(state, holder, {"type": "check", "target": target})
    state = act(state, holder, {"type": "claim", "side": "good"})
    state = propose(state, [0, 1, 2])
    for seat in (0, 3, 5):
        state = act(state, seat, {"type": "vote", "approve": seat != 3})
    assert state.phase is Phase.VOTE
    return state


STATE = _table()
TABLE = STATE.table
SCOUT = TABLE.scout
SNIPER = TABLE.sniper
EVIL = list(TABLE.evil)
PLAIN_GOOD = [s for s in range(7) if s not in EVIL and s != SCOUT]
CHECK = STATE.checks[0]
# A good seat that is neither the scout nor the check holder: it knows nobody.
NOBODY = next(s for s in PLAIN_GOOD if s != CHECK.holder)
VOTED = {0: True, 3: False, 5: True}
CARD_SEAT = STATE.missions[0].team[0]
CARD = STATE.missions[0].cards[0]


def kinds(leaks: list[Leak]) -> set[tuple[str, int]]:
    return {(leak.kind, leak.seat) for leak in leaks}


def as_dict_and_json(payload: Any) -> list[Any]:
    return [payload, json.dumps(payload)]


# --- secrets --------------------------------------------------------------------------


def test_secrets_of_a_seat_that_knows_nobody() -> None:
    found = secrets(STATE, NOBODY)
    assert all(isinstance(secret, Secret) for secret in found)
    sides = {s.seat for s in found if s.kind == "side"}
    assert sides == set(range(7)) - {NOBODY}
    assert {s.seat: s.value for s in found if s.kind == "vote"} == {
        k: v for k, v in VOTED.items() if k != NOBODY
    }
    assert ("check_result", CHECK.target) in {(s.kind, s.seat) for s in found} or (
        CHECK.target == NOBODY
    )
    assert all(s.seat != NOBODY for s in found)


def test_secrets_of_evil_and_scout() -> None:
    evil = EVIL[0]
    found = secrets(STATE, evil)
    assert not [s for s in found if s.kind == "side"]  # evil know every side
    assert {s.seat for s in found if s.kind == "role"} == set(range(7)) - set(EVIL)
    scout_secrets = secrets(STATE, SCOUT)
    assert not [s for s in scout_secrets if s.kind == "side"]
    assert {s.seat for s in scout_secrets if s.kind == "role"} == set(EVIL)


def test_secrets_after_the_game_are_only_cards() -> None:
    over = play_through(new_game("partisans", 6, seed=5, check=True), "FFF")
    for seat in [None, *range(6)]:
        found = secrets(over, seat)
        assert found and {s.kind for s in found} == {"card"}
        assert all(s.seat != seat for s in found)


# --- clean payloads pass --------------------------------------------------------------


def test_every_view_is_clean_for_its_own_seat() -> None:
    for seat in [None, *range(7)]:
        for payload in as_dict_and_json(view(STATE, seat)):
            assert find_leaks(STATE, seat, payload) == []


def test_legitimate_payloads_are_not_leaks() -> None:
    evil = EVIL[0]
    partners = [{"seat": s, "side": "evil", "role": TABLE.roles[s]} for s in EVIL]
    assert find_leaks(STATE, evil, {"known": partners}) == []
    assert find_leaks(STATE, evil, {"sniper": SNIPER}) == []
    assert find_leaks(STATE, SCOUT, [{"seat": s, "side": "evil"} for s in EVIL]) == []
    assert find_leaks(STATE, 3, {"seat": 3, "vote": False}) == []  # one's own vote
    finished = view(STATE, None)["history"]
    assert finished and find_leaks(STATE, NOBODY, finished) == []
    bare = [entry["votes"] for entry in finished]  # whole finished votes, no context
    assert find_leaks(STATE, NOBODY, bare) == []
    own = {"seat": CARD_SEAT, "cards": {"1": CARD}}
    assert find_leaks(STATE, CARD_SEAT, own) == []
    holder_sees = {"target": CHECK.target, "result": CHECK.result.value}
    assert find_leaks(STATE, CHECK.holder, holder_sees) == []
    claim = {"holder": CHECK.holder, "target": CHECK.target, "claim": "evil"}
    assert find_leaks(STATE, NOBODY, claim) == []
    assert find_leaks(STATE, NOBODY, {"options": {"scout": True, "check": True}}) == []


def test_a_false_statement_gives_nothing_away() -> None:
    good = PLAIN_GOOD[-1] if PLAIN_GOOD[-1] != NOBODY else PLAIN_GOOD[0]
    assert find_leaks(STATE, NOBODY, {"seat": good, "side": "evil"}) == []
    assert find_leaks(STATE, NOBODY, {"votes": {"3": True}}) == []  # 3 rejected


def test_the_post_game_reveal_is_clean_but_cards_never_are() -> None:
    over = play_through(new_game("partisans", 6, seed=5, scout=True), "FFF")
    for seat in [None, *range(6)]:
        seen = view(over, seat)
        assert find_leaks(over, seat, seen) == []
        assert find_leaks(over, seat, json.dumps(seen)) == []
    member = over.missions[0].team[0]
    viewer = next(s for s in range(6) if s != member)
    card = over.missions[0].cards[0]
    leaks = find_leaks(over, viewer, {"seat": member, "card": card})
    assert kinds(leaks) == {("card", member)}


# --- planted leaks are caught: dicts and JSON -----------------------------------------


def _planted(seat: int | None, plant: Any) -> dict[str, Any]:
    """The seat's own clean view with one extra entry planted in it."""
    seen = copy.deepcopy(view(STATE, seat))
    seen["history"].append({"extra": plant})
    return seen


def _caught(seat: int | None, plant: Any, kind: str, about: int) -> None:
    for payload in as_dict_and_json(_planted(seat, plant)):
        leaks = find_leaks(STATE, seat, payload)
        assert (kind, about) in kinds(leaks), (plant, leaks)
        assert all(leak.where for leak in leaks)


@pytest.mark.parametrize("viewer", [None, "nobody"])
def test_planted_side(viewer: str | None) -> None:
    seat = None if viewer is None else NOBODY
    evil = EVIL[0]
    _caught(seat, {"seat": evil, "side": "evil"}, "side", evil)
    _caught(seat, {"seat": str(evil), "side": "EVIL"}, "side", evil)
    _caught(seat, {"evil": [evil]}, "side", evil)
    _caught(seat, {"sides": {str(evil): "evil"}}, "side", evil)
    good = PLAIN_GOOD[0] if PLAIN_GOOD[0] != seat else PLAIN_GOOD[1]
    _caught(seat, {"seat": good, "side": "good"}, "side", good)


def test_planted_roles() -> None:
    _caught(NOBODY, {"seat": SNIPER, "role": "sniper"}, "role", SNIPER)
    _caught(SCOUT, {"seat": SNIPER, "role": "sniper"}, "role", SNIPER)  # not which
    _caught(SCOUT, {"sniper": SNIPER}, "role", SNIPER)
    _caught(EVIL[0], {"seat": SCOUT, "role": "scout"}, "role", SCOUT)
    _caught(EVIL[0], {"scout": SCOUT}, "role", SCOUT)
    _caught(NOBODY, {"seat": SCOUT, "role": "scout"}, "role", SCOUT)
    leaked = copy.deepcopy(view(STATE, NOBODY))
    leaked["sniper"]["sniper"] = SNIPER
    assert ("role", SNIPER) in kinds(find_leaks(STATE, NOBODY, leaked))


def test_planted_votes_in_progress() -> None:
    leaked = copy.deepcopy(view(STATE, NOBODY))
    leaked["proposal"]["votes"] = {str(s): v for s, v in VOTED.items()}
    expected = {("vote", s) for s in VOTED if s != NOBODY}
    for payload in as_dict_and_json(leaked):
        assert kinds(find_leaks(STATE, NOBODY, payload)) == expected
    _caught(NOBODY, {"seat": 0, "vote": True}, "vote", 0)
    _caught(NOBODY, {"seat": 3, "approve": False}, "vote", 3)
    _caught(None, {"seat": 5, "vote": "approve"}, "vote", 5)
    _caught(3, {"mission": 3, "attempt": 1, "votes": {"0": True}}, "vote", 0)


def test_planted_cards() -> None:
    viewer = next(s for s in range(7) if s != CARD_SEAT)
    _caught(viewer, {"seat": CARD_SEAT, "card": CARD}, "card", CARD_SEAT)
    _caught(viewer, {"seat": CARD_SEAT, "cards": {"1": CARD}}, "card", CARD_SEAT)
    _caught(None, {"seat": CARD_SEAT, "cards": [CARD]}, "card", CARD_SEAT)
    leaked = copy.deepcopy(view(STATE, viewer))
    leaked["me"]["seat"] = CARD_SEAT  # someone else's "me" sent to this seat
    leaked["me"]["cards"] = {"1": CARD}
    assert ("card", CARD_SEAT) in kinds(find_leaks(STATE, viewer, leaked))


def test_planted_check_result() -> None:
    outsider = next(s for s in PLAIN_GOOD if s not in (CHECK.holder, CHECK.target))
    leaked = copy.deepcopy(view(STATE, outsider))
    leaked["checks"][0]["result"] = CHECK.result.value
    for payload in as_dict_and_json(leaked):
        assert ("check_result", CHECK.target) in kinds(
            find_leaks(STATE, outsider, payload)
        )
    _caught(None, {"target": CHECK.target, "check_result": CHECK.result.value},
            "check_result", CHECK.target)  # fmt: skip


# --- HTML -----------------------------------------------------------------------------


def _html(*rows: str) -> str:
    return "<section><ul>" + "".join(rows) + "</ul><p>footer</p></section>"


def test_html_marks_are_caught() -> None:
    evil = EVIL[0]
    cases = [
        (NOBODY, f'<li data-seat="{evil}" data-side="evil">x</li>', "side", evil),
        (SCOUT, f'<li data-seat="{SNIPER}" data-role="sniper">x</li>', "role", SNIPER),
        (NOBODY, '<span data-seat="3" data-vote="false"></span>', "vote", 3),
        (NOBODY, '<span data-seat="0" data-vote="approve"/>', "vote", 0),
        (
            NOBODY if NOBODY != CARD_SEAT else None,
            f'<i data-seat="{CARD_SEAT}" data-card="{CARD}"></i>',
            "card",
            CARD_SEAT,
        ),
        (
            None,
            f'<b data-seat="{CHECK.target}" data-check-result="{CHECK.result.value}">',
            "check_result",
            CHECK.target,
        ),
    ]
    for seat, row, kind, about in cases:
        leaks = find_leaks(STATE, seat, _html(row))
        assert (kind, about) in kinds(leaks), (row, leaks)


def test_html_words_in_the_text_of_a_seat() -> None:
    evil = EVIL[0]
    words = {"evil": ["предатель"], "sniper": ["снайпер"], "scout": ["разведчик"]}
    page = _html(f'<li data-seat="{evil}"><span>Оля</span> — Предатель</li>')
    assert ("side", evil) in kinds(find_leaks(STATE, NOBODY, page, words))
    page = _html(f'<li data-seat="{SNIPER}">Макс (снайпер)</li>')
    assert ("role", SNIPER) in kinds(find_leaks(STATE, SCOUT, page, words))
    page = _html(f'<li data-seat="{SCOUT}">Ира, разведчик<br>ok</li>')
    assert ("role", SCOUT) in kinds(find_leaks(STATE, EVIL[0], page, words))


def test_what_players_say_is_not_searched_for_words() -> None:
    evil = EVIL[0]
    words = {"evil": ["предатель"]}
    said = f'<li data-seat="{evil}">Оля <q data-claim="evil">предатель</q></li>'
    chat = f'<li data-seat="{evil}"><p data-said>я не предатель</p></li>'
    bare = f'<li data-seat="{evil}">Оля <q>предатель</q></li>'
    assert find_leaks(STATE, NOBODY, _html(said), words) == []
    assert find_leaks(STATE, NOBODY, _html(chat), words) == []
    assert kinds(find_leaks(STATE, NOBODY, _html(bare), words)) == {("side", evil)}


def test_clean_html_passes() -> None:
    evil = EVIL[0]
    words = {"evil": ["предатель"], "good": ["партизан"], "sniper": ["снайпер"]}
    finished = STATE.history[-1]
    votes = "".join(
        f'<span data-seat="{s}" data-vote="{str(v).lower()}">{"✓" if v else "✗"}</span>'
        for s, v in enumerate(finished.votes)
        if v is not None
    )
    partners = "".join(
        f'<li data-seat="{s}" data-side="evil" data-role="{TABLE.roles[s]}">'
        f"предатель</li>"
        for s in EVIL
    )
    page = _html(
        f'<li data-seat="{evil}" data-role="{TABLE.roles[evil]}">me</li>',
        partners,
        f'<li data-mission="{finished.mission}" data-attempt="{finished.attempt}">'
        f"{votes}</li>",
        f'<li data-seat="{CHECK.target}">и <q data-claim="evil">он предатель</q></li>',
        f'<li data-seat="{NOBODY}" data-said>я не предатель</li>',
        '<li data-seat="3" data-voted="true">голосовал</li>',
        "<li data-seat='x' data-side='evil'>not a seat</li></b></div>",
    )
    assert find_leaks(STATE, evil, page, words) == []
    outsider_page = _html(
        f'<li data-seat="{CHECK.target}">и <q data-claim="evil">он предатель</q></li>',
        f'<li data-seat="{NOBODY}" data-side="{TABLE.sides[NOBODY].value}">я</li>',
        f'<li data-mission="{finished.mission}" data-attempt="{finished.attempt}">'
        f"{votes}</li>",
    )
    assert find_leaks(STATE, NOBODY, outsider_page, words) == []


def test_an_unfinished_vote_in_html_is_caught_even_inside_a_mission_row() -> None:
    page = _html('<li data-mission="3" data-attempt="1"><span data-seat="0" '
                 'data-vote="true"></span></li>')  # fmt: skip
    assert kinds(find_leaks(STATE, NOBODY, page)) == {("vote", 0)}
