"""A table as its screens are drawn from: its row, its players, its engine state at
the row's version, who is away, its private channels' lines and a running
countdown's end. Read from the database in one go (:func:`read`), or, for a move
this process committed, made from what the move left (:func:`after_move`); never
changed afterwards. A room (``live.room``) keeps the last one of its table."""

from __future__ import annotations

import copy
import dataclasses
import datetime as dt
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from accounts.models import User
from games import engine, presence
from games.kit.family import family_of
from games.models import ChatMessage, Game, GameAction
from games.presence import Away
from games.selectors import Player, chat_for, players_of
from games.state import load_state

PrivateLines = tuple[tuple[str, tuple[ChatMessage, ...]], ...]
"""Each private channel that has lines, with them (the last ``CHAT_HISTORY``)."""


@dataclass(frozen=True)
class Viewer:
    """Who looks at a table: their seat, or the moderator's chair, or neither."""

    user_id: int | None
    position: int | None = None
    moderating: bool = False
    is_host: bool = False

    @property
    def seated(self) -> bool:
        return self.position is not None

    @property
    def engine_seat(self) -> int | None:
        """The seat the engine's view is asked for (None: a spectator's)."""
        if self.moderating:
            return engine.MODERATOR
        return self.position


@dataclass(frozen=True)
class Table:
    game: Game
    players: tuple[Player, ...]
    state: Any = None
    away: tuple[Away, ...] = ()
    private: PrivateLines = ()
    countdown: dt.datetime | None = None
    _views: dict[int | None, dict[str, Any]] = field(
        default_factory=dict, compare=False, repr=False
    )
    # What the views of this state share (``engine.view``'s ``memo``).
    _memo: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    # What every screen's parts share (``live.parts``: the public regions' inputs).
    shared: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def started(self) -> bool:
        return self.state is not None

    @cached_property
    def names(self) -> dict[int, str]:
        return {p.position: p.name for p in self.players if p.position is not None}

    @cached_property
    def _positions(self) -> dict[int, int | None]:
        return {p.user_id: p.position for p in self.players}

    def viewer(self, user: User | None) -> Viewer:
        if user is None or not user.is_authenticated:
            return Viewer(user_id=None)
        user_id = user.pk
        return Viewer(
            user_id=user_id,
            position=self._positions.get(user_id),
            moderating=user_id not in self._positions
            and self.game.moderator_id == user_id,
            is_host=self.game.host_id == user_id,
        )

    def view(self, seat: int | None) -> dict[str, Any] | None:
        """The engine's view for ``seat`` (None: the spectator's), made once per
        table and seat. Read, never changed."""
        if self.state is None:
            return None
        found = self._views.get(seat)
        if found is None:
            found = self._views[seat] = engine.view(self.state, seat, memo=self._memo)
        return found

    @property
    def public_view(self) -> dict[str, Any] | None:
        return self.view(None)

    def view_of(self, viewer: Viewer) -> dict[str, Any] | None:
        return self.view(viewer.engine_seat)

    def readable_channels(self, viewer: Viewer) -> tuple[str, ...]:
        """The chat channels ``viewer`` reads: the table's when chat is on; a
        side's private one while the viewer's own view opens it; every used one
        once the game is finished."""
        game = self.game
        channels: list[str] = []
        if game.chat_enabled:
            channels.append(ChatMessage.Channel.TABLE)
        if game.status == Game.Status.FINISHED:
            channels += [channel for channel, _lines in self.private]
        elif (viewer.seated or viewer.moderating) and self.state is not None:
            me = (self.view_of(viewer) or {}).get("me") or {}
            channels += [
                channel
                for channel in me.get("channels", ())
                if channel != ChatMessage.Channel.TABLE
            ]
        return tuple(channels)

    def private_lines(self, viewer: Viewer) -> PrivateLines:
        """The private channels ``viewer`` reads, each with its lines (a channel
        without lines yet among them while the game is played: its form shows)."""
        readable = self.readable_channels(viewer)
        known = dict(self.private)
        return tuple(
            (channel, known.get(channel, ()))
            for channel in readable
            if channel != ChatMessage.Channel.TABLE
        )

    def with_line(self, message: ChatMessage) -> Table:
        """This table with one more private line."""
        lines = dict(self.private)
        kept = (*lines.get(message.channel, ()), message)
        lines[message.channel] = kept[-CHAT_KEPT:]
        return self._with(private=tuple(sorted(lines.items())))

    def _with(self, **changes: Any) -> Table:
        """This table with ``changes``, which never include its state: its views
        are carried over, not what its parts shared (those may read what changed)."""
        return dataclasses.replace(
            self, _views=dict(self._views), _memo=dict(self._memo), shared={}, **changes
        )


CHAT_KEPT = 100


def read(
    game_id: int,
    code: str,
    known: Table | None = None,
    *,
    row: Game | None = None,
    fresh: bool = False,
) -> Table | None:
    """The table as the database holds it now (None: gone), or as ``row`` (a row
    just written or read) has it: the engine state at that row's version, whatever
    moves came since. What ``known`` holds that cannot have changed is taken from
    it: the players once the game has started, the engine state of an earlier
    version (only the moves since are applied), and, unless ``fresh`` (a
    catch-up), the private lines, who is away and a running countdown's end (those
    change by their own messages). Without ``known``, or ``fresh``, those are read
    too."""
    game = row
    if game is None:
        game = (
            Game.objects.select_related("host", "moderator", "next_game")
            .filter(pk=game_id, code=code)
            .first()
        )
    if game is None:
        return None
    started = game.status != Game.Status.OPEN and game.seed is not None
    if known is not None and known.started and started:
        players = known.players
    else:
        players = tuple(players_of(game))
    state = load_state(game, known=_known_state(known, game)) if started else None
    if known is not None and not fresh:
        table = _carried(game, players, state, known)
        return _with_countdown(table, known) or table
    table = Table(game, players, state, away=_away(game), private=_private(game))
    return _with_countdown(table, None) or table


def after_move(known: Table, game: Game, state: Any) -> Table | None:
    """The table after a move this process committed (``game`` is the row the move
    wrote, ``state`` its new state), with nothing read; None when the move started a
    countdown, whose start only the log holds (the table is then read)."""
    row = copy.copy(game)
    # The related rows a page touches, carried over: the host and the moderator
    # never change, and a rematch exists only once the game is over.
    row.host = known.game.host
    row.moderator = known.game.moderator
    if game.status == Game.Status.PLAYING:
        row.next_game = None
    return _with_countdown(
        _carried(row, known.players, state, known), known, read=False
    )


def with_away(table: Table) -> Table:
    """``table`` with who is away read afresh."""
    return table._with(away=_away(table.game))


def _carried(
    game: Game, players: tuple[Player, ...], state: Any, known: Table
) -> Table:
    """A table of ``game`` with who is away and the private lines ``known`` holds."""
    away = known.away if game.status == Game.Status.PLAYING else ()
    return Table(game, players, state, away=away, private=known.private)


def _away(game: Game) -> tuple[Away, ...]:
    """Who is away: nobody unless the game is being played."""
    return presence.read(game.pk) if game.status == Game.Status.PLAYING else ()


def _known_state(known: Table | None, game: Game) -> tuple[int, Any] | None:
    if known is None or known.state is None or known.game.code != game.code:
        return None
    return known.game.version, known.state


def _private(game: Game) -> PrivateLines:
    used = sorted(
        ChatMessage.objects.filter(game=game)
        .exclude(channel=ChatMessage.Channel.TABLE)
        .values_list("channel", flat=True)
        .distinct()
    )
    return tuple(
        (channel, tuple(chat_for(game, [channel], limit=CHAT_KEPT))) for channel in used
    )


def _countdown(table: Table) -> tuple[int, int] | None:
    """The step that started the countdown ``table``'s family shows, and its length
    (None: none runs)."""
    view = table.public_view
    if view is None or table.game.status != Game.Status.PLAYING:
        return None
    return family_of(table.game.ruleset).live.countdown(view)


def _with_countdown(
    table: Table, known: Table | None, *, read: bool = True
) -> Table | None:
    """The table with the end of the countdown its family shows, if one runs: the
    move that started it plus its length (the log's time of that move, read once;
    with ``read`` False, None where it would have to be read)."""
    found = _countdown(table)
    if found is None:
        return table
    step, seconds = found
    if known is not None and known.countdown is not None:
        was = _countdown(known)
        if was is not None and was[0] == step:
            return table._with(countdown=known.countdown)
    if not read:
        return None
    started = (
        GameAction.objects.filter(game=table.game, number=step + 1)
        .values_list("created_at", flat=True)
        .first()
    )
    if started is None:
        return table
    return table._with(countdown=started + dt.timedelta(seconds=seconds))
