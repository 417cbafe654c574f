"""Template helpers for history pages and the profile's games and stats.

``{% player_history profile_user %}`` is what the accounts profile includes: the
stats, charts and latest games of one player, computed for whoever is looking (a
private table's games count only for those who may see them).
"""

from __future__ import annotations

from typing import Any

from django import template

from accounts.models import User
from games.kit.family import known_words
from history import figures, selectors
from history.presenters import listed_games

register = template.Library()

PROFILE_GAMES = 10


@register.simple_tag
def role_label(ruleset: str, role: str) -> str:
    words = known_words(ruleset)
    if not role or words is None:
        return role
    return str(words.role(role))


@register.simple_tag
def side_label(ruleset: str, side: str) -> str:
    words = known_words(ruleset)
    if not side or words is None:
        return side
    return str(words.side(side))


@register.filter
def channel_name(words: Any, channel: str) -> str:
    """``words|channel_name:code``: a chat channel's name in the game's words."""
    return str(words.channel(channel)) if words else channel


@register.filter
def get_item(mapping: dict[Any, Any], key: Any) -> Any:
    """``mapping|get_item:key``: a dict lookup by a variable key."""
    return mapping.get(key) if mapping else None


@register.inclusion_tag("history/_profile.html", takes_context=True)
def player_history(context: template.Context, player: User) -> dict[str, Any]:
    request = context.get("request")
    viewer = getattr(request, "user", None)
    stats = selectors.player_stats(player, viewer)
    return {
        "player": player,
        "figures": figures.profile_figures(player.username, stats),
        "rows": listed_games(selectors.recent_games(player, viewer, PROFILE_GAMES)),
        "all_games_url": figures.games_url(player.username),
        "request": request,
    }
