"""Django's user admin, with the fields players have: display name, language, bio."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import admin as auth_admin
from django.contrib.auth import forms as auth_forms
from django.utils.translation import gettext_lazy as _

from accounts.forms import AdminLoginForm, DisplayNameField
from accounts.models import User

# The admin's log-in goes through the same throttle as every door with a password.
admin.site.login_form = AdminLoginForm


class UserCreationForm(auth_forms.AdminUserCreationForm):
    """The admin's "add user" form, asking for the display name every user needs
    (the unique constraint refuses two users with an empty one)."""

    class Meta:
        model = User
        fields = ("username", "display_name", "email")
        field_classes = {
            "username": auth_forms.UsernameField,
            "display_name": DisplayNameField,
        }


class UserChangeForm(auth_forms.UserChangeForm):
    class Meta:
        model = User
        fields = "__all__"
        field_classes = {
            "username": auth_forms.UsernameField,
            "display_name": DisplayNameField,
        }


@admin.register(User)
class UserAdmin(auth_admin.UserAdmin):
    form = UserChangeForm
    add_form = UserCreationForm
    fieldsets = (
        (None, {"fields": ("username", "password")}),
        (_("Profile"), {"fields": ("display_name", "email", "language", "bio")}),
        (_("Name"), {"classes": ("collapse",), "fields": ("first_name", "last_name")}),
        (
            _("Permissions"),
            {
                "fields": (
                    "is_active",
                    "is_staff",
                    "is_superuser",
                    "groups",
                    "user_permissions",
                ),
            },
        ),
        (_("Important dates"), {"fields": ("last_login", "date_joined")}),
    )
    add_fieldsets = (
        (
            None,
            {
                "classes": ("wide",),
                "fields": (
                    "username",
                    "display_name",
                    "email",
                    "usable_password",
                    "password1",
                    "password2",
                ),
            },
        ),
    )
    list_display = (
        "username",
        "display_name",
        "email",
        "language",
        "is_staff",
        "is_active",
        "date_joined",
    )
    list_filter = ("language", "is_staff", "is_superuser", "is_active", "groups")
    search_fields = ("username", "display_name", "email")
    ordering = ("username",)
