"""A table's page and the forms it posts (the ``games`` namespace, config/urls.py)."""

from django.urls import path

from live import views

urlpatterns = [
    path("t/<str:code>/", views.table, name="table"),
    path("t/<str:code>/join/", views.seat_join, name="join"),
    path("t/<str:code>/leave/", views.seat_leave, name="leave"),
    path("t/<str:code>/remove/", views.seat_remove, name="remove"),
    path("t/<str:code>/bots/", views.seats_fill_with_bots, name="bots"),
    path("t/<str:code>/start/", views.game_start, name="start"),
    path("t/<str:code>/close/", views.table_close, name="close"),
    path("t/<str:code>/abandon/", views.game_abandon, name="abandon"),
    path("t/<str:code>/rematch/", views.game_rematch, name="rematch"),
    path("t/<str:code>/act/", views.game_act, name="act"),
    path("t/<str:code>/chat/", views.chat_post, name="chat"),
]
