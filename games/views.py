"""The lobby, the rules and the form that opens a table (a table's own page and
forms are ``live.views``)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext

from games import engine, errors, services
from games.forms import CreateTableForm
from games.kit.family import family_of, playable_rulesets
from games.selectors import lobby_tables, my_tables


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
                "template": family.rules.template,
                "house_decisions": [gettext(text) for text in ruleset.house_decisions],
                "options": [
                    (gettext(o.label), gettext(o.help)) for o in ruleset.options
                ],
                **family.rules.context(code),
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
