"""The test suite: fast hashing, mail kept in memory, the rest from the environment."""

import os
import tempfile
from pathlib import Path

from .base import *  # noqa: F403
from .base import DATABASES, env

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# One test database per test process, so that several runs at once (two terminals,
# CI's two passes, pytest-xdist workers, which add their own suffix) never share one.
_RUN = os.getpid()
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # A file, not memory: browser tests run the site in a separate daphne process that
    # must see the same test database.
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"podpolye-test-{_RUN}.sqlite3")
    }
else:
    DATABASES["default"]["TEST"] = {
        "NAME": f"test_{DATABASES['default']['NAME']}_{_RUN}"
    }

# The browser tests' daphne subprocess is not run by pytest-django, so it would open
# the development database. tests/e2e/conftest.py names the test database that
# pytest-django created (the SQLite file, or "test_<name>" on PostgreSQL) here.
if env("DJANGO_TEST_DATABASE_NAME"):
    DATABASES["default"]["NAME"] = env("DJANGO_TEST_DATABASE_NAME")

# Static files come from the app folders here; collectstatic is for production only.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
STATIC_ROOT = None
