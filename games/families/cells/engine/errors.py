"""The rules of ``cells`` a move can break, one class per rule.

Every message is addressed to the player who tried the move and names only what that
player already knows (their own slots, the public record), never a card they cannot
see.  The generic ones (malformed action, a seat that does not exist, wrong phase, game
over, no seat) live in :mod:`games.engine.core`.
"""

from __future__ import annotations

from games.engine.core import IllegalAction, WrongPhase
from games.engine.text import gettext_noop

__all__ = [
    "AlreadyConfirmed",
    "CardNotHeld",
    "NoSwapPending",
    "NotStarted",
    "NotYourTurn",
    "ProtectedCentre",
    "SelfPartner",
    "SwapWithYourself",
    "UntouchedSlot",
]


class NotStarted(WrongPhase):
    """Any move but the confirmation before every player has confirmed."""

    code = "not_started"
    template = gettext_noop(
        "Play starts once every player has confirmed that they have seen their cards."
    )


class AlreadyConfirmed(IllegalAction):
    code = "already_confirmed"
    template = gettext_noop("You have already confirmed that you have seen your cards.")


class NotYourTurn(IllegalAction):
    """A move by a seat the table is not waiting for."""

    code = "not_your_turn"
    template = gettext_noop("It is not your move.")


class NoSwapPending(WrongPhase):
    """An exchange decision when no swap waits for one."""

    code = "no_swap_pending"
    template = gettext_noop("There is no swap waiting for your decision.")


class ProtectedCentre(IllegalAction):
    code = "protected_centre"
    template = gettext_noop(
        "The centre card is protected: you can take only another player's left or "
        "right card."
    )


class SwapWithYourself(IllegalAction):
    code = "swap_with_yourself"
    template = gettext_noop(
        "You cannot swap two of your own cards: choose another player's card."
    )


class UntouchedSlot(IllegalAction):
    code = "untouched_slot"
    template = gettext_noop(
        "You can look only at a card of yours that another player's swap has touched "
        "since you last saw it."
    )


class SelfPartner(IllegalAction):
    code = "self_partner"
    template = gettext_noop("Choose another player as your mission partner.")


class CardNotHeld(IllegalAction):
    code = "card_not_held"
    template = gettext_noop("You do not hold a mission card of that colour.")
