"""API tokens: how a program logs in.

Only a SHA-256 digest of a key is stored, never the key itself, so a leaked database
or backup gives nobody a working token; the first characters are kept in the clear so
that a player can tell their tokens apart in the admin and revoke the right one. The
plain key is shown once, in the answer that creates it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

TOKEN_NAME_MAX_LENGTH = 60
TOKEN_PREFIX_LENGTH = 8


class ApiToken(models.Model):
    """One program's key to act as ``user``. Deleting the row revokes it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="api_tokens",
    )
    name = models.CharField(
        _("name"),
        max_length=TOKEN_NAME_MAX_LENGTH,
        blank=True,
        help_text=_("What the program is, so that you know which token to revoke."),
    )
    prefix = models.CharField(
        _("key begins with"), max_length=TOKEN_PREFIX_LENGTH, editable=False
    )
    key_hash = models.CharField(
        _("key digest"), max_length=64, unique=True, editable=False
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used"), null=True, blank=True)

    class Meta:
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")
        ordering = ["-created_at"]

    def __str__(self) -> str:
        label = self.name or _("API token")
        return f"{label} ({self.prefix}…)"
