from django.urls import path

from history import views

app_name = "history"

urlpatterns = [
    path("", views.history_list, name="list"),
    path("g/<str:code>/", views.game_review, name="game"),
    path("g/<str:code>/replay/", views.game_replay, name="replay"),
    path("g/<str:code>/export.json", views.game_export, name="export"),
]
