"""A table's page and the forms it posts: parse, call one service, draw. Every form
works as a plain POST and a reload; htmx and the socket only make it quicker. The
page draws the live area from the same parts a push sends (``live.parts``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.messages import get_messages
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from games import errors, presence, services
from games.errors import CARD_TAG
from games.forms import move_from_fields
from games.kit.family import family_of
from games.models import ChatMessage, Game
from games.selectors import chat_for, reachable_game
from games.words import option_labels
from live import parts
from live import room as rooms
from live import table as tables
from live.table import Table


def _game_or_404(code: str, request: HttpRequest) -> Game:
    user = request.user if request.user.is_authenticated else None
    game = reachable_game(code, user)
    if game is None:
        raise Http404
    return game


def _origin(request: HttpRequest) -> str:
    return f"{request.scheme}://{request.get_host()}"


def table_now(game: Game) -> Table | None:
    """The table behind ``game`` (a row just read or written): this process's
    room's, when its row is that very change, else read at that row's version (with
    what the room knows), even if later moves have come since. The room's table
    is one attribute, read once: its row says which change it shows, whatever the
    room's loop is doing meanwhile."""
    room = rooms.room_of(game.pk)
    known = room.table if room is not None else None
    if (
        known is not None
        and known.game.change_id == game.change_id
        and known.game.code == game.code
    ):
        return known
    return tables.read(game.pk, game.code, known, row=game)


def _live_area(
    request: HttpRequest, table: Table, *, card_error: str = "", oob: bool = False
) -> str:
    user = request.user if request.user.is_authenticated else None
    room = rooms.room_of(table.game.pk)
    html, _shown = parts.area(
        table,
        table.viewer(user),
        # The room's drawings when the table is the room's: what its pushes drew
        # for equal inputs is not drawn again.
        room.drawings if room is not None and room.table is table else parts.Drawings(),
        token=get_token(request),
        origin=_origin(request),
        user=user,
        card_error=card_error,
        oob=oob,
    )
    return html


def table(request: HttpRequest, code: str) -> HttpResponse:
    game = _game_or_404(code, request)
    user = request.user if request.user.is_authenticated else None
    if user is not None:
        presence.returned(game, user.pk)
    found = table_now(game)
    if found is None:
        raise Http404
    card_error = " ".join(
        str(m) for m in get_messages(request) if CARD_TAG in m.tags.split()
    )
    live = _live_area(request, found, card_error=card_error)
    if request.htmx and request.GET.get("fragment") == "live":
        return HttpResponse(live)
    viewer = found.viewer(user)
    readable = found.readable_channels(viewer)
    game = found.game
    context: dict[str, Any] = {
        "game": game,
        "words": family_of(game.ruleset).words(game.ruleset),
        "option_labels": option_labels(game),
        "is_seated": viewer.seated,
        "live_html": live,
        "chat": chat_for(game, [ChatMessage.Channel.TABLE])
        if ChatMessage.Channel.TABLE in readable
        else [],
        "can_chat_table": (viewer.seated or viewer.moderating)
        and ChatMessage.Channel.TABLE in readable
        and game.status in (Game.Status.OPEN, Game.Status.PLAYING),
    }
    return render(request, "games/table.html", context)


def _after_post(
    request: HttpRequest, game: Game, error: errors.GameError | None
) -> HttpResponse:
    """Plain POST: back to the table (errors as a message). htmx: the fresh live area,
    with the error in the error region. A private refusal (``GameError.private``)
    goes on the seat's card instead, the page's error line left empty."""
    private = error is not None and error.private
    if request.htmx:
        fresh = Game.objects.filter(pk=game.pk).first()
        found = table_now(fresh) if fresh is not None else None
        if found is None:
            response = HttpResponse(status=204)
            response["HX-Redirect"] = "/games/"
            return response
        html = _live_area(
            request, found, card_error=str(error) if private else "", oob=True
        )
        html += render_to_string(
            "games/_error.html",
            {"error": str(error) if error and not private else ""},
            request=request,
        )
        return HttpResponse(html, status=200 if error is None else error.status)
    if error is not None:
        messages.error(request, str(error), extra_tags=CARD_TAG if private else "")
    # Every service posted here keeps the table (closing one has its own view).
    return redirect(game)


def _post_service(request: HttpRequest, code: str, call: Any) -> HttpResponse:
    game = _game_or_404(code, request)
    try:
        call(game)
    except errors.GameError as exc:
        return _after_post(request, game, exc)
    return _after_post(request, game, None)


@login_required
@require_POST
def seat_join(request: HttpRequest, code: str) -> HttpResponse:
    return _post_service(
        request, code, lambda g: services.seat_join(game=g, user=request.user)
    )


@login_required
@require_POST
def seat_leave(request: HttpRequest, code: str) -> HttpResponse:
    return _post_service(
        request, code, lambda g: services.seat_leave(game=g, user=request.user)
    )


@login_required
@require_POST
def seat_remove(request: HttpRequest, code: str) -> HttpResponse:
    seat_id = request.POST.get("seat", "")
    if not seat_id.isdigit():
        return _after_post(request, _game_or_404(code, request), errors.NotSeated())
    return _post_service(
        request,
        code,
        lambda g: services.seat_remove(game=g, host=request.user, seat_id=int(seat_id)),
    )


@login_required
@require_POST
def seats_fill_with_bots(request: HttpRequest, code: str) -> HttpResponse:
    return _post_service(
        request,
        code,
        lambda g: services.seats_fill_with_bots(game=g, host=request.user),
    )


@login_required
@require_POST
def game_start(request: HttpRequest, code: str) -> HttpResponse:
    return _post_service(
        request, code, lambda g: services.game_start(game=g, user=request.user)
    )


@login_required
@require_POST
def table_close(request: HttpRequest, code: str) -> HttpResponse:
    game = _game_or_404(code, request)
    try:
        services.table_close(game=game, host=request.user)
    except errors.GameError as exc:
        return _after_post(request, game, exc)
    messages.success(request, gettext("The table is closed."))
    return redirect("games:lobby")


@login_required
@require_POST
def game_rematch(request: HttpRequest, code: str) -> HttpResponse:
    game = _game_or_404(code, request)
    try:
        new = services.game_rematch(game=game, user=request.user)
    except errors.GameError as exc:
        return _after_post(request, game, exc)
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = new.get_absolute_url()
        return response
    return redirect(new)


@login_required
@require_POST
def game_abandon(request: HttpRequest, code: str) -> HttpResponse:
    return _post_service(
        request, code, lambda g: services.game_abandon(game=g, user=request.user)
    )


@login_required
@require_POST
def game_act(request: HttpRequest, code: str) -> HttpResponse:
    def act(game: Game) -> None:
        action, turn = move_from_fields(game.ruleset, request.POST)
        room = rooms.room_of(game.pk)
        known = room.known() if room is not None else None
        move_id = request.POST.get("move_id", "")
        if move_id:
            # A form sent twice (a reload's resend, a retry) is applied once.
            services.game_act_named(
                game=game,
                user=request.user,
                action=action,
                turn=turn,
                move_id=move_id,
                known=known,
            )
            return
        services.game_act(
            game=game, user=request.user, action=action, turn=turn, known=known
        )

    return _post_service(request, code, act)


@login_required
@require_POST
def chat_post(request: HttpRequest, code: str) -> HttpResponse:
    game = _game_or_404(code, request)
    try:
        services.chat_post(
            game=game,
            user=request.user,
            text=request.POST.get("text", ""),
            channel=request.POST.get("channel", "table"),
        )
    except errors.GameError as exc:
        if request.htmx:
            return render(
                request, "games/_error.html", {"error": str(exc)}, status=exc.status
            )
        messages.error(request, str(exc))
        return redirect(game)
    if request.htmx:
        return HttpResponse(status=204)
    return redirect(game)
