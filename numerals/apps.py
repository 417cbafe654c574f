from django.apps import AppConfig


class NumeralsConfig(AppConfig):
    name = "numerals"

    def ready(self) -> None:
        from numerals.translation import install

        install()
