"""What clubs add to the history pages, through ``history.hooks``:

* ``?season=<id>``: the season's counted games (finished, not voided), so that
  every figure of the standings links to exactly the games behind it;
* ``?club=<address>``: every game played at the club's tables;
* a voided league game is marked, with the admin's reason, in lists and on its
  review page.

Both filters only narrow what the history list already lets the viewer see; a
season or club the viewer may not see matches nothing and is not named.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext

from clubs.models import ClubTable, Season
from clubs.selectors import can_see_club, club_by_slug
from games.models import Game
from history.hooks import ListFilter

NOTHING = Q(pk__in=[])


def season_filter(params: Mapping[str, str], viewer: Any) -> ListFilter | None:
    raw = (params.get("season") or "").strip()
    if not raw:
        return None
    season = (
        Season.objects.select_related("club").filter(pk=int(raw)).first()
        if raw.isascii() and raw.isdigit() and len(raw) < 12
        else None
    )
    if season is None or not can_see_club(season.club, viewer):
        return ListFilter(condition=NOTHING, caption="", params={"season": raw})
    counted = ClubTable.objects.filter(
        season=season, counted=True, voided_at__isnull=True
    ).values("game_id")
    caption = gettext("Counted games of the season “%(season)s” of %(club)s.") % {
        "season": season.name,
        "club": season.club.name,
    }
    return ListFilter(
        condition=Q(pk__in=counted), caption=caption, params={"season": raw}
    )


def club_filter(params: Mapping[str, str], viewer: Any) -> ListFilter | None:
    slug = (params.get("club") or "").strip()
    if not slug:
        return None
    club = club_by_slug(slug)
    if club is None or not can_see_club(club, viewer):
        return ListFilter(condition=NOTHING, caption="", params={"club": slug})
    games = ClubTable.objects.filter(club=club).values("game_id")
    caption = gettext("Games of the club %(club)s.") % {"club": club.name}
    return ListFilter(condition=Q(pk__in=games), caption=caption, params={"club": slug})


def void_notes(games: Sequence[Game]) -> dict[int, list[str]]:
    voided = ClubTable.objects.filter(
        game_id__in=[game.pk for game in games], voided_at__isnull=False
    ).values_list("game_id", "void_reason")
    return {
        game_id: [gettext("Voided by the club: %(reason)s") % {"reason": reason}]
        for game_id, reason in voided
    }
