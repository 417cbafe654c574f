from django.urls import path

from accounts import views

urlpatterns = [
    path("<str:username>/", views.profile, name="profile"),
]
