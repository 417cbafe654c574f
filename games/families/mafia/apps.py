from django.apps import AppConfig
from django.utils.translation import pgettext_lazy


class MafiaConfig(AppConfig):
    """The ``mafia`` family (the «پارتیزان» scenario, with a moderator) as a Django
    app."""

    name = "games.families.mafia"
    label = "mafia"
    verbose_name = pgettext_lazy("mafia", "Mafia")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import kit
        from games.families.mafia.family import FAMILY

        kit.register(FAMILY)
