"""The words of ``cells``: the engine speaks in codes ("swap", "evil", "red",
"centre"), players in the game's language (seed 003: «сопры», «шпионы», «карта
персонажа», «миссия», «лидер», «сброс», «колода»).

Every word is translated with the context ``"cells"`` (``pgettext_lazy("cells",
...)``), so the Russian catalogue can give this game its seed's words even where the
English is the same as another game's ("leader", "mission").
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.kit import GameWords, Text


@dataclass(frozen=True, kw_only=True)
class Words(GameWords):
    """The platform's words (name, sides, roles) and the board's own: the colours of
    the cards, the slots, the mission and the two people on it."""

    colours: Mapping[str, Text] = field(default_factory=dict)
    """A card's colour, as said of a card ("blue", «синяя»)."""
    slots: Mapping[str, Text] = field(default_factory=dict)
    """A slot, as said of a card ("left", «левая»)."""
    slot_initials: Mapping[str, Text] = field(default_factory=dict)
    """A slot in one letter, for the small cards on the board."""
    mission: Text = ""
    missions: Text = ""
    leader: Text = ""
    partner: Text = ""
    success: Text = ""
    failure: Text = ""
    cell: Text = ""

    def colour(self, code: str) -> Text:
        return self.colours.get(code, code)

    def slot(self, code: str) -> Text:
        return self.slots.get(code, code)

    def slot_initial(self, code: str) -> Text:
        return self.slot_initials.get(code, code[:1])

    @property
    def good(self) -> Text:
        return self.side("good")

    @property
    def evil(self) -> Text:
        return self.side("evil")


WORDS = Words(
    game=pgettext_lazy("cells", "Cells"),
    tagline=_(
        "The Resistance for three or four: each player leads a cell of three cards, "
        "and sides change as cards are swapped."
    ),
    sides={
        "good": pgettext_lazy("cells", "resistance"),
        "evil": pgettext_lazy("cells", "spies"),
    },
    roles={
        "resistance": pgettext_lazy("cells", "Resistance member"),
        "spy": pgettext_lazy("cells", "Spy"),
    },
    colours={
        "blue": pgettext_lazy("cells", "blue"),
        "red": pgettext_lazy("cells", "red"),
    },
    slots={
        "left": pgettext_lazy("cells", "left"),
        "centre": pgettext_lazy("cells", "centre"),
        "right": pgettext_lazy("cells", "right"),
    },
    slot_initials={
        "left": pgettext_lazy("cells slot", "L"),
        "centre": pgettext_lazy("cells slot", "C"),
        "right": pgettext_lazy("cells slot", "R"),
    },
    mission=pgettext_lazy("cells", "mission"),
    missions=pgettext_lazy("cells", "Missions"),
    leader=pgettext_lazy("cells", "leader"),
    partner=pgettext_lazy("cells", "second player"),
    success=pgettext_lazy("cells", "success"),
    failure=pgettext_lazy("cells", "failure"),
    cell=pgettext_lazy("cells", "cell"),
)


def words_for(ruleset: str) -> Words:
    """The words of a game of this family (one game today: ``cells``)."""
    return WORDS
