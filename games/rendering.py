"""Rendering a table for one viewer: the page, the live fragment a push replaces, a
chat line. Views and consumers both come here, so a refreshed page and a live push
are the same HTML."""

from __future__ import annotations

from typing import Any

from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from games import engine
from games.families.registry import family_of
from games.models import ChatMessage, Game
from games.selectors import TableContext


def option_labels(game: Game) -> list[str]:
    """The options that are on, in words, for badges."""
    ruleset = engine.get_ruleset(game.ruleset)
    labels = []
    for option in ruleset.options:
        if option.name == "chat":
            continue
        if game.options.get(option.name):
            labels.append(_(option.label))
    return labels


def house_decisions(game: Game) -> list[str]:
    return [_(text) for text in engine.get_ruleset(game.ruleset).house_decisions]


def table_page_context(
    ctx: TableContext, *, origin: str = "", csrf_token: str | None = None
) -> dict[str, Any]:
    """``origin`` (scheme://host) makes the share link absolute; ``csrf_token`` lets a
    fragment rendered outside a request (a push) still carry working forms."""
    game = ctx.game
    names = ctx.names
    taken = len(ctx.players)
    family = family_of(game.ruleset)
    words = family.words(game.ruleset)
    playing = game.status != Game.Status.ABANDONED
    board = public_board = None
    if ctx.view is not None and ctx.public_view is not None:
        board = family.board(ctx.view, names, playing=playing)
        public_board = (
            board
            if ctx.view is ctx.public_view
            else family.board(ctx.public_view, names, playing=playing)
        )
    return {
        "ctx": ctx,
        "game": game,
        "players": ctx.players,
        "words": words,
        "family": family,
        "board": board,
        "public_board": public_board,
        "regions": family.regions,
        "view": ctx.view,
        "taken": taken,
        "free_seats": range(max(0, game.seat_count - taken)),
        "is_full": taken >= game.seat_count,
        "is_host": ctx.is_host,
        "is_seated": ctx.is_seated,
        "viewer": ctx.viewer,
        "option_labels": option_labels(game),
        "house_decisions": house_decisions(game),
        "chat": ctx.chat,
        "side_chats": [
            {
                "channel": channel,
                "label": words.channel(channel),
                "messages": messages,
                "can_write": ctx.is_seated and game.status == Game.Status.PLAYING,
            }
            for channel, messages in ctx.side_chats
        ],
        "chat_channels": ctx.chat_channels,
        "can_chat_table": ctx.is_seated
        and ChatMessage.Channel.TABLE in ctx.chat_channels
        and game.status in (Game.Status.OPEN, Game.Status.PLAYING),
        "error": "",
        "origin": origin,
        **({"csrf_token": csrf_token} if csrf_token else {}),
    }


def render_live(
    ctx: TableContext, *, origin: str = "", csrf_token: str | None = None
) -> str:
    """The live area, marked for an out-of-band swap by htmx's ws extension."""
    context = table_page_context(ctx, origin=origin, csrf_token=csrf_token)
    context["oob"] = True
    return render_to_string("games/_live.html", context)


def render_chat_line(message: ChatMessage) -> str:
    return render_to_string("games/_chat_append.html", {"message": message})


def render_error(text: str) -> str:
    return render_to_string("games/_error.html", {"error": text, "oob": True})
