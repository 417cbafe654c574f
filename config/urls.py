from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from config import views
from games import urls as lobby_urls
from live import urls as table_urls

games = (lobby_urls.urlpatterns + table_urls.urlpatterns, "games")

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("favicon.ico", views.favicon),
    path("healthz/live", views.healthz_live, name="healthz_live"),
    path("healthz/ready", views.healthz, name="healthz_ready"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("accounts.urls")),
    path("u/", include("accounts.public_urls")),
    path("games/", include(games)),
    path("history/", include("history.urls")),
    path("clubs/", include("clubs.urls")),
    path("api/", include("api.urls")),
    path("admin/", admin.site.urls),
]

handler400 = "config.views.bad_request"
handler403 = "config.views.permission_denied"
handler404 = "config.views.page_not_found"
handler500 = "config.views.server_error"

if settings.DEBUG:
    # Lets a developer look at the error pages with DEBUG on.
    urlpatterns += [path("__error__/<int:code>/", views.error_preview)]
