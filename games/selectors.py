"""The code that reads game state for a seat, a spectator or a list.

``seat_view`` is the one door through which a live table's game reaches a viewer: a
table page, the HTML and JSON sockets' pushes and the API's answers all get what
they show of the game from it, and it hands out the engine's ``view(state, seat)``
for the seat the viewer holds (the spectator's view otherwise) and nothing else.
``table_context`` adds what a page shows around it (chat). Neither ever reads
``Seat.role``, ``Vote`` or ``Check`` rows: those are for finished games (history)
only.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.db.models import Count, Q, QuerySet

from accounts.models import User
from games import engine, hooks
from games.cache import LRU
from games.models import ChatMessage, Game, Seat
from games.state import load_state

if TYPE_CHECKING:
    from games.snapshots import Snapshot

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
    """``viewer``'s view of ``game``. ``players`` and ``state`` may come from a
    snapshot already read for another viewer (``games.snapshots``): then this reads
    nothing from the database, and a push can be answered on the event loop;
    ``public_view``, the spectator's view of that ``state``, too."""
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


def snapshot_seat_view(snapshot: Snapshot, viewer: User | None) -> SeatView:
    """``seat_view`` of a table as a snapshot holds it: no database at all."""
    return seat_view(
        snapshot.game,
        viewer,
        players=snapshot.players,
        state=snapshot.state,
        public_view=snapshot.public_view(),
    )


@dataclass
class TableContext:
    game: Game
    players: list[Player]
    viewer: User | None
    me: Player | None  # the viewer's own seat, if seated
    view: dict[str, Any] | None
    """The viewer's own view (the spectator's for anyone not seated)."""
    public_view: dict[str, Any] | None
    chat: list[ChatMessage] = field(default_factory=list)
    side_chats: list[tuple[str, list[ChatMessage]]] = field(default_factory=list)
    """Each private channel this viewer may read, with its messages."""
    chat_channels: tuple[str, ...] = ()
    moderating: bool = False
    """The viewer is the table's moderator (no seat; the engine's moderator view)."""

    @property
    def position(self) -> int | None:
        return self.me.position if self.me else None

    @property
    def names(self) -> dict[int, str]:
        return {p.position: p.name for p in self.players if p.position is not None}

    @property
    def is_host(self) -> bool:
        return self.viewer is not None and self.game.host_id == self.viewer.pk

    @property
    def is_seated(self) -> bool:
        return self.me is not None


def game_by_code(code: str) -> Game | None:
    """The table with its host (every page names them). Its rematch, which only a
    finished table's page shows, is read when that page asks for it: joining it
    here doubled what the query cost to build on every page, move and API call
    (Django's compiling of its columns, ~1 ms of a POST's). A push, which may not
    read lazily, gets its row from ``games.snapshots`` instead."""
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


FinishedChats = tuple[tuple[str, tuple[ChatMessage, ...]], ...]
"""A finished game's private channels that were used, each with its messages."""

FINISHED_CHATS_SECONDS = 60.0
"""How long a process keeps a finished game's private channels (:func:`finished_chats`):
long enough for the push that ends a game and the reloads after it; short enough that
a renamed author shows under the new name soon."""
_finished_chats: LRU[tuple[int, str], tuple[float, FinishedChats]] = LRU(256)


def finished_chats(game: Game) -> FinishedChats:
    """A finished game's private channels, open to everyone now and the same for
    every viewer: read once for all the sockets of the push that ends the game (no
    side may write to its channel after the end: ``services.chat_post``)."""
    assert game.status == Game.Status.FINISHED
    known = finished_chats_kept(game)
    if known is not None:
        return known
    used = sorted(
        ChatMessage.objects.filter(game=game)
        .exclude(channel=ChatMessage.Channel.TABLE)
        .values_list("channel", flat=True)
        .distinct()
    )
    found = tuple((channel, tuple(chat_for(game, [channel]))) for channel in used)
    _finished_chats.put((game.pk, game.code), (time.monotonic(), found))
    return found


def forget_all() -> None:
    """Tests call this (through ``games.rendering.forget_all``) between runs that
    reuse table ids."""
    _finished_chats.clear()


def finished_chats_kept(game: Game) -> FinishedChats | None:
    """:func:`finished_chats` if this process has them, without a query."""
    kept = _finished_chats.get((game.pk, game.code))
    if kept is None or time.monotonic() - kept[0] > FINISHED_CHATS_SECONDS:
        return None
    return kept[1]


def visible_chat_channels(
    game: Game,
    view: dict[str, Any] | None,
    seated: bool,
    finished: FinishedChats | None = None,
) -> tuple[str, ...]:
    """Which chat channels this viewer may read. The table channel: everyone, when
    chat is on. A side's private channel: the seats whose own view opens it now (the
    family's engine says when), and everyone once the game is finished (only the
    channels that were used: ``finished``, or :func:`finished_chats`)."""
    channels: list[str] = []
    if game.chat_enabled:
        channels.append(ChatMessage.Channel.TABLE)
    if game.status == Game.Status.FINISHED:
        if finished is None:
            finished = finished_chats(game)
        channels += [channel for channel, _messages in finished]
    elif seated and view is not None and view.get("me"):
        channels += [
            channel
            for channel in view["me"].get("channels", ())
            if channel != ChatMessage.Channel.TABLE
        ]
    return tuple(channels)


def private_channels(channels: Iterable[str]) -> list[str]:
    return [channel for channel in channels if channel != ChatMessage.Channel.TABLE]


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


def table_context(
    game: Game,
    viewer: User | None,
    *,
    with_chat: bool = True,
    with_side_chat: bool = True,
    players: Sequence[Player] | None = None,
    state: Any = None,
    seat: SeatView | None = None,
    finished: FinishedChats | None = None,
) -> TableContext:
    """Everything a table page shows to ``viewer``: seated player or spectator.

    ``players`` and ``state`` may come from a snapshot already read for another
    viewer (``games.snapshots``), or the viewer's ``seat`` may be given whole; the
    view is still this viewer's own, from ``seat_view``. A finished game's private
    channels are ``finished`` if given (:func:`finished_chats_kept`: no query)."""
    if seat is None:
        seat = seat_view(game, viewer, players=players, state=state)
    me, view = seat.me, seat.view
    if game.status == Game.Status.FINISHED and finished is None:
        finished = finished_chats(game)
    channels = visible_chat_channels(
        game, view, me is not None or seat.moderating, finished
    )
    table_chat = []
    if with_chat and ChatMessage.Channel.TABLE in channels:
        table_chat = chat_for(game, [ChatMessage.Channel.TABLE])
    # A side's private channel is part of the live area: loaded whenever readable.
    side_chats = []
    if with_side_chat and finished is not None:
        side_chats = [(channel, list(messages)) for channel, messages in finished]
    elif with_side_chat:
        side_chats = [
            (channel, chat_for(game, [channel]))
            for channel in private_channels(channels)
        ]
    return TableContext(
        game=game,
        players=list(seat.players),
        viewer=viewer,
        me=me,
        view=view,
        public_view=seat.public_view,
        chat=table_chat,
        side_chats=side_chats,
        chat_channels=channels,
        moderating=seat.moderating,
    )


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
