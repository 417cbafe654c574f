"""Errors a club member can read. Every service raises one of these for bad input,
having changed nothing; views turn them into a message in the reader's language."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.errors import GameError


class ClubError(GameError):
    """Base of every club error (a ``GameError``, so a table service's refusal and
    a club's read the same way)."""

    code = "club_error"


class ClubNotFound(ClubError):
    code = "club_not_found"
    status = 404
    message = _("There is no such club.")


class NotMember(ClubError):
    code = "not_member"
    status = 403
    message = _("Only the club's members can do that.")


class NotAdmin(ClubError):
    code = "not_admin"
    status = 403
    message = _("Only the club's admins can do that.")


class NotOwner(ClubError):
    code = "not_owner"
    status = 403
    message = _("Only the club's owner can do that.")


class AlreadyMember(ClubError):
    code = "already_member"
    status = 409
    message = _("You are already a member of this club.")


class AlreadyAsked(ClubError):
    code = "already_asked"
    status = 409
    message = _("You have already asked to join; an admin will answer.")


class NoSuchRequest(ClubError):
    code = "no_such_request"
    status = 404
    message = _("There is no such request to join.")


class NoSuchMember(ClubError):
    code = "no_such_member"
    status = 404
    message = _("That player is not a member of this club.")


class InviteNotUsable(ClubError):
    code = "invite_not_usable"
    status = 410
    message = _("This invite link has expired or was revoked. Ask for a new one.")


class OwnerCannotLeave(ClubError):
    code = "owner_cannot_leave"
    status = 409
    message = _("The owner cannot leave: hand the club to another member first.")


class CannotRemove(ClubError):
    code = "cannot_remove"
    status = 403
    message = _("You cannot remove this member.")


class NoSuchNotice(ClubError):
    code = "no_such_notice"
    status = 404
    message = _("There is no such notice.")


class SlugTaken(ClubError):
    code = "slug_taken"
    status = 409
    message = _("This address is taken. Choose another.")


class BadClub(ClubError):
    code = "bad_club"
    message = _("Check the club's details: %(reason)s")


class EmptyText(ClubError):
    code = "empty_text"
    message = _("Write something first.")


class BadSeason(ClubError):
    code = "bad_season"
    message = _("This season cannot be opened: %(reason)s")


class SeasonClosed(ClubError):
    code = "season_closed"
    status = 409
    message = _("This season is not running today, so it takes no new tables.")


class WrongFamily(ClubError):
    code = "wrong_family"
    message = _("This season is played with other games.")


class PublicTableNotAllowed(ClubError):
    code = "public_table_admins_only"
    status = 403
    message = _("Only an admin can open a club table to everyone.")


class BadMatchDay(ClubError):
    code = "bad_match_day"
    message = _("This match day cannot be scheduled: %(reason)s")


class MatchDayStarted(ClubError):
    code = "match_day_started"
    status = 409
    message = _("This match day has started: sign-ups are closed.")


class MatchDayFull(ClubError):
    code = "match_day_full"
    status = 409
    message = _("Every seat of this match day is taken.")


class AlreadySignedUp(ClubError):
    code = "already_signed_up"
    status = 409
    message = _("You are already signed up.")


class NotSignedUp(ClubError):
    code = "not_signed_up"
    status = 409
    message = _("You are not signed up.")


class TooFewSignups(ClubError):
    code = "too_few_signups"
    status = 409
    message = _("Too few players have signed up for one table (%(low)d needed).")


class NotLeagueGame(ClubError):
    code = "not_league_game"
    status = 404
    message = _("This is not a game of this club's seasons.")


class GameNotFinished(ClubError):
    code = "game_not_finished"
    status = 409
    message = _("Only a finished game can be voided.")


class AlreadyVoided(ClubError):
    code = "already_voided"
    status = 409
    message = _("This game is already voided.")
