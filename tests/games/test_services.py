"""The services that write game state: every move in one transaction, and bad input
refused with a clear error and nothing written."""

from __future__ import annotations

import io
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import engine, errors, services
from games.families.resistance.models import (
    Check,
    Mission,
    MissionCard,
    Proposal,
    Shot,
    Vote,
)
from games.models import ChatMessage, Game, GameAction, Seat
from games.state import load_state
from tests.factories import UserFactory
from tests.games.conftest import (
    play_one,
    play_until,
    public_view,
    seated_users,
    start_table,
)

pytestmark = pytest.mark.django_db


def snapshot(game: Game) -> tuple[object, ...]:
    """Everything a move could write, to prove a refused move wrote nothing."""
    game.refresh_from_db()
    return (
        game.version,
        game.turn,
        game.phase,
        game.status,
        GameAction.objects.filter(game=game).count(),
        Proposal.objects.filter(game=game).count(),
        Vote.objects.filter(proposal__game=game).count(),
        MissionCard.objects.filter(mission__game=game).count(),
        Check.objects.filter(game=game).count(),
        list(Mission.objects.filter(game=game).values_list("result", "fails")),
    )


def leader_user(game: Game):
    view = public_view(game)
    return seated_users(game)[view["leader"]], view


# --- Tables before the start --------------------------------------------------------


def test_create_seats_the_host_and_normalises_options() -> None:
    host = UserFactory()
    game = services.game_create(
        host=host, ruleset="partisans", seat_count=7, options={"scout": True}
    )
    assert list(game.seats.values_list("user", flat=True)) == [host.pk]
    assert game.options["scout"] is True
    assert game.options["check"] is False
    assert game.chat_enabled is True
    assert game.status == Game.Status.OPEN


def test_trust_no_one_chat_is_off_by_default() -> None:
    game = services.game_create(
        host=UserFactory(), ruleset="trust_no_one", seat_count=5
    )
    assert game.chat_enabled is False


@pytest.mark.parametrize(
    ("ruleset", "seats", "options"),
    [
        ("chess", 5, {}),
        ("partisans", 4, {}),
        ("partisans", 11, {}),
        ("trust_no_one", 6, {"scout": True}),
        ("partisans", 6, {"scout": "yes"}),
        ("werewolves", 6, {"check": True}),
    ],
)
def test_bad_table_settings_write_nothing(
    ruleset: str, seats: int, options: dict
) -> None:
    with pytest.raises(errors.BadSetup):
        services.game_create(
            host=UserFactory(), ruleset=ruleset, seat_count=seats, options=options
        )
    assert Game.objects.count() == 0
    assert Seat.objects.count() == 0


def test_join_leave_and_the_full_table() -> None:
    host, *others = UserFactory.create_batch(6)
    game = services.game_create(host=host, ruleset="partisans", seat_count=5)
    for user in others[:4]:
        services.seat_join(game=game, user=user)
    with pytest.raises(errors.TableFull):
        services.seat_join(game=game, user=others[4])
    with pytest.raises(errors.AlreadySeated):
        services.seat_join(game=game, user=others[0])
    services.seat_leave(game=game, user=others[0])
    assert game.seats.count() == 4
    with pytest.raises(errors.NotSeated):
        services.seat_leave(game=game, user=others[0])
    with pytest.raises(errors.HostCannotLeave):
        services.seat_leave(game=game, user=host)


def test_only_the_host_removes_a_seat_before_the_start() -> None:
    host, guest, other = UserFactory.create_batch(3)
    game = services.game_create(host=host, ruleset="partisans", seat_count=5)
    services.seat_join(game=game, user=guest)
    seat = game.seats.get(user=guest)
    with pytest.raises(errors.NotHost):
        services.seat_remove(game=game, host=other, seat_id=seat.pk)
    host_seat = game.seats.get(user=host)
    with pytest.raises(errors.NotSeated):
        services.seat_remove(game=game, host=host, seat_id=host_seat.pk)
    services.seat_remove(game=game, host=host, seat_id=seat.pk)
    assert not game.seats.filter(user=guest).exists()


def test_start_needs_the_host_and_a_full_table() -> None:
    users = UserFactory.create_batch(5)
    game = services.game_create(host=users[0], ruleset="partisans", seat_count=5)
    for user in users[1:4]:
        services.seat_join(game=game, user=user)
    with pytest.raises(errors.TableNotFull):
        services.game_start(game=game, user=users[0])
    services.seat_join(game=game, user=users[4])
    with pytest.raises(errors.NotHost):
        services.game_start(game=game, user=users[1])
    game.refresh_from_db()
    assert game.status == Game.Status.OPEN and game.seed is None
    game = services.game_start(game=game, user=users[0])
    assert game.status == Game.Status.PLAYING
    assert sorted(game.seats.values_list("position", flat=True)) == [0, 1, 2, 3, 4]
    assert Mission.objects.filter(game=game).count() == 5
    with pytest.raises(errors.NotOpen):
        services.game_start(game=game, user=users[0])
    with pytest.raises(errors.NotOpen):
        services.seat_join(game=game, user=UserFactory())


def test_roles_are_not_written_until_the_end() -> None:
    game = start_table("partisans", 7, {"scout": True, "check": True})
    play_until(game, random.Random(3), lambda g: g.version >= 15)
    assert not Seat.objects.filter(game=game).exclude(role="").exists()
    assert not Seat.objects.filter(game=game).exclude(side="").exists()


# --- Moves -------------------------------------------------------------------------


def test_a_move_out_of_turn_is_refused_and_changes_nothing() -> None:
    game = start_table()
    _, view = leader_user(game)
    other = next(u for p, u in seated_users(game).items() if p != view["leader"])
    before = snapshot(game)
    with pytest.raises(errors.IllegalMove) as info:
        services.game_act(
            game=game, user=other, action={"type": "propose", "team": [0, 1]}, turn=0
        )
    assert info.value.code == "not_leader"
    assert str(info.value)
    assert snapshot(game) == before


def test_wrong_team_size_is_refused() -> None:
    game = start_table()
    leader, _ = leader_user(game)
    before = snapshot(game)
    with pytest.raises(errors.IllegalMove) as info:
        services.game_act(
            game=game,
            user=leader,
            action={"type": "propose", "team": [0, 1, 2]},
            turn=0,
        )
    assert info.value.code == "wrong_team_size"
    assert snapshot(game) == before


@pytest.mark.parametrize(
    "action",
    [
        {"type": "propose"},
        {"type": "propose", "team": "0,1"},
        {"type": "propose", "team": [0, 0]},
        {"type": "propose", "team": [0, 99]},
        {"type": "fly"},
        {"type": "vote", "approve": "yes"},
        {},
    ],
)
def test_malformed_moves_are_refused(action: dict) -> None:
    game = start_table()
    leader, _ = leader_user(game)
    before = snapshot(game)
    with pytest.raises(errors.IllegalMove):
        services.game_act(game=game, user=leader, action=action, turn=0)
    assert snapshot(game) == before


def test_a_stranger_cannot_act() -> None:
    game = start_table()
    before = snapshot(game)
    with pytest.raises(errors.NotSeated):
        services.game_act(
            game=game,
            user=UserFactory(),
            action={"type": "vote", "approve": True},
            turn=0,
        )
    assert snapshot(game) == before


def test_a_stale_turn_gets_the_table_moved_on() -> None:
    game = start_table()
    leader, _ = leader_user(game)
    services.game_act(
        game=game, user=leader, action={"type": "propose", "team": [0, 1]}, turn=0
    )
    game.refresh_from_db()
    assert game.turn == 1
    before = snapshot(game)
    voter = seated_users(game)[0]
    with pytest.raises(errors.TableMovedOn):
        services.game_act(
            game=game, user=voter, action={"type": "vote", "approve": True}, turn=0
        )
    with pytest.raises(errors.TableMovedOn):
        services.game_act(
            game=game, user=voter, action={"type": "vote", "approve": True}, turn=None
        )
    assert snapshot(game) == before


def test_simultaneous_votes_on_one_team_all_count() -> None:
    """Votes made on the same proposal stay valid while others vote: the turn is the
    decision, not the version."""
    game = start_table("partisans", 5)
    leader, _ = leader_user(game)
    services.game_act(
        game=game, user=leader, action={"type": "propose", "team": [0, 1]}, turn=0
    )
    game.refresh_from_db()
    turn = game.turn
    users = seated_users(game)
    for position in range(4):
        services.game_act(
            game=game,
            user=users[position],
            action={"type": "vote", "approve": True},
            turn=turn,
        )
    game.refresh_from_db()
    assert game.turn == turn
    assert Vote.objects.filter(proposal__game=game).count() == 4
    with pytest.raises(errors.IllegalMove) as info:
        services.game_act(
            game=game,
            user=users[0],
            action={"type": "vote", "approve": False},
            turn=turn,
        )
    assert info.value.code == "already_voted"
    services.game_act(
        game=game, user=users[4], action={"type": "vote", "approve": True}, turn=turn
    )
    proposal = Proposal.objects.get(game=game)
    assert proposal.approved is True
    assert sorted(proposal.team.values_list("position", flat=True)) == [0, 1]
    mission = Mission.objects.get(game=game, number=1)
    assert sorted(mission.team.values_list("position", flat=True)) == [0, 1]
    game.refresh_from_db()
    assert game.turn == game.version and game.phase == "mission"


def _to_mission(game: Game, team: list[int]) -> None:
    leader, _ = leader_user(game)
    services.game_act(
        game=game, user=leader, action={"type": "propose", "team": team}, turn=game.turn
    )
    game.refresh_from_db()
    for user in seated_users(game).values():
        services.game_act(
            game=game,
            user=user,
            action={"type": "vote", "approve": True},
            turn=game.turn,
        )
    game.refresh_from_db()


def test_cards_only_from_the_team_and_only_success_from_the_good() -> None:
    game = start_table("partisans", 5)
    dealt = load_state(game)
    good = next(p for p in range(5) if engine.view(dealt, p)["me"]["side"] == "good")
    team = sorted([good, (good + 1) % 5])
    outsider = next(p for p in range(5) if p not in team)
    _to_mission(game, team)
    users = seated_users(game)
    before = snapshot(game)
    with pytest.raises(errors.IllegalMove) as info:
        services.game_act(
            game=game,
            user=users[outsider],
            action={"type": "play", "card": "success"},
            turn=game.turn,
        )
    assert info.value.code == "not_on_team"
    with pytest.raises(errors.IllegalMove) as info:
        services.game_act(
            game=game,
            user=users[good],
            action={"type": "play", "card": "fail"},
            turn=game.turn,
        )
    assert info.value.code == "good_cannot_fail"
    assert snapshot(game) == before


def test_mission_cards_are_stored_without_authors_when_the_last_is_in() -> None:
    game = start_table("partisans", 5)
    _to_mission(game, [0, 1])
    users = seated_users(game)
    services.game_act(
        game=game,
        user=users[0],
        action={"type": "play", "card": "success"},
        turn=game.turn,
    )
    assert MissionCard.objects.filter(mission__game=game).count() == 0
    services.game_act(
        game=game,
        user=users[1],
        action={"type": "play", "card": "success"},
        turn=game.turn,
    )
    cards = MissionCard.objects.filter(mission__game=game)
    assert cards.count() == 2
    assert {f.name for f in MissionCard._meta.get_fields()} == {
        "id",
        "mission",
        "success",
    }
    mission = Mission.objects.get(game=game, number=1)
    assert mission.result == "success" and mission.fails == 0


@pytest.mark.parametrize(
    ("ruleset", "players", "options", "seed"),
    [
        ("partisans", 5, {}, 1),
        ("partisans", 7, {"scout": True, "check": True}, 2),
        ("partisans", 10, {"scout": True, "check": True}, 3),
        ("trust_no_one", 8, {}, 4),
        ("werewolves", 6, {}, 5),
        ("werewolves", 9, {"growing_patrol": True}, 6),
    ],
)
def test_a_whole_game_leaves_a_consistent_record(
    ruleset: str, players: int, options: dict, seed: int
) -> None:
    game = start_table(ruleset, players, options)
    game = play_until(game, random.Random(seed), lambda g: False)
    assert game.status == Game.Status.FINISHED
    final = public_view(game)
    assert final["phase"] == "over"
    assert game.winner == final["outcome"]["winner"]
    assert game.end_reason == final["outcome"]["reason"]
    assert GameAction.objects.filter(game=game).count() == game.version == final["step"]
    # Proposals and votes: exactly the finished votes of the engine's history.
    proposals = list(
        Proposal.objects.filter(game=game).order_by("mission_number", "attempt")
    )
    assert len(proposals) == len(final["history"])
    for proposal, item in zip(proposals, final["history"], strict=True):
        assert (proposal.mission_number, proposal.attempt) == (
            item["mission"],
            item["attempt"],
        )
        assert proposal.leader.position == item["leader"]
        assert proposal.approved == item["approved"]
        votes = {
            str(v.seat.position): v.approve
            for v in proposal.votes.select_related("seat")
        }
        assert votes == item["votes"]
    # Missions: results, fail counts and authorless cards.
    for mission in final["missions"]:
        row = Mission.objects.get(game=game, number=mission["number"])
        assert (row.result or None, row.fails) == (mission["result"], mission["fails"])
        if mission["result"]:
            cards = list(row.cards.values_list("success", flat=True))
            assert cards.count(False) == mission["fails"]
            assert len(cards) == row.team.count()
    # Checks and the shot.
    checks = list(Check.objects.filter(game=game).order_by("after_mission"))
    assert len(checks) == len(final["checks"])
    for check, item in zip(checks, final["checks"], strict=True):
        assert check.holder.position == item["holder"]
        assert check.target.position == item["target"]
        assert check.result == item["result"]
        assert check.claim == item["claim"]
    if final["sniper"] and final["sniper"]["target"] is not None:
        shot = Shot.objects.get(game=game)
        assert shot.target.position == final["sniper"]["target"]
        assert shot.hit == final["sniper"]["hit"]
    else:
        assert not Shot.objects.filter(game=game).exists()
    # Every card turned up, and only now.
    for revealed in final["roles"]:
        seat = Seat.objects.get(game=game, position=revealed["seat"])
        assert (seat.role, seat.side) == (revealed["role"], revealed["side"])
        assert seat.won == (revealed["side"] == game.winner)


def test_the_finishing_move_at_a_table_of_people_asks_nothing_about_bots() -> None:
    # Only a table the host filled with bots has bots in its seats, and only the
    # clock's runner moves for the bot (it counts its moves, Game.bot_move_count): the
    # move that ends a game where it made none looks up neither the bots nor the
    # game's moves (the bot share of a game where it did: test_clocks).
    game = start_table("partisans", 5)
    rng = random.Random(3)
    for _ in range(1000):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            break
        position, action = engine.random_action(load_state(game), rng)
        user = seated_users(game)[position]
        with CaptureQueriesContext(connection) as queries:  # the last: the end
            services.game_act(game=game, user=user, action=action, turn=game.turn)
    assert game.status == Game.Status.FINISHED and not game.bot_played
    assert game.bot_move_count == 0
    statements = [q["sql"] for q in queries.captured_queries]
    assert any('"games_seat"' in sql and '"role"' in sql for sql in statements)
    assert not any('"games_gameaction"' in sql and "COUNT" in sql for sql in statements)
    assert not any('"accounts_user"' in sql for sql in statements)


def test_acting_after_the_end_is_refused() -> None:
    game = start_table("partisans", 5)
    game = play_until(game, random.Random(9), lambda g: False)
    before = snapshot(game)
    with pytest.raises(errors.NotPlaying):
        services.game_act(
            game=game,
            user=seated_users(game)[0],
            action={"type": "vote", "approve": True},
            turn=game.turn,
        )
    assert snapshot(game) == before


def test_host_abandons_a_game_and_it_is_kept() -> None:
    game = start_table("partisans", 5)
    play_one(game, random.Random(1))
    users = seated_users(game)
    host = game.host
    other = next(u for u in users.values() if u != host)
    with pytest.raises(errors.NotHost):
        services.game_abandon(game=game, user=other)
    services.game_abandon(game=game, user=host)
    game.refresh_from_db()
    assert game.status == Game.Status.ABANDONED
    assert game.winner == ""
    assert not Seat.objects.filter(game=game, won__isnull=False).exists()


# --- Chat -------------------------------------------------------------------------


def test_chat_limits() -> None:
    game = start_table("partisans", 5)
    user = seated_users(game)[0]
    with pytest.raises(errors.ChatEmpty):
        services.chat_post(game=game, user=user, text="   ")
    with pytest.raises(errors.ChatTooLong):
        services.chat_post(game=game, user=user, text="я" * 301)
    with pytest.raises(errors.NotSeated):
        services.chat_post(game=game, user=UserFactory(), text="привет")
    with pytest.raises(errors.ChatChannelClosed):
        services.chat_post(game=game, user=user, text="привет", channel="evil")
    with pytest.raises(errors.ChatChannelClosed):
        services.chat_post(game=game, user=user, text="привет", channel="moderators")
    for n in range(services.CHAT_RATE_MESSAGES):
        services.chat_post(game=game, user=user, text=f"сообщение {n}")
    with pytest.raises(errors.ChatTooFast):
        services.chat_post(game=game, user=user, text="ещё одно")
    assert ChatMessage.objects.filter(game=game).count() == services.CHAT_RATE_MESSAGES


def test_chat_is_off_when_the_table_talks_by_voice() -> None:
    game = start_table("trust_no_one", 5)
    with pytest.raises(errors.ChatDisabled):
        services.chat_post(game=game, user=seated_users(game)[0], text="привет")
    assert not ChatMessage.objects.exists()


def test_the_evil_channel_opens_to_evil_seats_in_the_sniper_phase_only() -> None:
    for seed in range(40):
        game = start_table("partisans", 5, {"scout": True})
        game = play_until(game, random.Random(seed), lambda g: g.phase == "sniper")
        if game.phase == "sniper":
            break
    else:
        pytest.fail("no random game reached the sniper phase")
    state = load_state(game)
    users = seated_users(game)
    for position, user in users.items():
        side = engine.view(state, position)["me"]["side"]
        if side == "evil":
            services.chat_post(
                game=game, user=user, text="стреляй в Олю", channel="evil"
            )
        else:
            with pytest.raises(errors.ChatChannelClosed):
                services.chat_post(game=game, user=user, text="я свой", channel="evil")
    assert ChatMessage.objects.filter(game=game, channel="evil").count() == 2


def test_a_game_survives_a_server_restart() -> None:
    """Nothing lives only in memory: a process that knows nothing of the table (a
    restarted one) rebuilds the game from its action log, and it goes on."""
    game = start_table("partisans", 7, {"scout": True, "check": True})
    rng = random.Random(21)
    play_until(game, rng, lambda g: g.version >= 12)
    before = {p: engine.view(load_state(game), p) for p in range(7)}
    game = Game.objects.get(pk=game.pk)
    after = {p: engine.view(load_state(game), p) for p in range(7)}
    assert before == after
    play_until(game, rng, lambda g: False)
    assert game.status == Game.Status.FINISHED


def test_idle_games_are_abandoned_by_the_cleanup_command() -> None:
    from datetime import timedelta

    from django.core.management import call_command
    from django.utils import timezone

    idle = start_table("partisans", 5)
    fresh = start_table("partisans", 5)
    Game.objects.filter(pk=idle.pk).update(
        last_action_at=timezone.now() - timedelta(hours=50)
    )
    call_command("abandon_stale_games", "--hours", "48", stdout=io.StringIO())
    idle.refresh_from_db()
    fresh.refresh_from_db()
    assert idle.status == Game.Status.ABANDONED
    assert fresh.status == Game.Status.PLAYING


def test_a_stale_row_never_caches_a_newer_state_under_its_version() -> None:
    """A process holding an old copy of the row must build that version's state, not
    the log's latest."""
    game = start_table("partisans", 5)
    stale = Game.objects.get(pk=game.pk)
    play_one(game, random.Random(1))
    assert engine.view(load_state(stale), None)["step"] == stale.version == 0
    game.refresh_from_db()
    assert engine.view(load_state(game), None)["step"] == game.version == 1


def test_a_vote_goes_to_the_proposal_being_voted_on() -> None:
    """A vote refers to the open proposal by a subquery of its own write: round
    two's vote lands on round two's proposal, round one's votes stay as cast."""
    from games.families.resistance.models import Proposal, Vote

    game = start_table("partisans", 5)
    users = seated_users(game)
    leader, _ = leader_user(game)
    services.game_act(
        game=game, user=leader, action={"type": "propose", "team": [0, 1]}, turn=0
    )
    game.refresh_from_db()
    for position in range(5):
        services.game_act(
            game=game,
            user=users[position],
            action={"type": "vote", "approve": False},
            turn=game.turn,
        )
    game.refresh_from_db()
    leader, _ = leader_user(game)
    services.game_act(
        game=game,
        user=leader,
        action={"type": "propose", "team": [2, 3]},
        turn=game.turn,
    )
    game.refresh_from_db()
    services.game_act(
        game=game,
        user=users[0],
        action={"type": "vote", "approve": True},
        turn=game.turn,
    )
    first, second = Proposal.objects.filter(game=game).order_by("attempt")
    assert list(
        Vote.objects.filter(proposal=first)
        .values_list("seat__position", "approve")
        .order_by("seat__position")
    ) == [(position, False) for position in range(5)]
    assert list(
        Vote.objects.filter(proposal=second).values_list("seat__position", "approve")
    ) == [(0, True)]


def test_a_mission_is_recorded_on_its_own_row() -> None:
    """The approved team, the result, the fail count and the unsigned cards land
    on the mission played and no other."""
    from games.families.resistance.models import Mission, MissionCard

    game = start_table("partisans", 5)
    users = seated_users(game)
    leader, _ = leader_user(game)
    services.game_act(
        game=game, user=leader, action={"type": "propose", "team": [1, 3]}, turn=0
    )
    game.refresh_from_db()
    for position in range(5):
        game.refresh_from_db()
        services.game_act(
            game=game,
            user=users[position],
            action={"type": "vote", "approve": True},
            turn=game.turn,
        )
    for position in (1, 3):
        game.refresh_from_db()
        services.game_act(
            game=game,
            user=users[position],
            action={"type": "play", "card": "success"},
            turn=game.turn,
        )
    first = Mission.objects.get(game=game, number=1)
    assert sorted(first.team.values_list("position", flat=True)) == [1, 3]
    assert (first.size, first.result, first.fails) == (2, Mission.Result.SUCCESS, 0)
    assert list(
        MissionCard.objects.filter(mission=first).values_list("success", flat=True)
    ) == [True, True]
    others = Mission.objects.filter(game=game).exclude(pk=first.pk)
    assert not MissionCard.objects.filter(mission__in=others).exists()
    assert not any(m.result for m in others)
    assert not any(m.team.exists() for m in others)
