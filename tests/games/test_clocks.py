"""The turn clock (docs/clocks.md): the deadline follows the decision, a time-out is
played once by the seat's own bot, and bots seated for practice never count."""

from __future__ import annotations

import datetime as dt
import io
import random
import threading

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone, translation

from games import engine, errors, services
from games.families.resistance.models import Vote
from games.models import Game, GameAction
from games.state import load_state
from history import hooks as history_hooks
from history.selectors import GameFilter, game_list, player_stats
from tests.conftest import uses_postgres
from tests.factories import UserFactory
from tests.games.conftest import public_view, seated_users

pytestmark = pytest.mark.django_db


def clocked_table(seconds: int = 60, players: int = 5) -> Game:
    users = UserFactory.create_batch(players)
    game = services.game_create(
        host=users[0], ruleset="partisans", seat_count=players, turn_seconds=seconds
    )
    for user in users[1:]:
        services.seat_join(game=game, user=user)
    return services.game_start(game=game, user=users[0])


def later(game: Game, seconds: int = 1) -> dt.datetime | None:
    """Let the current decision's time run out ``seconds`` ago (negative: not yet),
    so that a pass at the real present finds it due; returns ``None`` for "now"."""
    game.refresh_from_db()
    assert game.deadline is not None
    Game.objects.filter(pk=game.pk).update(
        deadline=timezone.now() - dt.timedelta(seconds=seconds)
    )
    return None


def propose(game: Game) -> None:
    leader = public_view(game)["leader"]
    spec = engine.legal_actions(load_state(game), leader)[0]
    team = spec["among"][: spec["size"]]
    services.game_act(
        game=game,
        user=seated_users(game)[leader],
        action={"type": "propose", "team": team},
        turn=game.turn,
    )
    game.refresh_from_db()


def test_no_clock_by_default_and_no_deadline() -> None:
    users = UserFactory.create_batch(5)
    game = services.game_create(host=users[0], ruleset="partisans", seat_count=5)
    for user in users[1:]:
        services.seat_join(game=game, user=user)
    game = services.game_start(game=game, user=users[0])
    assert game.turn_seconds == 0
    assert game.deadline is None
    assert services.clocks_due(timezone.now() + dt.timedelta(days=1)) == []


def test_an_unknown_clock_setting_is_refused() -> None:
    with pytest.raises(errors.BadSetup):
        services.game_create(
            host=UserFactory(), ruleset="partisans", seat_count=5, turn_seconds=7
        )
    assert not Game.objects.exists()


def test_the_deadline_moves_with_the_decision_and_stays_during_a_vote() -> None:
    before = timezone.now()
    game = clocked_table(60)
    assert game.deadline is not None
    assert before + dt.timedelta(seconds=59) < game.deadline
    assert game.deadline <= timezone.now() + dt.timedelta(seconds=60)
    first = game.deadline
    propose(game)
    assert game.deadline is not None and game.deadline > first
    voting = game.deadline
    voter = seated_users(game)[0]
    services.game_act(
        game=game, user=voter, action={"type": "vote", "approve": True}, turn=game.turn
    )
    game.refresh_from_db()
    assert game.deadline == voting  # the same decision: the same deadline


def test_a_time_out_is_played_once_by_the_bot() -> None:
    game = clocked_table(30)
    turn, version = game.turn, game.version
    assert services.clock_tick(game_id=game.pk, now=later(game, -5)) == 0
    now = later(game)
    assert services.clocks_due() == [game.pk]
    assert services.clocks_run_once(now) == 1
    assert services.clocks_run_once(now) == 0  # the second pass finds nothing due
    assert services.clock_tick(game_id=game.pk, now=now) == 0
    game.refresh_from_db()
    assert game.version == version + 1 and game.turn != turn
    move = GameAction.objects.get(game=game)
    assert move.by_bot is True and move.payload["type"] == "propose"
    assert game.deadline is not None and game.deadline > timezone.now()


def test_a_timed_out_vote_plays_each_missing_voter_once() -> None:
    game = clocked_table(30)
    propose(game)
    voter = seated_users(game)[2]
    services.game_act(
        game=game, user=voter, action={"type": "vote", "approve": False}, turn=game.turn
    )
    now = later(game)
    assert services.clocks_run_once(now) == 4
    assert services.clocks_run_once(now) == 0
    assert Vote.objects.count() == 5
    by_bot = set(
        GameAction.objects.filter(by_bot=True).values_list("position", flat=True)
    )
    assert by_bot == {0, 1, 3, 4}
    assert not GameAction.objects.get(position=2, payload__type="vote").by_bot


def test_the_command_runs_one_pass() -> None:
    game = clocked_table(30)
    Game.objects.filter(pk=game.pk).update(
        deadline=timezone.now() - dt.timedelta(seconds=1)
    )
    call_command("run_clocks", "--once", stdout=io.StringIO())
    assert GameAction.objects.filter(game=game, by_bot=True).count() == 1


def test_the_bot_decides_from_its_own_seat_only(monkeypatch) -> None:
    game = clocked_table(30)
    seen: list[object] = []
    real = engine.bot_action

    def spy(view, rng):
        seen.append(view)
        return real(view, rng)

    monkeypatch.setattr(engine, "bot_action", spy)
    leader = public_view(game)["leader"]
    services.clock_tick(game_id=game.pk, now=later(game))
    state = load_state(Game.objects.get(pk=game.pk))
    assert len(seen) == 1
    previous = engine.replay(
        engine.GameSetup(
            ruleset=game.ruleset, players=5, options=dict(game.options), seed=game.seed
        ),
        [],
    )
    assert seen[0] == engine.view(previous, leader)
    assert state is not None


def practice_table(host_seconds: int = 30) -> tuple[Game, object]:
    host = UserFactory()
    game = services.game_create(
        host=host, ruleset="partisans", seat_count=5, turn_seconds=host_seconds
    )
    assert services.seats_fill_with_bots(game=game, host=host) == 4
    return services.game_start(game=game, user=host), host


def test_bots_fill_the_empty_seats_only_for_the_host() -> None:
    host, stranger = UserFactory.create_batch(2)
    game = services.game_create(host=host, ruleset="partisans", seat_count=5)
    with pytest.raises(errors.NotHost):
        services.seats_fill_with_bots(game=game, host=stranger)
    services.seat_join(game=game, user=stranger)
    assert services.seats_fill_with_bots(game=game, host=host) == 3
    game.refresh_from_db()
    assert game.with_bots
    bots = [seat.user for seat in game.seats.all() if seat.user.is_bot]
    assert len(bots) == 3 and all(not bot.has_usable_password() for bot in bots)
    with pytest.raises(errors.TableFull):
        services.seats_fill_with_bots(game=game, host=host)
    # A second table reuses the same bot users.
    other = services.game_create(host=host, ruleset="partisans", seat_count=5)
    services.seats_fill_with_bots(game=other, host=host)
    assert {s.user_id for s in other.seats.all()} >= {b.pk for b in bots}


def test_a_practice_game_plays_to_the_end_and_never_counts() -> None:
    game, host = practice_table(30)
    rng = random.Random(5)
    for _ in range(400):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            break
        if services.clocks_run_once() == 0:
            # Only the host is awaited: the host moves (or lets the clock run out).
            state = load_state(game)
            mine = next(
                p for p, user in seated_users(game).items() if user.pk == host.pk
            )
            if mine in engine.waiting_for(state):
                action = engine.bot_action(engine.view(state, mine), rng)
                services.game_act(game=game, user=host, action=action, turn=game.turn)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.with_bots and game.deadline is None
    assert not game.bot_played  # the bots' own seats do not mark it
    by_bot = GameAction.objects.filter(game=game, by_bot=True).count()
    assert game.bot_move_count == by_bot > 0
    stats = player_stats(host, host)
    assert stats.overall.played == 0
    # The figure links to an empty list; the plain list still shows the game.
    assert not game_list(host, GameFilter(player=host, result="finished")).exists()
    assert list(game_list(host, GameFilter(player=host))) == [game]
    with translation.override("en"):
        notes = history_hooks.notes_for([game])[game.pk]
    assert any("bots" in note for note in notes)


def test_a_game_mostly_played_by_the_clock_is_marked() -> None:
    game = clocked_table(30)
    for _ in range(400):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            break
        services.clocks_run_once(later(game))
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert game.bot_played and not game.with_bots
    assert not GameAction.objects.filter(game=game, by_bot=False).exists()
    # The row counts the bot's moves, each of them (a finishing move looks at the
    # game's moves only where there are some).
    assert game.bot_move_count == GameAction.objects.filter(game=game).count()
    with translation.override("en"):
        notes = history_hooks.notes_for([game])[game.pk]
    assert any("time ran out" in note for note in notes)
    assert game.deadline is None


@pytest.mark.postgres
@pytest.mark.skipif(not uses_postgres(), reason="row locks need PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_two_runners_at_once_play_a_time_out_once() -> None:
    game = clocked_table(30)
    propose(game)
    now = later(game)
    start = threading.Barrier(2)
    played: list[int] = []

    def runner() -> None:
        try:
            start.wait(timeout=10)
            played.append(services.clocks_run_once(now))
        finally:
            connection.close()

    threads = [threading.Thread(target=runner) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert sorted(played) == [0, 5]
    assert Vote.objects.count() == 5


def test_every_screen_shows_the_same_clock(client) -> None:
    game = clocked_table(60)
    game.refresh_from_db()
    assert game.deadline is not None
    stamp = f'data-deadline="{int(game.deadline.timestamp() * 1000)}"'
    for user in seated_users(game).values():
        client.force_login(user)
        html = client.get(game.get_absolute_url()).content.decode()
        assert stamp in html and 'id="table-clock"' in html
        assert "data-expired=" in html
    client.logout()
    assert stamp in client.get(game.get_absolute_url()).content.decode()


def test_no_clock_is_shown_without_one(client) -> None:
    users = UserFactory.create_batch(5)
    game = services.game_create(host=users[0], ruleset="partisans", seat_count=5)
    for user in users[1:]:
        services.seat_join(game=game, user=user)
    game = services.game_start(game=game, user=users[0])
    client.force_login(users[0])
    html = client.get(game.get_absolute_url()).content.decode()
    assert "data-deadline" not in html


def test_the_create_page_sets_the_clock_and_the_host_adds_bots(client) -> None:
    host = UserFactory()
    client.force_login(host)
    answer = client.post(
        "/games/new/",
        {"ruleset": "partisans", "seat_count": 5, "turn_seconds": 90, "name": ""},
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    game = Game.objects.get()
    assert game.turn_seconds == 90
    client.post(f"/games/t/{game.code}/bots/")
    game.refresh_from_db()
    assert game.with_bots and game.seats.count() == 5
    html = client.get(game.get_absolute_url()).content.decode()
    assert "data-with-bots" in html
