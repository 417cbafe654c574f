"""What a table page shows, from one engine view of ``mafia_partisan``.

``board(view, names, playing=)`` reads nothing but the view. What a seat may not know
is never in its view, so it cannot reach its page; what its view holds privately
(its role, the mafia it knows, its own night choices and the radio's answers) goes to
``Board.card`` only, which the card template draws inside the face-down card.
Outside it, a player's screen has one shape for every seat at every moment: at a
night step every player still in the game gets the same frame, to the byte (the
step's title, the grid of the ten seats enabled by public facts alone, every mode
button and the role picker at the mafia's step, the five digits at the code) and taps
through it; whether the tap is a real choice, what is not open to the chooser and the
refusal of his choice are said on the card alone. The moderator (seat -1) gets
``Board.console``: the ledger and his moves as forms.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.engine import MODERATOR
from games.families.mafia.words import Words, words_for
from games.kit import list_separator, localize

ROLE_ORDER = (
    "general",
    "demolisher",
    "traitor_soldier",
    "partisan",
    "radio_operator",
    "colonel",
    "nurse",
    "sniper",
    "soldier",
)


class S:
    """A translated sentence whose ``%`` escapes its text parameters (names come
    already isolated in ``<bdi>``) and writes its numbers in the reader's digits."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __mod__(self, params: Mapping[str, Any]) -> SafeString:
        return mark_safe(  # noqa: S308 - every parameter is escaped
            self.text % {key: _safe(value) for key, value in params.items()}
        )


def _safe(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        return localize(value)
    return conditional_escape(value)


def _name(names: Mapping[int, str], seat: int | None) -> SafeString:
    """A player's name isolated for a sentence (a seat number if none is known)."""
    if seat is None:
        return mark_safe("—")
    name = names.get(seat)
    if not name:
        return S(_("seat %(n)s")) % {"n": seat + 1}
    return format_html("<bdi>{}</bdi>", name)


def _plain(names: Mapping[int, str], seat: int) -> str:
    """A name for a list of choices (an <option> holds text only)."""
    return names.get(seat) or _("seat %(n)s") % {"n": localize(seat + 1)}


def _join(items: Sequence[Any]) -> SafeString:
    if not items:
        return mark_safe("—")
    separator = list_separator()
    return mark_safe(separator.join(str(conditional_escape(i)) for i in items))  # noqa: S308


def _names(names: Mapping[int, str], seats: Sequence[int] | None) -> SafeString:
    return _join([_name(names, s) for s in seats or ()])


@dataclass
class SeatRow:
    seat: int
    name: str
    in_game: bool
    left: str
    warnings: int
    kicked: bool
    count: int | None = None
    ballot: str = ""
    side: str = ""
    role: str = ""
    role_label: str = ""
    side_label: str = ""


@dataclass
class GridSeat:
    seat: int
    name: str
    enabled: bool


@dataclass
class NightScreen:
    """One step's frame, the same for the one who chooses and those who tap: built
    from public facts only, and it does not even say which of the two this seat is
    (the form sends ``night``; the server knows)."""

    form: str
    title: str
    seats: list[GridSeat]
    skip: bool
    modes: list[tuple[str, str]]
    guesses: list[tuple[str, str]]
    numbers: list[int]
    count: int


@dataclass
class Ballot:
    kind: str
    title: str
    candidates: list[GridSeat]
    most: int


@dataclass
class Line:
    text: str
    key: str = ""


@dataclass
class Card:
    """Everything only this player may see, drawn inside the face-down card."""

    seat: int
    side: str
    role: str
    role_label: str
    side_label: str
    awake: bool | None
    restrictions: list[str]
    known: list[SeatRow]
    partisan_sees: list[tuple[int, str]]
    radio_code: int | None
    general_guess: int | None
    recruited: int | None
    picks: list[dict[str, Any]]
    mafia_nights: list[tuple[int, list[dict[str, Any]]]]
    bullet: bool | None
    in_game: bool


@dataclass
class ModeratorForm:
    type: str
    label: str
    choices: list[tuple[str, str]] = field(default_factory=list)
    danger: bool = False


@dataclass
class Console:
    roles: list[SeatRow]
    facts: list[tuple[str, str]]
    exits: list[str]
    night: list[str]
    resolution: list[tuple[str, str]]
    nights: list[tuple[int, list[tuple[str, str]]]]
    forms: list[ModeratorForm]
    awake: str
    tapped: str
    awaited: bool = False
    """The game waits on him (see :data:`MODERATOR_CUES`): only then do his forms
    make the page say "your move" (the tab title, the banner, a vibration)."""


@dataclass
class Board:
    """What a table page shows one viewer. The seats' rows and the record are the
    shared regions' (drawn from the spectator's board once per version): they are
    worked out when a template first asks for them, not for every seat's push."""

    phase: str
    heading: str
    banner: str
    banner_tone: str
    over: bool
    moderator: bool
    news: list[str]
    timer: str
    source: tuple[Mapping[str, Any], Mapping[int, str], Words] = field(
        repr=False, compare=False
    )
    night: NightScreen | None = None
    ballot: Ballot | None = None
    tapped: bool = False
    card: Card | None = None
    console: Console | None = None
    outcome: str = ""

    @cached_property
    def seats(self) -> list[SeatRow]:
        return _seat_rows(*self.source)

    @cached_property
    def record(self) -> list[str]:
        return _record(*self.source)

    @cached_property
    def vote(self) -> dict[str, Any] | None:
        """The vote in progress as the table sees it (the public board's): only
        that region reads its ballots, which change with every one cast."""
        view, names, words = self.source
        vote = view.get("vote")
        if not vote:
            return None
        return {
            "kind": str(words.vote(vote["kind"])),
            "threshold": vote["threshold"],
            "candidates": _names(names, vote["candidates"]),
            "cast": len(vote.get("ballots") or {}),
            "voters": len(vote.get("voters") or ()),
        }


def heading(view: Mapping[str, Any], words: Words) -> str:
    phase = view["phase"]
    night = view.get("night") or {}
    day = view.get("day") or {}
    if phase == "night":
        if night.get("intro"):
            base = _("Introduction night")
        else:
            base = S(_("Night %(n)s")) % {"n": night.get("number")}
        return f"{base} · {words.step(night.get('step'))}"
    if phase == "dawn":
        return S(_("Dawn after night %(n)s")) % {"n": night.get("number")}
    if phase == "midday":
        sleep = _("Midday sleep")
        return f"{sleep} · {words.step(day.get('sleep_step'))}"
    if phase == "vote":
        vote = view.get("vote") or {}
        day_text = S(_("Day %(n)s")) % {"n": day.get("number")}
        return f"{day_text} · {words.vote(vote.get('kind', ''))}"
    if phase == "day":
        return S(_("Day %(n)s")) % {"n": day.get("number")}
    return _("The game is over")


def _seat_rows(
    view: Mapping[str, Any], names: Mapping[int, str], words: Words
) -> list[SeatRow]:
    vote = view.get("vote") or {}
    counts = vote.get("counts") or {}
    ballots = vote.get("ballots") or {}
    roles = {r["seat"]: r for r in view.get("roles") or ()}
    rows = []
    for s in view["seats"]:
        seat = s["seat"]
        left = ""
        if s.get("left"):
            how = s["left"].get("how") or []
            left = ", ".join(str(words.exit(h)) for h in how)
        row = SeatRow(
            seat=seat,
            name=_name(names, seat),
            in_game=s["in_game"],
            left=left,
            warnings=s["warnings"],
            kicked=s["kicked"],
            count=counts.get(str(seat)) if vote else None,
            ballot=_names(names, ballots[str(seat)]) if str(seat) in ballots else "",
        )
        if seat in roles:
            row.side = roles[seat]["side"]
            row.role = roles[seat]["role"]
            row.role_label = str(words.role(row.role))
            row.side_label = str(words.side(row.side))
        rows.append(row)
    return rows


def _morning(
    morning: Mapping[str, Any], names: Mapping[int, str], words: Words
) -> list[str]:
    night = morning["night"]
    lines = [S(_("Morning after night %(n)s.")) % {"n": night}]
    if morning.get("left"):
        lines.append(
            S(_("Left the game in the night: %(names)s."))
            % {"names": _names(names, morning["left"])}
        )
    elif night:
        lines.append(_("Nobody left the game in the night."))
    if morning.get("kicked"):
        lines.append(
            S(_("Kicked players left: %(names)s."))
            % {"names": _names(names, morning["kicked"])}
        )
    if morning.get("midday"):
        lines.append(_("There is a midday sleep today."))
    if morning.get("recruitment") is not None:
        lines.append(
            _("The General used the recruitment.")
            if morning["recruitment"]
            else _("The General has not used the recruitment.")
        )
    reading = morning.get("colonel_reading")
    if reading:
        lines.append(
            S(_("The colonel's shot: %(name)s was on the side of the %(side)s."))
            % {
                "name": _name(names, reading.get("seat")),
                "side": words.side(reading.get("side", "")),
            }
        )
    return lines


def _inquiry(inq: Mapping[str, Any], names: Mapping[int, str], words: Words) -> str:
    parts = []
    for item in inq.get("reading") or ():
        if "seat" in item:
            parts.append(
                format_html(
                    "{}: {}", _name(names, item["seat"]), words.side(item["side"])
                )
            )
        else:
            parts.append(
                format_html("{}: {}", words.side(item["side"]), localize(item["count"]))
            )
    return S(_("Inquiry on day %(n)s: %(reading)s.")) % {
        "n": inq.get("day"),
        "reading": mark_safe("; ".join(parts) or "—"),  # noqa: S308
    }


def _vote_line(vote: Mapping[str, Any], names: Mapping[int, str], words: Words) -> str:
    return S(_("Day %(n)s, %(vote)s: threshold %(t)s; chosen: %(chosen)s.")) % {
        "n": vote.get("day"),
        "vote": words.vote(vote.get("kind", "")),
        "t": vote.get("threshold"),
        "chosen": _names(names, vote.get("chosen")),
    }


def _record(
    view: Mapping[str, Any], names: Mapping[int, str], words: Words
) -> list[str]:
    lines: list[str] = []
    for morning in view.get("mornings") or ():
        lines.extend(_morning(morning, names, words))
    for inq in view.get("inquiries") or ():
        lines.append(_inquiry(inq, names, words))
    for midday in view.get("middays") or ():
        lines.append(
            S(_("Day %(n)s, midday: the colonel named %(named)s and shot %(target)s."))
            % {
                "n": midday.get("day"),
                "named": _names(names, midday.get("named")),
                "target": _name(names, midday.get("target")),
            }
        )
    for vote in view.get("votes") or ():
        lines.append(_vote_line(vote, names, words))
    for d in view.get("discipline") or ():
        if d["kind"] == "warning":
            lines.append(
                S(_("Day %(n)s: a warning to %(name)s."))
                % {"n": d["day"], "name": _name(names, d["seat"])}
            )
        else:
            lines.append(
                S(_("Day %(n)s: %(name)s is kicked."))
                % {"n": d["day"], "name": _name(names, d["seat"])}
            )
    return lines


def _night_screen(
    spec: Mapping[str, Any],
    view: Mapping[str, Any],
    names: Mapping[int, str],
    words: Words,
) -> NightScreen:
    """The step's frame from public facts alone: the step, its form, the public
    ``grid`` (who is in the game, one's own seat included), the house's ``skip`` and
    whether the mafia may pass. Never the chooser's ``targets`` or ``modes``: a
    greyed-out cell or mode button would tell a glancing neighbour who is awake.
    Those go on the card (:func:`_restrictions`)."""
    grid = set(spec.get("grid") or ())
    seats = [
        GridSeat(s["seat"], _name(names, s["seat"]), s["seat"] in grid)
        for s in view["seats"]
    ]
    modes: list[tuple[str, str]] = []
    if spec["form"] == "general":
        modes = [(c, str(words.mode(c))) for c in _public_modes(view)]
    guesses = (
        [(r, str(words.role(r))) for r in ROLE_ORDER]
        if spec["form"] == "general"
        else []
    )
    step = spec.get("step")
    return NightScreen(
        form=spec["form"],
        title=str(words.step(step)),
        seats=seats,
        skip=bool(spec.get("skip")),
        modes=modes,
        guesses=guesses,
        numbers=list(spec.get("numbers") or ()),
        count=int(spec.get("count") or 1),
    )


def _public_modes(view: Mapping[str, Any]) -> list[str]:
    """The mafia's actions as every screen shows them (the house's pass is public)."""
    codes = ["shoot", "slaughter", "recruit"]
    if view["options"].get("mafia_may_pass"):
        codes.append("pass")
    return codes


def _restrictions(
    spec: Mapping[str, Any],
    view: Mapping[str, Any],
    names: Mapping[int, str],
    words: Words,
) -> list[str]:
    """What the awake chooser's screen offers that is not open to him tonight: the
    modes and seats missing from his own spec (said on his card only)."""
    if spec.get("type") != "choose":
        return []
    lines: list[str] = []
    if spec["form"] == "general":
        offered = set(spec.get("modes") or ())
        closed = [c for c in _public_modes(view) if c not in offered]
        if closed:
            lines.append(
                S(_("Not open to you tonight: %(modes)s."))
                % {"modes": _join([str(words.mode(c)) for c in closed])}
            )
    if "targets" in spec:
        targets = set(spec["targets"])
        barred = [seat for seat in spec.get("grid") or () if seat not in targets]
        if barred:
            lines.append(
                S(_("You may not pick: %(names)s.")) % {"names": _names(names, barred)}
            )
    return lines


def _pick_text(
    pick: Mapping[str, Any], names: Mapping[int, str], words: Words
) -> dict[str, Any]:
    parts: list[Any] = []
    if pick.get("number") is not None:
        parts.append(localize(pick["number"]))
    if pick.get("mode"):
        parts.append(str(words.mode(pick["mode"])))
    if pick.get("target") is not None:
        parts.append(_name(names, pick["target"]))
    if pick.get("targets"):
        parts.append(_names(names, pick["targets"]))
    if pick.get("guess"):
        parts.append(str(words.role(pick["guess"])))
    reading = pick.get("reading")
    return {
        "night": pick.get("night"),
        "step": str(words.step(pick.get("step"))),
        "seat": pick.get("seat"),
        "text": mark_safe(  # noqa: S308 - each part escaped
            " · ".join(str(conditional_escape(part)) for part in parts) or "—"
        ),
        "target": pick.get("target"),
        "reading": reading or "",
        "reading_label": (
            pgettext("mafia reading", "positive")
            if reading == "positive"
            else pgettext("mafia reading", "negative")
        )
        if reading
        else "",
    }


def _card(
    me: Mapping[str, Any],
    view: Mapping[str, Any],
    names: Mapping[int, str],
    words: Words,
) -> Card:
    known = [
        SeatRow(
            seat=k["seat"],
            name=_name(names, k["seat"]),
            in_game=True,
            left="",
            warnings=0,
            kicked=False,
            side=k.get("side") or "",
            role=k.get("role") or "",
            role_label=str(words.role(k["role"])) if k.get("role") else "",
            side_label=str(words.side(k["side"])) if k.get("side") else "",
        )
        for k in me.get("known") or ()
    ]
    legal = view.get("legal") or ()
    night_spec = next((s for s in legal if s.get("type") in ("choose", "tap")), None)
    recruited = me.get("recruited")
    return Card(
        seat=me["seat"],
        side=me["side"],
        role=me["role"],
        role_label=str(words.role(me["role"])),
        side_label=str(words.side(me["side"])),
        awake=None if night_spec is None else night_spec["type"] == "choose",
        restrictions=[]
        if night_spec is None
        else _restrictions(night_spec, view, names, words),
        known=known,
        partisan_sees=[(s, _name(names, s)) for s in me.get("partisan_sees") or ()],
        radio_code=me.get("radio_code"),
        general_guess=me.get("general_guess"),
        recruited=recruited.get("night") if recruited else None,
        picks=[_pick_text(p, names, words) for p in me.get("picks") or ()],
        mafia_nights=[
            (n["night"], [_pick_text(p, names, words) for p in n.get("picks") or ()])
            for n in me.get("mafia_nights") or ()
        ],
        bullet=me.get("bullet"),
        in_game=bool(me.get("in_game")),
    )


_FACTS = {
    "soldiers_in_game": lambda: _("Plain soldiers in the game"),
    "shield_up": lambda: _("The Partisan's shield is up"),
    "recruitment_used": lambda: _("Recruitment used"),
    "recruitment_available": lambda: _("Recruitment possible now"),
    "recruit": lambda: _("Recruited player"),
    "recruit_night": lambda: _("Recruited on night"),
    "bullet": lambda: _("The sniper's bullet"),
    "suspended": lambda: _("The demolisher is suspended"),
    "suspended_since": lambda: _("Suspended since night"),
    "slaughters_used": lambda: _("Slaughters used"),
    "slaughters_left": lambda: _("Slaughters left"),
    "radio_code": lambda: _("The radio operator's code"),
    "general_guess": lambda: _("The General's guess"),
    "code_matches": lambda: _("The guess matches the code"),
    "colonel_hit_night": lambda: _("The colonel was hit on night"),
    "successor": lambda: _("Shoots in the General's place"),
    "inquiries_left": lambda: _("Inquiries left"),
}
_SEAT_FACTS = frozenset({"recruit", "successor"})

_RESOLUTION = {
    "exits": lambda: _("Leave the game"),
    "colonel_hit": lambda: _("Colonel hit"),
    "saved": lambda: _("Saved by the nurse"),
    "shielded": lambda: _("Stopped by the shield"),
    "slaughter": lambda: _("Slaughter"),
    "recruitment": lambda: _("Recruitment"),
    "recruited": lambda: _("Recruited"),
    "demolition": lambda: _("Disruption"),
    "suspension_began": lambda: _("Demolisher suspended"),
    "sniper": lambda: pgettext("mafia", "The sniper's shot"),
}


SNIPER = {
    # The engine's outcome of the sniper's shot, as a sentence (console and review).
    "no_effect": lambda: _("The sniper shot the General: no effect."),
    "hit": lambda: _("The sniper hit a mafia member."),
    "saved": lambda: _("The sniper hit a mafia member, whom the nurse saved."),
    "missed": lambda: _("The sniper shot a citizen and leaves the game himself."),
    "blocked": lambda: _("The sniper was disrupted: his shot had no effect."),
}


def _value(
    value: Any, names: Mapping[int, str], words: Words, seat: bool = False
) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    if isinstance(value, int):
        return _name(names, value) if seat else localize(value)
    if isinstance(value, list):
        return _join([_value(v, names, words, seat=True) for v in value])
    if isinstance(value, Mapping):
        parts: list[Any] = []
        for key, item in value.items():
            if key == "night":
                continue
            if key in ("seat", "target", "by") and isinstance(item, int):
                parts.append(_name(names, item))
            elif key in ("role", "guess") and isinstance(item, str):
                parts.append(str(words.role(item)))
            elif key == "cause" and isinstance(item, str):
                parts.append(str(words.exit(item)))
            elif key == "causes" and isinstance(item, list):
                parts.append(", ".join(str(words.exit(c)) for c in item))
            elif key in ("at", "number", "effect", "kind"):
                continue
            else:
                parts.append(format_html("{}: {}", key, _value(item, names, words)))
        return mark_safe(  # noqa: S308 - each part escaped
            " · ".join(str(conditional_escape(part)) for part in parts)
        )
    if isinstance(value, str):
        return (
            str(words.exit(value)) if value in words.exits else str(words.role(value))
        )
    return str(value)


def _exit(item: Mapping[str, Any], names: Mapping[int, str], words: Words) -> str:
    when = S(_("night %(n)s") if item.get("at") == "night" else _("day %(n)s")) % {
        "n": item.get("number")
    }
    causes = ", ".join(str(words.exit(c)) for c in item.get("causes") or ())
    return format_html("{}: {} ({})", _name(names, item.get("seat")), causes, when)


def _demolition(value: str, words: Words) -> str:
    """The disruption's effect: on nobody, none (his suspension), or on a role."""
    if value == "none":
        return _("no effect")
    if value == "suspended":
        return _("none: the demolisher is suspended")
    return str(words.role(value))


def _resolution(
    res: Mapping[str, Any] | None, names: Mapping[int, str], words: Words
) -> list[tuple[str, str]]:
    if not res:
        return []
    rows = []
    for key, label in _RESOLUTION.items():
        value = res.get(key)
        # Not ``value in (None, [], False)``: seat 0 equals False.
        if value is None or value is False or value == []:
            continue
        if key == "colonel_hit":
            rows.append((label(), _name(names, value)))
        elif key == "sniper" and value in SNIPER:
            rows.append((label(), SNIPER[value]()))
        elif key == "demolition":
            rows.append((label(), _demolition(value, words)))
        else:
            rows.append((label(), _value(value, names, words)))
    return rows


MODERATOR_CUES = frozenset({"confirm_night", "midday", "start_vote", "end_day"})
"""The moderator's moves the game cannot go on without: the dawn's confirmation,
the colonel's sleeps, the votes, the end of the day. The rest (timers, an inquiry,
closing a vote early, warnings and kicks) he may make while the players act: they
are on his console, but the table does not wait for them."""

_FORM_LABELS = {
    "confirm_night": lambda: _("Confirm the night and announce the morning"),
    "inquiry": lambda: _("Call an inquiry"),
    "midday": lambda: _("Midday sleep"),
    "close_vote": lambda: _("Close the vote"),
    "end_day": lambda: _("End the day: night falls"),
    "timer": lambda: _("Start a timer"),
    "warn": lambda: _("Warn"),
    "kick": lambda: _("Kick"),
}


def _console(
    view: Mapping[str, Any], names: Mapping[int, str], words: Words
) -> Console:
    ledger = view.get("ledger") or {}
    roles = [
        SeatRow(
            seat=r["seat"],
            name=_name(names, r["seat"]),
            in_game=r["in_game"],
            left="",
            warnings=int((ledger.get("warnings") or {}).get(str(r["seat"]), 0)),
            kicked=r["seat"] in (ledger.get("kicks") or []),
            side=r["side"],
            role=r["role"],
            role_label=str(words.role(r["role"])) + (" ★" if r.get("recruit") else ""),
            side_label=str(words.side(r["side"])),
        )
        for r in ledger.get("roles") or ()
    ]
    facts = [
        (label(), _value(ledger.get(key), names, words, seat=key in _SEAT_FACTS))
        for key, label in _FACTS.items()
        if key in ledger
    ]
    exits = [_exit(e, names, words) for e in ledger.get("exits") or ()]
    tonight = ledger.get("night") or {}
    night_lines = []
    for p in tonight.get("picks") or ():
        pick = _pick_text(p, names, words)
        mark = "" if p.get("effective", True) else " ✗"
        night_lines.append(
            format_html(
                "{}: {} → {}{}",
                pick["step"],
                _name(names, p.get("seat")),
                pick["text"],
                mark,
            )
        )
    forms: list[ModeratorForm] = []
    for spec in view.get("legal") or ():
        kind = spec["type"]
        if kind == "start_vote":
            forms.append(
                ModeratorForm(
                    kind,
                    S(_("Start the %(vote)s")) % {"vote": words.vote(spec["vote"])},
                    [(spec["vote"], "")],
                )
            )
        elif kind == "timer":
            choices = [
                (
                    f"{t['kind']}:{'none' if t['subject'] is None else t['subject']}",
                    f"{words.timer(t['kind'])}"
                    + (
                        ""
                        if t["subject"] is None
                        else f" · {_plain(names, t['subject'])}"
                    )
                    + f" ({localize(t['seconds'])})",
                )
                for t in spec.get("timers") or ()
            ]
            forms.append(ModeratorForm(kind, _FORM_LABELS[kind](), choices))
        elif kind in ("warn", "kick"):
            choices = [(str(s), _plain(names, s)) for s in spec.get("among") or ()]
            forms.append(
                ModeratorForm(
                    kind, _FORM_LABELS[kind](), choices, danger=kind == "kick"
                )
            )
        elif kind in _FORM_LABELS:
            forms.append(ModeratorForm(kind, _FORM_LABELS[kind]()))
    return Console(
        roles=roles,
        facts=facts,
        exits=exits,
        night=night_lines,
        resolution=_resolution(tonight.get("resolution"), names, words),
        nights=[
            (n["night"], _resolution(n.get("resolution"), names, words))
            for n in ledger.get("nights") or ()
        ],
        forms=forms,
        awake=_names(names, ledger.get("awake")),
        tapped=_names(names, ledger.get("tapped")),
        awaited=any(f.type in MODERATOR_CUES for f in forms),
    )


def board(
    view: Mapping[str, Any], names: Mapping[int, str], *, playing: bool = True
) -> Board:
    words = words_for(view["ruleset"])
    phase = view["phase"]
    me = view.get("me")
    moderator = bool(me) and me.get("seat") == MODERATOR
    over = phase == "over"
    legal = list(view.get("legal") or ()) if playing and not over else []
    mornings = view.get("mornings") or []
    news = (
        _morning(mornings[-1], names, words)
        if mornings and phase in ("day", "midday", "vote")
        else []
    )
    timer = view.get("timer")
    timer_text = ""
    if timer and not over:
        timer_text = S(_("Timer: %(kind)s, %(seconds)s s")) % {
            "kind": format_html("{}", words.timer(timer["kind"]))
            if timer.get("subject") is None
            else format_html(
                "{} · {}", words.timer(timer["kind"]), _name(names, timer["subject"])
            ),
            "seconds": timer["seconds"],
        }
    result = Board(
        phase=phase,
        heading=heading(view, words),
        banner="",
        banner_tone="",
        over=over,
        moderator=moderator,
        news=news,
        timer=timer_text,
        source=(view, names, words),
    )
    outcome = view.get("outcome")
    if outcome:
        result.outcome = S(_("The %(side)s win.")) % {
            "side": words.side(outcome["winner"])
        }
        result.banner = result.outcome
        result.banner_tone = "done"
    if moderator:
        result.console = _console(view, names, words)
        # Nothing awaits him once the game is over or abandoned (no legal moves).
        result.console.awaited = awaited = result.console.awaited and bool(legal)
        if not over:
            result.banner = (
                _("Your move, moderator: see the console.")
                if awaited
                else _("The players are acting.")
            )
            result.banner_tone = "you" if awaited else ""
        return result
    if me:
        result.card = _card(me, view, names, words)
        spec = next((s for s in legal if s.get("type") in ("choose", "tap")), None)
        vote_spec = next((s for s in legal if s.get("type") == "vote"), None)
        if spec is not None:
            result.night = _night_screen(spec, view, names, words)
            result.banner = _("Everyone taps now: pick on the grid and confirm.")
            result.banner_tone = "you"
        elif vote_spec is not None:
            in_game = {s["seat"] for s in view["seats"] if s["in_game"]}
            result.ballot = Ballot(
                kind=vote_spec["kind"],
                title=str(words.vote(vote_spec["kind"])),
                candidates=[
                    GridSeat(s, _name(names, s), s in in_game)
                    for s in vote_spec["candidates"]
                ],
                most=vote_spec["most"],
            )
            result.banner = _("Vote now: your ballot is shown to everyone.")
            result.banner_tone = "you"
        elif phase in ("night", "midday") and me.get("in_game"):
            result.tapped = True
            result.banner = _("Done. Waiting for the others.")
        elif not over and not me.get("in_game"):
            result.banner = _("You have left the game: you may watch.")
    if not result.banner and not over:
        result.banner = (
            _("The moderator leads the day.")
            if phase in ("day", "vote")
            else _("Waiting for the moderator.")
        )
    return result


class LiveBoard:
    """The board as a live region's template reads it: the card and the console
    are worked out from the keys they need alone, so that the regions that show
    them (``family.Live``) declare only those and are not drawn again for every
    seat when a ballot or a tap changes what the others show; anything else is
    the whole :class:`Board`, made when first asked for."""

    def __init__(
        self, view: Mapping[str, Any], names: Mapping[int, str], *, playing: bool
    ) -> None:
        self.view, self.names, self.playing = view, names, playing

    @cached_property
    def whole(self) -> Board:
        return board(self.view, self.names, playing=self.playing)

    @cached_property
    def card(self) -> Card | None:
        me = self.view["me"]
        if not me or me.get("seat") == MODERATOR:
            return None
        return _card(me, self.view, self.names, words_for(self.view["ruleset"]))

    @cached_property
    def console(self) -> Console | None:
        me = self.view["me"]
        if not me or me.get("seat") != MODERATOR:
            return None
        return self.whole.console

    @property
    def over(self) -> bool:
        return bool(self.view["phase"] == "over")

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.whole, name)


def moderating(view: Mapping[str, Any]) -> bool:
    me = view.get("me")
    return bool(me) and me.get("seat") == MODERATOR
