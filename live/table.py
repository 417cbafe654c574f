"""A table as its screens are drawn from: its row, its players, its engine state at
the row's version, who is away, its private channels' lines and a running
countdown's end. Read from the database in one go (:func:`read`), or, for a move
this process committed, made from what the move left (:func:`after_move`); never
changed afterwards. A room (``live.room``) keeps the last one of its table."""

from __future__ import annotations

import copy
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
        game = self.game
        seated = user_id in self._positions
        return Viewer(
            user_id=user_id,
            position=self._positions.get(user_id),
            moderating=not seated
            and game.moderator_id is not None
            and game.moderator_id == user_id,
            is_host=game.host_id == user_id,
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

    def with_away(self, away: tuple[Away, ...]) -> Table:
        return self._with(away=away)

    def _with(self, **changes: Any) -> Table:
        values = {
            "game": self.game,
            "players": self.players,
            "state": self.state,
            "away": self.away,
            "private": self.private,
            "countdown": self.countdown,
            **changes,
        }
        made = Table(**values)
        if made.state is self.state:
            made._views.update(self._views)
            made._memo.update(self._memo)
        return made


CHAT_KEPT = 100


def read(
    game_id: int, code: str, known: Table | None = None, *, row: Game | None = None
) -> Table | None:
    """The table as the database holds it now (None: gone), or as ``row`` (a row
    just written or read) has it: the engine state at that row's version, whatever
    moves came since. What ``known`` holds that cannot have changed is taken from
    it: the players once the game has started, the engine state of an earlier
    version (only the moves since are applied), the private lines and who is away
    (those change by their own messages, and :func:`read_all` reads them)."""
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
    state = None
    if started:
        state = load_state(game, known=_known_state(known, game))
    if known is None:
        return read_all(game, players, state)
    table = Table(
        game=game,
        players=players,
        state=state,
        away=known.away if game.status == Game.Status.PLAYING else (),
        private=known.private,
    )
    return _with_countdown(table, known) or table


def read_all(
    game: Game, players: tuple[Player, ...] | None = None, state: Any = None
) -> Table:
    """Everything of the table, read afresh (a first read, or a catch-up)."""
    if players is None:
        players = tuple(players_of(game))
    if state is None and game.status != Game.Status.OPEN and game.seed is not None:
        state = load_state(game)
    table = Table(
        game=game,
        players=players,
        state=state,
        away=presence.read(game.pk) if game.status == Game.Status.PLAYING else (),
        private=_private(game),
    )
    return _with_countdown(table, None) or table


def again(table: Table) -> Table | None:
    """``table`` read afresh, whatever it holds (a catch-up)."""
    game = (
        Game.objects.select_related("host", "moderator", "next_game")
        .filter(pk=table.game.pk, code=table.game.code)
        .first()
    )
    if game is None:
        return None
    state = None
    if game.status != Game.Status.OPEN and game.seed is not None:
        state = load_state(game, known=_known_state(table, game))
    players = table.players if table.started and state is not None else None
    return read_all(game, players, state)


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
    table = Table(
        game=row,
        players=known.players,
        state=state,
        away=known.away if game.status == Game.Status.PLAYING else (),
        private=known.private,
    )
    return _with_countdown(table, known, read=False)


def with_away(table: Table) -> Table:
    return table.with_away(
        presence.read(table.game.pk) if table.game.status == Game.Status.PLAYING else ()
    )


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


def _with_countdown(
    table: Table, known: Table | None, *, read: bool = True
) -> Table | None:
    """The table with the end of the countdown its family shows, if one runs: the
    move that started it plus its length (the log's time of that move, read once;
    with ``read`` False, None where it would have to be read)."""
    view = table.public_view
    game = table.game
    if view is None or game.status != Game.Status.PLAYING:
        return table
    found = family_of(game.ruleset).live.countdown(view)
    if found is None:
        return table
    step, seconds = found
    started = None
    if known is not None and known.countdown is not None:
        known_view = known.public_view
        if known_view is not None:
            known_found = family_of(game.ruleset).live.countdown(known_view)
            if known_found is not None and known_found[0] == step:
                return table._with(countdown=known.countdown)
    if not read:
        return None
    started = (
        GameAction.objects.filter(game=game, number=step + 1)
        .values_list("created_at", flat=True)
        .first()
    )
    if started is None:
        return table
    return table._with(countdown=started + dt.timedelta(seconds=seconds))
