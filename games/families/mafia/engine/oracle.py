"""The leak oracle: which facts a seat may not know, and whether a payload shows one.

Tests run every view, event, page fragment and API answer through :func:`find_leaks`
for the seat it is meant for.  The secrets (:func:`secrets`) are

* ``side`` and ``role`` of every seat the viewer does not know (docs/rules.md §3
  "Secrets": the mafia know each other, a recruit and the mafia once he wakes with
  them; a side read out to the table is public);
* ``pick``: whom a role chose at a night step (``value`` the step, ``note`` the night
  or ``day N`` for a midday sleep), unless the viewer made it or, for the mafia's
  steps, was awake with the mafia that night; the colonel's midday choice until it
  is announced;
* ``reading``: the radio operator's answer about a target;
* ``code`` and ``guess``: the radio operator's code, the General's guess.

The moderator and, after the game, everyone may know everything: no secrets.

A payload may be a dict or list (a view, an event's data, an API answer), a JSON
string, or an HTML string.  In dicts and JSON:

* a mapping with an int-like ``"seat"`` states that seat's ``"side"`` and ``"role"``;
  with a ``"step"`` it also says the seat is awake at that step (the nurse at
  ``nurse``, the mafia at ``confer``...), so it states that role or side;
* a mapping with a ``"step"`` and a ``"target"`` (or ``"targets"``) inside a mapping
  carrying ``"night"`` (or ``"day"``) states a pick; with ``"reading"`` and
  ``"target"`` it states a reading;
* ``"radio_code"`` and ``"general_guess"`` keys state the code and the guess;
* a key that is a side or role code naming seats (``{"nurse": 3}``,
  ``{"mafia": [1, 4]}``, ``{"nurse": {"seat": 3}}``) and a seat-keyed mapping of
  codes (``{"3": "nurse"}``) state the seats' sides or roles.

In HTML, an element with ``data-seat="i"`` states ``data-side``, ``data-role`` and
``data-reading`` about seat ``i``; with ``words`` (code -> display strings, e.g.
``{"nurse": ["پرستار", "медсестра"]}``) the element's own text (not a nested seat's,
nor an element marked ``data-said`` or ``data-claim``: what players *say*) is searched
for the words of that seat's secret side and role.

A statement counts only when it is the truth: a wrong one gives nothing away.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, cast

from games.engine.core import MODERATOR
from games.engine.oracle import (
    LEAVES,
    Element,
    SeatScanner,
    Where,
    all_seat_keys,
    render,
    scan,
    seat_of,
)
from games.families.mafia.engine.knowledge import knows, woke_with_team
from games.families.mafia.engine.roles import ROLE_CODES, SIDES, Role, Side
from games.families.mafia.engine.state import GameState, Phase, Pick, Step

__all__ = ["Leak", "Secret", "find_leaks", "secrets"]

SIDE, ROLE, PICK, READING, CODE, GUESS = (
    "side",
    "role",
    "pick",
    "reading",
    "code",
    "guess",
)

_MAFIA_STEPS = frozenset({Step.MEET, Step.CONFER, Step.DEMOLISHER, Step.GENERAL})
_STEP_ROLE: dict[str, tuple[str | None, str | None]] = {
    Step.MEET.value: (None, Side.MAFIA.value),
    Step.CODE.value: (None, None),
    Step.PARTISAN.value: (Role.PARTISAN.value, Side.CITIZENS.value),
    Step.CONFER.value: (None, Side.MAFIA.value),
    Step.DEMOLISHER.value: (Role.DEMOLISHER.value, Side.MAFIA.value),
    Step.GENERAL.value: (None, Side.MAFIA.value),
    Step.NURSE.value: (Role.NURSE.value, Side.CITIZENS.value),
    Step.RADIO.value: (Role.RADIO.value, Side.CITIZENS.value),
    Step.SNIPER.value: (Role.SNIPER.value, Side.CITIZENS.value),
    Step.COLONEL_NAMES.value: (Role.COLONEL.value, Side.CITIZENS.value),
    Step.COLONEL_SHOOTS.value: (Role.COLONEL.value, Side.CITIZENS.value),
}
"""What a seat awake at a step is: its role, its side (``None``: not implied)."""
_CODES = frozenset(
    spelling
    for code in (*SIDES, *ROLE_CODES)
    for spelling in (code, code.upper(), code.title())
)


class Secret(NamedTuple):
    """A fact about ``seat`` the viewer may not know now; ``value`` is the truth."""

    kind: str
    seat: int
    value: str | int
    note: str = ""


class Leak(NamedTuple):
    """A secret found in a payload, and where (a JSON path or an HTML element)."""

    kind: str
    seat: int
    value: str | int
    where: str


def _knows_picks(state: GameState, viewer: int | None, night: int, pick: Pick) -> bool:
    """Whether ``viewer`` made ``pick`` or saw it awake with the mafia that night."""
    if viewer is None:
        return False
    if pick.seat == viewer:
        return True
    return pick.step in _MAFIA_STEPS and woke_with_team(state, viewer, night)


def secrets(
    state: GameState,
    seat: int | None,
    *,
    after: GameState | None = None,
    own: bool = True,
) -> list[Secret]:
    """Every fact ``seat`` (``None``: a spectator; :data:`MODERATOR`) may not know.

    With ``after`` (a replay of a finished game) seen by everyone, nothing is secret:
    the end shows everything.  Seen as one player, the step's own secrets.  ``own``
    changes nothing (no fact stays a player's own after this game).
    """
    del own
    if (after is not None and seat is None) or seat == MODERATOR:
        return []
    if state.phase is Phase.OVER:
        return []
    table = state.table
    found: list[Secret] = []
    knowledge = knows(state, seat)
    for other in range(table.players):
        if other == seat:
            continue
        fact = knowledge[other]
        if fact.side is None:
            found.append(Secret(SIDE, other, state.sides[other].value))
        if fact.role is None:
            found.append(Secret(ROLE, other, table.roles[other].value))
    records = list(state.nights)
    if state.current is not None:
        records.append(state.current)
    for record in records:
        night = record.number
        for pick in record.picks:
            if pick.target is None or _knows_picks(state, seat, night, pick):
                continue
            note = f"night {night}"
            found.append(Secret(PICK, pick.target, pick.step.value, note))
            if pick.reading is not None:
                found.append(Secret(READING, pick.target, pick.reading, note))
    midday = state.midday
    if midday is not None and seat != midday.colonel:
        note = f"day {midday.day}"
        if midday.stage == "naming":
            for target in midday.named:
                found.append(Secret(PICK, target, Step.COLONEL_NAMES.value, note))
        if midday.stage == "shooting" and midday.target is not None:
            target = midday.target
            found.append(Secret(PICK, target, Step.COLONEL_SHOOTS.value, note))
    if seat != table.radio and state.code is not None:
        found.append(Secret(CODE, table.radio, state.code))
    if seat != table.general and state.guess is not None:
        found.append(Secret(GUESS, table.general, state.guess))
    return found


def _as_code(value: object) -> str | None:
    return value.strip().casefold() if isinstance(value, str) else None


@dataclass
class _Index:
    """The viewer's secrets arranged for lookups."""

    viewer: int | None
    sides: dict[int, str] = field(default_factory=dict)
    roles: dict[int, str] = field(default_factory=dict)
    picks: set[tuple[str, str, int]] = field(default_factory=set)
    """``(note, step, target)``."""
    readings: dict[tuple[int, str], str] = field(default_factory=dict)
    """``(target, note)`` -> reading."""
    code: tuple[int, int] | None = None
    """``(radio operator's seat, code)``."""
    guess: tuple[int, int] | None = None
    """``(General's seat, guess)``."""
    by_seat: dict[int, list[Secret]] = field(default_factory=dict)
    leaks: list[Leak] = field(default_factory=list)

    def add(self, kind: str, seat: int, value: str | int, where: Where) -> None:
        leak = Leak(kind, seat, value, render(where))
        if leak not in self.leaks:
            self.leaks.append(leak)

    def side(self, seat: int, value: object, where: Where) -> None:
        code = _as_code(value)
        if code is not None and self.sides.get(seat) == code:
            self.add(SIDE, seat, code, where)

    def role(self, seat: int, value: object, where: Where) -> None:
        code = _as_code(value)
        if code is not None and self.roles.get(seat) == code:
            self.add(ROLE, seat, code, where)

    def code_word(self, seat: int, value: object, where: Where) -> None:
        """A side or role code said of ``seat``: a leak if it is its secret one."""
        self.side(seat, value, where)
        self.role(seat, value, where)


def _index(
    state: GameState, seat: int | None, after: GameState | None, own: bool
) -> _Index:
    index = _Index(viewer=seat)
    for secret in secrets(state, seat, after=after, own=own):
        index.by_seat.setdefault(secret.seat, []).append(secret)
        value = secret.value
        if secret.kind == SIDE:
            index.sides[secret.seat] = str(value)
        elif secret.kind == ROLE:
            index.roles[secret.seat] = str(value)
        elif secret.kind == PICK:
            index.picks.add((secret.note, str(value), secret.seat))
        elif secret.kind == READING:
            index.readings[(secret.seat, secret.note)] = str(value)
        elif secret.kind == CODE:
            index.code = (secret.seat, int(value))
        elif secret.kind == GUESS:
            index.guess = (secret.seat, int(value))
    return index


# --- dicts and JSON -------------------------------------------------------------------


def _context(node: Mapping[Any, Any], inherited: str | None) -> str | None:
    """The night (``night N``) or midday (``day N``) a mapping speaks of."""
    night = node.get("night")
    if type(night) is int:
        return f"night {night}"
    day = node.get("day")
    if type(day) is int and "step" in node:
        return f"day {day}"
    return inherited


def _targets(node: Mapping[Any, Any]) -> list[int]:
    named = [seat_of(node.get("target"))]
    targets = node.get("targets")
    if isinstance(targets, list | tuple):
        named.extend(seat_of(seat) for seat in targets)
    return [seat for seat in named if seat is not None]


def _seats_named(value: object) -> list[int]:
    if isinstance(value, Mapping):
        seat = seat_of(value.get("seat"))
        return [] if seat is None else [seat]
    if isinstance(value, list | tuple):
        return [s for s in map(seat_of, value) if s is not None]
    seat = seat_of(value)
    return [] if seat is None else [seat]


def _walk(index: _Index, node: object, where: Where, context: str | None) -> None:
    if isinstance(node, Mapping):
        _walk_mapping(index, node, where, context)
    elif isinstance(node, list | tuple):
        item: object
        for position, item in enumerate(cast(Sequence[object], node)):
            if type(item) not in LEAVES:
                _walk(index, item, (where, position), context)


def _walk_mapping(
    index: _Index, node: Mapping[Any, Any], where: Where, context: str | None
) -> None:
    context = _context(node, context)
    viewer = index.viewer
    subject = seat_of(node.get("seat"))
    step = node.get("step")
    if subject is not None and subject != viewer:
        if "side" in node:
            index.side(subject, node["side"], (where, "side"))
        if "role" in node:
            index.role(subject, node["role"], (where, "role"))
        if type(step) is str and step in _STEP_ROLE:
            role, side = _STEP_ROLE[step]
            if role is not None:
                index.role(subject, role, (where, "step"))
            if side is not None:
                index.side(subject, side, (where, "step"))
    if type(step) is str and context is not None and index.picks:
        for target in _targets(node):
            if (context, step, target) in index.picks:
                index.add(PICK, target, step, (where, "target"))
    if "reading" in node and index.readings:
        about = seat_of(node.get("target"))
        reading = _as_code(node["reading"])
        if about is not None and reading is not None:
            for (seat, note), value in index.readings.items():
                if seat == about and value == reading and context in (note, None):
                    index.add(READING, about, reading, (where, "reading"))
    for key, secret, kind in (
        ("radio_code", index.code, CODE),
        ("general_guess", index.guess, GUESS),
    ):
        if secret is not None and key in node:
            holder, number = secret
            if type(node[key]) is int and node[key] == number:
                index.add(kind, holder, number, (where, key))
    secret_facts = bool(index.sides or index.roles)
    for key, value in node.items():
        if secret_facts and key in _CODES:
            for seat in _seats_named(value):
                if seat != viewer:
                    index.code_word(seat, key, (where, key))
        if type(value) in LEAVES:
            continue
        if secret_facts and isinstance(value, Mapping) and all_seat_keys(value):
            for seat_key, code in value.items():
                keyed = seat_of(seat_key)
                if keyed is not None and keyed != viewer and isinstance(code, str):
                    index.code_word(keyed, code, ((where, key), seat_key))
        _walk(index, value, (where, key), context)


# --- HTML -----------------------------------------------------------------------------


class _SeatMarks(SeatScanner):
    """Checks every ``data-seat`` element's marks and text; a claim's or a chat
    line's text is its writer's own words."""

    def __init__(self, index: _Index, words: Mapping[str, Sequence[str]] | None):
        super().__init__(words)
        self.index = index

    def opened(
        self, tag: str, marks: dict[str, str], parent: Element | None
    ) -> Element:
        quiet = (parent is not None and parent.quiet) or any(
            name in marks for name in ("data-claim", "data-said")
        )
        seat = seat_of(marks.get("data-seat", ""))
        index = self.index
        if seat is not None and seat != index.viewer:
            where = f"<… data-seat={seat}>"
            if "data-side" in marks:
                index.side(seat, marks["data-side"], f"{where} data-side")
            if "data-role" in marks:
                index.role(seat, marks["data-role"], f"{where} data-role")
            if "data-reading" in marks:
                reading = _as_code(marks["data-reading"])
                if reading in {v for (s, _), v in index.readings.items() if s == seat}:
                    assert reading is not None
                    index.add(READING, seat, reading, f"{where} data-reading")
        return Element(tag, seat, quiet=quiet)

    def closed(self, element: Element, text: str) -> None:
        seat = element.seat
        if seat is None or seat == self.index.viewer:
            return
        for secret in self.index.by_seat.get(seat, ()):
            if secret.kind in (SIDE, ROLE) and self.shows(secret.value, text):
                self.index.add(
                    secret.kind, seat, secret.value, f"text of data-seat={seat}"
                )


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
        page=_SeatMarks(index, words).read,
    )
    return index.leaks
