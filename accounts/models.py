"""The site's user: a login name, a unique display name shown at tables, a language."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.models import AbstractUser, UserManager
from django.db import models
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

DISPLAY_NAME_MAX_LENGTH = 32


class Language(models.TextChoices):
    RUSSIAN = "ru", _("Russian")
    ENGLISH = "en", _("English")
    PERSIAN = "fa", _("Persian")


class User(AbstractUser):
    """A player. ``display_name`` is what other players see; it is unique regardless
    of case so that nobody can pass for someone else at a table."""

    display_name = models.CharField(
        _("display name"),
        max_length=DISPLAY_NAME_MAX_LENGTH,
        help_text=_("What other players see at the table."),
    )
    language = models.CharField(
        _("language"),
        max_length=8,
        choices=Language.choices,
        blank=True,
        help_text=_("The language the site speaks to you. Empty: your browser's."),
    )
    bio = models.TextField(_("about me"), max_length=500, blank=True)
    is_bot = models.BooleanField(
        _("bot"),
        default=False,
        help_text=_("A seat-filling bot for practice games; it never logs in."),
    )

    objects = UserManager()

    REQUIRED_FIELDS = ["email", "display_name"]

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")
        constraints = [
            models.UniqueConstraint(
                Lower("display_name"),
                name="accounts_user_display_name_ci_unique",
                violation_error_message=_("This display name is already taken."),
            ),
        ]

    def __str__(self) -> str:
        return self.display_name or self.username

    def get_absolute_url(self) -> str:
        return reverse("profile", kwargs={"username": self.username})

    @property
    def language_or_default(self) -> str:
        return self.language or settings.LANGUAGE_CODE
