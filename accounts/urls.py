from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.login, name="login"),
    path("logout/", views.logout, name="logout"),
    path("language/", views.set_language, name="set_language"),
    path("profile/", views.profile_edit, name="profile_edit"),
    path("password/", views.password_change, name="password_change"),
    path("password/done/", views.password_change_done, name="password_change_done"),
    path("password/reset/", views.password_reset, name="password_reset"),
    path(
        "password/reset/sent/",
        views.password_reset_done,
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        views.password_reset_confirm,
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/",
        views.password_reset_complete,
        name="password_reset_complete",
    ),
]
