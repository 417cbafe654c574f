"""A club's evening in real Chromium against daphne, as new players would live it:
a newcomer signs up and opens a club, invites four friends by link, opens a season
and schedules a match day; the five sign up, the site seats them and opens the
table, they play the game to its end on their phones, and the standings and ratings
show it; then the admin voids the game and both let it go."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from clubs.models import Club, ClubTable, MatchDay, PlayerRating, Season
from games.models import Game
from tests.e2e.test_game_browser import fits_the_phone, live, play_through
from tests.factories import UserFactory
from tests.games.test_leaks import secret_words

pytestmark = pytest.mark.browser

PASSWORD = "partisan-night-raid-7"


def fits(page: Page) -> bool:
    """The page fits the phone; if not, the culprits are named in the failure."""
    wide = page.evaluate(
        "() => Array.from(document.querySelectorAll('body *'))"
        ".filter(e => e.getBoundingClientRect().right > window.innerWidth + 1"
        " && !e.closest('.table-wrap'))"
        ".map(e => e.tagName + '.' + e.className)"
    )
    assert fits_the_phone(page), wide
    return True


def sign_up(page: Page) -> User:
    page.goto("/clubs/")
    page.locator(".site-header .menu summary").click()
    page.locator(".site-header").get_by_role("link", name="Регистрация").click()
    page.locator("#id_username").fill("vera")
    page.locator("#id_display_name").fill("Вера")
    page.locator("#id_email").fill("vera@example.org")
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.locator("form.account-form button[type=submit]").click()
    expect(page.locator(".site-header .menu summary")).to_contain_text("Вера")
    return User.objects.get(username="vera")


def create_club(page: Page) -> Club:
    page.goto("/clubs/")
    page.get_by_role("link", name="Создать клуб").click()
    page.locator("#id_name").fill("Пятничный клуб")
    page.locator("#id_slug").fill("friday")
    page.locator("#id_description").fill("Играем по пятницам. https://example.org/map")
    page.get_by_role("button", name="Создать", exact=True).click()
    expect(page).to_have_url("/clubs/friday/")
    expect(page.get_by_role("heading", level=1)).to_have_text("Пятничный клуб")
    expect(page.locator(".club-head [data-role=owner]")).to_be_visible()
    return Club.objects.get(slug="friday")


def invite_link(page: Page) -> str:
    page.get_by_role("link", name="Участники и приглашения").click()
    page.get_by_role("button", name="Новая ссылка-приглашение").click()
    link = page.locator("input.invite-link").first.input_value()
    assert "/clubs/invite/" in link
    assert fits(page)
    return link


def join_by_link(page: Page, link: str) -> None:
    page.goto(link)
    page.get_by_role("button", name="Вступить в клуб").click()
    expect(page).to_have_url("/clubs/friday/")
    expect(page.locator(".club-head [data-role=member]")).to_be_visible()
    assert fits(page)


def open_season(page: Page) -> Season:
    page.goto("/clubs/friday/")
    page.get_by_role("link", name="Открыть сезон").click()
    page.locator("#id_name").fill("Осень")
    page.locator("input[name=pts_resistance_evil_win]").fill("2")
    page.locator("form.season-form button[type=submit]").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Осень")
    return Season.objects.get()


def schedule_day(page: Page) -> MatchDay:
    page.goto("/clubs/friday/")
    page.get_by_role("link", name="Назначить игровой день").click()
    page.locator("#id_ruleset").select_option("partisans")
    page.locator("#id_seats").fill("10")
    page.get_by_role("button", name="Назначить", exact=True).click()
    expect(page.locator("[data-status=scheduled]")).to_be_visible()
    return MatchDay.objects.get()


def test_a_club_evening_from_sign_up_to_a_voided_game(
    new_player: Callable[..., Page],
) -> None:
    admin_page = new_player()
    admin = sign_up(admin_page)
    create_club(admin_page)
    link = invite_link(admin_page)
    friends = UserFactory.create_batch(4)
    pages = {admin.pk: admin_page}
    for friend in friends:
        pages[friend.pk] = new_player(friend)
        join_by_link(pages[friend.pk], link)
    season = open_season(admin_page)
    assert season.points["evil"] == {"win": 2, "loss": 0}
    day = schedule_day(admin_page)

    day_url = day.get_absolute_url()
    for user in [admin, *friends]:
        page = pages[user.pk]
        page.goto(day_url)
        page.get_by_role("button", name="Записаться", exact=True).click()
        expect(page.get_by_role("button", name="Отменить запись")).to_be_visible()
        assert fits(page)
    admin_page.reload()
    expect(admin_page.locator("[data-signed]")).to_have_attribute("data-signed", "5")
    admin_page.get_by_role("button", name="Рассадить игроков и открыть столы").click()
    expect(admin_page.locator("[data-status=seated]")).to_be_visible()
    game = Game.objects.get()
    assert ClubTable.objects.get(game=game).season == season
    assert game.host_id == admin.pk and game.seats.count() == 5

    # Every player finds the table on the match day's page, already seated.
    for page in pages.values():
        page.goto(day_url)
        page.locator(f"[data-table='{game.code}'] a").first.click()
        expect(live(page)).to_have_attribute("data-status", "open")
    start = admin_page.get_by_role("button", name="Начать игру")
    expect(start).to_be_enabled(timeout=10_000)
    start.click()
    for page in pages.values():
        expect(live(page)).to_have_attribute("data-status", "playing", timeout=10_000)
    game.refresh_from_db()
    by_position = {seat.position: pages[seat.user_id] for seat in game.seats.all()}
    game = play_through(
        by_position, game.code, random.Random(5), secret_words("partisans")
    )
    assert game.status == Game.Status.FINISHED

    # The standings and the ratings show the game.
    admin_page.goto(season.get_absolute_url())
    rows = admin_page.locator("table.standings tbody tr")
    expect(rows).to_have_count(5)
    for seat in game.seats.select_related("user"):
        row = admin_page.locator(f"tr[data-player='{seat.user.username}']")
        points = (2 if seat.side == "evil" else 1) if seat.won else 0
        expect(row.locator("[data-stat=played]")).to_have_text("1")
        expect(row.locator("[data-stat=points]")).to_have_text(str(points))
    assert fits(admin_page)
    assert PlayerRating.objects.filter(games=1).count() == 5
    admin_page.goto(f"/u/{admin.username}/")
    expect(
        admin_page.locator(".player-ratings [data-family=resistance]")
    ).to_be_visible()

    # A played figure links to exactly that game in the history.
    admin_page.goto(season.get_absolute_url())
    admin_page.locator(
        f"tr[data-player='{admin.username}'] [data-stat=played] a"
    ).click()
    expect(admin_page.locator(f"li[data-game='{game.code}']")).to_have_count(1)

    # The admin voids the game: it leaves the standings and the ratings.
    admin_page.goto(season.get_absolute_url())
    admin_page.get_by_role("link", name="Аннулировать…").click()
    admin_page.locator("#id_reason").fill("Раздали не тем игрокам")
    admin_page.get_by_role("button", name="Аннулировать игру").click()
    expect(admin_page).to_have_url(season.get_absolute_url())
    expect(admin_page.locator("table.standings")).to_have_count(0)
    expect(admin_page.locator(f"[data-voided='{game.code}']")).to_contain_text(
        "Раздали не тем игрокам"
    )
    assert not PlayerRating.objects.exists()
    friend_page = pages[friends[0].pk]
    friend_page.goto(f"/history/g/{game.code}/")
    expect(friend_page.locator("[data-note]")).to_contain_text("Раздали не тем игрокам")
    assert fits(friend_page)
