"""What the review page says about a finished ``mafia_partisan`` game: night by night
every real choice with what it did, the engine's resolution and the morning's
announcement; day by day every inquiry, the colonel's midday, every vote with its
ballots and counts against the threshold, every warning and kick; the end.

All of it is read from the final view of the game's replay: once the game is over
the engine gives everyone the moderator's ledger, which holds every night's real
choices (a sleeper's tap is no choice and is recorded nowhere, so it cannot be
listed) and every resolution, beside the public record of the days. The export
(:mod:`.export`) writes the same record as data.

Nothing here is shown before the end: the platform calls the family's ``review``
for a finished game only, and an abandoned one never ended (its roles stay secret).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.families.mafia import presenters
from games.families.mafia.presenters import (
    SNIPER,
    S,
    _inquiry,
    _morning,
    _name,
    _names,
)
from games.families.mafia.words import Words, words_for
from games.kit import States, final_view

if TYPE_CHECKING:
    from games.kit import Game

MAFIA_ROLES = ("general", "demolisher", "traitor_soldier")
PARTISAN_SEES = ("traitor_soldier", "soldier")


# --- the record in words ------------------------------------------------------------


@dataclass(frozen=True)
class Choice:
    """One real choice of a night: who chose what, and what it did."""

    step: str
    step_label: str
    seat: int
    name: str
    role: str
    role_label: str
    text: str
    effective: bool
    reading: str = ""
    reading_label: str = ""


@dataclass(frozen=True)
class NightPart:
    number: int
    heading: str
    facts: list[str]
    """What the introduction night showed (the mafia met, the Partisan's three)."""
    choices: list[Choice]
    resolution: list[str]
    morning: list[str]
    kind: str = "night"


@dataclass(frozen=True)
class Tally:
    seat: int
    name: str
    count: int
    reached: bool
    chosen: bool


@dataclass(frozen=True)
class CastBallot:
    seat: int
    name: str
    candidates: str
    cast: bool


@dataclass(frozen=True)
class VotePart:
    kind: str
    title: str
    threshold: int
    voters: int
    tallies: list[Tally]
    ballots: list[CastBallot]
    outcome: str
    closed_early: bool


@dataclass(frozen=True)
class DayPart:
    number: int
    heading: str
    inquiries: list[str]
    midday: list[str]
    votes: list[VotePart]
    discipline: list[str]
    kind: str = "day"


@dataclass(frozen=True)
class Ending:
    """The banner of the review page (``history/game.html`` reads ``final``):
    ``winner`` is the side's place in the game, ``good`` for the citizens."""

    winner: str
    side: str
    winner_label: str
    reason_label: str

    @property
    def winner_is_good(self) -> bool:
        return self.winner == "good"


@dataclass(frozen=True)
class ReviewPage:
    """The record in words, for ``mafia/review.html``."""

    seats: list[presenters.SeatRow]
    outcome: str
    ending: Ending | None
    parts: list[NightPart | DayPart] = field(default_factory=list)
    """Night 0, day 1, night 1, day 2…: each day follows the night before it."""


def _reason(reason: str) -> str:
    if reason == "no_mafia_left":
        return _("no mafia member is left in the game")
    if reason == "mafia_parity":
        return _("the mafia are at least as many as the citizens")
    return reason


def _ending(view: Mapping[str, Any], words: Words) -> Ending | None:
    outcome = view.get("outcome")
    if not outcome:
        return None
    side = outcome["winner"]
    return Ending(
        winner="good" if side == "citizens" else "evil",
        side=side,
        winner_label=S(_("The %(side)s win.")) % {"side": words.side(side)},
        reason_label=_reason(outcome.get("reason", "")),
    )


def _choice_text(
    pick: Mapping[str, Any], names: Mapping[int, str], words: Words, role: str
) -> str:
    step = pick["step"]
    if step == "code":
        if role == "general":
            return S(_("guessed the code %(n)s")) % {"n": pick.get("number")}
        return S(_("recorded the code %(n)s")) % {"n": pick.get("number")}
    target = pick.get("target")
    if step == "general":
        mode = pick.get("mode") or ""
        if mode == "slaughter":
            return S(_("slaughter: %(name)s, guessed as %(role)s")) % {
                "name": _name(names, target),
                "role": words.role(pick.get("guess") or ""),
            }
        if mode == "pass":
            return str(words.mode(mode))
        return S(_("%(mode)s: %(name)s")) % {
            "mode": words.mode(mode),
            "name": _name(names, target),
        }
    if target is None:
        return _("nobody (skipped)")
    return S(_("picked %(name)s")) % {"name": _name(names, target)}


def _choices(
    night: Mapping[str, Any],
    roles: Mapping[int, str],
    names: Mapping[int, str],
    words: Words,
) -> list[Choice]:
    choices = []
    for pick in night.get("picks") or ():
        seat = pick["seat"]
        role = roles.get(seat, "")
        reading = pick.get("reading") or ""
        choices.append(
            Choice(
                step=pick["step"],
                step_label=str(words.step(pick["step"])),
                seat=seat,
                name=_name(names, seat),
                role=role,
                role_label=str(words.role(role)),
                text=_choice_text(pick, names, words, role),
                effective=bool(pick.get("effective", True)),
                reading=reading,
                reading_label=pgettext("mafia reading", "positive")
                if reading == "positive"
                else pgettext("mafia reading", "negative")
                if reading
                else "",
            )
        )
    return choices


def _resolution(
    res: Mapping[str, Any] | None, names: Mapping[int, str], words: Words
) -> list[str]:
    """The engine's resolution of a night, one sentence per effect."""
    if not res:
        return []
    lines: list[str] = []
    demolition = res.get("demolition")
    if demolition == "suspended":
        lines.append(_("The demolisher was suspended: his pick had no effect."))
    elif demolition == "none":
        lines.append(_("The disruption had no effect."))
    elif demolition:
        lines.append(
            S(_("The disruption hit the %(role)s.")) % {"role": words.role(demolition)}
        )
    if res.get("suspension_began"):
        lines.append(
            _("The demolisher disrupted the colonel: he is suspended from now on.")
        )
    if res.get("shielded"):
        lines.append(_("The Partisan's shield stopped the shot."))
    for seat in res.get("saved") or ():
        lines.append(S(_("The nurse saved %(name)s.")) % {"name": _name(names, seat)})
    if res.get("colonel_hit") is not None:
        lines.append(
            S(_("The shot hit the colonel %(name)s: a midday sleep follows."))
            % {"name": _name(names, res["colonel_hit"])}
        )
    slaughter = res.get("slaughter")
    if slaughter:
        text = (
            _("Slaughter of %(name)s as %(role)s: the guess was right.")
            if slaughter.get("correct")
            else _("Slaughter of %(name)s as %(role)s: the guess was wrong.")
        )
        lines.append(
            S(text)
            % {
                "name": _name(names, slaughter.get("target")),
                "role": words.role(slaughter.get("guess") or ""),
            }
        )
    if res.get("recruitment") is not None:
        if res.get("recruited") is not None:
            lines.append(
                S(_("%(name)s was recruited and joined the mafia."))
                % {"name": _name(names, res["recruited"])}
            )
        else:
            lines.append(
                S(_("Recruitment of %(name)s: not a plain soldier, nothing happened."))
                % {"name": _name(names, res["recruitment"])}
            )
    sniper = res.get("sniper")
    if sniper in SNIPER:
        lines.append(SNIPER[sniper]())
    for leaver in res.get("exits") or ():
        lines.append(
            S(_("%(name)s leaves the game: %(how)s."))
            % {
                "name": _name(names, leaver.get("seat")),
                "how": ", ".join(str(words.exit(c)) for c in leaver.get("causes", ())),
            }
        )
    if not lines:
        lines.append(_("Nothing happened."))
    return lines


def _intro_facts(
    view: Mapping[str, Any], roles: Mapping[int, str], names: Mapping[int, str]
) -> list[str]:
    ledger = view.get("ledger") or {}
    by_role = sorted(roles.items())
    mafia = [seat for seat, role in by_role if role in MAFIA_ROLES]
    shown = [seat for seat, role in by_role if role in PARTISAN_SEES]
    facts = [
        S(_("The mafia met: %(names)s.")) % {"names": _names(names, mafia)},
        S(_("The Partisan was shown %(names)s.")) % {"names": _names(names, shown)},
    ]
    if ledger.get("code_matches") is not None:
        facts.append(
            _("The General's guess matched the code: the mafia read negative.")
            if ledger["code_matches"]
            else _("The General's guess missed the code: the mafia read positive.")
        )
    return facts


def _vote(vote: Mapping[str, Any], names: Mapping[int, str], words: Words) -> VotePart:
    counts = vote.get("counts") or {}
    ballots = vote.get("ballots") or {}
    chosen = set(vote.get("chosen") or ())
    threshold = int(vote["threshold"])
    if chosen:
        outcome = (
            S(_("Sent to defence: %(names)s."))
            if vote["kind"] == "defence"
            else S(_("Voted out: %(names)s."))
        ) % {"names": _names(names, vote.get("chosen"))}
    else:
        outcome = (
            _("Nobody reached the threshold: nobody is defended.")
            if vote["kind"] == "defence"
            else _("Nobody leaves.")
        )
    return VotePart(
        kind=vote["kind"],
        title=str(words.vote(vote["kind"])),
        threshold=threshold,
        voters=len(vote.get("voters") or ()),
        tallies=[
            Tally(
                seat=seat,
                name=_name(names, seat),
                count=int(counts.get(str(seat), 0)),
                reached=int(counts.get(str(seat), 0)) >= threshold,
                chosen=seat in chosen,
            )
            for seat in vote.get("candidates") or ()
        ],
        ballots=[
            CastBallot(
                seat=voter,
                name=_name(names, voter),
                candidates=_names(names, ballots[str(voter)])
                if str(voter) in ballots
                else mark_safe("—"),
                cast=str(voter) in ballots,
            )
            for voter in vote.get("voters") or ()
        ],
        outcome=outcome,
        closed_early=bool(vote.get("closed_early")),
    )


def _midday(
    midday: Mapping[str, Any], colonel: int | None, names: Mapping[int, str]
) -> list[str]:
    lines = [
        S(_("The colonel %(colonel)s named %(named)s; each spoke."))
        % {
            "colonel": _name(names, colonel),
            "named": _names(names, midday.get("named")),
        }
    ]
    text = (
        _("The colonel shot %(name)s, who leaves the game.")
        if midday.get("left")
        else _("The colonel shot %(name)s; the shield stopped the shot.")
    )
    lines.append(S(text) % {"name": _name(names, midday.get("target"))})
    return lines


def _discipline(entry: Mapping[str, Any], names: Mapping[int, str]) -> str:
    text = (
        _("A warning to %(name)s.")
        if entry["kind"] == "warning"
        else _("%(name)s is kicked and leaves with the next night's dead.")
    )
    return S(text) % {"name": _name(names, entry["seat"])}


def _day(
    number: int,
    view: Mapping[str, Any],
    colonel: int | None,
    names: Mapping[int, str],
    words: Words,
) -> DayPart:
    def of_day(key: str) -> list[Mapping[str, Any]]:
        return [item for item in view.get(key) or () if item.get("day") == number]

    return DayPart(
        number=number,
        heading=S(_("Day %(n)s")) % {"n": number},
        inquiries=[_inquiry(inq, names, words) for inq in of_day("inquiries")],
        midday=[
            line
            for midday in of_day("middays")
            for line in _midday(midday, colonel, names)
        ],
        votes=[_vote(vote, names, words) for vote in of_day("votes")],
        discipline=[_discipline(entry, names) for entry in of_day("discipline")],
    )


def page(view: Mapping[str, Any], names: Mapping[int, str]) -> ReviewPage:
    """The review of a finished game from its final view (seen by everyone)."""
    words = words_for(view["ruleset"])
    board = presenters.board(view, names, playing=False)
    roles = {r["seat"]: r["role"] for r in view.get("roles") or ()}
    colonel = next((seat for seat, role in roles.items() if role == "colonel"), None)
    ledger = view.get("ledger") or {}
    mornings = {m["night"]: m for m in view.get("mornings") or ()}
    nights = ledger.get("nights") or []
    parts: list[NightPart | DayPart] = []
    for night in nights:
        number = night["night"]
        morning = mornings.get(number)
        parts.append(
            NightPart(
                number=number,
                heading=_("Introduction night")
                if number == 0
                else S(_("Night %(n)s")) % {"n": number},
                facts=_intro_facts(view, roles, names) if number == 0 else [],
                choices=_choices(night, roles, names, words),
                resolution=[]
                if number == 0
                else _resolution(night.get("resolution"), names, words),
                morning=_morning(morning, names, words) if morning else [],
            )
        )
        day = _day(number + 1, view, colonel, names, words)
        later = any(n["night"] > number for n in nights)
        if later or day.inquiries or day.midday or day.votes or day.discipline:
            parts.append(day)
    return ReviewPage(
        seats=board.seats,
        outcome=board.outcome,
        ending=_ending(view, words),
        parts=parts,
    )


def review(game: Game, names: Mapping[int, str], states: States) -> dict[str, Any]:
    """The family's part of the review page's context. ``final`` replaces the
    platform's banner object (the live board has no winner words of its own);
    ``export_note`` the platform's words on what the export leaves out."""
    shown = page(final_view(game, states), names)
    context: dict[str, Any] = {
        "review": shown,
        "export_note": _(
            "The whole game as a JSON file: the deal, the players, every night's "
            "choices and resolution, every vote and every action, and the result. "
            "What a sleeper tapped is left out: it was no choice."
        ),
    }
    if shown.ending is not None:
        context["final"] = shown.ending
    return context
