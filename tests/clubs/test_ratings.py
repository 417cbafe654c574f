"""Ratings: openskill's, one per player and game family, updated in the transaction
that ends a counted game and exactly once per game; a voided game's removal gives
what a fresh computation without it gives; unequal sides are rated as
docs/ratings.md says."""

from __future__ import annotations

import pytest
from django.test import Client

from clubs import rating, selectors, services
from clubs.models import (
    PlayerRating,
    RatedGame,
    RatingChange,
    RatingLedger,
    SideRating,
)
from clubs.rating import GameResult, SeatResult, Skill
from games import services as game_services
from games.models import Game
from tests.clubs.conftest import (
    ClubSetup,
    league_game,
    league_table,
    open_season,
    play_to_end,
)


def result(good: int, evil: int, winner: str, ruleset: str = "partisans") -> GameResult:
    seats = [SeatResult(i, "good", winner == "good") for i in range(good)]
    seats += [SeatResult(100 + i, "evil", winner == "evil") for i in range(evil)]
    return GameResult(1, ruleset, good + evil, tuple(seats))


# --- the arithmetic ------------------------------------------------------------


@pytest.mark.parametrize(("good", "evil"), [(3, 2), (4, 2), (4, 3), (6, 4), (3, 1)])
def test_a_side_is_not_favoured_for_being_larger(good: int, evil: int) -> None:
    """New players: whichever side wins, winners gain what losers lose, and a win
    by the small side moves ratings exactly as much as a win by the large one."""
    gains = {}
    for winner in ("good", "evil"):
        rated = rating.rate(result(good, evil, winner), {}, {})
        assert rated is not None
        deltas = {
            side: {
                after.mu - before.mu
                for user, (before, after, won) in rated.players.items()
                if (user >= 100) == (side == "evil")
            }
            for side in ("good", "evil")
        }
        assert all(len(values) == 1 for values in deltas.values())  # one per side
        gains[winner] = deltas[winner].pop()
        loser = "evil" if winner == "good" else "good"
        assert deltas[loser].pop() == pytest.approx(-gains[winner])
    assert gains["good"] > 0
    assert gains["good"] == pytest.approx(gains["evil"])


def test_only_real_players_are_rated_and_sides_learn() -> None:
    rated = rating.rate(result(6, 4, "evil"), {}, {})
    assert rated is not None
    assert set(rated.players) == {*range(6), *range(100, 104)}
    assert set(rated.sides) == {("partisans", 10, "good"), ("partisans", 10, "evil")}
    book = rating.Book()
    first = book.apply(result(3, 2, "evil"))
    for _ in range(40):
        book.apply(result(3, 2, "evil"))
    last = book.apply(result(3, 2, "evil"))
    assert first is not None and last is not None
    evil_side = book.sides[("partisans", 5, "evil")]
    good_side = book.sides[("partisans", 5, "good")]
    assert evil_side.mu > good_side.mu
    # The same players, now that evil is known to win here: a smaller reward.
    assert last.players[100][1].mu - last.players[100][0].mu < (
        first.players[100][1].mu - first.players[100][0].mu
    )


def test_a_game_without_a_loser_is_not_rated() -> None:
    seats = (SeatResult(1, "good", True), SeatResult(2, "evil", True))
    assert rating.rate(GameResult(1, "partisans", 2, seats), {}, {}) is None
    one_side = (SeatResult(1, "good", True), SeatResult(2, "good", True))
    assert rating.rate(GameResult(1, "partisans", 2, one_side), {}, {}) is None


# --- the database --------------------------------------------------------------


def ratings_table(family: str = "resistance") -> dict[int, tuple]:
    return {
        rating.user_id: (rating.mu, rating.sigma, rating.games)
        for rating in PlayerRating.objects.filter(family=family)
    }


def side_table() -> dict[tuple, tuple]:
    return {
        (s.ruleset, s.players, s.side): (s.mu, s.sigma, s.games)
        for s in SideRating.objects.all()
    }


def history_table() -> dict[tuple, tuple]:
    return {
        (change.rated_game.game_id, change.user_id): (
            change.mu_before,
            change.sigma_before,
            change.mu,
            change.sigma,
            change.won,
        )
        for change in RatingChange.objects.select_related("rated_game")
    }


def approx(table: dict) -> dict:
    return {key: pytest.approx(value, abs=1e-9) for key, value in table.items()}


@pytest.mark.django_db
def test_a_finished_season_game_is_rated_once(club: ClubSetup) -> None:
    season = open_season(club)
    players = club.everyone[:5]
    game = league_game(club, players, season, seed=5)
    rated = RatedGame.objects.get(game=game)
    assert rated.number == 1
    assert set(ratings_table()) == {user.pk for user in players}
    assert {games for _mu, _sigma, games in ratings_table().values()} == {1}
    before = (ratings_table(), side_table(), history_table())
    # A retried finish: the hook (or the rating call) again changes nothing.
    services.game_finished(game)
    assert services.rating_game_rate(game=game) is None
    assert (ratings_table(), side_table(), history_table()) == before
    assert RatedGame.objects.count() == 1
    assert RatingLedger.objects.get(family="resistance").rated == 1
    for user in players:
        seat = game.seats.get(user=user)
        change = RatingChange.objects.get(user=user)
        assert change.won == seat.won
        assert (change.mu > change.mu_before) == seat.won


@pytest.mark.django_db
def test_friendly_and_abandoned_games_are_not_rated(club: ClubSetup) -> None:
    friendly = play_to_end(league_table(club, club.everyone[:5]))
    season = open_season(club)
    abandoned = league_table(club, club.everyone[:5], season=season)
    game_services.game_abandon(game=abandoned, user=club.owner)
    services.game_finished(Game.objects.get(pk=abandoned.pk))
    assert not RatedGame.objects.exists() and not PlayerRating.objects.exists()
    assert friendly.status == Game.Status.FINISHED


@pytest.mark.django_db
def test_removing_a_voided_game_equals_a_fresh_computation(club: ClubSetup) -> None:
    season = open_season(club)
    everyone = club.everyone
    games = []
    for seed in range(7):
        players = [
            everyone[(seed * 2 + i) % len(everyone)] for i in range(5 + seed % 4)
        ]
        games.append(league_game(club, players, season, seed=seed))
    for voided in (games[2], games[5]):
        services.game_void(
            club=club.club, admin=club.admin, game=voided, reason="неверная раздача"
        )
        after_void = (ratings_table(), side_table(), history_table())
        order = list(
            RatedGame.objects.order_by("number").values_list("game_id", flat=True)
        )
        assert voided.pk not in order
        assert services.ratings_rebuild(family="resistance") == len(order)
        fresh = (ratings_table(), side_table(), history_table())
        assert [approx(table) for table in after_void] == list(fresh)
        assert (
            list(RatedGame.objects.order_by("number").values_list("game_id", flat=True))
            == order
        )
    # Voiding the player's only game takes their rating away entirely.
    counted = Game.objects.filter(club_table__voided_at__isnull=True, status="finished")
    assert set(ratings_table()) == set(counted.values_list("seats__user_id", flat=True))


@pytest.mark.django_db
def test_the_incremental_ratings_equal_rating_all_games_in_order(
    club: ClubSetup,
) -> None:
    season = open_season(club)
    everyone = club.everyone
    for seed in range(4):
        players = [everyone[(seed * 3 + i) % len(everyone)] for i in range(6)]
        league_game(club, players, season, seed=seed)
    results = []
    for rated in RatedGame.objects.order_by("number").select_related("game"):
        seats = rated.game.seats.order_by("position")
        results.append(
            GameResult(
                rated.game_id,
                rated.game.ruleset,
                rated.game.seat_count,
                tuple(SeatResult(s.user_id, s.side, bool(s.won)) for s in seats),
            )
        )
    book, _rated = rating.rate_all(results)
    in_memory = {
        user: (skill.mu, skill.sigma, book.games[user])
        for user, skill in book.players.items()
    }
    assert approx(in_memory) == ratings_table()


@pytest.mark.django_db
def test_profile_and_leaderboard(club: ClubSetup) -> None:
    season = open_season(club)
    regular, occasional = club.members[0], club.members[-1]
    pool = [user for user in club.everyone if user not in (regular, occasional)]
    for seed in range(selectors.LEADERBOARD_MIN_GAMES):
        others = [pool[(seed + i) % len(pool)] for i in range(4)]
        league_game(club, [regular, *others], season, seed)
    board = selectors.leaderboard("resistance")
    assert regular.username in {line.username for line in board}
    assert occasional.username not in {line.username for line in board}
    ratings = [line.rating for line in board]
    assert ratings == sorted(ratings, reverse=True)
    page = Client().get(f"/u/{regular.username}/").content.decode()
    mine = PlayerRating.objects.get(user=regular)
    assert f"{mine.ordinal:.1f}".replace(".", ",") in page  # Russian decimal comma
    assert 'id="chart-rating-resistance-title"' in page
    assert Client().get("/clubs/ratings/resistance/").status_code == 200
    assert Client().get("/clubs/ratings/chess/").status_code == 404
    assert Skill(25.0, 25 / 3).ordinal == pytest.approx(0.0)


@pytest.mark.django_db
def test_a_season_game_with_bots_is_never_rated_nor_counted(club: ClubSetup) -> None:
    from clubs.models import SeasonTally
    from clubs.services.ratings import counted_games

    season = open_season(club)
    players = club.everyone[:4]
    game = services.club_table_create(
        club=club.club,
        user=players[0],
        ruleset="partisans",
        seat_count=5,
        season=season,
        members_only=True,
    )
    for user in players[1:]:
        game_services.seat_join(game=game, user=user)
    assert game_services.seats_fill_with_bots(game=game, host=players[0]) == 1
    game = play_to_end(game_services.game_start(game=game, user=players[0]), seed=3)
    assert game.with_bots
    services.game_finished(game)
    assert not RatedGame.objects.exists() and not PlayerRating.objects.exists()
    assert not SeasonTally.objects.exists()
    assert not counted_games("resistance").exists()
