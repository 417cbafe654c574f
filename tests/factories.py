"""Factories shared by the whole suite. ``UserFactory`` makes players that can log
in with ``PASSWORD``; display names are Russian and unique, like real ones."""

from __future__ import annotations

import factory

from accounts.models import User

PASSWORD = "correct-horse-battery"


class UserFactory(factory.django.DjangoModelFactory):
    """A player. ``UserFactory(display_name="Оля", language="en")`` overrides any
    field; ``UserFactory.create_batch(5)`` seats a table."""

    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"player{n}")
    display_name = factory.Sequence(lambda n: f"Игрок {n}")
    email = factory.LazyAttribute(lambda user: f"{user.username}@example.org")
    password = factory.django.Password(PASSWORD)
    language = ""
