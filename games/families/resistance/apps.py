from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ResistanceConfig(AppConfig):
    """The Resistance family (partisans, trust_no_one, werewolves) as a Django app."""

    name = "games.families.resistance"
    label = "resistance"
    verbose_name = _("The Resistance games")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import kit
        from games.families.resistance.family import FAMILY

        kit.register(FAMILY)
