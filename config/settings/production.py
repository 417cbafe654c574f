"""Production: PostgreSQL, Redis, several daphne processes behind a TLS proxy.

Refuses to start without a real secret key and allowed hosts."""

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import CONTENT_SECURITY_POLICY, env, env_bool, env_list

SECRET_KEY = env("DJANGO_SECRET_KEY")
if (
    not SECRET_KEY
    or SECRET_KEY.startswith(("dev-only", "django-insecure"))
    or len(SECRET_KEY) < 50
    or len(set(SECRET_KEY)) < 5
):
    # The same bar as Django's own deploy check (security.W009), enforced at start.
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY must be set to a random string of 50 or more characters."
    )
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS")
if not ALLOWED_HOSTS:
    raise ImproperlyConfigured("DJANGO_ALLOWED_HOSTS must list the site's host names.")

DEBUG = False
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
SECURE_HSTS_SECONDS = int(env("DJANGO_HSTS_SECONDS", "31536000"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
LANGUAGE_COOKIE_SECURE = True
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage",
    },
}
CONTENT_SECURITY_POLICY["DIRECTIVES"]["upgrade-insecure-requests"] = True
