from django.apps import AppConfig
from django.utils.translation import pgettext_lazy


class CellsConfig(AppConfig):
    """The ``cells`` family (Resistance for three or four players) as a Django app."""

    name = "games.families.cells"
    label = "cells"
    verbose_name = pgettext_lazy("cells", "Cells")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from games import kit
        from games.families.cells.family import FAMILY

        kit.register(FAMILY)
