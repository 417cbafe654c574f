"""Thin club pages: parse, call one service, render or redirect (post, redirect,
get). A service's refusal becomes a message on the page it came from; a private
club's inner pages answer 404 to outsiders, as if they did not exist."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from clubs import errors, notices, presenters, selectors, services
from clubs.families import family_codes, family_label, sides_of
from clubs.forms import (
    ClubEditForm,
    ClubForm,
    ClubTableForm,
    InviteForm,
    MatchDayForm,
    NoticeForm,
    SeasonForm,
    VoidForm,
)
from clubs.models import Club, MatchDay, Membership, Notice, Season
from games.errors import GameError
from games.models import Game
from history.presenters import listed_games
from history.selectors import game_rows


def _viewer(request: HttpRequest) -> User | None:
    user = request.user
    return user if user.is_authenticated else None  # type: ignore[return-value]


def _club(slug: str) -> Club:
    club = selectors.club_by_slug(slug)
    if club is None:
        raise Http404
    return club


def _inside(request: HttpRequest, slug: str) -> tuple[Club, Membership | None]:
    """The club and the viewer's membership, or 404 when the viewer may not see
    the club's inside (a private club, to an outsider)."""
    club = _club(slug)
    member = selectors.membership(club, _viewer(request))
    if not selectors.can_see(club, member):
        raise Http404
    return club, member


def _admin_club(request: HttpRequest, slug: str) -> Club:
    """The club, for one of its admins' pages; 404 to anyone else."""
    club = _club(slug)
    try:
        services.require_admin(club, request.user)
    except errors.ClubError as exc:
        raise Http404 from exc
    return club


def _back(request: HttpRequest, default: str) -> HttpResponseRedirect:
    """Back to the page the form was on, else ``default``. Only a path on this
    site is followed (``/clubs/…``): a foreign host, another scheme or a word that
    is not a path (never looked up as a view's name) goes to ``default``."""
    target = request.POST.get("next", "")
    if (
        target.startswith("/")
        and url_has_allowed_host_and_scheme(
            target,
            allowed_hosts={request.get_host()},
            require_https=request.is_secure(),
        )
        and not any(ord(ch) < 32 or ch in "\\\x7f" for ch in target)
    ):
        return HttpResponseRedirect(target)
    return redirect(default)


def _act(
    request: HttpRequest, call: Callable[[], Any], done: str, default: str
) -> HttpResponseRedirect:
    """Run one service call; say what happened, or why not, on the next page."""
    try:
        call()
    except GameError as exc:
        messages.error(request, str(exc))
    else:
        if done:
            messages.success(request, done)
    return _back(request, default)


def _int(request: HttpRequest, name: str) -> int:
    value = request.POST.get(name, "")
    if not (value.isascii() and value.isdigit() and len(value) < 12):
        raise Http404
    return int(value)


# --- clubs -------------------------------------------------------------------------


@require_GET
def directory(request: HttpRequest) -> HttpResponse:
    mine, others = selectors.club_directory(_viewer(request))
    return render(
        request,
        "clubs/directory.html",
        {"mine": mine, "others": others, "families": _families()},
    )


@login_required
def club_new(request: HttpRequest) -> HttpResponse:
    form = ClubForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            club = services.club_create(owner=request.user, **form.cleaned_data)
        except GameError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, gettext("Your club is open."))
            return redirect(club)
    return render(
        request,
        "clubs/form.html",
        {"form": form, "title": gettext("Create a club"), "submit": gettext("Create")},
    )


@require_GET
def club_page(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(slug)
    viewer = _viewer(request)
    member = selectors.membership(club, viewer)
    context: dict[str, Any] = {
        "club": club,
        "description": notices.render(club.description),
        "member": member,
        "members": selectors.member_count(club),
        "inside": selectors.can_see(club, member),
        "asked": member is None and selectors.pending_request(club, viewer),
    }
    if context["inside"]:
        games = selectors.finished_games(club)
        context.update(
            tables=selectors.live_tables(club),
            rows=listed_games(game_rows(games)),
            seasons=selectors.seasons_of(club),
            days=selectors.upcoming_days(club),
            all_games_url=selectors.history_url(club=club.slug),
        )
    if member is not None:
        context["notices"] = presenters.notices(selectors.latest_notices(club))
        context["notice_form"] = NoticeForm() if member.is_admin else None
    return render(request, "clubs/club.html", context)


@login_required
def club_edit(request: HttpRequest, slug: str) -> HttpResponse:
    club = _admin_club(request, slug)
    initial = {
        "name": club.name,
        "description": club.description,
        "is_private": club.is_private,
    }
    form = ClubEditForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            services.club_update(club=club, admin=request.user, **form.cleaned_data)
        except GameError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, gettext("Saved."))
            return redirect(club)
    return render(
        request,
        "clubs/form.html",
        {
            "form": form,
            "club": club,
            "title": gettext("Club settings"),
            "submit": gettext("Save"),
        },
    )


@login_required
@require_POST
def club_join(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(slug)
    return _act(
        request,
        lambda: services.join_request_create(club=club, user=request.user),
        gettext("You asked to join. An admin will answer."),
        club.get_absolute_url(),
    )


@login_required
@require_POST
def club_request_cancel(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(slug)
    return _act(
        request,
        lambda: services.join_request_cancel(club=club, user=request.user),
        gettext("Your request to join is withdrawn."),
        club.get_absolute_url(),
    )


@login_required
@require_POST
def club_leave(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(slug)
    return _act(
        request,
        lambda: services.member_leave(club=club, user=request.user),
        gettext("You left the club."),
        club.get_absolute_url(),
    )


# --- members -----------------------------------------------------------------------


@require_GET
def members(request: HttpRequest, slug: str) -> HttpResponse:
    club, member = _inside(request, slug)
    admin = member is not None and member.is_admin
    page = selectors.members_page(club, admin=admin)
    context = {
        "club": club,
        "member": member,
        "page": page,
        "admin": admin,
        "invite_form": InviteForm() if admin else None,
        "invite_links": [
            (invite, request.build_absolute_uri(invite.get_absolute_url()))
            for invite in page.invites
        ],
    }
    return render(request, "clubs/members.html", context)


def _admin_post(
    request: HttpRequest,
    slug: str,
    call: Callable[[Club], Any],
    done: str,
) -> HttpResponse:
    club = _club(slug)
    return _act(
        request,
        lambda: call(club),
        done,
        reverse("clubs:members", kwargs={"slug": club.slug}),
    )


@login_required
@require_POST
def request_approve(request: HttpRequest, slug: str) -> HttpResponse:
    request_id = _int(request, "request")
    return _admin_post(
        request,
        slug,
        lambda club: services.join_request_approve(
            club=club, admin=request.user, request_id=request_id
        ),
        gettext("Welcome to the new member."),
    )


@login_required
@require_POST
def request_decline(request: HttpRequest, slug: str) -> HttpResponse:
    request_id = _int(request, "request")
    return _admin_post(
        request,
        slug,
        lambda club: services.join_request_decline(
            club=club, admin=request.user, request_id=request_id
        ),
        gettext("The request is declined."),
    )


@login_required
@require_POST
def member_remove(request: HttpRequest, slug: str) -> HttpResponse:
    user_id = _int(request, "user")
    return _admin_post(
        request,
        slug,
        lambda club: services.member_remove(
            club=club, admin=request.user, user_id=user_id
        ),
        gettext("The member is removed."),
    )


@login_required
@require_POST
def member_role(request: HttpRequest, slug: str) -> HttpResponse:
    user_id = _int(request, "user")
    role = request.POST.get("role", "")
    return _admin_post(
        request,
        slug,
        lambda club: services.member_set_role(
            club=club, owner=request.user, user_id=user_id, role=role
        ),
        gettext("Saved."),
    )


@login_required
@require_POST
def ownership_transfer(request: HttpRequest, slug: str) -> HttpResponse:
    user_id = _int(request, "user")
    return _admin_post(
        request,
        slug,
        lambda club: services.ownership_transfer(
            club=club, owner=request.user, user_id=user_id
        ),
        gettext("The club has a new owner."),
    )


@login_required
@require_POST
def invite_create(request: HttpRequest, slug: str) -> HttpResponse:
    form = InviteForm(request.POST)
    days = form.cleaned_data["days"] if form.is_valid() else 0
    return _admin_post(
        request,
        slug,
        lambda club: services.invite_create(club=club, admin=request.user, days=days),
        gettext("A new invite link is ready: copy it below."),
    )


@login_required
@require_POST
def invite_revoke(request: HttpRequest, slug: str) -> HttpResponse:
    invite_id = _int(request, "invite")
    return _admin_post(
        request,
        slug,
        lambda club: services.invite_revoke(
            club=club, admin=request.user, invite_id=invite_id
        ),
        gettext("The invite link no longer works."),
    )


def invite(request: HttpRequest, token: str) -> HttpResponse:
    """An invite link: the club it opens, and a button to join (after logging in).
    A link that no longer works says so (410 Gone) and names no club."""
    found = services.usable_invite(token)
    if found is None:
        return render(request, "clubs/invite.html", {"invite": None}, status=410)
    if request.method == "POST" and request.user.is_authenticated:
        try:
            services.invite_accept(token=token, user=request.user)
        except GameError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, gettext("You joined the club."))
        return redirect(found.club)
    member = selectors.membership(found.club, _viewer(request))
    return render(
        request, "clubs/invite.html", {"invite": found, "already": member is not None}
    )


# --- notices -----------------------------------------------------------------------


@require_GET
def notice_list(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(slug)
    member = selectors.membership(club, _viewer(request))
    if member is None:
        raise Http404
    found = Notice.objects.filter(club=club).select_related("author")
    return render(
        request,
        "clubs/notices.html",
        {
            "club": club,
            "member": member,
            "notices": presenters.notices(found.order_by("-created_at", "-pk")),
            "notice_form": NoticeForm() if member.is_admin else None,
        },
    )


@login_required
@require_POST
def notice_post(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(slug)
    form = NoticeForm(request.POST)
    if not form.is_valid():
        messages.error(request, gettext("A notice needs a title and a text."))
        return _back(request, club.get_absolute_url())
    return _act(
        request,
        lambda: services.notice_post(
            club=club, admin=request.user, **form.cleaned_data
        ),
        gettext("The notice is posted."),
        club.get_absolute_url(),
    )


@login_required
@require_POST
def notice_delete(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(slug)
    notice_id = _int(request, "notice")
    return _act(
        request,
        lambda: services.notice_delete(
            club=club, admin=request.user, notice_id=notice_id
        ),
        gettext("The notice is removed."),
        club.get_absolute_url(),
    )


# --- tables and seasons ------------------------------------------------------------


@login_required
def table_new(request: HttpRequest, slug: str) -> HttpResponse:
    club = _club(slug)
    member = selectors.membership(club, request.user)
    if member is None:
        raise Http404
    seasons = selectors.open_seasons(club)
    initial = {}
    wanted = request.GET.get("season", "")
    if wanted.isdigit() and int(wanted) in {season.pk for season in seasons}:
        initial["season"] = int(wanted)
    form = ClubTableForm(
        request.POST or None, initial=initial, seasons=seasons, admin=member.is_admin
    )
    if request.method == "POST" and form.is_valid():
        try:
            game = services.club_table_create(
                club=club,
                user=request.user,
                ruleset=form.cleaned_data["ruleset"],
                seat_count=form.cleaned_data["seat_count"],
                options=form.chosen_options(),
                name=form.cleaned_data["name"],
                season=form.cleaned_data["season_obj"],
                members_only=not form.cleaned_data.get("open_to_all", False),
            )
        except GameError as exc:
            form.add_error(None, str(exc))
        else:
            return redirect(game)
    return render(request, "clubs/table_new.html", {"form": form, "club": club})


@login_required
def season_new(request: HttpRequest, slug: str) -> HttpResponse:
    club = _admin_club(request, slug)
    form = SeasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            season = services.season_create(
                club=club,
                admin=request.user,
                name=form.cleaned_data["name"],
                family=form.cleaned_data["family"],
                starts_on=form.cleaned_data["starts_on"],
                ends_on=form.cleaned_data["ends_on"],
                points=form.points(),
            )
        except GameError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, gettext("The season is open."))
            return redirect(season)
    return render(request, "clubs/season_new.html", {"form": form, "club": club})


def _season(club: Club, season_id: int) -> Season:
    season = Season.objects.filter(club=club, pk=season_id).first()
    if season is None:
        raise Http404
    return season


@require_GET
def season_page(request: HttpRequest, slug: str, season: int) -> HttpResponse:
    club, member = _inside(request, slug)
    found = _season(club, season)
    sides = sides_of(found.family)
    standings = selectors.standings(found, sides)
    return render(
        request,
        "clubs/season.html",
        {
            "club": club,
            "member": member,
            "season": found,
            "family_label": family_label(found.family),
            "sides": presenters.side_headers(found, sides),
            "points": presenters.points_scheme(found, sides),
            "standings": standings,
            "rows": presenters.standings_rows(standings),
            "games": selectors.season_game_count(found),
            "voided": selectors.voided_games(found),
            "recent": selectors.season_recent(found)
            if member is not None and member.is_admin
            else [],
            "games_url": selectors.history_url(season=found.pk),
        },
    )


@login_required
def game_void(request: HttpRequest, slug: str, code: str) -> HttpResponse:
    club = _club(slug)
    member = selectors.membership(club, request.user)
    if member is None or not member.is_admin:
        raise Http404
    game = Game.objects.filter(code=code, club_table__club=club).first()
    if game is None:
        raise Http404
    form = VoidForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            table = services.game_void(
                club=club,
                admin=request.user,
                game=game,
                reason=form.cleaned_data["reason"],
            )
        except GameError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, gettext("The game is voided."))
            if table.season is not None:
                return redirect(table.season)
            return redirect(club)
    rows = listed_games(game_rows([game]))
    return render(
        request,
        "clubs/void.html",
        {"club": club, "game": game, "rows": rows, "form": form},
    )


# --- match days --------------------------------------------------------------------


@login_required
def day_new(request: HttpRequest, slug: str) -> HttpResponse:
    club = _admin_club(request, slug)
    seasons = [
        s for s in selectors.seasons_of(club) if not s.ends_on < timezone.localdate()
    ]
    form = MatchDayForm(request.POST or None, seasons=seasons)
    if request.method == "POST" and form.is_valid():
        try:
            day = services.match_day_create(
                club=club,
                admin=request.user,
                season=form.season_obj(),
                ruleset=form.cleaned_data["ruleset"],
                starts_at=form.cleaned_data["starts_at"],
                seats=form.cleaned_data["seats"],
            )
        except GameError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, gettext("The match day is scheduled."))
            return redirect(day)
    return render(
        request, "clubs/day_new.html", {"form": form, "club": club, "seasons": seasons}
    )


def _day(club: Club, day_id: int) -> MatchDay:
    day = MatchDay.objects.filter(club=club, pk=day_id).select_related("season").first()
    if day is None:
        raise Http404
    return day


@require_GET
def day_page(request: HttpRequest, slug: str, day: int) -> HttpResponse:
    club, member = _inside(request, slug)
    found = _day(club, day)
    signups = selectors.signups_of(found)
    tables = presenters.day_tables(signups)
    viewer = _viewer(request)
    return render(
        request,
        "clubs/day.html",
        {
            "club": club,
            "member": member,
            "day": found,
            "signups": signups,
            "tables": tables,
            "equal_chances": presenters.equal_chances(found, tables),
            "signed_up": viewer is not None
            and any(signup.user_id == viewer.pk for signup in signups),
            "started": found.has_started(),
        },
    )


def _day_post(
    request: HttpRequest,
    slug: str,
    day_id: int,
    call: Callable[[MatchDay], Any],
    done: str,
) -> HttpResponse:
    club = _club(slug)
    day = _day(club, day_id)
    return _act(request, lambda: call(day), done, day.get_absolute_url())


@login_required
@require_POST
def day_signup(request: HttpRequest, slug: str, day: int) -> HttpResponse:
    return _day_post(
        request,
        slug,
        day,
        lambda found: services.match_day_signup(day=found, user=request.user),
        gettext("You are signed up."),
    )


@login_required
@require_POST
def day_withdraw(request: HttpRequest, slug: str, day: int) -> HttpResponse:
    return _day_post(
        request,
        slug,
        day,
        lambda found: services.match_day_withdraw(day=found, user=request.user),
        gettext("You are no longer signed up."),
    )


@login_required
@require_POST
def day_seat(request: HttpRequest, slug: str, day: int) -> HttpResponse:
    return _day_post(
        request,
        slug,
        day,
        lambda found: services.match_day_seat(day=found, admin=request.user),
        gettext("The tables are open: each host starts their game."),
    )


# --- ratings -----------------------------------------------------------------------


def _families() -> list[tuple[str, Any]]:
    return [(code, family_label(code)) for code in family_codes()]


@require_GET
def ratings(request: HttpRequest, family: str = "") -> HttpResponse:
    families = _families()
    if not family and families:
        family = families[0][0]
    if family not in dict(families):
        raise Http404
    board = selectors.leaderboard(family)
    return render(
        request,
        "clubs/ratings.html",
        {
            "families": families,
            "family": family,
            "family_label": family_label(family),
            "board": board,
            "rows": presenters.leaderboard_rows(board),
            "min_games": selectors.LEADERBOARD_MIN_GAMES,
        },
    )
