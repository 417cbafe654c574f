"""The API's URLs, mounted at /api/ by config.urls. Every one of them is described in
the OpenAPI document (a test checks both ways)."""

from django.urls import path, re_path

from api import views

app_name = "api"

urlpatterns = [
    path("", views.index, name="index"),
    path("v1/openapi.json", views.openapi, name="openapi"),
    path("v1/auth/token", views.auth_token, name="token"),
    path("v1/rulesets", views.rulesets, name="rulesets"),
    path("v1/tables", views.tables, name="tables"),
    path("v1/tables/<str:code>", views.table, name="table"),
    path("v1/tables/<str:code>/join", views.join, name="join"),
    path("v1/tables/<str:code>/leave", views.leave, name="leave"),
    path("v1/tables/<str:code>/start", views.start, name="start"),
    path("v1/tables/<str:code>/view", views.view, name="view"),
    path("v1/tables/<str:code>/actions", views.actions, name="actions"),
    path("v1/tables/<str:code>/chat", views.chat, name="chat"),
    # Anything else under v1/ answers a JSON 404, not the site's HTML page.
    re_path(r"^v1/", views.not_found, name="not_found"),
]
