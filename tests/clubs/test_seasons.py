"""Seasons and standings: an admin opens a season for one of the site's game families
(read from the registries), a season's table counts once its game ends, and every
figure of the standings equals the length of the history list it links to."""

from __future__ import annotations

import datetime as dt
from urllib.parse import parse_qsl, urlsplit

import pytest
from django.test import Client
from django.utils import timezone

from clubs import errors, selectors, services
from clubs.families import family_codes, hidden_side, rulesets_of, sides_of
from clubs.models import ClubTable, Season, SeasonTally
from games import engine
from games.kit.family import playable_rulesets
from games.models import Game, Seat
from tests.clubs.conftest import (
    ClubSetup,
    league_game,
    league_table,
    make_club,
    open_season,
    play_to_end,
)

pytestmark = pytest.mark.django_db
TODAY = timezone.localdate


def test_families_come_from_the_registries() -> None:
    families = {engine.get_ruleset(code).family for code in playable_rulesets()}
    assert set(family_codes()) == families
    for family in family_codes():
        assert set(rulesets_of(family)) == {
            code
            for code in playable_rulesets()
            if engine.get_ruleset(code).family == family
        }
        assert sides_of(family)


@pytest.mark.parametrize(
    ("ruleset", "players", "side", "share"),
    [
        ("partisans", 5, "evil", 2 / 5),
        ("partisans", 6, "evil", 2 / 6),
        ("trust_no_one", 7, "evil", 3 / 7),
        ("werewolves", 8, "evil", 3 / 8),
        ("partisans", 9, "evil", 3 / 9),
        ("partisans", 10, "evil", 4 / 10),
    ],
)
def test_the_hidden_side_is_found_by_dealing(
    ruleset: str, players: int, side: str, share: float
) -> None:
    found = hidden_side(ruleset, players)
    assert found.side == side
    assert found.share == pytest.approx(share)


def test_a_season_needs_sane_dates_family_and_points(club: ClubSetup) -> None:
    today = TODAY()
    bad = [
        (
            {"starts_on": today, "ends_on": today - dt.timedelta(days=1)},
            errors.BadSeason,
        ),
        ({"family": "chess"}, errors.BadSeason),
        ({"name": "  "}, errors.BadSeason),
        ({"points": {"good": {"win": 11}}}, errors.BadSeason),
        ({"points": {"good": {"win": 1.5}}}, errors.BadSeason),
        ({"points": {"nobody": {"win": 1}}}, errors.BadSeason),
        ({"admin": club.members[0]}, errors.NotAdmin),
    ]
    for change, error in bad:
        arguments = {
            "club": club.club,
            "admin": club.admin,
            "name": "Зима",
            "family": "resistance",
            "starts_on": today,
            "ends_on": today + dt.timedelta(days=30),
            **change,
        }
        with pytest.raises(error):
            services.season_create(**arguments)
    assert not Season.objects.exists()
    season = services.season_create(
        club=club.club,
        admin=club.admin,
        name="Зима",
        family="resistance",
        starts_on=today,
        ends_on=today,
        points={"evil": {"win": 2}},
    )
    assert season.points == {
        "good": {"win": 1, "loss": 0},
        "evil": {"win": 2, "loss": 0},
    }


def test_a_season_table_must_be_of_the_club_and_the_season_running(
    club: ClubSetup,
) -> None:
    other = make_club(members=1)
    foreign = open_season(other)
    today = TODAY()
    closed = services.season_create(
        club=club.club,
        admin=club.admin,
        name="Лето",
        family="resistance",
        starts_on=today - dt.timedelta(days=90),
        ends_on=today - dt.timedelta(days=1),
    )
    for season, error in (
        (foreign, errors.NotLeagueGame),
        (closed, errors.SeasonClosed),
    ):
        with pytest.raises(error):
            services.club_table_create(
                club=club.club,
                user=club.members[0],
                ruleset="partisans",
                seat_count=5,
                season=season,
            )
    assert not Game.objects.exists()
    with pytest.raises(errors.NotMember):
        services.club_table_create(
            club=club.club, user=other.owner, ruleset="partisans", seat_count=5
        )


def test_a_season_table_counts_once_its_game_ends(club: ClubSetup) -> None:
    season = open_season(club)
    game = league_table(club, club.everyone[:5], season=season)
    table = ClubTable.objects.get(game=game)
    assert (table.club, table.season, table.counted) == (club.club, season, False)
    assert selectors.standings(season, sides_of("resistance")) == []
    play_to_end(game, seed=2)
    table.refresh_from_db()
    assert table.counted
    assert {line.played for line in selectors.standings(season, ["good", "evil"])} == {
        1
    }


def _expected(season: Season) -> dict[str, dict]:
    """The standings worked out the slow way, seat by seat."""
    tally: dict[str, dict] = {}
    games = Game.objects.filter(
        club_table__season=season,
        club_table__voided_at__isnull=True,
        status=Game.Status.FINISHED,
    )
    for seat in Seat.objects.filter(game__in=games).select_related("user"):
        line = tally.setdefault(
            seat.user.username, {"played": 0, "won": 0, "points": 0, "sides": {}}
        )
        scheme = season.points[seat.side]
        line["played"] += 1
        line["won"] += bool(seat.won)
        line["points"] += scheme["win"] if seat.won else scheme["loss"]
        played, won = line["sides"].get(seat.side, (0, 0))
        line["sides"][seat.side] = (played + 1, won + bool(seat.won))
    return tally


def _listed(client: Client, url: str) -> int:
    response = client.get(url)
    assert response.status_code == 200
    return response.context["page"].paginator.count


def test_standings_add_up_and_each_figure_links_to_its_games(club: ClubSetup) -> None:
    season = open_season(club, evil={"win": 3, "loss": 0}, good={"win": 1, "loss": -1})
    everyone = club.everyone
    for seed in range(6):
        players = [
            everyone[(seed * 3 + i) % len(everyone)] for i in range(5 + seed % 3)
        ]
        league_game(club, players, season, seed=seed)
    league_table(club, everyone[:5], season=season)  # still playing: not counted
    friendly = league_table(club, everyone[:5])
    play_to_end(friendly)  # no season: not counted
    lines = selectors.standings(season, ["good", "evil"])
    expected = _expected(season)
    assert {line.username for line in lines} == set(expected)
    client = Client()
    client.force_login(club.members[0])
    for line in lines:
        mine = expected[line.username]
        assert (line.played, line.won, line.points) == (
            mine["played"],
            mine["won"],
            mine["points"],
        )
        assert _listed(client, line.played_url) == line.played
        assert _listed(client, line.won_url) == line.won
        for record in line.by_side:
            assert (record.played, record.won) == mine["sides"].get(record.side, (0, 0))
            assert _listed(client, record.played_url) == record.played
            assert _listed(client, record.won_url) == record.won
        query = dict(parse_qsl(urlsplit(line.played_url).query))
        assert query == {"season": str(season.pk), "player": line.username}
    points = [line.points for line in lines]
    assert points == sorted(points, reverse=True)
    assert _listed(client, f"/history/?season={season.pk}") == 6


def test_a_member_who_left_keeps_their_season_record(club: ClubSetup) -> None:
    season = open_season(club)
    leaver = club.members[0]
    league_game(club, [leaver, *club.members[1:5]], season, seed=4)
    services.member_leave(club=club.club, user=leaver)
    assert leaver.username in {
        line.username for line in selectors.standings(season, ["good", "evil"])
    }


def test_the_kept_tallies_equal_a_recount_after_ends_retries_and_voids(
    club: ClubSetup,
) -> None:
    season = open_season(club)
    everyone = club.everyone
    games = [
        league_game(club, [everyone[(seed + i) % 10] for i in range(5)], season, seed)
        for seed in range(4)
    ]

    def tallies() -> list[tuple]:
        return sorted(
            SeasonTally.objects.filter(season=season).values_list(
                "user_id", "side", "played", "won"
            )
        )

    services.game_finished(games[0])  # a retried finish adds nothing
    services.game_void(club=club.club, admin=club.admin, game=games[1], reason="x")
    kept = tallies()
    assert services.season_tallies_rebuild(season=season) == len(kept)
    assert tallies() == kept
    assert all(played > 0 for _user, _side, played, _won in kept)
