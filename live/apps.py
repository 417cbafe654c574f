from django.apps import AppConfig


class LiveConfig(AppConfig):
    """The live table: one room per open table per process, its sockets and page."""

    name = "live"

    def ready(self) -> None:
        from live import room

        room.install()
