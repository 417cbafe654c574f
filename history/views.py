"""Thin pages: the history list, a game's review with its replay, the replay
fragment htmx swaps in, and the export download. Reading is in ``selectors``,
``replay`` and ``export``; the views parse the query string and render."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET
from django_htmx.http import push_url

from accounts.models import User
from games import engine
from games import state as states
from games.kit.family import family_of
from games.models import Game
from games.presence import bot_moves
from games.state import load_state
from games.words import option_labels
from history import analysis, export, hooks, presenters, replay, selectors
from history.forms import HistoryFilterForm

PAGE_SIZE = 25


def _viewer(request: HttpRequest) -> User | None:
    user = request.user
    return user if user.is_authenticated else None  # type: ignore[return-value]


def _game_or_404(request: HttpRequest, code: str) -> Game:
    """A game the viewer may see; any other code is a plain 404, so a private
    game's existence is never confirmed to an outsider."""
    game = selectors.reviewable_game(code, _viewer(request))
    if game is None:
        raise Http404
    return game


@require_GET
def history_list(request: HttpRequest) -> HttpResponse:
    form = HistoryFilterForm(request.GET or None)
    filters = form.game_filter()
    games = selectors.game_list(_viewer(request), filters)
    extra = hooks.filters_for(request.GET, _viewer(request))
    for narrower in extra:
        games = games.filter(narrower.condition)
    page = Paginator(games, PAGE_SIZE).get_page(request.GET.get("page"))
    context = {
        "form": form,
        "filters": filters,
        "extra_filters": extra,
        "page": page,
        "rows": presenters.listed_games(
            selectors.game_rows(page.object_list, subject=filters.player)
        ),
    }
    return render(request, "history/list.html", context)


def _replay_context(
    request: HttpRequest, game: Game, names: dict[int, str]
) -> dict[str, Any]:
    viewer = _viewer(request)
    return presenters.replay_context(
        game,
        names,
        step=request.GET.get("step"),
        perspective=request.GET.get("as"),
        viewer_seat=selectors.seat_of(game, viewer),
    )


@require_GET
def game_review(request: HttpRequest, code: str) -> HttpResponse:
    """The post-game page: the reveal, the family's record of the game, the
    replay, the export link. An abandoned game shows only what a spectator saw."""
    game = _game_or_404(request, code)
    context: dict[str, Any] = {
        "game": game,
        "words": family_of(game.ruleset).words(game.ruleset),
        "family": family_of(game.ruleset).history,
        "option_labels": option_labels(game),
        "notes": hooks.notes_for([game]).get(game.pk, []),
    }
    if game.status == Game.Status.FINISHED:
        record = selectors.game_record(game)
        names = record.names
        final = family_of(game.ruleset).live.board(
            engine.view(load_state(game), None), names, playing=True
        )
        context.update(record=record, final=final, seat_names=names)
        context.update(family_of(game.ruleset).history.review(game, names, states))
        public = analysis.board_for(game, names, None)
        context["analysis_public"] = public
        context["moments"] = [
            (
                moment,
                presenters.replay_url(
                    game, step=moment.step, perspective=replay.EVERYONE
                ),
            )
            for moment in (public.moments if public else [])
        ]
    else:
        names = selectors.seat_names(game)
        context.update(record=None, final=None, seat_names=names)
    context["bot_moves"] = bot_moves(game, names)
    context.update(_replay_context(request, game, names))
    return render(request, "history/game.html", context)


@require_GET
def game_replay(request: HttpRequest, code: str) -> HttpResponse:
    """The replay section alone, for htmx; the address bar gets the page's URL."""
    game = _game_or_404(request, code)
    context = _replay_context(request, game, selectors.seat_names(game))
    response = render(request, "history/_replay.html", context)
    shown = context["screen"]
    page = presenters.replay_url(
        game, step=shown.step.number, perspective=shown.perspective
    )
    return push_url(response, page)


@require_GET
def game_export(request: HttpRequest, code: str) -> HttpResponse:
    """The finished game as a JSON file (docs/export-format.md)."""
    game = _game_or_404(request, code)
    if game.status != Game.Status.FINISHED:
        raise Http404
    response = HttpResponse(
        export.export_json(game), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = (
        f'attachment; filename="podpolye-{game.code}.json"'
    )
    return response
