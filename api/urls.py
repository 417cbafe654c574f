"""The API's URLs, mounted at /api/ by config.urls: the page for people, the
endpoints of ``api.views`` under v1/ (each described in the OpenAPI document), and a
JSON 404 for anything else under v1/."""

from django.urls import include, path, re_path

from api import views
from api.plumbing import not_found

app_name = "api"

urlpatterns = [
    path("", views.index, name="index"),
    path("v1/", include(views.api.url_patterns())),
    re_path(r"^v1/", not_found, name="not_found"),
]
