"""The lobby's addresses; a table's own (``t/<code>/...``) are ``live.urls``, in the
same ``games`` namespace (config/urls.py)."""

from django.urls import path

from games import views

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("rules/", views.rules, name="rules"),
    path("new/", views.table_create, name="create"),
]
