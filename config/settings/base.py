"""Settings shared by every environment.

Everything that differs between a laptop and production comes from the environment
(see ``.env.example``): no ``DATABASE_URL`` means SQLite in the project folder, no
``REDIS_URL`` means the in-memory channel layer.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

from games.families import FAMILIES

BASE_DIR = Path(__file__).resolve().parent.parent.parent


def env(name: str, default: str = "") -> str:
    """One environment variable, stripped; empty counts as unset."""
    return os.environ.get(name, default).strip() or default


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    return value in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in env(name, default).split(",") if item.strip()]


SECRET_KEY = env("DJANGO_SECRET_KEY", "dev-only-insecure-key-change-me")
DEBUG = env_bool("DJANGO_DEBUG", False)
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,[::1]")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    # daphne first: its runserver serves HTTP and WebSocket from the ASGI app.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "django_htmx",
    "csp",
    "accounts",
    # Early, before apps that translate: Persian sentences get Persian digits.
    "numerals",
    "games",
    # Each game family is an app of its own, listed once in games/families/__init__.py.
    *(f"games.families.{family}" for family in FAMILIES),
    "history",
    "live",
    "api",
    "clubs",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Before the session: a NUL in a cookie must not reach the database either.
    "config.middleware.RefuseNulMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Reads the session and the user first, on a live connection; a lost cache or
    # database answers 503 (see config.middleware).
    "config.middleware.UnavailableMiddleware",
    "accounts.middleware.UserLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Sync only, and last: every middleware above runs in one thread with the view.
    "config.middleware.OneThreadMiddleware",
]

ROOT_URLCONF = "config.urls"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "csp.context_processors.nonce",
            ],
        },
    },
    {
        # The live regions of a table (games.kit.regions, config/jinja.py): each
        # app's jinja2/ folder.
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {"environment": "config.jinja.environment"},
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        env("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"),
        conn_max_age=int(env("DATABASE_CONN_MAX_AGE", "0")),
        # A connection the server has cut (a restart, a failover, a proxy's idle
        # kill) is found out before a request gets it: the pool checks each one it
        # hands out, and without the pool Django checks persistent connections.
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # PostgreSQL's JIT compiles a plan once its estimated cost passes a threshold; for
    # this site's short queries the compiling costs far more than it saves (measured
    # by bench.history: +180 ms on a busy profile's first load).
    DATABASES["default"]["OPTIONS"] = {"options": "-c jit=off"}
    if env_bool("DATABASE_POOL", True):
        # daphne runs every request in a thread of its own: without a pool each one
        # opens (or, with CONN_MAX_AGE, leaves idle) a connection of its own, and a
        # busy evening runs into PostgreSQL's connection limit. Django 5.2's psycopg
        # pool shares a few (CONN_MAX_AGE must then be 0).
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        DATABASES["default"]["OPTIONS"]["pool"] = {
            "min_size": int(env("DATABASE_POOL_MIN", "2")),
            "max_size": int(env("DATABASE_POOL_MAX", "20")),
            "timeout": 10,
        }
        # The same backend with a pool that is back within a second of the server
        # after it cut every connection (config/backends/postgresql).
        DATABASES["default"]["ENGINE"] = "config.backends.postgresql"
    # A server that does not answer (a failover's old address) costs a connection
    # attempt this long, not the operating system's minutes.
    DATABASES["default"]["OPTIONS"]["connect_timeout"] = int(
        env("DATABASE_CONNECT_TIMEOUT", "2")
    )
elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets readers and one writer work at once; the timeout waits for the writer
    # instead of failing with "database is locked" when several players act together.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    if not env("DATABASE_CONN_MAX_AGE"):
        # A socket's database work all runs in Channels' one shared database thread:
        # closing its connection after every move (and opening it again, with the
        # PRAGMAs above) cost a fifth of a move's time in bench.live. A connection
        # stays open for ten minutes there; an HTTP request, which daphne runs in a
        # thread of its own, still gets a new one, closed when it ends
        # (games.apps.close_sqlite_after_request). An idle connection takes no lock.
        DATABASES["default"]["CONN_MAX_AGE"] = 600

# Presence at a table (games/presence.py, docs/clocks.md): a player whose last screen
# of the table closed is waited for this long, then the bot plays their decisions
# until they return. Each open socket beats every HEARTBEAT seconds; one silent for
# STALE seconds belongs to a dead process and is swept by the clock's runner.
PRESENCE_GRACE_SECONDS = int(os.environ.get("PRESENCE_GRACE_SECONDS", "60"))
PRESENCE_HEARTBEAT_SECONDS = 15
PRESENCE_STALE_SECONDS = 45
# Every this many seconds each process reads the change numbers of the tables it has
# sockets at (games/rooms.py): a change its channel layer did not bring (made by
# another process, or a message lost) reaches the screens within this time.
LIVE_WATCH_SECONDS = float(env("LIVE_WATCH_SECONDS", "0.5"))

# channels-redis reads each channel with a blocking Redis command that waits this many
# seconds (its class attribute ``brpop_timeout``) and then loops. The socket timeout
# must be well above it: redis-py 8 lowered its default socket timeout to 5 s, equal
# to the blocking read, and then every idle socket's read timed out and closed its
# WebSocket with 1011. A test holds idle sockets open past these timeouts on Redis.
CHANNEL_LAYER_BLOCKING_READ = 5
CHANNEL_LAYER_SOCKET_TIMEOUT = 10
CHANNEL_LAYER_CONNECT_TIMEOUT = 2
# The cache (log-in throttle, sign-up/reset/chat limits) asks small questions: if
# Redis does not answer within these, the request answers 503 at once instead of
# hanging (see config.middleware.UnavailableMiddleware).
CACHE_SOCKET_TIMEOUT = float(env("CACHE_SOCKET_TIMEOUT", "0.5"))
CACHE_CONNECT_TIMEOUT = float(env("CACHE_CONNECT_TIMEOUT", "0.5"))


def redis_channel_layer(url: str) -> dict[str, object]:
    """channels-redis with every timeout named rather than inherited from redis-py's
    defaults, which change between its major versions."""
    return {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {
            "hosts": [
                {
                    "address": url,
                    "socket_timeout": CHANNEL_LAYER_SOCKET_TIMEOUT,
                    "socket_connect_timeout": CHANNEL_LAYER_CONNECT_TIMEOUT,
                    "socket_keepalive": True,
                    "health_check_interval": 30,
                }
            ],
            "capacity": 1500,
            "expiry": 30,
        },
    }


def redis_cache(url: str) -> dict[str, object]:
    """Django's Redis cache with short timeouts and no retries (redis-py's pool
    retries nothing unless told to): a missing Redis costs a request half a second,
    not five."""
    return {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": url,
        "KEY_PREFIX": "podpolye",
        "OPTIONS": {
            "socket_timeout": CACHE_SOCKET_TIMEOUT,
            "socket_connect_timeout": CACHE_CONNECT_TIMEOUT,
        },
    }


REDIS_URL = env("REDIS_URL")
if REDIS_URL:
    CHANNEL_LAYERS = {"default": redis_channel_layer(REDIS_URL)}
else:
    # One process: Channels' in-memory layer.
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = ["django.contrib.auth.backends.ModelBackend"]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "games:lobby"
LOGOUT_REDIRECT_URL = "home"

AUTH_PASSWORD_VALIDATORS = [
    {
        "NAME": "django.contrib.auth.password_validation."
        "UserAttributeSimilarityValidator"
    },
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 8},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Wrong passwords, at every door that takes one (accounts.throttle has the policy):
# this many failures per account, and per client address, are judged at once; after
# that one attempt per delay, the delay doubling with each failure up to its cap.
# Failures are forgotten this many seconds after the first; a success or a completed
# password reset clears an account's.
LOGIN_THROTTLE_FAILURES = int(env("LOGIN_THROTTLE_FAILURES", "5"))
LOGIN_THROTTLE_DELAY = float(env("LOGIN_THROTTLE_DELAY", "30"))
LOGIN_THROTTLE_MAX_DELAY = float(env("LOGIN_THROTTLE_MAX_DELAY", "900"))
LOGIN_THROTTLE_WINDOW = int(env("LOGIN_THROTTLE_WINDOW", "3600"))
# Per client address the allowance is larger and the delay short: a table's players
# often share one Wi-Fi address, which is slowed down, never locked out.
LOGIN_THROTTLE_ADDRESS_FAILURES = int(env("LOGIN_THROTTLE_ADDRESS_FAILURES", "20"))
LOGIN_THROTTLE_ADDRESS_DELAY = float(env("LOGIN_THROTTLE_ADDRESS_DELAY", "2"))
LOGIN_THROTTLE_ADDRESS_MAX_DELAY = float(env("LOGIN_THROTTLE_ADDRESS_MAX_DELAY", "60"))
LOGIN_THROTTLE_ADDRESS_WINDOW = int(env("LOGIN_THROTTLE_ADDRESS_WINDOW", "900"))
# New accounts per client address, and password-reset letters per e-mail address
# and per client address, within their windows (accounts.limits).
SIGNUP_LIMIT = int(env("SIGNUP_LIMIT", "10"))
SIGNUP_WINDOW = int(env("SIGNUP_WINDOW", "3600"))
PASSWORD_RESET_EMAIL_LIMIT = int(env("PASSWORD_RESET_EMAIL_LIMIT", "3"))
PASSWORD_RESET_ADDRESS_LIMIT = int(env("PASSWORD_RESET_ADDRESS_LIMIT", "10"))
PASSWORD_RESET_WINDOW = int(env("PASSWORD_RESET_WINDOW", "3600"))

# Frames a WebSocket may send (live.sockets): per socket, a token bucket of this
# many a second with bursts of this many; per user over all their sockets, this many
# per window. Far above any person's or a fair bot's pace, far below a flood's.
WEBSOCKET_FRAME_RATE = float(env("WEBSOCKET_FRAME_RATE", "20"))
WEBSOCKET_FRAME_BURST = float(env("WEBSOCKET_FRAME_BURST", "60"))
WEBSOCKET_USER_FRAMES = int(env("WEBSOCKET_USER_FRAMES", "600"))
WEBSOCKET_USER_WINDOW = int(env("WEBSOCKET_USER_WINDOW", "10"))

# The voice rooms (voice/, docs/voice.md). STUN/TURN servers handed to every seat as
# they are (JSON: a list of RTCIceServer objects); a coturn "use-auth-secret" secret
# and its TURN URLs, from which each seat gets an account of its own for
# VOICE_TURN_TTL seconds; "relay" sends every pair through TURN (no player learns
# another's address). Voice frames a socket may send: a bucket of its own.
VOICE_ICE_SERVERS = json.loads(env("VOICE_ICE_SERVERS", "[]"))
VOICE_TURN_SECRET = env("VOICE_TURN_SECRET", "")
VOICE_TURN_URLS = [url for url in env("VOICE_TURN_URLS", "").split(",") if url.strip()]
VOICE_TURN_TTL = int(env("VOICE_TURN_TTL", "3600"))
VOICE_ICE_TRANSPORT_POLICY = env("VOICE_ICE_TRANSPORT_POLICY", "all")
VOICE_FRAME_RATE = float(env("VOICE_FRAME_RATE", "10"))
VOICE_FRAME_BURST = float(env("VOICE_FRAME_BURST", "100"))

CACHES = {
    "default": (
        redis_cache(REDIS_URL)
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

LANGUAGE_CODE = "ru"
LANGUAGES = [("ru", _("Russian")), ("en", _("English")), ("fa", _("Persian"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_NAME = "podpolye_language"
LANGUAGE_COOKIE_SAMESITE = "Lax"
TIME_ZONE = "Europe/Moscow"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage",
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

EMAIL_BACKEND = env("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = env("EMAIL_HOST", "localhost")
EMAIL_PORT = int(env("EMAIL_PORT", "25"))
EMAIL_HOST_USER = env("EMAIL_HOST_USER")
EMAIL_HOST_PASSWORD = env("EMAIL_HOST_PASSWORD")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", "Podpolye <noreply@localhost>")
if EMAIL_HOST_USER and "EMAIL_BACKEND" not in os.environ:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"

# Content-Security-Policy: our own origin only. htmx's indicator styles are switched off
# in the page (htmx-config) so no inline style is ever needed.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    }
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        "daphne": {"level": "WARNING"},
    },
}
CSRF_FAILURE_VIEW = "config.views.csrf_failure"

# The local and test runs serve static files straight from the apps (no collectstatic).
WHITENOISE_USE_FINDERS = DEBUG
