"""The services on their own: they re-check what they write, turn a lost race into
a field error, and leave nothing half-saved."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import translation

from accounts import selectors, services
from accounts.models import User
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def create(**overrides: str) -> User:
    fields = {
        "username": "olga",
        "email": "olga@EXAMPLE.org",
        "display_name": "Оля",
        "password": "partisan-night-raid-7",
    }
    fields.update(overrides)
    return services.user_create(**fields)  # type: ignore[arg-type]


def test_user_create_normalises_and_hashes() -> None:
    user = create(display_name=" Оля  П. ")
    assert user.display_name == "Оля П."
    assert user.email == "olga@example.org"
    assert user.check_password("partisan-night-raid-7")
    assert user.password != "partisan-night-raid-7"


def test_user_create_without_password_makes_an_unusable_one() -> None:
    assert not create(password=None).has_usable_password()  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"display_name": "ОЛЯ"}, "display_name"),
        ({"display_name": "Оля\u200b"}, "display_name"),
        ({"display_name": "Я" * 33}, "display_name"),
        ({"username": "OLGA"}, "username"),
        ({"username": "x y"}, "username"),
        ({"email": "nope"}, "email"),
        ({"language": "de"}, "language"),
    ],
)
def test_user_create_refuses_what_a_form_would(
    overrides: dict[str, str], field: str
) -> None:
    UserFactory(username="olga", display_name="Оля")
    with pytest.raises(ValidationError) as refused:
        create(**{"username": "ivan", "display_name": "Ваня", **overrides})
    assert field in refused.value.message_dict
    assert User.objects.count() == 1


def test_a_lost_race_becomes_a_field_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two sign-ups for one name both pass the checks before either is saved; the
    database constraint stops the second, and the player still reads which field."""
    UserFactory(display_name="Оля")
    real = selectors.display_name_taken
    calls: list[dict[str, object]] = []

    def taken_only_after_the_check(**kwargs: object) -> bool:
        calls.append(kwargs)
        return len(calls) > 1 and real(**kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(selectors, "display_name_taken", taken_only_after_the_check)
    monkeypatch.setattr(User, "validate_constraints", lambda self, exclude=None: None)
    with translation.override("en"), pytest.raises(ValidationError) as refused:
        create(display_name="оля")
    with translation.override("en"):
        assert refused.value.message_dict == {
            "display_name": ["This display name is already taken."]
        }
    assert User.objects.count() == 1


def test_the_database_itself_folds_cyrillic_case() -> None:
    """The constraint, not just the form: SQLite's LOWER() is made Unicode-aware."""
    UserFactory(display_name="Оля")
    with pytest.raises(IntegrityError), transaction.atomic():
        User.objects.create(username="other", display_name="ОЛЯ")
    assert selectors.display_name_taken(display_name="оЛЯ")
    assert not selectors.display_name_taken(display_name="Оленька")


def test_user_update_profile_leaves_the_callers_object_alone_on_refusal() -> None:
    UserFactory(display_name="Борис")
    user = UserFactory(display_name="Оля", bio="old")
    with pytest.raises(ValidationError):
        services.user_update_profile(
            user=user, display_name="борис", email=user.email, bio="new", language=""
        )
    assert (user.display_name, user.bio) == ("Оля", "old")
    user.refresh_from_db()
    assert (user.display_name, user.bio) == ("Оля", "old")


def test_user_update_profile_returns_the_saved_copy() -> None:
    user = UserFactory(display_name="Оля")
    saved = services.user_update_profile(
        user=user,
        display_name="Ольга",
        email="o@EXAMPLE.org",
        bio=" hi ",
        language="en",
    )
    assert (saved.display_name, saved.email, saved.bio, saved.language) == (
        "Ольга",
        "o@example.org",
        "hi",
        "en",
    )


def test_user_set_language() -> None:
    user = UserFactory(language="")
    services.user_set_language(user=user, language="en")
    assert user.language == "en"
    user.refresh_from_db()
    assert user.language == "en"
    with pytest.raises(ValidationError):
        services.user_set_language(user=user, language="de")
    user.refresh_from_db()
    assert user.language == "en"
