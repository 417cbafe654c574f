"""Thin HTTP endpoints: parse, call one service, render. Every page works with a plain
POST and a refresh; htmx and the socket only make it quicker."""

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

from games import engine, errors, presence, services, snapshots
from games.families.registry import family_of, playable_rulesets
from games.forms import CreateTableForm, move_from_fields
from games.models import Game
from games.rendering import CARD_TAG, table_page_context
from games.selectors import lobby_tables, my_tables, reachable_game, table_context


def lobby(request: HttpRequest) -> HttpResponse:
    user = request.user if request.user.is_authenticated else None
    context = {"tables": lobby_tables(user), "mine": my_tables(user)}
    if request.htmx:
        return render(request, "games/_lobby_tables.html", context)
    return render(request, "games/lobby.html", context)


def rules(request: HttpRequest) -> HttpResponse:
    games = []
    for code in playable_rulesets():
        ruleset = engine.get_ruleset(code)
        family = family_of(code)
        games.append(
            {
                "code": code,
                "words": family.words(code),
                "template": family.rules_template,
                "house_decisions": [gettext(text) for text in ruleset.house_decisions],
                "options": [
                    (gettext(o.label), gettext(o.help)) for o in ruleset.options
                ],
                **family.rules_context(code),
            }
        )
    return render(request, "games/rules.html", {"games": games})


@login_required
def table_create(request: HttpRequest) -> HttpResponse:
    form = CreateTableForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.game_create(
                host=request.user,
                ruleset=form.cleaned_data["ruleset"],
                seat_count=form.cleaned_data["seat_count"],
                options=form.chosen_options(),
                is_private=form.cleaned_data["is_private"],
                name=form.cleaned_data["name"],
                turn_seconds=form.cleaned_data["turn_seconds"] or 0,
            )
        except errors.GameError as exc:
            form.add_error(None, str(exc))
        else:
            return redirect(game)
    return render(request, "games/create.html", {"form": form})


def _origin(request: HttpRequest) -> str:
    return f"{request.scheme}://{request.get_host()}"


def _game_or_404(code: str, request: HttpRequest) -> Game:
    user = request.user if request.user.is_authenticated else None
    game = reachable_game(code, user)
    if game is None:
        raise Http404
    return game


def _known(game: Game) -> dict[str, Any]:
    """For a started table's row just read: its players and engine state as this
    process's snapshot of it holds them (seats never change once the game has
    started, and the sockets' pushes are drawn from the same ones); the snapshot is
    made, and kept for the next page and push, if there is none. Before the start
    nothing: the page reads them."""
    if game.status == Game.Status.OPEN:
        return {}
    snapshot = snapshots.of(game)
    return {"players": snapshot.players, "state": snapshot.state}


def table(request: HttpRequest, code: str) -> HttpResponse:
    game = _game_or_404(code, request)
    user = request.user if request.user.is_authenticated else None
    if user is not None:
        presence.returned(game, user.pk)
    context = table_page_context(
        table_context(game, user, **_known(game)),
        origin=_origin(request),
        csrf_token=get_token(request),
        card_error=" ".join(
            str(m) for m in get_messages(request) if CARD_TAG in m.tags.split()
        ),
    )
    if request.htmx and request.GET.get("fragment") == "live":
        return render(request, "games/_live.html", context)
    return render(request, "games/table.html", context)


def _after_post(
    request: HttpRequest, game: Game, error: errors.GameError | None
) -> HttpResponse:
    """Plain POST: back to the table (errors as a message). htmx: the fresh live area,
    with the error in the error region. A private refusal (``GameError.private``)
    goes on the seat's card instead, the page's error line left empty."""
    private = error is not None and error.private
    if request.htmx:
        user = request.user if request.user.is_authenticated else None
        fresh = Game.objects.filter(pk=game.pk).first()
        if fresh is None:
            response = HttpResponse(status=204)
            response["HX-Redirect"] = "/games/"
            return response
        context = table_page_context(
            table_context(fresh, user, with_chat=False, **_known(fresh)),
            origin=_origin(request),
            csrf_token=get_token(request),
            card_error=str(error) if private else "",
        )
        context["error"] = str(error) if error and not private else ""
        status = 200 if error is None else error.status
        html = render_to_string("games/_live.html", context, request=request)
        html += render_to_string("games/_error.html", context, request=request)
        return HttpResponse(html, status=status if status != 200 else 200)
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
        # The row was just read: the move is tried on it without reading it again
        # under the lock (a move taken in between makes the try write nothing, and
        # the service then takes the locked way; services.game_act).
        services.game_act(
            game=game, user=request.user, action=action, turn=turn, known=game
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
