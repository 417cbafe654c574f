"""Turning a seat's engine view into what its page shows: the banner, the board, the
seats, the log, the action area. Pure functions of the view, the players' names and the
game's words: no database, nothing beyond what ``view()`` handed over.

Every per-seat fact that comes out of here is tagged with the seat's position so the
templates can mark it ``data-seat`` / ``data-side`` / ``data-role`` / ``data-vote`` for
the leak oracle to check.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.families.resistance.words import (
    Words,
    phrases_for,
    role_name,
    side_name,
    words_for,
)

MAX_REJECTIONS = 5


@dataclass
class SeatRow:
    position: int
    name: str
    is_me: bool = False
    is_leader: bool = False
    on_team: bool = False
    status: str = ""  # "voted", "waiting", "played"
    status_label: str = ""
    has_token: bool = False
    side: str | None = None  # only when this viewer may know it
    side_label: str = ""
    role: str | None = None
    role_label: str = ""


@dataclass
class MissionCircle:
    number: int
    size: int
    two_fails: bool
    state: str  # success, fail, now, future
    label: str
    aria: str


@dataclass
class LogEntry:
    title: str
    mission: int
    attempt: int
    leader: str
    team: list[str]
    votes: list[tuple[int, str, bool]]  # (position, name, approve)
    approvals: int
    rejections: int
    approved: bool
    fails: int | None
    result: str | None
    result_label: str


@dataclass
class CheckEntry:
    after_mission: int
    holder: str
    holder_position: int
    target: str
    target_position: int
    claim: str | None
    claim_label: str
    result: str | None
    result_label: str


@dataclass
class ActionArea:
    kind: str  # propose, vote, play, check, claim, shoot
    size: int = 0
    candidates: list[tuple[int, str]] = field(default_factory=list)
    cards: list[tuple[str, str]] = field(default_factory=list)  # (code, label)
    sides: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class RoleCard:
    role: str
    role_label: str
    side: str
    side_label: str
    known: list[dict[str, Any]]
    check_results: list[dict[str, Any]]


@dataclass
class Board:
    banner: str
    banner_detail: str
    banner_tone: str
    track: list[MissionCircle]
    rejections: int
    pips: list[bool]
    seats: list[SeatRow]
    log: list[LogEntry]
    checks: list[CheckEntry]
    action: ActionArea | None
    role_card: RoleCard | None
    words: Words
    on_team_label: str
    phase: str
    over: bool
    winner: str | None
    winner_label: str
    reason_label: str
    curses_left: int
    population_left: int
    sniper_target: str | None
    sniper_hit: bool | None
    my_cards: list[tuple[int, str]]


def _names(names: Mapping[int, str], seats: list[int], me: int | None) -> str:
    return ", ".join(_("you") if seat == me else names.get(seat, "?") for seat in seats)


def _reason_label(ruleset: str, reason: str | None) -> str:
    labels = {
        "three_successes": str(phrases_for(ruleset).three_successes),
        "three_failures": str(phrases_for(ruleset).three_failures),
        "five_rejections": str(phrases_for(ruleset).five_rejections),
        "scout_shot": _("the sniper shot the scout"),
        "scout_missed": _("the sniper missed the scout"),
    }
    return labels.get(reason or "", reason or "")


def _winner_label(ruleset: str, winner: str | None) -> str:
    if winner is None:
        return ""
    return _("%(side)s win") % {"side": str(side_name(ruleset, winner)).capitalize()}


def _mission_circles(
    view: Mapping[str, Any], words: Words, ruleset: str
) -> list[MissionCircle]:
    circles = []
    current = view["mission"]
    over = view["phase"] == "over"
    for mission in view["missions"]:
        number, size, result = mission["number"], mission["size"], mission["result"]
        if result == "success":
            fails = mission["fails"] or 0
            label = (
                str(words.mission_success)
                if not fails
                else phrases_for(ruleset).fails_still_success % {"n": fails}
            )
            state = "success"
        elif result == "fail":
            fails = mission["fails"] or 0
            label = phrases_for(ruleset).fails % {"n": fails}
            state = "fail"
        elif number == current and not over:
            state, label = "now", _("now")
        else:
            state, label = "future", ""
        aria = phrases_for(ruleset).mission_aria % {
            "number": number,
            "size": size,
        }
        if mission["two_fails"]:
            aria += ", " + _("needs two fails")
        if label:
            aria += ": " + label
        circles.append(
            MissionCircle(
                number=number,
                size=size,
                two_fails=mission["two_fails"],
                state=state,
                label=label,
                aria=aria,
            )
        )
    return circles


def _seat_rows(
    view: Mapping[str, Any], names: Mapping[int, str], ruleset: str
) -> list[SeatRow]:
    me = view["me"]["seat"] if view["me"] else None
    phase = view["phase"]
    proposal = view["proposal"]
    play = view["play"]
    token = view["token"]
    # What this seat secretly knows about others (evil partners, the scout's list)
    # stays on the face-down role card: a glance at the board must not catch it. The
    # seats show sides only once every card is turned up.
    known: dict[int, dict[str, Any]] = {}
    if view["roles"]:
        for fact in view["roles"]:
            known[fact["seat"]] = fact
    team = set()
    if phase == "vote" and proposal:
        team = set(proposal["team"])
    elif phase == "mission" and play:
        team = set(play["team"])
    rows = []
    for position in range(view["players"]):
        row = SeatRow(
            position=position, name=names.get(position, "?"), is_me=position == me
        )
        row.is_leader = position == view["leader"] and phase != "over"
        row.on_team = position in team
        if phase == "vote" and proposal:
            if position in proposal["voted"]:
                row.status, row.status_label = "voted", _("voted")
            elif position in view["voters"]:
                row.status, row.status_label = "waiting", _("not yet")
        elif phase == "mission" and play and position in play["team"]:
            if position in play["played"]:
                row.status, row.status_label = "played", _("played")
            else:
                row.status, row.status_label = "waiting", _("not yet")
        row.has_token = bool(token) and token["holder"] == position and phase != "over"
        fact = known.get(position)
        if fact is not None and position != me:
            row.side = fact.get("side")
            row.side_label = str(side_name(ruleset, row.side)) if row.side else ""
            if fact.get("role"):
                row.role = fact["role"]
                row.role_label = str(role_name(ruleset, row.role))
        if position == me and view["roles"]:
            row.side = view["me"]["side"]
            row.side_label = str(side_name(ruleset, row.side))
            row.role = view["me"]["role"]
            row.role_label = str(role_name(ruleset, row.role))
        rows.append(row)
    return rows


def _log(
    view: Mapping[str, Any], names: Mapping[int, str], words: Words, ruleset: str
) -> list[LogEntry]:
    entries = []
    for item in view["history"]:
        votes = [
            (int(seat), names.get(int(seat), "?"), bool(approve))
            for seat, approve in sorted(
                item["votes"].items(), key=lambda kv: int(kv[0])
            )
        ]
        approvals = sum(1 for _, _, v in votes if v)
        result = item.get("result")
        fails = item.get("fails")
        if not item["approved"]:
            result_label = _("rejected")
        elif result == "success":
            result_label = str(words.mission_success)
            if fails:
                result_label += ", " + phrases_for(ruleset).fails % {"n": fails}
        elif result == "fail":
            result_label = (
                str(words.mission_fail)
                + ", "
                + phrases_for(ruleset).fails % {"n": fails or 0}
            )
        else:
            result_label = _("approved")
        entries.append(
            LogEntry(
                title=phrases_for(ruleset).log_title
                % {"mission": item["mission"], "attempt": item["attempt"]},
                mission=item["mission"],
                attempt=item["attempt"],
                leader=names.get(item["leader"], "?"),
                team=[names.get(seat, "?") for seat in item["team"]],
                votes=votes,
                approvals=approvals,
                rejections=len(votes) - approvals,
                approved=item["approved"],
                fails=fails,
                result=result,
                result_label=result_label,
            )
        )
    return entries


def _checks(
    view: Mapping[str, Any], names: Mapping[int, str], ruleset: str
) -> list[CheckEntry]:
    rows = []
    for check in view["checks"]:
        claim = check.get("claim")
        result = check.get("result")
        rows.append(
            CheckEntry(
                after_mission=check["after_mission"],
                holder=names.get(check["holder"], "?"),
                holder_position=check["holder"],
                target=names.get(check["target"], "?"),
                target_position=check["target"],
                claim=claim,
                claim_label=str(side_name(ruleset, claim)) if claim else "",
                result=result,
                result_label=str(side_name(ruleset, result)) if result else "",
            )
        )
    return rows


def _action_area(
    view: Mapping[str, Any], names: Mapping[int, str], words: Words, me: int | None
) -> ActionArea | None:
    for spec in view["legal"]:
        kind = spec["type"]
        if kind == "propose":
            return ActionArea(
                kind=kind,
                size=spec["size"],
                candidates=[
                    (seat, _names(names, [seat], me)) for seat in spec["among"]
                ],
            )
        if kind == "vote":
            return ActionArea(kind=kind)
        if kind == "play":
            labels = {"success": str(words.success_card), "fail": str(words.fail_card)}
            return ActionArea(
                kind=kind, cards=[(card, labels[card]) for card in spec["cards"]]
            )
        if kind in ("check", "shoot"):
            return ActionArea(
                kind=kind,
                candidates=[(seat, names.get(seat, "?")) for seat in spec["among"]],
            )
        if kind == "claim":
            return ActionArea(
                kind=kind,
                sides=[
                    (side, str(words.good if side == "good" else words.evil))
                    for side in spec["sides"]
                ],
            )
    return None


def _banner(
    view: Mapping[str, Any], names: Mapping[int, str], words: Words, ruleset: str
) -> tuple[str, str, str]:
    """One line that says what this player must do now, or whom the table waits for."""
    me = view["me"]["seat"] if view["me"] else None
    phase = view["phase"]
    waiting = list(view["waiting_for"])
    waiting_names = _names(names, waiting, me)
    leader = names.get(view["leader"], "?")
    mine = bool(view["legal"])
    if phase == "over":
        outcome = view["outcome"] or {}
        tone = "over-good" if outcome.get("winner") == "good" else "over-evil"
        return (
            _winner_label(ruleset, outcome.get("winner")),
            _reason_label(ruleset, outcome.get("reason")),
            tone,
        )
    if phase == "proposal":
        size = next(
            (m["size"] for m in view["missions"] if m["number"] == view["mission"]), 0
        )
        if mine:
            return phrases_for(ruleset).you_pick % {"n": size}, "", "you"
        return (
            phrases_for(ruleset).leader_picking % {"leader": leader},
            ngettext("%(n)d player", "%(n)d players", size) % {"n": size},
            "wait",
        )
    if phase == "vote":
        proposal = view["proposal"] or {"team": [], "voted": []}
        team = _names(names, proposal["team"], me)
        detail = _("Voted %(done)d of %(total)d · waiting for: %(names)s") % {
            "done": len(proposal["voted"]),
            "total": len(view["voters"]),
            "names": waiting_names,
        }
        if mine:
            return (
                phrases_for(ruleset).vote_on % {"leader": leader, "team": team},
                detail,
                "you",
            )
        return (
            phrases_for(ruleset).table_votes_on
            % {
                "leader": leader,
                "team": team,
            },
            detail,
            "wait",
        )
    if phase == "mission":
        detail = _("Waiting for: %(names)s") % {"names": waiting_names}
        if mine:
            return str(phrases_for(ruleset).you_on_mission), detail, "you"
        return str(phrases_for(ruleset).team_on_mission), detail, "wait"
    if phase == "check":
        if mine:
            return _("You hold the check token: choose a player to check"), "", "you"
        return (
            _("%(holder)s is checking a player") % {"holder": waiting_names},
            "",
            "wait",
        )
    if phase == "claim":
        if mine:
            return _("Announce the side you found: the truth, or a lie"), "", "you"
        return (
            _("%(holder)s is about to announce the result") % {"holder": waiting_names},
            "",
            "wait",
        )
    if phase == "sniper":
        if mine:
            return _("You are the sniper: confer with your side, then shoot"), "", "you"
        return (
            _("Three missions succeeded, but the sniper gets one shot at the scout"),
            _("Waiting for the sniper"),
            "wait",
        )
    return "", "", "wait"


def _role_card(
    view: Mapping[str, Any], names: Mapping[int, str], ruleset: str
) -> RoleCard | None:
    me = view["me"]
    if not me:
        return None
    known = [
        {
            "position": fact["seat"],
            "name": names.get(fact["seat"], "?"),
            "side": fact["side"],
            "side_label": str(side_name(ruleset, fact["side"])),
            "role": fact.get("role"),
            "role_label": str(role_name(ruleset, fact["role"]))
            if fact.get("role")
            else "",
        }
        for fact in me["known"]
    ]
    results = [
        {
            "position": check["target"],
            "name": names.get(check["target"], "?"),
            "side": check["result"],
            "side_label": str(side_name(ruleset, check["result"])),
        }
        for check in view["checks"]
        if check.get("result") and check["holder"] == me["seat"]
    ]
    return RoleCard(
        role=me["role"],
        role_label=str(role_name(ruleset, me["role"])),
        side=me["side"],
        side_label=str(side_name(ruleset, me["side"])),
        known=known,
        check_results=results,
    )


def board(view: Mapping[str, Any], names: Mapping[int, str]) -> Board:
    """Everything the play area shows, for the seat whose view this is."""
    ruleset = view["ruleset"]
    words = words_for(ruleset)
    me = view["me"]["seat"] if view["me"] else None
    text, detail, tone = _banner(view, names, words, ruleset)
    successes = sum(1 for m in view["missions"] if m["result"] == "success")
    failures = sum(1 for m in view["missions"] if m["result"] == "fail")
    outcome = view["outcome"]
    sniper = view["sniper"] or {}
    my_cards = []
    if view["me"]:
        my_cards = sorted((int(k), v) for k, v in view["me"]["cards"].items())
    return Board(
        banner=text,
        banner_detail=detail,
        banner_tone=tone,
        track=_mission_circles(view, words, ruleset),
        rejections=view["rejections"],
        pips=[i < view["rejections"] for i in range(MAX_REJECTIONS)],
        seats=_seat_rows(view, names, ruleset),
        log=_log(view, names, words, ruleset),
        checks=_checks(view, names, ruleset),
        action=_action_area(view, names, words, me),
        role_card=_role_card(view, names, ruleset),
        words=words,
        on_team_label=str(phrases_for(ruleset).on_team),
        phase=view["phase"],
        over=view["phase"] == "over",
        winner=outcome["winner"] if outcome else None,
        winner_label=_winner_label(ruleset, outcome["winner"]) if outcome else "",
        reason_label=_reason_label(ruleset, outcome["reason"]) if outcome else "",
        curses_left=3 - successes,
        population_left=3 - failures,
        sniper_target=names.get(sniper["target"])
        if sniper.get("target") is not None
        else None,
        sniper_hit=sniper.get("hit"),
        my_cards=my_cards,
    )
