"""Voiding a league game: only an admin, only a finished season game, once, with a
reason. It leaves the standings and the ratings and stays in the history, marked."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation
from django.utils.html import escape

from clubs import errors, selectors, services
from clubs.models import ClubTable, PlayerRating, RatedGame
from games.models import Game
from tests.clubs.conftest import (
    ClubSetup,
    league_game,
    league_table,
    make_club,
    open_season,
    play_to_end,
)

pytestmark = pytest.mark.django_db


def state() -> tuple:
    return (
        sorted(ClubTable.objects.values_list("pk", "voided_at", "void_reason")),
        sorted(PlayerRating.objects.values_list("user_id", "mu", "sigma", "games")),
        sorted(RatedGame.objects.values_list("game_id", "number")),
    )


def test_bad_voids_are_refused_with_nothing_changed(club: ClubSetup) -> None:
    season = open_season(club)
    finished = league_game(club, club.everyone[:5], season, seed=1)
    playing = league_table(club, club.everyone[5:10], season=season)
    friendly = play_to_end(league_table(club, club.everyone[:5]), seed=2)
    other = make_club(members=4)
    foreign = league_game(other, other.everyone[:5], open_season(other), seed=3)
    before = state()
    refusals = [
        (club.members[0], finished, "x", errors.NotAdmin),
        (club.admin, playing, "x", errors.GameNotFinished),
        (club.admin, friendly, "x", errors.NotLeagueGame),
        (club.admin, foreign, "x", errors.NotLeagueGame),
        (club.admin, finished, "   ", errors.EmptyText),
        (club.admin, finished, "x" * 201, errors.BadClub),
    ]
    for admin, game, reason, error in refusals:
        with pytest.raises(error):
            services.game_void(club=club.club, admin=admin, game=game, reason=reason)
    assert state() == before
    services.game_void(club=club.club, admin=club.admin, game=finished, reason="x")
    after = state()
    with pytest.raises(errors.AlreadyVoided):
        services.game_void(club=club.club, admin=club.admin, game=finished, reason="y")
    assert state() == after


def test_a_voided_game_leaves_the_standings_and_shows_in_the_history(
    club: ClubSetup,
) -> None:
    season = open_season(club)
    kept = league_game(club, club.everyone[:5], season, seed=4)
    voided = league_game(club, club.everyone[5:10], season, seed=5)
    assert selectors.season_game_count(season) == 2
    services.game_void(
        club=club.club, admin=club.admin, game=voided, reason="Раздали не те карты"
    )
    lines = selectors.standings(season, ["good", "evil"])
    assert {line.username for line in lines} == {u.username for u in club.everyone[:5]}
    assert selectors.season_game_count(season) == 1
    assert not PlayerRating.objects.filter(
        user__in=club.everyone[5:10]
    ).exists()  # their only rated game is gone
    member = Client()
    member.force_login(club.members[0])
    review = member.get(f"/history/g/{voided.code}/").content.decode()
    assert "Раздали не те карты" in review
    listing = member.get(f"/history/?club={club.club.slug}").content.decode()
    assert voided.code in listing and "Раздали не те карты" in listing
    assert (
        "Раздали не те карты"
        not in member.get(f"/history/g/{kept.code}/").content.decode()
    )
    season_list = member.get(f"/history/?season={season.pk}").content.decode()
    assert kept.code in season_list and voided.code not in season_list
    page = member.get(f"/clubs/{club.club.slug}/seasons/{season.pk}/").content.decode()
    assert "Раздали не те карты" in page
    assert Game.objects.get(pk=voided.pk).status == Game.Status.FINISHED


def test_the_void_page(club: ClubSetup) -> None:
    season = open_season(club)
    game = league_game(club, club.everyone[:5], season, seed=6)
    path = f"/clubs/{club.club.slug}/void/{game.code}/"
    member, admin = Client(), Client()
    member.force_login(club.members[0])
    admin.force_login(club.admin)
    assert member.get(path).status_code == 404
    assert member.post(path, {"reason": "x"}).status_code == 404
    assert not ClubTable.objects.get(game=game).is_voided
    season_page = admin.get(f"/clubs/{club.club.slug}/seasons/{season.pk}/")
    assert path in season_page.content.decode()
    response = admin.post(path, {"reason": "Ошибка судьи"})
    assert response.status_code == 302
    assert ClubTable.objects.get(game=game).void_reason == "Ошибка судьи"
    again = admin.post(path, {"reason": "ещё раз"})
    with translation.override("ru"):
        refusal = escape(str(errors.AlreadyVoided.message))
    assert refusal in again.content.decode()
    assert ClubTable.objects.get(game=game).void_reason == "Ошибка судьи"
