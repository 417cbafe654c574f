"""Clubs and their people: creating and editing a club, joining (by request or by
invite), leaving, removing, roles and ownership, and the notice board.

Keyword-only functions, one transaction each; bad input raises a ``ClubError`` with
nothing written. Whoever loses sight of a club's tables (a removed member, a club
turned private) has their open sockets re-checked after commit
(``games.push.access_changed_on_commit``), so a lost right is lost at once.
"""

from __future__ import annotations

import datetime as dt
import re

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from clubs import errors
from clubs.models import (
    DESCRIPTION_MAX_LENGTH,
    NOTICE_MAX_LENGTH,
    RESERVED_SLUGS,
    SLUG_PATTERN,
    Club,
    ClubTable,
    Invite,
    JoinRequest,
    Membership,
    Notice,
)
from games import push
from games.models import Game

Role = Membership.Role
INVITE_MAX_DAYS = 30


# --- who may do what ---------------------------------------------------------------


def membership_of(club: Club, user: User | None) -> Membership | None:
    if user is None or not user.is_authenticated:
        return None
    return Membership.objects.filter(club=club, user=user).first()


def require_member(club: Club, user: User) -> Membership:
    membership = membership_of(club, user)
    if membership is None:
        raise errors.NotMember
    return membership


def require_admin(club: Club, user: User) -> Membership:
    membership = membership_of(club, user)
    if membership is None or not membership.is_admin:
        raise errors.NotAdmin
    return membership


def require_owner(club: Club, user: User) -> Membership:
    membership = membership_of(club, user)
    if membership is None or membership.role != Role.OWNER:
        raise errors.NotOwner
    return membership


def _locked(club: Club) -> Club:
    """The club's row, locked until the transaction ends: changes to its people
    happen one at a time."""
    try:
        return Club.objects.select_for_update().get(pk=club.pk)
    except Club.DoesNotExist as exc:
        raise errors.ClubNotFound from exc


def _access_changed(club: Club) -> None:
    """Every live table of the club re-checks its sockets after commit."""
    live = ClubTable.objects.filter(
        club=club, game__status__in=[Game.Status.OPEN, Game.Status.PLAYING]
    ).select_related("game")
    for table in live:
        push.access_changed_on_commit(table.game)


# --- the club ----------------------------------------------------------------------


def _clean_details(name: str, description: str) -> tuple[str, str]:
    name = (name or "").strip()
    description = (description or "").strip()
    if not name:
        raise errors.BadClub(reason=gettext("the club needs a name."))
    if len(name) > Club._meta.get_field("name").max_length:  # type: ignore[operator]
        raise errors.BadClub(reason=str(_too_long()))
    if len(description) > DESCRIPTION_MAX_LENGTH:
        raise errors.BadClub(reason=str(_too_long()))
    return name, description


def _too_long() -> str:
    return gettext("the text is too long.")


def club_create(
    *, owner: User, name: str, slug: str, description: str = "", is_private: bool
) -> Club:
    """A new club with ``owner`` as its owner and first member."""
    name, description = _clean_details(name, description)
    slug = (slug or "").strip().lower()
    if not re.fullmatch(SLUG_PATTERN, slug) or slug in RESERVED_SLUGS:
        raise errors.BadClub(
            reason=gettext(
                "the address takes 3 to 40 small Latin letters, digits and hyphens."
            )
        )
    try:
        with transaction.atomic():
            club = Club.objects.create(
                name=name, slug=slug, description=description, is_private=is_private
            )
            Membership.objects.create(club=club, user=owner, role=Role.OWNER)
    except IntegrityError as exc:
        raise errors.SlugTaken from exc
    return club


def club_update(
    *, club: Club, admin: User, name: str, description: str, is_private: bool
) -> Club:
    name, description = _clean_details(name, description)
    with transaction.atomic():
        club = _locked(club)
        require_admin(club, admin)
        became_private = is_private and not club.is_private
        club.name, club.description, club.is_private = name, description, is_private
        club.save(update_fields=["name", "description", "is_private"])
        if became_private:
            _access_changed(club)
    return club


# --- joining -----------------------------------------------------------------------


def join_request_create(*, club: Club, user: User) -> JoinRequest:
    with transaction.atomic():
        club = _locked(club)
        if membership_of(club, user) is not None:
            raise errors.AlreadyMember
        if JoinRequest.objects.filter(club=club, user=user).exists():
            raise errors.AlreadyAsked
        return JoinRequest.objects.create(club=club, user=user)


def join_request_cancel(*, club: Club, user: User) -> None:
    with transaction.atomic():
        deleted, _ = JoinRequest.objects.filter(club=club, user=user).delete()
        if not deleted:
            raise errors.NoSuchRequest


def _pending(club: Club, request_id: int) -> JoinRequest:
    pending = (
        JoinRequest.objects.select_for_update().filter(club=club, pk=request_id).first()
    )
    if pending is None:
        raise errors.NoSuchRequest
    return pending


def join_request_approve(*, club: Club, admin: User, request_id: int) -> Membership:
    with transaction.atomic():
        club = _locked(club)
        require_admin(club, admin)
        pending = _pending(club, request_id)
        membership = Membership.objects.create(club=club, user_id=pending.user_id)
        pending.delete()
    return membership


def join_request_decline(*, club: Club, admin: User, request_id: int) -> None:
    with transaction.atomic():
        club = _locked(club)
        require_admin(club, admin)
        _pending(club, request_id).delete()


def invite_create(*, club: Club, admin: User, days: int = 7) -> Invite:
    if not 1 <= days <= INVITE_MAX_DAYS:
        raise errors.BadClub(
            reason=gettext("an invite lasts 1 to %(days)d days.")
            % {"days": INVITE_MAX_DAYS}
        )
    with transaction.atomic():
        club = _locked(club)
        require_admin(club, admin)
        return Invite.objects.create(
            club=club,
            created_by=admin,
            expires_at=timezone.now() + dt.timedelta(days=days),
        )


def invite_revoke(*, club: Club, admin: User, invite_id: int) -> Invite:
    with transaction.atomic():
        club = _locked(club)
        require_admin(club, admin)
        invite = Invite.objects.filter(club=club, pk=invite_id).first()
        if invite is None or not invite.is_usable():
            raise errors.InviteNotUsable
        invite.revoked_at = timezone.now()
        invite.save(update_fields=["revoked_at"])
    return invite


def usable_invite(token: str) -> Invite | None:
    invite = Invite.objects.select_related("club").filter(token=token).first()
    return invite if invite is not None and invite.is_usable() else None


def invite_accept(*, token: str, user: User) -> Membership:
    """Join through an invite link; a pending request to join is then answered."""
    with transaction.atomic():
        invite = Invite.objects.select_for_update().filter(token=token).first()
        if invite is None or not invite.is_usable():
            raise errors.InviteNotUsable
        club = _locked(invite.club)
        if membership_of(club, user) is not None:
            raise errors.AlreadyMember
        membership = Membership.objects.create(club=club, user=user)
        JoinRequest.objects.filter(club=club, user=user).delete()
    return membership


# --- leaving, removing, roles --------------------------------------------------------


def member_leave(*, club: Club, user: User) -> None:
    with transaction.atomic():
        club = _locked(club)
        membership = require_member(club, user)
        if membership.role == Role.OWNER:
            raise errors.OwnerCannotLeave
        membership.delete()
        _access_changed(club)


def _member(club: Club, user_id: int) -> Membership:
    membership = Membership.objects.filter(club=club, user_id=user_id).first()
    if membership is None:
        raise errors.NoSuchMember
    return membership


def member_remove(*, club: Club, admin: User, user_id: int) -> None:
    """An admin removes a member (the owner also an admin); never the owner, and
    never oneself (that is leaving). The removed member's sockets at the club's
    tables are checked again at once."""
    with transaction.atomic():
        club = _locked(club)
        acting = require_admin(club, admin)
        target = _member(club, user_id)
        if target.user_id == admin.pk or target.role == Role.OWNER:
            raise errors.CannotRemove
        if target.role == Role.ADMIN and acting.role != Role.OWNER:
            raise errors.CannotRemove
        target.delete()
        _access_changed(club)


def member_set_role(*, club: Club, owner: User, user_id: int, role: str) -> Membership:
    """The owner makes a member an admin or an admin a member again."""
    if role not in (Role.ADMIN, Role.MEMBER):
        raise errors.BadClub(reason=gettext("there is no such role."))
    with transaction.atomic():
        club = _locked(club)
        require_owner(club, owner)
        target = _member(club, user_id)
        if target.role == Role.OWNER:
            raise errors.CannotRemove
        target.role = role
        target.save(update_fields=["role"])
    return target


def ownership_transfer(*, club: Club, owner: User, user_id: int) -> Membership:
    """Hand the club to another member; the old owner stays on as an admin."""
    with transaction.atomic():
        club = _locked(club)
        current = require_owner(club, owner)
        target = _member(club, user_id)
        if target.pk == current.pk:
            raise errors.NoSuchMember
        current.role = Role.ADMIN
        current.save(update_fields=["role"])
        target.role = Role.OWNER
        target.save(update_fields=["role"])
    return target


# --- the notice board --------------------------------------------------------------


def notice_post(*, club: Club, admin: User, title: str, body: str) -> Notice:
    title, body = (title or "").strip(), (body or "").strip()
    if not title or not body:
        raise errors.EmptyText
    if len(title) > Notice._meta.get_field("title").max_length:  # type: ignore[operator]
        raise errors.BadClub(reason=_too_long())
    if len(body) > NOTICE_MAX_LENGTH:
        raise errors.BadClub(reason=_too_long())
    with transaction.atomic():
        club = _locked(club)
        require_admin(club, admin)
        return Notice.objects.create(club=club, author=admin, title=title, body=body)


def notice_delete(*, club: Club, admin: User, notice_id: int) -> None:
    with transaction.atomic():
        club = _locked(club)
        require_admin(club, admin)
        deleted, _ = Notice.objects.filter(club=club, pk=notice_id).delete()
        if not deleted:
            raise errors.NoSuchNotice
