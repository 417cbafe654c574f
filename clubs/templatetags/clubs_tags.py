"""``{% player_ratings profile_user %}``: a player's ratings on their profile, one per
game family they have rated games in, each with its history drawn as a chart."""

from __future__ import annotations

import math
from typing import Any

from django import template
from django.utils.formats import date_format
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from accounts.models import User
from clubs.families import family_label
from clubs.selectors import LEADERBOARD_MIN_GAMES, PlayerFamilyRating, player_ratings
from history import charts

register = template.Library()


def rating_chart(rating: PlayerFamilyRating) -> SafeString | None:
    """The rating after each of the player's latest rated games."""
    if len(rating.history) < 2:
        return None
    values = [point.rating for point in rating.history]
    low, high = math.floor(min(values)) - 1, math.ceil(max(values)) + 1
    return charts.line_chart(
        chart_id=f"chart-rating-{rating.family}",
        title=gettext("Rating after each game: %(games)s")
        % {"games": family_label(rating.family)},
        description=gettext(
            "The conservative rating (μ − 3σ) after each of the latest rated games."
        ),
        x_labels=[
            date_format(point.at, "SHORT_DATE_FORMAT") for point in rating.history
        ],
        series=[charts.Series("all", gettext("rating"), values)],
        scale=charts.Scale(low=low, high=high, label=lambda value: f"{value:.1f}"),
    )


@register.inclusion_tag("clubs/_profile_ratings.html")
def player_ratings_section(player: User) -> dict[str, Any]:
    return {
        "ratings": [
            {
                "rating": rating,
                "label": family_label(rating.family),
                "chart": rating_chart(rating),
            }
            for rating in player_ratings(player)
        ],
        "min_games": LEADERBOARD_MIN_GAMES,
    }
