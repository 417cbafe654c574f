"""The leak oracle: which facts a seat may not know, and whether a payload shows one.

Tests run every view, event, page fragment and API answer through :func:`find_leaks`
for the seat it is meant for.  A payload may be

* a dict or list (a view, an event's data, an API answer).  A mapping about a seat (an
  int-like ``"seat"`` key, else ``"target"``) leaks through its ``"side"``, ``"role"``,
  ``"vote"``, ``"card"``, ``"cards"``, ``"result"`` or ``"check_result"`` values; a
  ``"votes"`` mapping ``{seat: bool}`` leaks another seat's vote in progress; a key
  that is a side or role code (``"evil"``, ``"sniper"``) naming seats leaks those.
* a JSON string, parsed and walked the same way.
* an HTML string.  Every per-seat fact is marked on an element with ``data-seat="i"``
  and one of ``data-side``, ``data-role``, ``data-vote``, ``data-card`` (or
  ``data-cards``) and ``data-check-result``.  With ``words`` (secret value code ->
  display strings, e.g. ``{"evil": ["предатель"]}``) the text of each ``data-seat``
  element (its own text: not that of a nested element of another seat, nor of an
  element marked ``data-claim`` or ``data-said``, which carry what players *say*)
  is searched for the display strings (whole words) of that seat's secrets.

Side, role, vote and check-result leaks count when the payload states the true
(secret) value: a wrong statement gives nothing away.  A mission card attributed to
anyone but the viewer is always a leak, whatever it says.  Finished votes are public:
a ``votes`` mapping (or a ``data-vote``) inside a mapping or element that names a
finished vote with ``mission`` and ``attempt`` (``data-mission`` and
``data-attempt``), or equal to a finished vote, is never a leak.
"""

from __future__ import annotations

import functools
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
from games.families.resistance.engine.knowledge import knows
from games.families.resistance.engine.sides import Side
from games.families.resistance.engine.state import CARDS, GameState, Phase, VoteRecord

__all__ = ["Leak", "Secret", "find_leaks", "secrets"]

SIDE, ROLE, VOTE, CARD, CHECK_RESULT = "side", "role", "vote", "card", "check_result"

_APPROVE = {"true", "1", "yes", "y", "approve", "approved", "for"}
_REJECT = {"false", "0", "no", "n", "reject", "rejected", "against"}


class Secret(NamedTuple):
    """A fact about ``seat`` the viewer may not know now; ``value`` is the truth.

    A named tuple (immutable, cheap): the property tests ask for thousands a second.
    """

    kind: str
    seat: int
    value: str | bool
    note: str = ""


class Leak(NamedTuple):
    """A secret found in a payload, and where (a JSON path or an HTML element)."""

    kind: str
    seat: int
    value: str | bool
    where: str


def secrets(
    state: GameState,
    seat: int | None,
    *,
    after: GameState | None = None,
    own: bool = True,
) -> list[Secret]:
    """Every fact ``seat`` (``None``: a spectator) may not know at this point.

    With ``after`` (a replay of a finished game, see ``view``), seen by everyone, only
    who played which card is still secret; seen as one player by someone else
    (``own=False``), that player's own cards are secret too.
    """
    if after is not None and seat is None:
        return [secret for secret in _live_secrets(state, None) if secret.kind == CARD]
    found = _live_secrets(state, seat)
    if not own and seat is not None:
        for record in state.missions:
            if seat in record.team:
                card = record.cards[record.team.index(seat)]
                found.append(Secret(CARD, seat, card, f"mission {record.number}"))
        if state.phase is Phase.MISSION and seat in state.team:
            played = state.cards[state.team.index(seat)]
            if played is not None:
                found.append(Secret(CARD, seat, played, f"mission {state.mission}"))
    return found


def _live_secrets(state: GameState, seat: int | None) -> list[Secret]:
    """The secrets of ``seat`` as the game is played (see :func:`secrets`).

    Sides and roles until the end, except one's own, an evil player's partners, the
    scout's list and one's own check results (and what follows from them: see
    :mod:`.knowledge`); other seats' votes while the vote is in progress; check
    results one did not obtain, until the end; and who played which mission card,
    forever, except one's own.
    """
    table = state.table
    over = state.phase is Phase.OVER
    found: list[Secret] = []
    knowledge = knows(state, seat)
    for other in range(table.players):
        if other == seat:
            continue
        fact = knowledge[other]
        if fact.side is None:
            found.append(Secret(SIDE, other, table.sides[other].value))
        if fact.role is None:
            found.append(Secret(ROLE, other, table.roles[other]))
    if state.phase is Phase.VOTE:
        for other, vote in enumerate(state.votes):
            if vote is not None and other != seat:
                found.append(Secret(VOTE, other, vote, "the vote in progress"))
    for record in state.missions:
        for member, card in zip(record.team, record.cards, strict=True):
            if member != seat:
                found.append(Secret(CARD, member, card, f"mission {record.number}"))
    if state.phase is Phase.MISSION:
        for member, played in zip(state.team, state.cards, strict=True):
            if played is not None and member != seat:
                found.append(Secret(CARD, member, played, f"mission {state.mission}"))
    if not over:
        for check in state.checks:
            target = check.target
            if (
                check.holder != seat
                and target != seat
                and knowledge[target].side is None
            ):
                note = f"check after mission {check.after_mission}"
                found.append(Secret(CHECK_RESULT, target, check.result.value, note))
    return found


def _as_vote(value: object) -> bool | None:
    if type(value) is bool:
        return value
    if isinstance(value, str):
        text = value.strip().casefold()
        if text in _APPROVE:
            return True
        if text in _REJECT:
            return False
    return None


def _as_code(value: object) -> str | None:
    return value.strip().casefold() if isinstance(value, str) else None


@dataclass
class _Index:
    """The viewer's secrets arranged for lookups by seat."""

    viewer: int | None
    sides: dict[int, str] = field(default_factory=dict)
    roles: dict[int, str] = field(default_factory=dict)
    votes: dict[int, bool] = field(default_factory=dict)
    check_results: dict[int, str] = field(default_factory=dict)
    by_seat: dict[int, list[Secret]] = field(default_factory=dict)
    finished: frozenset[tuple[int, int]] = frozenset()
    """``(mission, attempt)`` of every finished vote."""
    history: tuple[VoteRecord, ...] = ()
    codes: frozenset[str] = frozenset()
    """Side and role codes (as keys naming seats: ``{"sniper": 3}``); empty when no
    side or role is secret, which lets the walk skip the lookups."""
    leaks: list[Leak] = field(default_factory=list)

    def add(self, kind: str, seat: int, value: str | bool, where: Where) -> None:
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

    def vote(self, seat: int, value: object, where: Where) -> None:
        vote = _as_vote(value)
        if vote is not None and self.votes.get(seat) is vote:
            self.add(VOTE, seat, vote, where)

    def card(self, seat: int, value: object, where: Where) -> None:
        """A card named for any seat but the viewer's gives away who played it."""
        if seat == self.viewer:
            return
        values: Iterable[object]
        if isinstance(value, Mapping):
            values = value.values()
        elif isinstance(value, list | tuple):
            values = value
        else:
            values = (value,)
        for item in values:
            code = _as_code(item)
            if code in CARDS:
                self.add(CARD, seat, code, where)

    def result(self, seat: int, value: object, where: Where) -> None:
        """A check result: the target's side, secret unless the viewer knows it."""
        code = _as_code(value)
        if code is None:
            return
        if self.check_results.get(seat) == code:
            self.add(CHECK_RESULT, seat, code, where)
        elif self.sides.get(seat) == code:
            self.add(SIDE, seat, code, where)

    def names_finished_vote(self, mission: object, attempt: object) -> bool:
        return (seat_of(mission), seat_of(attempt)) in self.finished

    def is_finished_vote(self, votes: Mapping[Any, Any]) -> bool:
        """Whether ``votes`` is one finished vote shown whole (public)."""
        shown = {str(seat): vote for seat, vote in votes.items()}
        return any(
            shown == {str(s): v for s, v in enumerate(record.votes) if v is not None}
            for record in self.history
        )


def _index(
    state: GameState,
    seat: int | None,
    after: GameState | None = None,
    own: bool = True,
) -> _Index:
    index = _Index(viewer=seat if own else None)
    for secret in secrets(state, seat, after=after, own=own):
        index.by_seat.setdefault(secret.seat, []).append(secret)
        if secret.kind == SIDE:
            index.sides[secret.seat] = str(secret.value)
        elif secret.kind == ROLE:
            index.roles[secret.seat] = str(secret.value)
        elif secret.kind == VOTE:
            index.votes[secret.seat] = bool(secret.value)
        elif secret.kind == CHECK_RESULT:
            index.check_results[secret.seat] = str(secret.value)
    if index.sides or index.roles:
        index.codes = _codes(state.table.ruleset.role_codes)
    index.history = state.history
    index.finished = frozenset((vote.mission, vote.attempt) for vote in state.history)
    return index


@functools.cache
def _codes(role_codes: tuple[str, ...]) -> frozenset[str]:
    codes = {side.value for side in Side} | set(role_codes)
    return frozenset(
        spelling for code in codes for spelling in (code, code.upper(), code.title())
    )


# --- dicts and JSON -------------------------------------------------------------------

_ABOUT_SEAT = ("seat", "target")
_FACTS = (
    ("side", _Index.side),
    ("role", _Index.role),
    ("result", _Index.result),
    ("check_result", _Index.result),
    ("card", _Index.card),
    ("cards", _Index.card),
)
"""Keys of a mapping about one seat that state a fact about it, and their checks."""


def _subject(node: Mapping[Any, Any]) -> int | None:
    for key in _ABOUT_SEAT:
        if key in node:
            seat = seat_of(node[key])
            if seat is not None:
                return seat
    return None


def _votes_mapping(index: _Index, votes: Mapping[Any, Any], where: Where) -> None:
    if index.is_finished_vote(votes):
        return  # a finished vote, shown whole: public
    for key, value in votes.items():
        seat = seat_of(key)
        if seat is not None:
            index.vote(seat, value, (where, key))


def _walk(index: _Index, node: object, where: Where, finished: bool) -> None:
    kind = type(node)
    if kind is dict:
        _walk_mapping(index, cast(dict[Any, Any], node), where, finished)
    elif kind is list or kind is tuple or isinstance(node, list | tuple):
        item: object
        for position, item in enumerate(cast(Sequence[object], node)):
            if type(item) not in LEAVES:
                _walk(index, item, (where, position), finished)
    elif isinstance(node, Mapping):
        _walk_mapping(index, node, where, finished)


def _walk_mapping(
    index: _Index, node: Mapping[Any, Any], where: Where, finished: bool
) -> None:
    if not finished and "attempt" in node and "mission" in node:
        finished = index.names_finished_vote(node["mission"], node["attempt"])
    subject = _subject(node)
    if subject is not None and subject != index.viewer:
        for key, check in _FACTS:
            if key in node:
                check(index, subject, node[key], (where, key))
        if index.votes and not finished:
            for key in ("vote", "approve"):
                if key in node:
                    index.vote(subject, node[key], (where, key))
    codes = index.codes
    for key, value in node.items():
        if key in codes:
            for seat in seats_named(value):
                if seat != index.viewer:
                    index.side(seat, key, (where, key))
                    index.role(seat, key, (where, key))
        if type(value) in LEAVES:
            continue
        if key == "votes" and isinstance(value, Mapping):
            if index.votes and not finished:
                _votes_mapping(index, value, (where, key))
        elif codes and isinstance(value, Mapping) and all_seat_keys(value):
            _seat_keyed(index, value, (where, key))
        _walk(index, value, (where, key), finished)


def _seat_keyed(index: _Index, mapping: Mapping[Any, Any], where: Where) -> None:
    """``{seat: "evil"}`` and the like: a side or role code per seat."""
    for key, value in mapping.items():
        seat = seat_of(key)
        if seat is None or seat == index.viewer or not isinstance(value, str):
            continue
        index.side(seat, value, (where, key))
        index.role(seat, value, (where, key))


# --- HTML -----------------------------------------------------------------------------


class _SeatMarks(SeatScanner):
    """Checks every ``data-seat`` element's marks and text; an element inside a
    finished vote (``extra``) may show its votes, a claim's text is the claimant's."""

    def __init__(
        self, index: _Index, words: Mapping[str, Sequence[str]] | None
    ) -> None:
        super().__init__(words)
        self.index = index

    def opened(
        self, tag: str, marks: dict[str, str], parent: Element | None
    ) -> Element:
        finished = (parent is not None and bool(parent.extra)) or (
            "data-mission" in marks
            and "data-attempt" in marks
            and self.index.names_finished_vote(
                marks["data-mission"], marks["data-attempt"]
            )
        )
        quiet = (parent is not None and parent.quiet) or any(
            name in marks for name in ("data-claim", "data-said")
        )
        seat = seat_of(marks.get("data-seat", ""))
        if seat is not None and seat != self.index.viewer:
            self._check_marks(seat, marks, finished)
        return Element(tag, seat, quiet=quiet, extra=finished)

    def _check_marks(self, seat: int, marks: dict[str, str], finished: bool) -> None:
        index = self.index
        where = f"<… data-seat={seat}>"
        if "data-side" in marks:
            index.side(seat, marks["data-side"], f"{where} data-side")
        if "data-role" in marks:
            index.role(seat, marks["data-role"], f"{where} data-role")
        if "data-vote" in marks and not finished:
            index.vote(seat, marks["data-vote"], f"{where} data-vote")
        for name in ("data-card", "data-cards"):
            if name in marks:
                cards = marks[name].replace(",", " ").split()
                index.card(seat, cards, f"{where} {name}")
        if "data-check-result" in marks:
            index.result(seat, marks["data-check-result"], f"{where} data-check-result")

    def closed(self, element: Element, text: str) -> None:
        seat = element.seat
        if seat is None or seat == self.index.viewer:
            return
        for secret in self.index.by_seat.get(seat, ()):
            if secret.kind == VOTE and element.extra:
                continue
            code = secret.value
            if isinstance(code, bool):
                code = "approve" if code else "reject"
            if self.shows(code, text):
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
        data=lambda data: _walk(index, data, "$", finished=False),
        page=_SeatMarks(index, words).read,
    )
    return index.leaks
