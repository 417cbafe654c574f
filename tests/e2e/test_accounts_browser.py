"""A newcomer's first visit, in real Chromium against the daphne server: sign up,
log out and in, switch the site to English, and find it still in English at the
next log-in on a browser that has forgotten every cookie."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User

pytestmark = pytest.mark.browser

PASSWORD = "partisan-night-raid-7"


def log_in(page: Page, username: str, password: str) -> None:
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(password)
    page.locator("form.account-form button[type=submit]").click()


def open_menu(page: Page) -> None:
    """The header's menu (the player's name, or «Log in»): a <details> to open."""
    menu = page.locator(".site-header details.menu")
    if menu.get_attribute("open") is None:
        menu.locator("summary").click()


def test_sign_up_log_in_switch_language_log_out(
    new_player: Callable[..., Page],
) -> None:
    page = new_player()  # a Russian-speaking browser
    html = page.locator("html")
    nav = page.locator(".site-header")
    who = page.locator(".site-header .menu summary")

    # Sign up: the site speaks Russian, and the new player is logged in at once.
    page.goto("/")
    page.get_by_role("link", name="Регистрация").first.click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Создать аккаунт")
    page.locator("#id_username").fill("olga")
    page.locator("#id_display_name").fill("Оля")
    page.locator("#id_email").fill("olga@example.org")
    page.locator("#id_password1").fill(PASSWORD)
    page.locator("#id_password2").fill(PASSWORD)
    page.locator("form.account-form button[type=submit]").click()
    expect(page).to_have_url("/games/")
    expect(page.get_by_role("status")).to_contain_text("Добро пожаловать, Оля!")
    expect(who).to_contain_text("Оля")
    assert User.objects.get(username="olga").language == ""

    # Log out (a POST button in the header's menu), then back in through its link.
    open_menu(page)
    nav.get_by_role("button", name="Выйти").click()
    expect(who).to_contain_text("Войти")
    open_menu(page)
    nav.get_by_role("link", name="Войти").click()
    log_in(page, "olga", PASSWORD)
    expect(who).to_contain_text("Оля")
    expect(html).to_have_attribute("lang", "ru")

    # Switch to English: the select submits itself and the page comes back the same.
    url_before = page.url
    open_menu(page)
    page.get_by_label("Язык").select_option("en")
    expect(html).to_have_attribute("lang", "en")
    open_menu(page)
    expect(nav.get_by_role("button", name="Log out")).to_be_visible()
    assert page.url == url_before
    assert User.objects.get(username="olga").language == "en"

    # Log out, forget every cookie: a Russian browser again, until she logs in.
    nav.get_by_role("button", name="Log out").click()
    expect(who).to_contain_text("Log in")
    page.context.clear_cookies()
    page.goto("/accounts/login/")
    expect(html).to_have_attribute("lang", "ru")
    log_in(page, "olga", PASSWORD)
    expect(html).to_have_attribute("lang", "en")
    expect(who).to_contain_text("Оля")

    # And out for good.
    open_menu(page)
    nav.get_by_role("button", name="Log out").click()
    expect(who).to_contain_text("Log in")
    expect(who).not_to_contain_text("Оля")
