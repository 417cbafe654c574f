"""The sensible bot (``bot_action``): legal for every seat at every point of every
game, decided from the seat's view alone, and sensible where the brief says how
(evil partners never fail twice where one fail does, the good claim the truth, the
fifth proposal, the scout's teams, the sniper's target).  How well it plays is
measured by ``python -m bench.tournament``, not here."""

from __future__ import annotations

import copy
import json
from random import Random

import pytest

from games.engine import (
    GameIsOver,
    GameSetup,
    apply,
    bot_action,
    legal_actions,
    view,
    waiting_for,
)
from games.families.resistance.engine import GameState, Phase, bots
from games.families.resistance.engine.bots import random_move
from tests.games.families.resistance.engine.invariants import alternative
from tests.games.families.resistance.engine.support import (
    COMBOS,
    act,
    allowed,
    evil_seats,
    find_game,
    good_seats,
    new_game,
    play_game,
    propose,
    reject,
    vote_all,
)

ALL_TABLES = pytest.mark.parametrize(
    ("code", "options", "players"),
    [(code, options, players) for code, options in COMBOS for players in range(5, 11)],
    ids=lambda value: str(value),
)
SIDES = {
    "bots": (bot_action, bot_action),
    "bot good": (bot_action, random_move),
    "bot evil": (random_move, bot_action),
}


def _every_decision(state: GameState, rng_seed: int) -> None:
    """Every awaited seat's bot move now is allowed and accepted by ``apply``."""
    for seat in sorted(waiting_for(state)):
        seen = view(state, seat)
        action = bot_action(seen, Random(rng_seed))
        (spec,) = legal_actions(state, seat)
        assert allowed(action, spec), (seat, action, spec)
        apply(state, seat, action)  # raises if the rules refuse it


@ALL_TABLES
@pytest.mark.parametrize("who", list(SIDES))
def test_the_bot_moves_legally_for_every_seat_at_every_step(
    code: str, options: dict[str, bool], players: int, who: str
) -> None:
    """Whole games with the bot on one side or both: at every step every awaited
    seat's bot move (not only the one played) is legal and accepted."""
    good, evil = SIDES[who]
    for seed in range(2):
        game = GameSetup(code, players, options, seed=seed + 100 * players)
        states = play_game(game, good, evil, Random(seed))
        for step, state in enumerate(states):
            _every_decision(state, step)
        assert states[-1].phase is Phase.OVER


def test_the_bot_reaches_every_phase() -> None:
    """The games above pass through every phase, the sniper's and the check's too."""
    seen: set[Phase] = set()
    for seed in range(6):
        game = GameSetup("partisans", 7, {"scout": True, "check": True}, seed)
        for state in play_game(game, bot_action, bot_action, Random(seed)):
            seen.add(state.phase)
    assert seen == set(Phase)


def test_the_bot_refuses_when_nothing_is_asked_of_the_seat() -> None:
    state = new_game("partisans", 5, seed=2)
    idle = next(seat for seat in range(5) if seat != state.leader)
    with pytest.raises(GameIsOver):
        bot_action(view(state, idle), Random(0))
    with pytest.raises(GameIsOver):
        bot_action(view(state, None), Random(0))
    game = GameSetup("partisans", 5, {}, seed=2)
    final = play_game(game, bot_action, bot_action, Random(2))[-1]
    with pytest.raises(GameIsOver):
        bot_action(view(final, final.leader), Random(0))


# --- the view, and nothing else -------------------------------------------------------


@pytest.mark.parametrize(("code", "options"), COMBOS, ids=str)
def test_the_bot_decides_the_same_in_states_the_seat_cannot_tell_apart(
    code: str, options: dict[str, bool]
) -> None:
    """Another deal, other votes in progress, other cards behind the same counts:
    where the seat's view is the same, so is the bot's move (same rng), and the bot
    works from a JSON copy of the view as well as from the view itself."""
    rng = Random(7)
    compared = 0
    for seed in range(3):
        game = GameSetup(code, 8, options, seed)
        for state in play_game(game, bot_action, bot_action, Random(seed)):
            for seat in sorted(waiting_for(state)):
                other = alternative(state, seat, rng)
                seen = view(state, seat)
                assert view(other, seat) == seen
                as_json = json.loads(json.dumps(view(other, seat)))
                assert bot_action(seen, Random(seat)) == bot_action(
                    as_json, Random(seat)
                )
                compared += 1
    assert compared > 100


def test_the_bot_does_not_change_the_view() -> None:
    game = GameSetup("partisans", 9, {"scout": True, "check": True}, seed=4)
    for state in play_game(game, bot_action, bot_action, Random(4)):
        for seat in sorted(waiting_for(state)):
            seen = view(state, seat)
            kept = copy.deepcopy(seen)
            bot_action(seen, Random(0))
            assert seen == kept


def test_the_engine_dispatches_to_the_family_bot() -> None:
    state = new_game("werewolves", 6, seed=3)
    seen = view(state, state.leader)
    assert bot_action(seen, Random(1)) == bots.bot_action(seen, Random(1))


# --- evil coordination ----------------------------------------------------------------


def _mission_with(state: GameState, team: list[int]) -> GameState:
    state = vote_all(propose(state, team), True)
    assert state.phase is Phase.MISSION
    return state


def _bot_cards(state: GameState) -> dict[int, str]:
    return {
        seat: bot_action(view(state, seat), Random(seat))["card"] for seat in state.team
    }


def test_two_evil_on_a_two_player_team_fail_once() -> None:
    """The lowest evil seat on the team fails, the other succeeds: one fail shown,
    not two that would name both."""
    state = new_game("partisans", 5, seed=3)
    evil = evil_seats(state)
    cards = _bot_cards(_mission_with(state, evil))
    assert cards == {min(evil): "fail", max(evil): "success"}


@pytest.mark.parametrize("players", [8, 10])
def test_three_evil_on_a_team_fail_once(players: int) -> None:
    state = new_game("trust_no_one", players, seed=5)
    evil = evil_seats(state)[:3]
    cards = _bot_cards(_mission_with(state, evil))
    assert sorted(cards.values()) == ["fail", "success", "success"]
    assert cards[min(evil)] == "fail"


def _at_two_fail_mission(players: int, seed: int) -> GameState:
    """Partisans at ``players``: missions 1–3 go S, S, F (no check), so mission 4 —
    the one that needs two fails — is next."""
    state = new_game("partisans", players, seed=seed)
    for fails in (0, 0, 1):
        good = good_seats(state)
        size = state.table.team_sizes[state.mission - 1]
        team = evil_seats(state)[:fails] + good[: size - fails]
        state = _mission_with(state, sorted(team))
        for seat in state.team:
            card = "fail" if seat in evil_seats(state)[:fails] else "success"
            state = act(state, seat, {"type": "play", "card": card})
    assert state.mission == 4 and state.table.two_fails_mission == 4
    return state


@pytest.mark.parametrize("players", [7, 10])
def test_the_two_fail_mission_gets_two_fails_or_none(players: int) -> None:
    state = _at_two_fail_mission(players, seed=6)
    evil, good = evil_seats(state), good_seats(state)
    size = _size(state)
    both = _bot_cards(_mission_with(state, sorted(evil[:2] + good[: size - 2])))
    assert sorted(c for s, c in both.items() if s in evil) == ["fail", "fail"]
    assert [c for s, c in both.items() if s not in evil] == ["success"] * (size - 2)
    alone = _bot_cards(_mission_with(state, sorted(evil[:1] + good[: size - 1])))
    assert list(alone.values()) == ["success"] * size


def test_bots_never_play_more_fails_than_the_mission_needs() -> None:
    """Across whole games of sensible bots: each mission's fail count is 0 or
    exactly what fails it."""
    missions = 0
    for code, options in COMBOS:
        for players in (5, 7, 10):
            game = GameSetup(code, players, options, seed=players)
            final = play_game(game, bot_action, bot_action, Random(players))[-1]
            for record in final.missions:
                need = 2 if record.number == final.table.two_fails_mission else 1
                assert record.fails in (0, need), record
                missions += 1
    assert missions > 40


# --- votes, claims, the scout and the sniper ------------------------------------------


def _fifth_proposal(team_of: str) -> GameState:
    state = new_game("partisans", 7, seed=9)
    for _ in range(4):
        state = reject(state)
    evil, good = evil_seats(state), good_seats(state)
    team = evil[:1] + good[:1] if team_of == "bad" else good[:2]
    return propose(state, sorted(team))


def test_the_fifth_proposal() -> None:
    """Good approves it whatever it is (rejecting loses the game); evil approves it
    when evil can fail it and rejects it otherwise."""
    for team_of in ("bad", "clean"):
        state = _fifth_proposal(team_of)
        for seat in range(7):
            approve = bot_action(view(state, seat), Random(seat))["approve"]
            if seat in state.table.evil:
                assert approve is (team_of == "bad")
            else:
                assert approve is True


def test_evil_does_not_approve_everything() -> None:
    """Evil never approves a team evil cannot fail unless it proposed it."""
    state = new_game("partisans", 8, seed=11)
    leader_is_evil = state.leader in state.table.evil
    state = propose(state, good_seats(state)[:3])
    for seat in evil_seats(state):
        approve = bot_action(view(state, seat), Random(seat))["approve"]
        assert approve is (leader_is_evil and seat == state.leader)


def _at_check(players: int, holder_evil: bool) -> GameState:
    def wanted(state: GameState) -> bool:
        holder = (state.table.first_leader - 1) % state.players
        return (holder in state.table.evil) is holder_evil

    state = find_game("partisans", players, wanted, check=True)
    for _ in range(2):
        state = vote_all(propose(state, good_seats(state)[: _size(state)]), True)
        for seat in state.team:
            state = act(state, seat, {"type": "play", "card": "success"})
    assert state.phase is Phase.CHECK
    return state


def _size(state: GameState) -> int:
    (spec,) = legal_actions(state, state.leader)
    size: int = spec["size"]
    return size


@pytest.mark.parametrize("players", [5, 8, 10])
def test_a_good_holder_checks_someone_else_and_claims_the_truth(players: int) -> None:
    state = _at_check(players, holder_evil=False)
    holder = state.token
    assert holder is not None
    action = bot_action(view(state, holder), Random(1))
    assert action["target"] != holder
    state = act(state, holder, action)
    claim = bot_action(view(state, holder), Random(1))
    assert claim["side"] == state.checks[-1].result.value


def test_an_evil_holder_never_calls_a_partner_evil() -> None:
    for seed in range(8):
        state = _at_check(7, holder_evil=True)
        holder = state.token
        assert holder is not None
        state = act(state, holder, bot_action(view(state, holder), Random(seed)))
        claim = bot_action(view(state, holder), Random(seed))["side"]
        if state.checks[-1].target in state.table.evil:
            assert claim == "good"


@pytest.mark.parametrize("players", [5, 7, 10])
def test_the_scout_proposes_clean_teams(players: int) -> None:
    """Whatever the table thinks, the scout's own proposals hold no evil."""
    proposals = 0
    for seed in range(6):
        game = GameSetup("partisans", players, {"scout": True}, seed)
        states = play_game(game, bot_action, bot_action, Random(seed))
        scout = states[0].table.scout
        for state in states:
            if state.phase is Phase.PROPOSAL and state.leader == scout:
                team = bot_action(view(state, scout), Random(seed))["team"]
                assert not set(team) & set(state.table.evil)
                proposals += 1
    assert proposals > 0


def test_the_sniper_shoots_a_good_player() -> None:
    shots = 0
    for seed in range(30):
        game = GameSetup("partisans", 6, {"scout": True}, seed)
        states = play_game(game, bot_action, bot_action, Random(seed))
        for state in states:
            if state.phase is Phase.SNIPER:
                sniper = state.table.sniper
                assert sniper is not None
                target = bot_action(view(state, sniper), Random(seed))["target"]
                assert target not in state.table.evil
                shots += 1
    assert shots > 0


def test_the_sniper_finds_a_scout_who_votes_what_he_knows() -> None:
    """Three missions whose teams each held an evil player who played success: the
    scout alone rejected them, everyone else approved.  The sniper shoots him."""

    def wanted(state: GameState) -> bool:
        table = state.table
        leaders = {(table.first_leader + step) % 7 for step in range(3)}
        return table.scout is not None and table.scout not in leaders

    state = find_game("partisans", 7, wanted, scout=True)
    scout = state.table.scout
    evil, good = evil_seats(state), good_seats(state)
    others = [seat for seat in good if seat != scout]
    for _ in range(3):
        team = sorted(evil[:1] + others[: _size(state) - 1])
        state = vote_all(propose(state, team), {s: s != scout for s in range(7)})
        assert state.phase is Phase.MISSION
        for seat in state.team:
            state = act(state, seat, {"type": "play", "card": "success"})
    assert state.phase is Phase.SNIPER
    sniper = state.table.sniper
    assert sniper is not None
    assert bot_action(view(state, sniper), Random(0))["target"] == scout
