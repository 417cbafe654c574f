"""Creating a club and its people: joining by request or invite, leaving, removing,
roles, ownership. Every refusal is a clear error with nothing changed."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from clubs import errors, services
from clubs.models import Club, Invite, JoinRequest, Membership
from tests.clubs.conftest import ClubSetup, join, make_club
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def roles(club: Club) -> dict[str, str]:
    return dict(club.members.values_list("user__username", "role"))


def snapshot(club: Club) -> tuple:
    return (
        sorted(roles(club).items()),
        sorted(JoinRequest.objects.filter(club=club).values_list("user_id", flat=True)),
        sorted(Invite.objects.filter(club=club).values_list("pk", "revoked_at")),
    )


def test_a_new_club_has_its_creator_as_owner() -> None:
    owner = UserFactory()
    club = services.club_create(
        owner=owner, name=" Лига ", slug=" Liga ", description="", is_private=True
    )
    assert club.name == "Лига" and club.slug == "liga" and club.is_private
    assert roles(club) == {owner.username: "owner"}


@pytest.mark.parametrize(
    "slug", ["", "ab", "a_b", "-edge", "edge-", "new", "ratings", "под", "a b c"]
)
def test_a_bad_address_is_refused(slug: str) -> None:
    with pytest.raises(errors.BadClub):
        services.club_create(owner=UserFactory(), name="x", slug=slug, is_private=False)
    assert not Club.objects.exists()


def test_a_taken_address_is_refused() -> None:
    services.club_create(owner=UserFactory(), name="a", slug="taken", is_private=False)
    with pytest.raises(errors.SlugTaken):
        services.club_create(
            owner=UserFactory(), name="b", slug="taken", is_private=False
        )
    assert Club.objects.count() == 1 and Membership.objects.count() == 1


def test_join_by_request_then_approval(club: ClubSetup) -> None:
    newcomer = UserFactory()
    asked = services.join_request_create(club=club.club, user=newcomer)
    with pytest.raises(errors.AlreadyAsked):
        services.join_request_create(club=club.club, user=newcomer)
    services.join_request_approve(club=club.club, admin=club.admin, request_id=asked.pk)
    assert roles(club.club)[newcomer.username] == "member"
    assert not JoinRequest.objects.filter(club=club.club).exists()


def test_joining_twice_is_refused_and_changes_nothing(club: ClubSetup) -> None:
    before = snapshot(club.club)
    with pytest.raises(errors.AlreadyMember):
        services.join_request_create(club=club.club, user=club.members[0])
    invite = services.invite_create(club=club.club, admin=club.admin)
    before = snapshot(club.club)
    with pytest.raises(errors.AlreadyMember):
        services.invite_accept(token=invite.token, user=club.members[0])
    assert snapshot(club.club) == before


def test_a_declined_request_leaves_no_member(club: ClubSetup) -> None:
    newcomer = UserFactory()
    asked = services.join_request_create(club=club.club, user=newcomer)
    services.join_request_decline(club=club.club, admin=club.admin, request_id=asked.pk)
    assert newcomer.username not in roles(club.club)
    with pytest.raises(errors.NoSuchRequest):
        services.join_request_approve(
            club=club.club, admin=club.admin, request_id=asked.pk
        )


def test_an_invite_link_lets_anyone_in_until_revoked(club: ClubSetup) -> None:
    invite = services.invite_create(club=club.club, admin=club.admin, days=3)
    first, second = UserFactory(), UserFactory()
    services.join_request_create(club=club.club, user=first)
    services.invite_accept(token=invite.token, user=first)
    assert roles(club.club)[first.username] == "member"
    assert not JoinRequest.objects.filter(user=first).exists()  # answered
    services.invite_revoke(club=club.club, admin=club.admin, invite_id=invite.pk)
    before = snapshot(club.club)
    with pytest.raises(errors.InviteNotUsable):
        services.invite_accept(token=invite.token, user=second)
    assert snapshot(club.club) == before
    assert second.username not in roles(club.club)


def test_an_expired_or_unknown_invite_is_refused(club: ClubSetup) -> None:
    invite = services.invite_create(club=club.club, admin=club.admin, days=1)
    Invite.objects.filter(pk=invite.pk).update(
        expires_at=timezone.now() - dt.timedelta(seconds=1)
    )
    user = UserFactory()
    for token in (invite.token, "no-such-token"):
        with pytest.raises(errors.InviteNotUsable):
            services.invite_accept(token=token, user=user)
    assert user.username not in roles(club.club)
    with pytest.raises(errors.InviteNotUsable):  # cannot revoke it twice either
        services.invite_revoke(club=club.club, admin=club.admin, invite_id=invite.pk)


@pytest.mark.parametrize("days", [0, 31, -1])
def test_an_invite_lasts_one_to_thirty_days(club: ClubSetup, days: int) -> None:
    with pytest.raises(errors.BadClub):
        services.invite_create(club=club.club, admin=club.admin, days=days)
    assert not Invite.objects.exists()


def test_leaving_and_the_owner_who_cannot(club: ClubSetup) -> None:
    member = club.members[0]
    services.member_leave(club=club.club, user=member)
    assert member.username not in roles(club.club)
    with pytest.raises(errors.NotMember):
        services.member_leave(club=club.club, user=member)
    before = snapshot(club.club)
    with pytest.raises(errors.OwnerCannotLeave):
        services.member_leave(club=club.club, user=club.owner)
    assert snapshot(club.club) == before


def test_who_may_remove_whom(club: ClubSetup) -> None:
    second_admin = club.members[0]
    services.member_set_role(
        club=club.club, owner=club.owner, user_id=second_admin.pk, role="admin"
    )
    before = snapshot(club.club)
    refusals = [
        (club.members[1], club.members[2].pk, errors.NotAdmin),  # a member
        (club.admin, club.owner.pk, errors.CannotRemove),  # the owner
        (club.admin, second_admin.pk, errors.CannotRemove),  # another admin
        (club.admin, club.admin.pk, errors.CannotRemove),  # oneself
        (club.admin, UserFactory().pk, errors.NoSuchMember),
    ]
    for acting, target, error in refusals:
        with pytest.raises(error):
            services.member_remove(club=club.club, admin=acting, user_id=target)
    assert snapshot(club.club) == before
    services.member_remove(club=club.club, admin=club.admin, user_id=club.members[1].pk)
    services.member_remove(club=club.club, admin=club.owner, user_id=second_admin.pk)
    assert club.members[1].username not in roles(club.club)
    assert second_admin.username not in roles(club.club)


def test_only_the_owner_hands_roles_and_the_club(club: ClubSetup) -> None:
    target = club.members[0]
    before = snapshot(club.club)
    with pytest.raises(errors.NotOwner):
        services.member_set_role(
            club=club.club, owner=club.admin, user_id=target.pk, role="admin"
        )
    with pytest.raises(errors.NotOwner):
        services.ownership_transfer(club=club.club, owner=club.admin, user_id=target.pk)
    with pytest.raises(errors.BadClub):
        services.member_set_role(
            club=club.club, owner=club.owner, user_id=target.pk, role="owner"
        )
    assert snapshot(club.club) == before
    services.ownership_transfer(club=club.club, owner=club.owner, user_id=target.pk)
    assert roles(club.club)[target.username] == "owner"
    assert roles(club.club)[club.owner.username] == "admin"
    assert club.club.members.filter(role="owner").count() == 1
    services.member_leave(club=club.club, user=club.owner)  # no longer the owner


def test_a_member_cannot_act_as_an_admin(club: ClubSetup) -> None:
    member, newcomer = club.members[0], UserFactory()
    asked = services.join_request_create(club=club.club, user=newcomer)
    invite = services.invite_create(club=club.club, admin=club.admin)
    notice = services.notice_post(club=club.club, admin=club.admin, title="t", body="b")
    before = snapshot(club.club)
    calls = [
        lambda: services.join_request_approve(
            club=club.club, admin=member, request_id=asked.pk
        ),
        lambda: services.join_request_decline(
            club=club.club, admin=member, request_id=asked.pk
        ),
        lambda: services.invite_create(club=club.club, admin=member),
        lambda: services.invite_revoke(
            club=club.club, admin=member, invite_id=invite.pk
        ),
        lambda: services.member_remove(
            club=club.club, admin=member, user_id=club.members[1].pk
        ),
        lambda: services.notice_post(club=club.club, admin=member, title="t", body="b"),
        lambda: services.notice_delete(
            club=club.club, admin=member, notice_id=notice.pk
        ),
        lambda: services.club_update(
            club=club.club, admin=member, name="x", description="", is_private=True
        ),
    ]
    for call in calls:
        with pytest.raises(errors.NotAdmin):
            call()
    assert snapshot(club.club) == before
    club.club.refresh_from_db()
    assert club.club.name != "x" and not club.club.is_private
    assert club.club.notices.count() == 1


def test_a_second_club_is_separate() -> None:
    first, second = make_club(members=2), make_club(members=2)
    with pytest.raises(errors.NotAdmin):
        services.invite_create(club=second.club, admin=first.admin)
    outsider = UserFactory()
    join(second.club, second.admin, outsider)
    assert outsider.username not in roles(first.club)
