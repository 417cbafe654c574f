"""Tokens: getting one with a password (throttled like the log-in page), using it,
revoking it; a session cookie is never a substitute."""

from __future__ import annotations

import hashlib

import pytest
from django.test import Client
from django.utils import timezone, translation

from api import errors
from api.models import ApiToken
from tests.api.support import Api, conforms, program
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db


def anonymous(language: str = "en") -> Api:
    return Api(user=None, key=None, language=language)


def test_password_gets_a_token_stored_only_as_a_digest() -> None:
    user = UserFactory(username="olga")
    answer = anonymous().post(
        "auth/token", {"username": "olga", "password": PASSWORD, "name": "my bot"}
    )
    assert answer.status == 201
    conforms(answer.body, "IssuedToken")
    key = answer.body["token"]
    assert answer.body["prefix"] == key[:8]
    assert answer.body["name"] == "my bot"
    token = ApiToken.objects.get(user=user)
    assert token.key_hash == hashlib.sha256(key.encode()).hexdigest()
    assert key not in {token.key_hash, token.prefix, token.name}
    me = Api(user=user, key=key).get("auth/token")
    assert me.status == 200
    assert me.body["user"] == {"username": "olga", "name": user.display_name}
    assert me.body["prefix"] == key[:8]


def test_two_tokens_are_different_keys() -> None:
    UserFactory(username="olga")
    first = anonymous().post("auth/token", {"username": "olga", "password": PASSWORD})
    second = anonymous().post("auth/token", {"username": "olga", "password": PASSWORD})
    assert first.body["token"] != second.body["token"]
    assert ApiToken.objects.count() == 2


@pytest.mark.parametrize("language", ["en", "ru"])
def test_wrong_password_is_401_in_the_callers_language(language: str) -> None:
    UserFactory(username="olga")
    answer = anonymous(language).post(
        "auth/token", {"username": "olga", "password": "nope-nope"}
    )
    assert answer.status == 401
    assert answer.code == "invalid_credentials"
    assert answer.headers["Content-Language"] == language
    with translation.override(language):
        assert answer.body["error"]["message"] == str(errors.InvalidCredentials())
    assert not ApiToken.objects.exists()


def test_unknown_user_is_the_same_401() -> None:
    answer = anonymous().post("auth/token", {"username": "ghost", "password": "x"})
    assert answer.status == 401
    assert answer.code == "invalid_credentials"


def test_inactive_user_gets_no_token() -> None:
    UserFactory(username="gone", is_active=False)
    answer = anonymous().post("auth/token", {"username": "gone", "password": PASSWORD})
    assert answer.status == 401


def test_guessing_passwords_is_locked_out(settings: object) -> None:
    UserFactory(username="olga")
    bot = anonymous()
    for _ in range(5):
        bot.post("auth/token", {"username": "olga", "password": "guess"})
    locked = bot.post("auth/token", {"username": "olga", "password": PASSWORD})
    assert locked.status == 429
    assert locked.code == "locked_out"
    assert int(locked.headers["Retry-After"]) > 0
    assert locked.body["error"]["retry_after"] > 0
    assert not ApiToken.objects.exists()


def test_failures_through_the_api_lock_the_login_page_too() -> None:
    UserFactory(username="olga")
    for _ in range(5):
        anonymous().post("auth/token", {"username": "olga", "password": "guess"})
    browser = Client()
    response = browser.post(
        "/accounts/login/", {"username": "olga", "password": PASSWORD}
    )
    assert response.status_code == 429
    assert "_auth_user_id" not in browser.session


def test_no_token_is_401_with_a_challenge() -> None:
    answer = anonymous().get("rulesets")
    assert answer.status == 401
    assert answer.code == "token_missing"
    assert answer.headers["WWW-Authenticate"].startswith("Token")


@pytest.mark.parametrize(
    "header",
    [
        "Token not-a-real-key",
        "Bearer abc",
        "Token",
        "Token a b",
        "Basic b2xnYTpwdw==",
        "Token " + "x" * 65,
        "Token ключ",
    ],
)
def test_bad_token_is_401(header: str) -> None:
    answer = anonymous().get("rulesets", headers={"authorization": header})
    assert answer.status == 401
    assert answer.code == "token_invalid"


def test_revoked_token_stops_working() -> None:
    bot = program()
    assert bot.get("rulesets").status == 200
    assert bot.delete("auth/token").status == 204
    answer = bot.get("rulesets")
    assert answer.status == 401
    assert answer.code == "token_invalid"
    assert not ApiToken.objects.exists()


def test_revoking_one_token_keeps_the_others() -> None:
    first = program()
    second = program(first.user)
    first.delete("auth/token")
    assert second.get("rulesets").status == 200


def test_token_of_a_deactivated_user_stops_working() -> None:
    bot = program()
    assert bot.user is not None
    bot.user.is_active = False
    bot.user.save()
    assert bot.get("rulesets").status == 401


def test_session_cookie_is_not_a_token() -> None:
    user = UserFactory()
    client = Client()
    client.force_login(user)
    answer = Api(user=user, key=None, client=client).get("tables")
    assert answer.status == 401
    assert answer.code == "token_missing"


def test_last_used_is_noted_at_most_once_a_minute() -> None:
    bot = program()
    token = ApiToken.objects.get()
    assert token.last_used_at is None
    bot.get("rulesets")
    token.refresh_from_db()
    first = token.last_used_at
    assert first is not None
    bot.get("rulesets")
    token.refresh_from_db()
    assert token.last_used_at == first
    ApiToken.objects.update(last_used_at=timezone.now() - timezone.timedelta(hours=1))
    bot.get("rulesets")
    token.refresh_from_db()
    assert token.last_used_at > first


def test_post_token_does_not_need_a_token_but_checks_its_body() -> None:
    answer = anonymous().post("auth/token", {"username": "olga"})
    assert answer.status == 400
    assert answer.code == "missing_field"
    assert answer.body["error"]["field"] == "password"


def test_admin_lists_tokens_without_keys(admin_client: Client) -> None:
    bot = program()
    response = admin_client.get("/admin/api/apitoken/")
    assert response.status_code == 200
    body = response.content.decode()
    assert bot.key is not None and bot.key[:8] in body
    assert bot.key not in body
    assert admin_client.get("/admin/api/apitoken/add/").status_code == 403
