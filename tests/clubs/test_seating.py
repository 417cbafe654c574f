"""Match days: the seating balances how often each player has been dealt the hidden
side against how often their tables made it likely (the one lever: table sizes),
and the services around it refuse every bad step with nothing changed."""

from __future__ import annotations

import datetime as dt
import itertools
import random

import pytest
from django.utils import timezone

from clubs import errors, seating, services
from clubs.families import hidden_side
from clubs.models import ClubTable, MatchDay, MatchDaySignup
from clubs.seating import NotEnoughPlayers, Player, seat, spread, table_sizes
from games.models import Game
from tests.clubs.conftest import ClubSetup, league_game, make_club, open_season
from tests.factories import UserFactory


def share(size: int) -> float:
    return hidden_side("partisans", size).share


# --- the pure seating ------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "low", "high", "sizes"),
    [
        (5, 5, 10, [5]),
        (10, 5, 10, [10]),
        (11, 5, 10, [6, 5]),
        (23, 5, 10, [8, 8, 7]),
        (3, 3, 4, [3]),
        (5, 3, 4, [4]),  # one player waits: two tables would need six
        (7, 3, 4, [4, 3]),
        (9, 3, 4, [3, 3, 3]),
    ],
)
def test_table_sizes(count: int, low: int, high: int, sizes: list[int]) -> None:
    assert table_sizes(count, low, high) == sizes


def test_every_count_seats_as_many_as_possible_in_near_equal_tables() -> None:
    for low, high in ((5, 10), (3, 4), (10, 10)):
        for count in range(low, 60):
            sizes = table_sizes(count, low, high)
            assert all(low <= size <= high for size in sizes)
            assert max(sizes) - min(sizes) <= 1
            seated = sum(sizes)
            assert seated <= count
            # Nobody waits who could have been seated.
            assert not any(
                k * low <= n <= k * high
                for n in range(seated + 1, count + 1)
                for k in range(1, n // low + 1)
            )
    with pytest.raises(NotEnoughPlayers):
        table_sizes(4, 5, 10)


def players_with(surpluses: list[float]) -> list[Player]:
    return [
        Player(user_id=index, hidden_games=0, expected=-surplus)
        for index, surplus in enumerate(surpluses)
    ]


def test_everyone_is_seated_once_and_the_last_sign_ups_wait() -> None:
    for count, waiting in ((17, []), (5, [4]), (11, [])):
        players = players_with([0.0] * count)
        plan = seat(players, low=3, high=4, share=lambda size: 1 / size, seed=1)
        seated = [user for table in plan.tables for user in table]
        assert sorted(seated + plan.left_out) == list(range(count))
        assert len(set(seated)) == len(seated) == count - len(waiting)
        assert plan.left_out == waiting
    assert [len(table) for table in plan.tables] == plan.sizes


def test_the_seating_is_repeatable_from_its_seed() -> None:
    rng = random.Random(3)
    players = players_with([rng.choice([-1.0, 0.0, 1.0]) for _ in range(23)])
    first = seat(players, low=5, high=10, share=share, seed=9)
    assert seat(players, low=5, high=10, share=share, seed=9) == first


def test_the_greedy_seating_is_the_best_there_is() -> None:
    """Over every way to deal 11 players to a table of 6 and one of 5, none has a
    smaller spread of expected surpluses than the seating's."""
    rng = random.Random(5)
    for _ in range(5):
        players = players_with([round(rng.uniform(-2, 2), 2) for _ in range(11)])
        plan = seat(players, low=5, high=10, share=share, seed=rng.randrange(100))
        best = min(
            spread(
                players,
                seating.Seating(
                    tables=[list(six), [p for p in range(11) if p not in six]],
                    sizes=[6, 5],
                    left_out=[],
                ),
                share,
            )
            for six in itertools.combinations(range(11), 6)
        )
        assert spread(players, plan, share) == pytest.approx(best)


def test_those_dealt_the_hidden_side_most_sit_where_it_is_least_likely() -> None:
    # 11 players: a table of 6 (2 of 6 evil, 33 %) and one of 5 (2 of 5, 40 %).
    surpluses = [2.0, 1.5, 1.0, 0.5, 0.0, 0.0, -0.2, -0.5, -1.0, -1.5, -2.0]
    plan = seat(players_with(surpluses), low=5, high=10, share=share, seed=0)
    by_size = dict(zip(plan.sizes, plan.tables, strict=True))
    assert sorted(by_size[6]) == [0, 1, 2, 3, 4, 5]
    assert sorted(by_size[5]) == [6, 7, 8, 9, 10]


def test_tables_of_one_size_share_out_like_players() -> None:
    """When every table deals the hidden side alike, the seating cannot change
    anyone's chances; it spreads players of like surplus instead of packing them."""
    surpluses = [3.0, 3.0, 2.0, 2.0, *([0.0] * 6), -2.0, -2.0, -3.0, -3.0]
    plan = seat(players_with(surpluses), low=5, high=10, share=share, seed=4)
    assert plan.sizes == [7, 7]
    for table in plan.tables:
        assert len({0, 1} & set(table)) == 1
        assert len({12, 13} & set(table)) == 1


# --- match days through the services ------------------------------------------------


def schedule(setup: ClubSetup, hours: float = 2, seats: int = 20) -> MatchDay:
    season = open_season(setup)
    return services.match_day_create(
        club=setup.club,
        admin=setup.admin,
        season=season,
        ruleset="partisans",
        starts_at=timezone.now() + dt.timedelta(hours=hours),
        seats=seats,
    )


@pytest.mark.django_db
def test_a_match_day_needs_a_future_time_inside_its_season(club: ClubSetup) -> None:
    season = open_season(club)
    soon = timezone.now() + dt.timedelta(hours=1)
    refusals = [
        ({"starts_at": timezone.now() - dt.timedelta(minutes=1)}, errors.BadMatchDay),
        ({"starts_at": soon + dt.timedelta(days=400)}, errors.BadMatchDay),
        ({"seats": 4}, errors.BadMatchDay),
        ({"seats": 201}, errors.BadMatchDay),
        ({"ruleset": "chess"}, errors.WrongFamily),
        ({"admin": club.members[0]}, errors.NotAdmin),
        ({"season": open_season(make_club(members=0))}, errors.NotLeagueGame),
    ]
    for change, error in refusals:
        arguments = {
            "club": club.club,
            "admin": club.admin,
            "season": season,
            "ruleset": "partisans",
            "starts_at": soon,
            "seats": 10,
            **change,
        }
        with pytest.raises(error):
            services.match_day_create(**arguments)
    assert not MatchDay.objects.exists()


@pytest.mark.django_db
def test_signing_up_twice_late_full_or_as_an_outsider_is_refused(
    club: ClubSetup,
) -> None:
    day = schedule(club, seats=5)
    for user in club.everyone[:5]:
        services.match_day_signup(day=day, user=user)
    signups = set(MatchDaySignup.objects.values_list("user_id", flat=True))
    for user, error in [
        (club.everyone[0], errors.AlreadySignedUp),
        (club.everyone[6], errors.MatchDayFull),
        (UserFactory(), errors.NotMember),
    ]:
        with pytest.raises(error):
            services.match_day_signup(day=day, user=user)
    services.match_day_withdraw(day=day, user=club.everyone[4])
    with pytest.raises(errors.NotSignedUp):
        services.match_day_withdraw(day=day, user=club.everyone[4])
    services.match_day_signup(day=day, user=club.everyone[6])
    # The start time passes: sign-ups close, both ways.
    MatchDay.objects.filter(pk=day.pk).update(
        starts_at=timezone.now() - dt.timedelta(seconds=1)
    )
    signups = set(MatchDaySignup.objects.values_list("user_id", flat=True))
    with pytest.raises(errors.MatchDayStarted):
        services.match_day_signup(day=day, user=club.everyone[7])
    with pytest.raises(errors.MatchDayStarted):
        services.match_day_withdraw(day=day, user=club.everyone[0])
    assert set(MatchDaySignup.objects.values_list("user_id", flat=True)) == signups


@pytest.mark.django_db
def test_seating_opens_the_tables_with_everyone_in_their_seat(club: ClubSetup) -> None:
    day = schedule(club)
    extra = []
    for _ in range(2):
        user = UserFactory()
        services.invite_accept(
            token=services.invite_create(club=club.club, admin=club.admin).token,
            user=user,
        )
        extra.append(user)
    people = [*club.everyone, *extra]  # 12
    leaver = people[3]
    for user in people:
        services.match_day_signup(day=day, user=user)
    services.member_leave(club=club.club, user=leaver)
    with pytest.raises(errors.NotAdmin):
        services.match_day_seat(day=day, admin=club.members[0])
    assert not Game.objects.exists()
    games = services.match_day_seat(day=day, admin=club.admin)
    assert sorted(game.seat_count for game in games) == [5, 6]
    seated = [
        user_id
        for game in games
        for user_id in game.seats.values_list("user_id", flat=True)
    ]
    assert sorted(seated) == sorted(user.pk for user in people if user != leaver)
    for game in games:
        table = ClubTable.objects.get(game=game)
        assert (table.season, table.match_day, table.is_members_only) == (
            day.season,
            day,
            True,
        )
        assert game.seats.count() == game.seat_count and game.status == "open"
        assert game.host_id in seated
    signups = {s.user_id: s for s in MatchDaySignup.objects.filter(match_day=day)}
    assert signups[leaver.pk].game is None
    day.refresh_from_db()
    assert day.status == MatchDay.Status.SEATED
    with pytest.raises(errors.MatchDayStarted):
        services.match_day_seat(day=day, admin=club.admin)
    with pytest.raises(errors.MatchDayStarted):
        services.match_day_withdraw(day=day, user=people[0])
    assert Game.objects.count() == 2


@pytest.mark.django_db
def test_too_few_sign_ups_open_nothing(club: ClubSetup) -> None:
    day = schedule(club)
    for user in club.everyone[:4]:
        services.match_day_signup(day=day, user=user)
    with pytest.raises(errors.TooFewSignups):
        services.match_day_seat(day=day, admin=club.admin)
    assert not Game.objects.exists()
    day.refresh_from_db()
    assert day.status == MatchDay.Status.SCHEDULED


@pytest.mark.django_db
def test_the_seating_uses_the_seasons_hidden_side_record() -> None:
    club = make_club(members=9)  # 11 people: tables of 6 and 5
    season = open_season(club)
    everyone = club.everyone
    league_game(club, everyone[:5], season, seed=1)
    league_game(club, everyone[5:10], season, seed=2)
    day = services.match_day_create(
        club=club.club,
        admin=club.admin,
        season=season,
        ruleset="partisans",
        starts_at=timezone.now() + dt.timedelta(hours=1),
        seats=20,
    )
    for user in everyone:
        services.match_day_signup(day=day, user=user)
    games = services.match_day_seat(day=day, admin=club.admin)
    evil = {
        seat.user_id
        for game in Game.objects.filter(club_table__season=season, status="finished")
        for seat in game.seats.filter(side="evil")
    }
    six = next(game for game in games if game.seat_count == 6)
    at_six = set(six.seats.values_list("user_id", flat=True))
    # Four players were evil (more than the 40 % their tables made likely): they,
    # and the two who never played (no surplus), take the table where it is 33 %.
    assert evil <= at_six
    signups = MatchDaySignup.objects.filter(match_day=day)
    assert {s.user_id for s in signups if s.hidden_games == 1} == evil
    assert {round(s.hidden_expected, 6) for s in signups} == {0.0, 0.4}
