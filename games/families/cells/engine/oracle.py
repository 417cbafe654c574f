"""The leak oracle of ``cells``: what a seat may not be shown, and whether a payload
shows it.  A companion for the tests, never called by pages, sockets or the API.

"Secret" here means *may not be shown now*, which in ``cells`` is more than what a
seat does not know: a player must remember their cards, and the site must not remind
them (docs/rules.md §2).  So a seat's own cards are secret from it except at the first
look, during its own swap and just after a peek, and so is its own side; what a swapper
saw and whether they exchanged are secret from everyone, the swapper included, once the
decision is made.  Until the game is over, that is:

* ``card``: the colour in a seat's slot (``value``; ``note`` is the slot);
* ``side``, ``role``: a seat's majority, unless the viewer sees two of its cards that
  share a colour (only the first look does);
* ``seen``: the cards a swap or a peek showed its player (``value``; ``note`` names
  the move's step), except while they are on show to that player;
* ``exchanged``: whether a decided swap exchanged the cards.

After the game every character card is turned up, at every step of the review; what
stays hidden forever is the mission cards nobody revealed:

* ``hand``: the mission cards the leader (three) or the partner (two) holds while
  deciding, from everyone but them;
* ``held``: the cards a leader drew or a partner was passed, once they have
  discarded (with the revealed card they give the discards away);
* ``discard``: each discarded mission card, from everyone, the discarder included;
* ``deck``: the undrawn mission deck.

A payload may be

* a dict or list (a view, an event's data, an API answer), or a JSON string.  A
  mapping about a seat (int-like ``"seat"``) states that seat's ``"side"`` and
  ``"role"``, its card in ``"slot"`` with ``"card"``, its three cards with
  ``"cards"`` (``{"left": colour, ...}`` or three colours in slot order); a side or
  role code as a key naming seats (``{"spy": [1]}``) or a seat-keyed mapping of codes
  states sides or roles; a mapping with ``"kind"`` ``"swap"``/``"peek"`` and the
  move's ``"step"`` names that move: any colour under its ``"card"``, ``"cards"`` or
  ``"seen"`` (at any depth) is what the move showed, and its ``"exchanged"`` (or
  ``"exchange"``) says whether it exchanged (without a step, ``"exchanged"`` beside a
  ``"seat"`` speaks of that seat's last decided swap); colours under ``"hand"``,
  ``"held"``, ``"drawn"`` or ``"passed"`` are mission cards held, of the mission in
  progress, or of the mission numbered by the mapping's ``"number"``/``"mission"``;
  a colour under ``"discard"``, ``"discards"`` or ``"discarded"`` states a discard,
  one under ``"deck"`` the deck; a discard move (``"type": "discard"``) states the
  hand with its ``"cards"`` (the colours one may discard) and a discard with its
  ``"card"``.
* an HTML string.  The same facts are marks on elements: ``data-seat`` with
  ``data-side``, ``data-role``, ``data-slot`` + ``data-card``, ``data-cards`` (three
  colours in slot order); ``data-kind`` + ``data-step`` name a move, a
  ``data-card``/``data-cards``/``data-seen`` on it or inside it is what it showed,
  its ``data-exchanged`` the decision; ``data-hand`` (with ``data-number`` for a
  finished mission), ``data-discard``, ``data-deck``.  With ``words`` (secret code ->
  display strings, e.g. ``{"spy": ["шпион"], "red": ["красная"]}``) the own text of
  each ``data-seat`` element is searched for the words of that seat's side and role,
  and, with ``data-slot``, of that card's colour.

Precision: a side, role, card or exchange counts when the payload states the true
value (a false statement gives nothing away); what a move showed counts whatever
colour is stated; mission cards count when the stated colours could be (part of) the
hidden ones.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, cast

from games.engine.oracle import (
    LEAVES,
    Element,
    SeatScanner,
    Where,
    all_seat_keys,
    render,
    scan,
    seat_of,
    seats_named,
)
from games.families.cells.engine.rules import side_of
from games.families.cells.engine.sides import ROLES, Side
from games.families.cells.engine.state import (
    COLOURS,
    PEEK,
    SLOTS,
    SWAP,
    GameState,
    MissionRecord,
    Phase,
)

__all__ = ["Leak", "Secret", "find_leaks", "secrets", "visible_positions"]

CARD, SIDE, ROLE, SEEN, EXCHANGED = "card", "side", "role", "seen", "exchanged"
HAND, HELD, DISCARD, DECK = "hand", "held", "discard", "deck"

_HAND_KEYS = ("hand", "held", "drawn", "passed")
_DISCARD_KEYS = ("discard", "discards", "discarded")
_SEEN_KEYS = ("card", "cards", "seen")
_MOVES = (SWAP, PEEK)


class Secret(NamedTuple):
    """A fact the viewer may not be shown now; ``value`` is the truth.

    ``seat`` is whose fact it is (the holder, the player who moved, the discarder),
    ``None`` for the deck.
    """

    kind: str
    seat: int | None
    value: str | bool | tuple[str, ...]
    note: str = ""


class Leak(NamedTuple):
    """A secret found in a payload, and where (a JSON path or an HTML element)."""

    kind: str
    seat: int | None
    value: str | bool | tuple[str, ...]
    where: str


# --- what may not be shown ------------------------------------------------------------


def visible_positions(state: GameState, seat: int | None) -> frozenset[int]:
    """The character cards (positions) on show to ``seat`` at this step, during play:
    its own three at the first look until it confirms, the two cards of its swap
    until it decides, the card it peeked at until the next move."""
    if seat is None:
        return frozenset()
    phase = state.phase
    base = 3 * seat
    if phase is Phase.LOOK:
        return (
            frozenset() if state.confirmed[seat] else frozenset(range(base, base + 3))
        )
    if not state.touches:
        return frozenset()
    touch = state.touches[-1]
    if phase is Phase.EXCHANGE and touch.seat == seat:
        assert touch.other is not None and touch.other_slot is not None
        return frozenset((base + touch.slot, 3 * touch.other + touch.other_slot))
    if touch.kind == PEEK and touch.seat == seat and touch.step == state.step:
        return frozenset((base + touch.slot,))
    return frozenset()


def secrets(
    state: GameState,
    seat: int | None,
    *,
    after: GameState | None = None,
    own: bool = True,
) -> list[Secret]:
    """Every fact ``seat`` (``None``: a spectator) may not be shown at this point.

    With ``after`` (a replay of a finished game, see ``view``), seen by everyone,
    only the mission cards are still secret; seen as one player, what that player
    may not have been shown then, and with ``own=False`` (someone else watching)
    the mission cards the player held too.
    """
    if after is not None and seat is None:
        return _mission_secrets(state, None)
    found = _character_secrets(state, seat) + _mission_secrets(state, seat)
    if not own and seat is not None:
        holder = _holder(state)
        if holder == seat:
            found.append(_hand_secret(state, seat))
    return found


def _character_secrets(state: GameState, seat: int | None) -> list[Secret]:
    if state.phase is Phase.OVER:
        return []
    visible = visible_positions(state, seat)
    cards = state.cards
    found = [
        Secret(CARD, where // 3, colour, SLOTS[where % 3])
        for where, colour in enumerate(cards)
        if where not in visible
    ]
    for other in range(state.table.players):
        shown = Counter(
            cards[p] for p in range(3 * other, 3 * other + 3) if p in visible
        )
        if max(shown.values(), default=0) < 2:
            side = side_of(cards, other)
            found.append(Secret(SIDE, other, side.value))
            found.append(Secret(ROLE, other, ROLES[side]))
    on_show = (
        state.touches[-1].step
        if visible and state.phase is not Phase.LOOK and state.touches
        else None
    )
    for touch in state.touches:
        note = f"{touch.kind} at step {touch.step}"
        if touch.step != on_show:
            found.append(Secret(SEEN, touch.seat, touch.seen, note))
        if touch.exchanged is not None:
            found.append(Secret(EXCHANGED, touch.seat, touch.exchanged, note))
    return found


def _holder(state: GameState) -> int | None:
    mission = state.mission
    if mission is None:
        return None
    return mission.leader if state.phase is Phase.LEADER else mission.partner


def _hand_secret(state: GameState, holder: int) -> Secret:
    assert state.mission is not None
    note = f"mission {state.mission.number}"
    return Secret(HAND, holder, tuple(sorted(state.hand)), note)


def _held(record: MissionRecord) -> Iterable[Secret]:
    """A mission's cards held and discarded, once each decision is made."""
    note = f"mission {record.number}"
    if record.leader_discard is not None:
        yield Secret(HELD, record.leader, tuple(sorted(record.drawn)), note)
        yield Secret(DISCARD, record.leader, record.leader_discard, note)
    if record.partner_discard is not None and record.card is not None:
        passed = tuple(sorted((record.partner_discard, record.card)))
        yield Secret(HELD, record.partner, passed, note)
        yield Secret(DISCARD, record.partner, record.partner_discard, note)


def _mission_secrets(state: GameState, seat: int | None) -> list[Secret]:
    found: list[Secret] = []
    holder = _holder(state)
    if holder is not None and holder != seat:
        found.append(_hand_secret(state, holder))
    records = (
        state.missions if state.mission is None else (*state.missions, state.mission)
    )
    for record in records:
        found.extend(_held(record))
    if state.deck:
        found.append(Secret(DECK, None, state.deck, "the undrawn mission deck"))
    return found


# --- reading payloads -----------------------------------------------------------------


def _code(value: object) -> str | None:
    return value.strip().casefold() if isinstance(value, str) else None


def _colours(value: object) -> list[str]:
    """Every colour stated in ``value``: a string, or inside lists and mapping values.

    A string may hold several, separated by spaces or commas (``"blue red"``)."""
    if isinstance(value, str):
        words = value.replace(",", " ").casefold().split()
        return [word for word in words if word in COLOURS]
    if isinstance(value, Mapping):
        value = list(value.values())
    if isinstance(value, list | tuple):
        return [colour for item in value for colour in _colours(item)]
    return []


def _as_bool(value: object) -> bool | None:
    if type(value) is bool:
        return value
    text = _code(value)
    if text in ("true", "1", "yes"):
        return True
    if text in ("false", "0", "no"):
        return False
    return None


def _within(stated: Sequence[str], hidden: Sequence[str]) -> bool:
    """Whether the colours ``stated`` could all be among ``hidden`` (as a multiset)."""
    if not stated:
        return False
    have = Counter(hidden)
    have.subtract(Counter(stated))
    return min(have.values()) >= 0


@dataclass
class _Index:
    """The viewer's secrets arranged for lookups."""

    cards: dict[tuple[int, str], str] = field(default_factory=dict)
    sides: dict[int, str] = field(default_factory=dict)
    roles: dict[int, str] = field(default_factory=dict)
    seen: dict[int, Secret] = field(default_factory=dict)
    """By the move's step."""
    exchanged: dict[int, Secret] = field(default_factory=dict)
    """By the swap's step."""
    last_exchange: dict[int, Secret] = field(default_factory=dict)
    """By the swapper: their last decided swap."""
    hand: Secret | None = None
    held: dict[int, list[Secret]] = field(default_factory=dict)
    """By mission number."""
    discards: list[Secret] = field(default_factory=list)
    deck: Secret | None = None
    codes: frozenset[str] = frozenset()
    leaks: list[Leak] = field(default_factory=list)

    def add(self, secret: Secret, where: Where) -> None:
        leak = Leak(secret.kind, secret.seat, secret.value, render(where))
        if leak not in self.leaks:
            self.leaks.append(leak)

    def card(self, seat: int, slot: object, value: object, where: Where) -> None:
        slot_name = _code(slot)
        code = _code(value)
        if slot_name is None or code is None:
            return
        truth = self.cards.get((seat, slot_name))
        if truth is not None and truth == code:
            self.add(Secret(CARD, seat, truth, slot_name), where)

    def layout(self, seat: int, value: object, where: Where) -> None:
        """A seat's cards: ``{"left": colour, ...}`` or three colours in slot order."""
        if isinstance(value, Mapping):
            for slot, colour in value.items():
                self.card(seat, slot, colour, (where, slot))
            return
        stated = _colours(value)
        if len(stated) == 3:
            for slot, colour in zip(SLOTS, stated, strict=True):
                self.card(seat, slot, colour, where)

    def side(self, seat: int, value: object, where: Where) -> None:
        code = _code(value)
        if code is not None and self.sides.get(seat) == code:
            self.add(Secret(SIDE, seat, code), where)

    def role(self, seat: int, value: object, where: Where) -> None:
        code = _code(value)
        if code is not None and self.roles.get(seat) == code:
            self.add(Secret(ROLE, seat, code), where)

    def shown_by_move(self, secret: Secret, value: object, where: Where) -> None:
        if _colours(value):
            self.add(secret, where)

    def exchange(self, secret: Secret | None, value: object, where: Where) -> None:
        decided = _as_bool(value)
        if secret is not None and decided is not None and secret.value is decided:
            self.add(secret, where)

    def mission_cards(self, number: int | None, value: object, where: Where) -> None:
        stated = _colours(value)
        if not stated:
            return
        if number is None:
            hand = self.hand
            if hand is not None and _within(stated, cast(tuple[str, ...], hand.value)):
                self.add(hand, where)
            return
        for secret in self.held.get(number, ()):
            if _within(stated, cast(tuple[str, ...], secret.value)):
                self.add(secret, where)

    def discarded(self, value: object, where: Where) -> None:
        for colour in _colours(value):
            for secret in self.discards:
                if secret.value == colour:
                    self.add(secret, where)

    def in_deck(self, value: object, where: Where) -> None:
        deck = self.deck
        cards = cast(tuple[str, ...], deck.value) if deck is not None else ()
        if deck is not None and any(colour in cards for colour in _colours(value)):
            self.add(deck, where)


def _index(
    state: GameState, seat: int | None, after: GameState | None, own: bool
) -> _Index:
    index = _Index()
    for secret in secrets(state, seat, after=after, own=own):
        kind, owner = secret.kind, secret.seat
        if kind == CARD and owner is not None:
            index.cards[(owner, secret.note)] = str(secret.value)
        elif kind == SIDE and owner is not None:
            index.sides[owner] = str(secret.value)
        elif kind == ROLE and owner is not None:
            index.roles[owner] = str(secret.value)
        elif kind == SEEN:
            index.seen[_step(secret)] = secret
        elif kind == EXCHANGED and owner is not None:
            index.exchanged[_step(secret)] = secret
            index.last_exchange[owner] = secret
        elif kind == HAND:
            index.hand = secret
        elif kind == HELD:
            index.held.setdefault(_number(secret), []).append(secret)
        elif kind == DISCARD:
            index.discards.append(secret)
        elif kind == DECK:
            index.deck = secret
    if index.sides or index.roles:
        index.codes = _CODES
    return index


def _step(secret: Secret) -> int:
    return int(secret.note.rsplit(" ", 1)[1])


def _number(secret: Secret) -> int:
    return int(secret.note.rsplit(" ", 1)[1])


_CODES = frozenset(
    spelling
    for code in (Side.GOOD.value, Side.EVIL.value, *ROLES.values())
    for spelling in (code, code.upper(), code.title())
)
"""Side and role codes, as keys naming seats (``{"spy": [1]}``)."""


# --- dicts and JSON -------------------------------------------------------------------


def _walk(index: _Index, node: object, where: Where, move: Secret | None) -> None:
    if isinstance(node, Mapping):
        _walk_mapping(index, node, where, move)
    elif isinstance(node, list | tuple):
        item: object
        for position, item in enumerate(cast(Sequence[object], node)):
            if type(item) not in LEAVES:
                _walk(index, item, (where, position), move)


def _walk_mapping(
    index: _Index, node: Mapping[Any, Any], where: Where, move: Secret | None
) -> None:
    named_step = seat_of(node.get("step")) if node.get("kind") in _MOVES else None
    if named_step is not None:
        move = index.seen.get(named_step, move)
    subject = seat_of(node.get("seat"))
    if subject is not None:
        if "card" in node and "slot" in node:
            index.card(subject, node["slot"], node["card"], (where, "card"))
        if "cards" in node:
            index.layout(subject, node["cards"], (where, "cards"))
        if "side" in node:
            index.side(subject, node["side"], (where, "side"))
        if "role" in node:
            index.role(subject, node["role"], (where, "role"))
    for key in ("exchanged", "exchange"):
        if key in node:
            swap = (
                index.exchanged.get(named_step)
                if named_step is not None
                else index.last_exchange.get(subject)
                if subject is not None
                else None
            )
            index.exchange(swap, node[key], (where, key))
    if move is not None:
        for key in _SEEN_KEYS:
            if key in node:
                index.shown_by_move(move, node[key], (where, key))
    number = seat_of(node.get("number", node.get("mission")))
    if node.get("type") == "discard":
        # A move: its "cards" are the colours one may discard (the hand's colours),
        # its "card" the discard itself.
        if "cards" in node:
            index.mission_cards(number, node["cards"], (where, "cards"))
        if "card" in node:
            index.discarded(node["card"], (where, "card"))
    codes = index.codes
    for key, value in node.items():
        if key in _HAND_KEYS:
            index.mission_cards(number, value, (where, key))
        elif key in _DISCARD_KEYS:
            index.discarded(value, (where, key))
        elif key == "deck":
            index.in_deck(value, (where, key))
        elif codes and key in codes:
            for seat in seats_named(value):
                index.side(seat, key, (where, key))
                index.role(seat, key, (where, key))
        if type(value) in LEAVES:
            continue
        if codes and isinstance(value, Mapping) and all_seat_keys(value):
            for seat_key, code in value.items():
                named = seat_of(seat_key)
                if named is not None and isinstance(code, str):
                    index.side(named, code, ((where, key), seat_key))
                    index.role(named, code, ((where, key), seat_key))
        _walk(index, value, (where, key), move)


# --- HTML -----------------------------------------------------------------------------


class _Marks(SeatScanner):
    """Walks a page fragment, checking every element's marks and seats' text."""

    def __init__(
        self, index: _Index, words: Mapping[str, Sequence[str]] | None
    ) -> None:
        super().__init__(words)
        self.index = index

    def opened(
        self, tag: str, marks: dict[str, str], parent: Element | None
    ) -> Element:
        """An element's marks; its ``extra`` is its card's slot and the move
        that showed it (a swap's or a look's step)."""
        index = self.index
        move = parent.extra[1] if parent is not None else None
        step = (
            seat_of(marks.get("data-step"))
            if marks.get("data-kind") in _MOVES
            else None
        )
        if step is not None:
            move = index.seen.get(step, move)
        seat = seat_of(marks.get("data-seat", ""))
        slot = _code(marks.get("data-slot"))
        where = f"<{tag} data-seat={seat}>" if seat is not None else f"<{tag}>"
        if seat is not None:
            if "data-side" in marks:
                index.side(seat, marks["data-side"], f"{where} data-side")
            if "data-role" in marks:
                index.role(seat, marks["data-role"], f"{where} data-role")
            if "data-card" in marks and slot is not None:
                index.card(seat, slot, marks["data-card"], f"{where} data-card")
            if "data-cards" in marks:
                index.layout(seat, marks["data-cards"], f"{where} data-cards")
        if move is not None:
            for name in ("data-card", "data-cards", "data-seen"):
                if name in marks:
                    index.shown_by_move(move, marks[name], f"{where} {name}")
        if "data-exchanged" in marks:
            swap = (
                index.exchanged.get(step)
                if step is not None
                else index.last_exchange.get(seat)
                if seat is not None
                else None
            )
            index.exchange(swap, marks["data-exchanged"], f"{where} data-exchanged")
        if "data-hand" in marks:
            number = seat_of(marks.get("data-number", marks.get("data-mission")))
            index.mission_cards(number, marks["data-hand"], f"{where} data-hand")
        if "data-discard" in marks:
            index.discarded(marks["data-discard"], f"{where} data-discard")
        if "data-deck" in marks:
            index.in_deck(marks["data-deck"], f"{where} data-deck")
        return Element(tag, seat, extra=(slot, move))

    def closed(self, element: Element, text: str) -> None:
        seat = element.seat
        if seat is None:
            return
        slot = element.extra[0]
        index = self.index
        facts: list[Secret] = []
        if seat in index.sides:
            facts.append(Secret(SIDE, seat, index.sides[seat]))
        if seat in index.roles:
            facts.append(Secret(ROLE, seat, index.roles[seat]))
        colour = index.cards.get((seat, slot or ""))
        if colour is not None:
            facts.append(Secret(CARD, seat, colour, slot or ""))
        for fact in facts:
            if self.shows(fact.value, text):
                index.add(fact, f"text of data-seat={seat}")


# --- the oracle -----------------------------------------------------------------------


def find_leaks(
    state: GameState,
    seat: int | None,
    payload: Any,
    words: Mapping[str, Sequence[str]] | None = None,
    *,
    after: GameState | None = None,
    own: bool = True,
) -> list[Leak]:
    """The secrets of ``seat`` that ``payload`` gives away; ``[]`` means clean.
    ``after`` and ``own`` describe a replay's perspective, as for ``view``."""
    index = _index(state, seat, after, own)
    scan(
        payload,
        data=lambda data: _walk(index, data, "$", None),
        page=_Marks(index, words).read,
    )
    return index.leaks
