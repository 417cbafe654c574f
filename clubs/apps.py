from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    """Clubs, their seasons, standings and ratings. Everything this app adds to a
    table (who may see it, who may sit at it, what its end counts for) reaches the
    platform through ``games.hooks`` and the history list through ``history.hooks``;
    neither imports this app."""

    name = "clubs"
    verbose_name = _("Clubs")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from clubs import access, league_history
        from clubs.services import ratings
        from games import hooks
        from history import hooks as history_hooks

        if access.table_rule not in hooks.table_rules:
            hooks.table_rules.append(access.table_rule)
        if access.hidden_tables not in hooks.hidden_tables:
            hooks.hidden_tables.append(access.hidden_tables)
        if ratings.game_finished not in hooks.finish_hooks:
            hooks.finish_hooks.append(ratings.game_finished)
        if league_history.season_filter not in history_hooks.list_filters:
            history_hooks.list_filters.append(league_history.season_filter)
            history_hooks.list_filters.append(league_history.club_filter)
        if league_history.void_notes not in history_hooks.game_notes:
            history_hooks.game_notes.append(league_history.void_notes)
