"""Fuzz of the form doors: a move or a chat line posted by a player the table is not
waiting for (so nothing may change), and the log-in and sign-up forms. Never a 5xx,
always one of the expected refusals, and the table exactly as it was.

Bounded and derandomised (the same examples every run), so CI runs it in seconds."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Game
from tests.fuzz.strategies import NEXT, TEXT, move_fields
from tests.fuzz.tables import bystander, fingerprint
from tests.games.conftest import seated_users, start_table

pytestmark = pytest.mark.django_db

FUZZ = settings(
    max_examples=40,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
REFUSED = {400, 403, 409, 429}


@pytest.fixture
def table() -> tuple[Game, Client]:
    """A started table with chat, and a logged-in player it is not waiting for."""
    game = start_table("partisans", 5, {"chat": True})
    client = Client(raise_request_exception=False)
    client.force_login(seated_users(game)[bystander(game)])
    return game, client


def post(client: Client, url: str, fields: dict[str, Any], htmx: bool) -> Any:
    headers = {"accept-language": "en"}
    if htmx:
        headers["hx-request"] = "true"
    return client.post(url, fields, headers=headers)


@FUZZ
@given(fields=move_fields(), htmx=st.booleans())
def test_a_move_from_a_bystander_changes_nothing(
    table: tuple[Game, Client], fields: dict[str, Any], htmx: bool
) -> None:
    game, client = table
    before = fingerprint(game)
    response = post(client, f"/games/t/{game.code}/act/", fields, htmx)
    if htmx:
        assert response.status_code in REFUSED, response.status_code
    else:  # the plain POST goes back to the table with the error as a message
        assert response.status_code in {302, *REFUSED}, response.status_code
    assert fingerprint(game) == before


@FUZZ
@given(text=TEXT, channel=TEXT, htmx=st.booleans())
def test_chat_lines_never_break_the_table(
    table: tuple[Game, Client], text: str, channel: str, htmx: bool
) -> None:
    game, client = table
    before = fingerprint(game, chat=False)
    response = post(
        client, f"/games/t/{game.code}/chat/", {"text": text, "channel": channel}, htmx
    )
    assert response.status_code < 500
    assert fingerprint(game, chat=False) == before
    if "\x00" in text or "\x00" in channel:
        assert response.status_code == 400


@FUZZ
@given(username=TEXT, password=TEXT)
def test_the_log_in_form(username: str, password: str) -> None:
    response = Client(raise_request_exception=False).post(
        "/accounts/login/", {"username": username, "password": password}
    )
    assert response.status_code in {200, 400, 429}


@FUZZ
@given(
    fields=st.dictionaries(
        st.sampled_from(
            ["username", "display_name", "email", "password1", "password2"]
        ),
        TEXT,
    )
)
def test_the_sign_up_form(fields: dict[str, str]) -> None:  # fmt: skip
    response = Client(raise_request_exception=False).post("/accounts/signup/", fields)
    assert response.status_code in {200, 302, 400, 429}


@pytest.fixture
def club_member() -> tuple[str, Client]:
    """A club, and a logged-in member of it who is not an admin."""
    from tests.clubs.conftest import make_club

    setup = make_club(members=1)
    client = Client(raise_request_exception=False)
    client.force_login(setup.members[0])
    return setup.club.slug, client


@FUZZ
@given(
    target=NEXT,
    form=st.sampled_from(
        ["join/", "join/cancel/", "notices/post/", "notices/delete/", "members/remove/"]
    ),
)
def test_a_club_forms_next_never_leaves_the_site_or_fails(
    club_member: tuple[str, Client], target: str, form: str
) -> None:
    slug, client = club_member
    fields = {"next": target, "notice": "1", "user": "1", "title": "t", "text": "t"}
    response = client.post(f"/clubs/{slug}/{form}", fields)
    assert response.status_code in {302, 400, 404}, (target, response.status_code)
    if response.status_code == 302:
        assert response["Location"].startswith("/"), response["Location"]
        assert not response["Location"].startswith(("//", "/\\")), response["Location"]
