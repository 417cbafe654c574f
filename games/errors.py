"""Errors a player can read. Every service raises one of these for bad input, having
changed nothing; views, consumers and the API turn them into a message in the
player's language. None of them names a hidden fact."""

from __future__ import annotations

from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class GameError(Exception):
    """Base of every player-facing game error."""

    code = "error"
    status = 400
    message: str | Promise = _("That cannot be done.")
    private = False
    """Said only where the seat's secrets are (a family's card: the element with id
    ``card-error``), never in the page's error line: a refusal that only some seats
    can meet (a chooser's, at a night every player taps through) would show a
    neighbour glancing at the screen who they are. See the family's
    ``private_refusal``."""

    def __init__(self, message: str | Promise | None = None, **params: Any) -> None:
        if message is not None:
            self.message = message
        self.params = params
        super().__init__(str(self))

    def __str__(self) -> str:
        text = str(self.message)
        return text % self.params if self.params else text


class TableNotFound(GameError):
    code = "table_not_found"
    status = 404
    message = _("There is no such table.")


class NotSeated(GameError):
    code = "not_seated"
    status = 403
    message = _("You are not seated at this table.")


class NotHost(GameError):
    code = "not_host"
    status = 403
    message = _("Only the host can do that.")


class AlreadySeated(GameError):
    code = "already_seated"
    status = 409
    message = _("You are already seated at this table.")


class SeatNotAllowed(GameError):
    code = "seat_not_allowed"
    status = 403
    message = _("This table is for its club's members only.")


class TableFull(GameError):
    code = "table_full"
    status = 409
    message = _("This table is full.")


class TableNotFull(GameError):
    code = "table_not_full"
    status = 409
    message = _("The game starts when every seat is taken (%(taken)d of %(total)d).")


class NotOpen(GameError):
    code = "not_open"
    status = 409
    message = _("The game at this table has already started.")


class NotFinished(GameError):
    code = "not_finished"
    status = 409
    message = _("A rematch can be opened once the game is finished.")


class NotPlaying(GameError):
    code = "not_playing"
    status = 409
    message = _("There is no game in progress at this table.")


class GameOver(NotPlaying):
    """A move at a table whose game has ended: the engine's own ``game_over``."""

    code = "game_over"
    message = _("The game is over.")


class TableMovedOn(GameError):
    """The client acted on a state that is no longer current."""

    code = "table_moved_on"
    status = 409
    message = _(
        "The table moved on while you were deciding. Here is where it stands now."
    )


class BadSetup(GameError):
    code = "bad_setup"
    message = _("These table settings are not valid: %(reason)s")


class BadMoveId(GameError):
    code = "bad_move_id"
    message = _(
        "A move id is 1 to 64 letters, digits or the signs - _ . : (a UUID will do)."
    )


class MoveIdReused(GameError):
    """A client named a different move with a move id it had used already."""

    code = "move_id_reused"
    status = 422
    message = _(
        "This move id was already used for another move at this table: "
        "send each new move with a new id."
    )


class BadAction(GameError):
    code = "bad_action"
    message = _("That move is not understood.")


class ModeratorCannotSit(GameError):
    code = "moderator_cannot_sit"
    status = 409
    message = _("You moderate this table: the moderator does not take a seat.")


class HostCannotLeave(GameError):
    code = "host_cannot_leave"
    status = 409
    message = _("You are the host: close the table instead of leaving it.")


class ChatDisabled(GameError):
    code = "chat_disabled"
    status = 403
    message = _("Chat is off at this table: talk by voice.")


class ChatChannelClosed(GameError):
    code = "chat_channel_closed"
    status = 403
    message = _("You cannot write to that channel.")


class ChatEmpty(GameError):
    code = "chat_empty"
    message = _("Write something first.")


class ChatTooLong(GameError):
    code = "chat_too_long"
    message = _("A message can be at most %(limit)d characters long.")


class ChatTooFast(GameError):
    code = "chat_too_fast"
    status = 429
    message = _("You are writing too fast; wait a few seconds.")


class IllegalMove(GameError):
    """The engine refused the move. Its message template is English, marked for
    translation in the engine, and translated here."""

    status = 409

    def __init__(self, exc: Any, *, private: bool = False) -> None:
        self.private = private
        self.code = getattr(exc, "code", "illegal")
        self.engine_template = getattr(exc, "template", str(exc))
        super().__init__(self.engine_template, **dict(getattr(exc, "params", {}) or {}))

    def __str__(self) -> str:
        text = gettext(self.engine_template)
        return text % self.params if self.params else text


CARD_TAG = "card"
"""The message tag of a flashed private refusal (``GameError.private``): the table
page says it inside the seat's card, the page's message list leaves it out."""
