"""A developer's machine: debug on, SQLite and in-memory channels unless the
environment names PostgreSQL and Redis."""

from .base import *  # noqa: F403
from .base import env_bool

DEBUG = env_bool("DJANGO_DEBUG", True)

# Static files come from the app folders here; collectstatic is for production only.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True
STATIC_ROOT = None
