"""Turning a ``cells`` view into what a table page shows: the banner and the news, the
board (the mission track, the deck, every cell with its touched marks), the record of
swaps, looks and missions, the action area, and the face-down card. Pure functions of
the view, the players' names and the game's words: no database, nothing beyond what
``view()`` handed over.

The shared regions (the board, the record) are presented from the spectator's view,
so they carry nothing secret and are the same for every seat. A seat's own regions
(the top, the card) come from its own view. Outside the card a seat's screen has the
same shape whatever cards it holds (UX.md, "a glance tells a neighbour nothing"):
everything only this seat may see now (its three cards at the first look, the two
cards of its swap, a card it looked at, the mission cards in its hand) and every move
made on it (confirming, exchanging or not, discarding) is on the card; the top region
offers only what anyone can see the seat may do (its turn's swap, mission or look).

Every fact about a card is tagged for the leak oracle: ``data-seat`` and ``data-slot``
with ``data-card`` for a card on show, ``data-kind`` and ``data-step`` around what a
move showed, ``data-exchanged`` for a decided swap, ``data-hand`` for mission cards.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.families.cells.words import Words, words_for
from games.kit import names_list

SLOTS = ("left", "centre", "right")
WINS_NEEDED = 3


@dataclass(frozen=True)
class Card:
    """One character card in a cell: face down unless ``card`` (its colour) is
    given, because this viewer may see it now."""

    seat: int
    slot: str
    slot_label: str
    initial: str
    touched: bool = False
    card: str | None = None
    card_label: str = ""


@dataclass
class SeatRow:
    position: int
    name: str
    cards: list[Card]
    is_current: bool = False
    is_leader: bool = False
    is_partner: bool = False
    status: str = ""  # "looking", "seen", "deciding"
    status_label: str = ""
    side: str | None = None  # after the game only
    side_label: str = ""
    role: str | None = None
    role_label: str = ""


@dataclass(frozen=True)
class Revealed:
    """A finished mission on the track: who went, and the card turned up."""

    number: int
    leader: str
    partner: str
    card: str
    card_label: str
    result: str
    result_label: str


@dataclass(frozen=True)
class RecordEntry:
    """One line of the table's record: a swap, a look, or a mission."""

    step: int
    kind: str  # swap, peek, mission
    seat: int
    text: str
    exchanged: bool | None = None
    exchanged_label: str = ""
    result: str = ""
    card: str = ""


@dataclass
class ActionArea:
    """What the seat may do now outside the card: only the current player's turn
    (swap, mission, look), which everyone can see is theirs. Any other move is made
    on the card, and the top region then only says so."""

    kind: str  # "turn", or "card" (the move is on the card)
    mine: list[tuple[str, str]] = field(default_factory=list)
    """(slot, label) of the player's own cards, for a swap."""
    theirs: list[tuple[str, str]] = field(default_factory=list)
    """("seat:slot", label) of the other players' left and right cards."""
    partners: list[tuple[int, str]] = field(default_factory=list)
    peek: list[tuple[str, str]] = field(default_factory=list)
    """(slot, label) of the player's touched cards."""


@dataclass(frozen=True)
class Shown:
    """A card on show to its viewer now, with whose it is."""

    seat: int
    name: str
    slot: str
    slot_label: str
    card: str
    card_label: str


@dataclass
class MyCard:
    """The face-down card: everything only this seat may see now, and the moves made
    on it."""

    seat: int
    cards: list[Card]
    """The seat's three cards: face up at the first look and after the game."""
    looking: bool
    side: str | None
    side_label: str
    role: str | None
    role_label: str
    swap_step: int | None = None
    swap: list[Shown] = field(default_factory=list)
    """The two cards of the seat's swap, its own first, while it decides."""
    peek_step: int | None = None
    peek: Shown | None = None
    hand: list[tuple[str, str]] = field(default_factory=list)
    """(colour, label) of the mission cards the seat holds while it decides."""
    hand_stage: str = ""  # "leader" or "partner"
    mission_number: int = 0
    can_confirm: bool = False
    can_exchange: bool = False
    discards: list[tuple[str, str]] = field(default_factory=list)
    """(colour, button label) for each colour the seat may discard."""
    touched: list[str] = field(default_factory=list)


@dataclass
class Board:
    banner: str
    banner_detail: str
    banner_tone: str
    news: str
    news_tone: str
    playing: bool
    phase: str
    over: bool
    words: Words
    successes: int
    failures: int
    success_pips: list[bool]
    failure_pips: list[bool]
    track: list[Revealed]
    mission_now: str
    deck: int
    discards: int
    reshuffles: int
    seats: list[SeatRow]
    record: list[RecordEntry]
    action: ActionArea | None
    my_card: MyCard | None
    winner: str | None
    winner_label: str
    reason_label: str
    turned_up: bool
    """Whether the board shows every card (after the game, and in the review)."""

    @property
    def winner_is_good(self) -> bool:
        """The review's banner tone."""
        return self.winner == "good"


# --- small helpers --------------------------------------------------------------------


def _name(names: Mapping[int, str], seat: int | None, me: int | None = None) -> str:
    if seat is None:
        return "?"
    if seat == me:
        return _("you")
    return names.get(seat, "?")


def _names(names: Mapping[int, str], seats: Sequence[int], me: int | None) -> str:
    return names_list(_name(names, seat, me) for seat in seats)


def _colour(words: Words, code: str) -> str:
    return str(words.colour(code))


def _slot(words: Words, code: str) -> str:
    return str(words.slot(code))


def card(
    words: Words,
    seat: int,
    slot: str,
    *,
    touched: bool = False,
    colour: str | None = None,
) -> Card:
    return Card(
        seat=seat,
        slot=slot,
        slot_label=_slot(words, slot),
        initial=str(words.slot_initial(slot)),
        touched=touched,
        card=colour,
        card_label=_colour(words, colour) if colour else "",
    )


def _winner_label(words: Words, winner: str | None) -> str:
    if winner is None:
        return ""
    return _("%(side)s win") % {"side": str(words.side(winner)).capitalize()}


def _reason_label(reason: str | None) -> str:
    labels = {
        "three_successes": pgettext("cells", "three missions succeeded"),
        "three_failures": pgettext("cells", "three missions failed"),
    }
    return labels.get(reason or "", reason or "")


def _result_label(words: Words, result: str) -> str:
    return str(words.success if result == "success" else words.failure)


# --- the board ------------------------------------------------------------------------


def _seat_rows(
    view: Mapping[str, Any],
    names: Mapping[int, str],
    words: Words,
    playing: bool = True,
) -> list[SeatRow]:
    """The seats; a game its host abandoned waits for nobody, so no seat is marked
    as still looking or deciding."""
    phase = view["phase"]
    over = phase == "over"
    mission = view["mission"] or {}
    waiting = set(view["waiting_for"])
    confirmed = set(view["confirmed"])
    roles = {fact["seat"]: fact for fact in view["roles"] or []}
    rows = []
    for cell in view["cells"]:
        seat = cell["seat"]
        touched = set(cell["touched"])
        laid = cell["cards"] or {}
        row = SeatRow(
            position=seat,
            name=names.get(seat, "?"),
            cards=[
                card(words, seat, slot, touched=slot in touched, colour=laid.get(slot))
                for slot in SLOTS
            ],
        )
        if not over:
            row.is_current = phase in ("turn", "exchange") and seat == view["current"]
            row.is_leader = seat == mission.get("leader")
            row.is_partner = seat == mission.get("partner")
        if not playing:
            pass
        elif phase == "look":
            if seat in confirmed:
                row.status, row.status_label = "seen", _("has seen their cards")
            else:
                row.status, row.status_label = "looking", _("looking")
        elif seat in waiting:
            row.status, row.status_label = "deciding", _("deciding")
        fact = roles.get(seat)
        if fact is not None:
            row.side = fact["side"]
            row.side_label = str(words.side(fact["side"]))
            row.role = fact["role"]
            row.role_label = str(words.role(fact["role"]))
        rows.append(row)
    return rows


def track(
    view: Mapping[str, Any], names: Mapping[int, str], words: Words
) -> list[Revealed]:
    return [
        Revealed(
            number=m["number"],
            leader=names.get(m["leader"], "?"),
            partner=names.get(m["partner"], "?"),
            card=m["card"],
            card_label=_colour(words, m["card"]),
            result=m["result"],
            result_label=_result_label(words, m["result"]),
        )
        for m in view["missions"]
    ]


def _touch_text(
    touch: Mapping[str, Any], names: Mapping[int, str], words: Words
) -> str:
    if touch["kind"] == "peek":
        return _("%(name)s looked at their %(slot)s card.") % {
            "name": names.get(touch["seat"], "?"),
            "slot": _slot(words, touch["slot"]),
        }
    return _("%(name)s took their %(slot)s card and %(other)s's %(theirs)s card.") % {
        "name": names.get(touch["seat"], "?"),
        "slot": _slot(words, touch["slot"]),
        "other": names.get(touch["player"], "?"),
        "theirs": _slot(words, touch["theirs"]),
    }


def _mission_text(
    mission: Mapping[str, Any], names: Mapping[int, str], words: Words
) -> str:
    text = pgettext(
        "cells", "Mission %(n)d, %(leader)s with %(partner)s: %(card)s, %(result)s."
    )
    return text % {
        "n": mission["number"],
        "leader": names.get(mission["leader"], "?"),
        "partner": names.get(mission["partner"], "?"),
        "card": _colour(words, mission["card"]),
        "result": _result_label(words, mission["result"]),
    }


def record(
    view: Mapping[str, Any], names: Mapping[int, str], words: Words
) -> list[RecordEntry]:
    """Every swap, look and mission in the order they happened. Whether a swap
    exchanged the cards is there only once the game is over (the view says it)."""
    entries = []
    for touch in view["touches"]:
        exchanged = touch["exchanged"]
        entries.append(
            RecordEntry(
                step=touch["step"],
                kind=touch["kind"],
                seat=touch["seat"],
                text=_touch_text(touch, names, words),
                exchanged=exchanged,
                exchanged_label=""
                if exchanged is None
                else _("exchanged")
                if exchanged
                else _("put back"),
            )
        )
    for mission in view["missions"]:
        entries.append(
            RecordEntry(
                step=mission["step"],
                kind="mission",
                seat=mission["leader"],
                text=_mission_text(mission, names, words),
                result=mission["result"],
                card=mission["card"],
            )
        )
    entries.sort(key=lambda entry: entry.step)
    return entries


def _news(
    view: Mapping[str, Any], names: Mapping[int, str], words: Words
) -> tuple[str, str]:
    """The latest public happening, in words, and its tone; it stays on the board
    until something newer happens, so a reload shows what the push did."""
    latest = None
    for touch in view["touches"]:
        if latest is None or touch["step"] >= latest[0]:
            latest = (touch["step"], _touch_text(touch, names, words), "neutral")
    for mission in view["missions"]:
        if latest is None or mission["step"] >= latest[0]:
            tone = "success" if mission["result"] == "success" else "fail"
            latest = (mission["step"], _mission_text(mission, names, words), tone)
    if latest is None:
        return "", ""
    return latest[1], latest[2]


def _banner(
    view: Mapping[str, Any], names: Mapping[int, str], words: Words, playing: bool
) -> tuple[str, str, str]:
    """One line that says what this player must do now, or whom the table waits
    for. It depends only on public facts: whose turn it is, who leads and who goes
    with them, who has confirmed."""
    me = view["me"]["seat"] if view["me"] else None
    phase = view["phase"]
    mine = bool(view["legal"])
    mission = view["mission"] or {}
    current = _name(names, view["current"])
    if not playing and phase != "over":
        return _("This game was abandoned before the end."), "", "abandoned"
    if phase == "over":
        outcome = view["outcome"] or {}
        winner = outcome.get("winner")
        tone = "over-good" if winner == "good" else "over-evil"
        return _winner_label(words, winner), _reason_label(outcome.get("reason")), tone
    if phase == "look":
        waiting = _names(names, view["waiting_for"], me)
        if mine:
            return (
                _("Look at your three cards and remember them"),
                _("Tap your card to see them; confirm when you know them by heart."),
                "you",
            )
        return (
            _("Everyone looks at their three cards"),
            _("Waiting for: %(names)s") % {"names": waiting},
            "wait",
        )
    if phase == "turn":
        if mine:
            detail = (
                _(
                    "Swap a card, go on a mission, or look at a card of yours that "
                    "was touched."
                )
                if any(spec["type"] == "peek" for spec in view["legal"])
                else _("Swap a card or go on a mission.")
            )
            return _("Your turn"), detail, "you"
        return (
            _("%(name)s's turn") % {"name": current},
            _("A swap, a mission or a look at a touched card."),
            "wait",
        )
    if phase == "exchange":
        touch = view["touches"][-1]
        if mine:
            return (
                _("Your swap: look at both cards on your card, then give them back"),
                _(
                    "Exchange them or put each back where it was: nobody will know "
                    "which."
                ),
                "you",
            )
        return (
            _(
                "%(name)s is looking at their %(slot)s card and %(other)s's "
                "%(theirs)s card"
            )
            % {
                "name": current,
                "slot": _slot(words, touch["slot"]),
                "other": _name(names, touch["player"]),
                "theirs": _slot(words, touch["theirs"]),
            },
            _("They give the two cards back face down, exchanged or not."),
            "wait",
        )
    number = mission.get("number", 0)
    leader = _name(names, mission.get("leader"), me)
    partner = _name(names, mission.get("partner"), me)
    if phase == "leader":
        if mine:
            return (
                pgettext("cells", "Mission %(n)d: you lead, with %(partner)s")
                % {"n": number, "partner": partner},
                _("Look at the three mission cards on your card and discard one."),
                "you",
            )
        return (
            pgettext("cells", "Mission %(n)d: %(leader)s with %(partner)s")
            % {"n": number, "leader": leader, "partner": partner},
            _("%(leader)s discards one of three mission cards and passes two on.")
            % {"leader": leader},
            "wait",
        )
    if mine:
        return (
            pgettext("cells", "Mission %(n)d: %(leader)s passed you two cards")
            % {"n": number, "leader": leader},
            _("Look at them on your card: discard one, and the other is revealed."),
            "you",
        )
    return (
        pgettext("cells", "Mission %(n)d: %(leader)s with %(partner)s")
        % {"n": number, "leader": leader, "partner": partner},
        _("%(partner)s discards one of two cards and reveals the other.")
        % {"partner": partner},
        "wait",
    )


def _action_area(
    view: Mapping[str, Any], names: Mapping[int, str], words: Words
) -> ActionArea | None:
    """The current player's turn, in the top region; every other move of this seat
    is on its card, and the top region then only points there."""
    legal = {spec["type"]: spec for spec in view["legal"]}
    if not legal:
        return None
    if "swap" not in legal:
        return ActionArea(kind="card")
    swap = legal["swap"]
    theirs = [
        (
            f"{seat}:{slot}",
            _("%(name)s — %(slot)s")
            % {"name": names.get(seat, "?"), "slot": _slot(words, slot)},
        )
        for seat in swap["among"]
        for slot in swap["theirs"]
    ]
    return ActionArea(
        kind="turn",
        mine=[(slot, _slot(words, slot)) for slot in swap["mine"]],
        theirs=theirs,
        partners=[(seat, names.get(seat, "?")) for seat in legal["mission"]["among"]],
        peek=[
            (slot, _slot(words, slot))
            for slot in legal.get("peek", {}).get("slots", [])
        ],
    )


def _my_card(
    view: Mapping[str, Any], names: Mapping[int, str], words: Words, playing: bool
) -> MyCard | None:
    """The seat's card; an abandoned game (``playing`` False) offers no move on it."""
    me = view["me"]
    if not me:
        return None
    seat = me["seat"]
    over = view["phase"] == "over"
    touched = set(me["touched"])
    laid = me["cards"] or {}
    if over:
        laid = (
            next(
                (cell["cards"] for cell in view["cells"] if cell["seat"] == seat), None
            )
            or {}
        )
    legal = {spec["type"]: spec for spec in view["legal"]} if playing else {}
    mine = MyCard(
        seat=seat,
        cards=[
            card(words, seat, slot, touched=slot in touched, colour=laid.get(slot))
            for slot in SLOTS
        ],
        looking=me["cards"] is not None,
        side=me["side"],
        side_label=str(words.side(me["side"])) if me["side"] else "",
        role=me["role"],
        role_label=str(words.role(me["role"])) if me["role"] else "",
        can_confirm="confirm" in legal,
        can_exchange="exchange" in legal,
        touched=[_slot(words, slot) for slot in SLOTS if slot in touched],
    )
    swap = me["swap"]
    if swap:
        mine.swap_step = swap["step"]
        mine.swap = [
            Shown(
                seat=part["seat"],
                name=_name(names, part["seat"], seat),
                slot=part["slot"],
                slot_label=_slot(words, part["slot"]),
                card=part["card"],
                card_label=_colour(words, part["card"]),
            )
            for part in (swap["mine"], swap["theirs"])
        ]
    peek = me["peek"]
    if peek:
        mine.peek_step = peek["step"]
        mine.peek = Shown(
            seat=seat,
            name=_name(names, seat, seat),
            slot=peek["slot"],
            slot_label=_slot(words, peek["slot"]),
            card=peek["card"],
            card_label=_colour(words, peek["card"]),
        )
    if me["hand"]:
        mission = view["mission"] or {}
        mine.hand = [(colour, _colour(words, colour)) for colour in me["hand"]]
        mine.hand_stage = mission.get("stage", "")
        mine.mission_number = mission.get("number", 0)
    if "discard" in legal and me["hand"]:
        # Only with the hand on show: seen by someone else in a replay, the hand is
        # left out, and so are the colours it could discard.
        partner = mine.hand_stage == "partner"
        for colour in legal["discard"]["cards"]:
            if partner:
                rest = list(me["hand"] or [])
                rest.remove(colour)
                label = _("Discard the %(card)s card, reveal the %(other)s one") % {
                    "card": _colour(words, colour),
                    "other": _colour(words, rest[0]) if rest else "?",
                }
            else:
                label = _("Discard a %(card)s card") % {"card": _colour(words, colour)}
            mine.discards.append((colour, label))
    return mine


def board(
    view: Mapping[str, Any], names: Mapping[int, str], *, playing: bool = True
) -> Board:
    """Everything the play area shows, for the viewer whose view this is.

    ``playing`` is False for a game its host abandoned: the engine does not know
    that, so the board offers no move and says the game was abandoned."""
    words = words_for(view["ruleset"])
    text, detail, tone = _banner(view, names, words, playing)
    news, news_tone = _news(view, names, words)
    outcome = view["outcome"]
    mission = view["mission"]
    mission_now = ""
    if mission and view["phase"] != "over":
        mission_now = pgettext(
            "cells", "Mission %(n)d: %(leader)s with %(partner)s"
        ) % {
            "n": mission["number"],
            "leader": names.get(mission["leader"], "?"),
            "partner": names.get(mission["partner"], "?"),
        }
    return Board(
        banner=text,
        banner_detail=detail,
        banner_tone=tone,
        news=news,
        news_tone=news_tone,
        playing=playing,
        phase=view["phase"],
        over=view["phase"] == "over",
        words=words,
        successes=view["successes"],
        failures=view["failures"],
        success_pips=[i < view["successes"] for i in range(WINS_NEEDED)],
        failure_pips=[i < view["failures"] for i in range(WINS_NEEDED)],
        track=track(view, names, words),
        mission_now=mission_now,
        deck=view["deck"]["cards"],
        discards=view["deck"]["discards"],
        reshuffles=view["deck"]["reshuffles"],
        seats=_seat_rows(view, names, words, playing),
        record=record(view, names, words),
        action=_action_area(view, names, words) if playing else None,
        my_card=_my_card(view, names, words, playing),
        winner=outcome["winner"] if outcome else None,
        winner_label=_winner_label(words, outcome["winner"]) if outcome else "",
        reason_label=_reason_label(outcome["reason"]) if outcome else "",
        turned_up=any(cell["cards"] for cell in view["cells"]),
    )
