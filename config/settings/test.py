"""The test suite: fast hashing, mail kept in memory, the rest from the environment."""

import os
import tempfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit


def _redis_of_this_worker(url: str, worker: str) -> str:
    """pytest-xdist workers each get a Redis database of their own (the next numbers
    after REDIS_URL's, of Redis's 16): table ids repeat between the workers' test
    databases, so on a shared one a worker's sockets would hear the other's pushes,
    and one worker's cache.clear() (a FLUSHDB) would wipe the other's channel layer."""
    index = int(worker.removeprefix("gw") or "0")
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or "0")
    return urlunsplit(parts._replace(path=f"/{(base + index) % 16}"))


# Before the base settings read it; the browser tests' daphne inherits it, and with it
# the database already chosen (it must not add the worker's number a second time).
if os.environ.get("REDIS_URL") and os.environ.get("PYTEST_XDIST_WORKER"):
    if "PODPOLYE_TEST_REDIS_URL" not in os.environ:
        os.environ["PODPOLYE_TEST_REDIS_URL"] = _redis_of_this_worker(
            os.environ["REDIS_URL"], os.environ["PYTEST_XDIST_WORKER"]
        )
    os.environ["REDIS_URL"] = os.environ["PODPOLYE_TEST_REDIS_URL"]

# A Redis database is shared all the same: another test run on this machine may name
# the same one. Every key this run writes (cache and channel layer, its daphnes'
# too: they inherit the tag) starts with the run's own tag, and cache.clear() deletes
# only those keys (config/test_cache.py), never the whole database. A FLUSHDB from
# another run used to wipe this run's channel layer groups in the middle of a test:
# a socket then heard no more signals, and a voice pair whose relay vanished never
# recovered (issue #39).
os.environ.setdefault("PODPOLYE_TEST_RUN", str(os.getpid()))
REDIS_KEY_TAG = (
    f"t{os.environ['PODPOLYE_TEST_RUN']}{os.environ.get('PYTEST_XDIST_WORKER', '')}."
)

from .base import *  # noqa: E402, F403
from .base import CACHES, CHANNEL_LAYERS, DATABASES, REDIS_URL, env  # noqa: E402

if REDIS_URL:
    CACHES["default"]["BACKEND"] = "config.test_cache.RunRedisCache"
    CACHES["default"]["KEY_PREFIX"] = f"{REDIS_KEY_TAG}cache"
    CHANNEL_LAYERS["default"]["CONFIG"]["prefix"] = f"{REDIS_KEY_TAG}asgi"  # type: ignore[index]

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
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
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
