"""The code that reads game state for a seat, a spectator or a list.

``seat_view`` hands out the engine's ``view(state, seat)`` for the seat a viewer
holds (the moderator's, or the spectator's otherwise) and nothing else (the live
table's ``live.table.Table`` does the same for its screens). Nothing here ever
reads ``Seat.role``, ``Vote`` or ``Check`` rows: those are for finished games
(history) only.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q, QuerySet

from accounts.models import User
from games import engine, hooks
from games.models import ChatMessage, Game, Seat
from games.state import load_state

CHAT_HISTORY = 100


@dataclass(frozen=True)
class Player:
    """A seat as everyone may see it: who sits there, nothing about their role."""

    seat_id: int
    position: int | None
    user_id: int
    username: str
    name: str
    is_host: bool


@dataclass(frozen=True)
class SeatView:
    """What one viewer may know of a table at one version of its row."""

    game: Game
    players: Sequence[Player]
    me: Player | None
    """The viewer's own seat, if seated."""
    view: dict[str, Any] | None
    """``engine.view`` for the viewer's seat (a spectator's when not seated); None
    before the start."""
    public_view: dict[str, Any] | None = None
    """The spectator's view, from which the page's shared regions are drawn."""
    moderating: bool = False
    """The viewer is the table's moderator (a person without a seat, whose view is
    the engine's ``MODERATOR`` view)."""

    @property
    def position(self) -> int | None:
        return self.me.position if self.me else None


def seat_view(
    game: Game,
    viewer: User | None,
    *,
    players: Sequence[Player] | None = None,
    state: Any = None,
    public_view: dict[str, Any] | None = None,
) -> SeatView:
    """``viewer``'s view of ``game``. ``players`` and ``state`` may be known
    already (then this reads nothing); ``public_view``, the spectator's view of
    that ``state``, too."""
    players = players if players is not None else players_of(game)
    me = None
    moderating = False
    if viewer is not None and viewer.is_authenticated:
        viewer_id = viewer.pk  # read once: a socket's user is a lazy object
        me = next((p for p in players if p.user_id == viewer_id), None)
        moderating = me is None and is_moderator(game, viewer)
    view = None
    if game.status != Game.Status.OPEN and game.seed is not None:
        if state is None:
            state = load_state(game)
        if public_view is None:
            public_view = engine.view(state, None)
        if me:
            view = engine.view(state, me.position)
        elif moderating:
            view = engine.view(state, engine.MODERATOR)
        else:
            view = public_view
    else:
        public_view = None
    return SeatView(
        game=game,
        players=players,
        me=me,
        view=view,
        public_view=public_view,
        moderating=moderating,
    )


def is_moderator(game: Game, viewer: User | None) -> bool:
    """Whether ``viewer`` is the table's moderator (a game with a moderator only)."""
    return (
        viewer is not None
        and viewer.is_authenticated
        and game.moderator_id is not None
        and game.moderator_id == viewer.pk
    )


def game_by_code(code: str) -> Game | None:
    """The table with its host (every page names them). Its rematch, which only a
    finished table's page shows, is read when that page asks for it, not joined
    here: every page, move and API call would pay for its columns. A push, which
    may not read lazily, gets its row from its table's room (``live.table``)."""
    return Game.objects.select_related("host").filter(code=code).first()


def reachable_game(code: str, viewer: User | None) -> Game | None:
    """The table behind a link, or None when ``viewer`` may not know it exists (a
    club's members-only table, to an outsider)."""
    game = game_by_code(code)
    if game is None or hooks.access(game, viewer) is hooks.Access.NONE:
        return None
    return game


def players_of(game: Game) -> list[Player]:
    seats = (
        Seat.objects.filter(game=game)
        .select_related("user")
        .order_by("position", "joined_at", "pk")
    )
    return [
        Player(
            seat_id=seat.pk,
            position=seat.position,
            user_id=seat.user_id,
            username=seat.user.username,
            name=seat.user.display_name,
            is_host=seat.user_id == game.host_id,
        )
        for seat in seats
    ]


def chat_for(
    game: Game, channels: Iterable[str], *, limit: int = CHAT_HISTORY
) -> list[ChatMessage]:
    channels = list(channels)
    if not channels:
        return []
    messages = (
        ChatMessage.objects.filter(game=game, channel__in=channels)
        .select_related("author")
        .order_by("-id")[:limit]
    )
    return list(reversed(messages))


def lobby_tables(viewer: User | None) -> QuerySet[Game]:
    """Open public tables, newest first, with their seat counts."""
    return (
        Game.objects.filter(status=Game.Status.OPEN, is_private=False)
        .exclude(hooks.hidden_for(viewer))
        .select_related("host")
        .annotate(taken=Count("seats"))
        .order_by("-created_at")
    )


def my_tables(viewer: User | None) -> QuerySet[Game]:
    """The viewer's tables that are open or in play, seated or moderating: a
    returning player gets back in one tap."""
    if viewer is None or not viewer.is_authenticated:
        return Game.objects.none()
    return (
        Game.objects.filter(
            Q(status=Game.Status.OPEN) | Q(status=Game.Status.PLAYING),
            Q(pk__in=Seat.objects.filter(user=viewer).values("game"))
            | Q(moderator=viewer),
        )
        .select_related("host")
        .annotate(taken=Count("seats"))
        .order_by("-created_at")
    )
