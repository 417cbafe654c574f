"""The platform as a game family sees it: the one module a family imports besides
the engine (``games.engine``).

A family is a folder ``games/families/<code>/`` with a pure engine, a
:class:`Family` made of the parts it uses (:mod:`games.kit.family`), the live page's
regions (:mod:`games.kit.regions`), the helpers that read a page's form as a move
(:mod:`games.kit.moves`), the pieces of its API shapes (:mod:`games.kit.schemas`) and
what its own records need of the platform's tables (:mod:`games.kit.records`) and
the reader's digits (``localize``). See
``docs/adding-a-game.md``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.kit.family import (
    Export,
    Family,
    Figure,
    GameWords,
    History,
    LivePage,
    MoveCodec,
    Odds,
    Programs,
    Records,
    Rules,
    Stats,
    Text,
    families,
    family_of,
    known_words,
    playable_rulesets,
    register,
    registered,
    words_of,
)
from games.kit.moves import (
    NotAMove,
    field_choice,
    field_int,
    field_ints,
    field_one,
    field_values,
)
from games.kit.records import (
    HIDDEN,
    ReadOnlyAdmin,
    States,
    final_view,
    finished,
    game_model,
    seat_model,
)
from games.kit.regions import Region
from games.kit.schemas import Answer, AtTheTable, Channel, OptionValue, Request
from numerals.digits import localize
from numerals.lists import list_separator, names_list

if TYPE_CHECKING:
    from games.models import Game, Seat

__all__ = [
    "HIDDEN",
    "Answer",
    "AtTheTable",
    "Channel",
    "Export",
    "Family",
    "Figure",
    "Game",
    "GameWords",
    "History",
    "LivePage",
    "MoveCodec",
    "NotAMove",
    "Odds",
    "OptionValue",
    "Programs",
    "ReadOnlyAdmin",
    "Records",
    "Region",
    "Request",
    "Rules",
    "Seat",
    "States",
    "Stats",
    "Text",
    "families",
    "family_of",
    "field_choice",
    "field_int",
    "field_ints",
    "field_one",
    "field_values",
    "final_view",
    "finished",
    "game_model",
    "known_words",
    "list_separator",
    "localize",
    "names_list",
    "playable_rulesets",
    "register",
    "registered",
    "seat_model",
    "words_of",
]
