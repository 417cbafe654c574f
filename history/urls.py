from django.urls import path

from history import views

app_name = "history"

urlpatterns = [
    path("", views.history_list, name="list"),
    path("g/<str:code>/", views.game_review, name="game"),
]
