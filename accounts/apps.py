from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        from django.db.backends.signals import connection_created

        from accounts.db import sqlite_unicode_case

        # Every SQLite connection gets Unicode-aware LOWER()/UPPER(), so the
        # case-insensitive display-name constraint holds for Cyrillic names too.
        connection_created.connect(
            sqlite_unicode_case, dispatch_uid="accounts.sqlite_unicode_case"
        )
