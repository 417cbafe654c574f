from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("login/", views.login, name="login"),
    path("logout/", views.logout, name="logout"),
    path("language/", views.set_language, name="set_language"),
    path("profile/", views.profile_edit, name="profile_edit"),
]
