"""Who may see and sit at a club's tables: the two rules the platform asks through
``games.hooks``.

* A **private** club's tables and games exist for its members only: to anyone else
  the table is a 404, its socket closes, and it is missing from the lobby and the
  history. The one exception is a table an admin opened to everyone: a guest may
  take a seat by its link, and keeps their own game in their history.
* A **members-only** table (the default) takes members only; in a public club anyone
  may watch it, and its game is public history once it ends.
"""

from __future__ import annotations

from typing import Any

from django.db.models import Q

from clubs.models import ClubTable, Membership
from games.hooks import Access
from games.models import Game


def user_id_of(user: Any) -> int | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return int(user.pk)


def is_member(club_id: int, user: Any) -> bool:
    user_id = user_id_of(user)
    return user_id is not None and (
        Membership.objects.filter(club_id=club_id, user_id=user_id).exists()
    )


def table_rule(game: Game, user: Any) -> Access | None:
    """The club's say on one table: no opinion for a table outside any club."""
    table = (
        ClubTable.objects.filter(game_id=game.pk)
        .values("club_id", "club__is_private", "is_members_only")
        .first()
    )
    if table is None:
        return None
    if is_member(table["club_id"], user):
        return None
    if not table["is_members_only"]:
        return None
    return Access.NONE if table["club__is_private"] else Access.WATCH


def hidden_tables(user: Any) -> Q:
    """Club tables ``user`` must not find in lists: every table of a private club
    they are not in, and the members-only tables still being played in a club they
    are not in (they could not sit at them)."""
    user_id = user_id_of(user)
    hidden = ClubTable.objects.filter(
        Q(club__is_private=True)
        | Q(
            is_members_only=True,
            game__status__in=[Game.Status.OPEN, Game.Status.PLAYING],
        )
    )
    if user_id is not None:
        hidden = hidden.exclude(
            club_id__in=Membership.objects.filter(user_id=user_id).values("club_id")
        )
    return Q(pk__in=hidden.values("game_id"))
