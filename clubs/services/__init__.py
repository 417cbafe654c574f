"""The only code that writes club rows: keyword-only, typed ``<thing>_<verb>``
functions, one transaction each, a ``ClubError`` with nothing written for bad
input. Split by subject; everything is importable from here."""

from clubs.services.clubs import (
    club_create,
    club_update,
    invite_accept,
    invite_create,
    invite_revoke,
    join_request_approve,
    join_request_cancel,
    join_request_create,
    join_request_decline,
    member_leave,
    member_remove,
    member_set_role,
    membership_of,
    notice_delete,
    notice_post,
    ownership_transfer,
    require_admin,
    require_member,
    usable_invite,
)
from clubs.services.leagues import (
    club_table_create,
    default_points,
    game_void,
    season_create,
)
from clubs.services.matchdays import (
    match_day_create,
    match_day_seat,
    match_day_signup,
    match_day_withdraw,
)
from clubs.services.ratings import (
    game_finished,
    rating_game_rate,
    ratings_rebuild,
    ratings_remove_game,
)

__all__ = [
    "club_create",
    "club_table_create",
    "club_update",
    "default_points",
    "game_finished",
    "game_void",
    "invite_accept",
    "invite_create",
    "invite_revoke",
    "join_request_approve",
    "join_request_cancel",
    "join_request_create",
    "join_request_decline",
    "match_day_create",
    "match_day_seat",
    "match_day_signup",
    "match_day_withdraw",
    "member_leave",
    "member_remove",
    "member_set_role",
    "membership_of",
    "notice_delete",
    "notice_post",
    "ownership_transfer",
    "rating_game_rate",
    "ratings_rebuild",
    "ratings_remove_game",
    "require_admin",
    "require_member",
    "season_create",
    "usable_invite",
]
