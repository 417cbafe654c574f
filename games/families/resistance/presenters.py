"""Turning an engine view into what a table page shows: the banner and the news, the
board, the seats, the log and the vote grid, the action area, the face-down card. Pure
functions of the view, the players' names and the game's words: no database, nothing
beyond what ``view()`` handed over.

The page is drawn in regions (see :mod:`.family`): the shared ones (the board, the
record) are presented from the spectator's view, so they can carry nothing secret and
are rendered once for every seat; a seat's own regions (the top with its action area,
the card) from that seat's view. Outside the card a seat's regions have the same shape
whatever its side or role (UX.md, "a glance tells a neighbour nothing"): what only a
role may do (the sniper's shot) is done from inside the card.

Every per-seat fact that comes out of here is tagged with the seat's position so the
templates can mark it ``data-seat`` / ``data-side`` / ``data-role`` / ``data-vote`` for
the leak oracle to check.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from django.utils.html import conditional_escape, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.families.resistance.words import (
    Words,
    phrases_for,
    role_name,
    side_name,
    words_for,
)
from games.kit import names_list

MAX_REJECTIONS = 5


@dataclass
class SeatRow:
    position: int
    name: str
    is_me: bool = False
    is_leader: bool = False
    is_next_leader: bool = False
    last_vote: bool | None = None
    """How the seat voted on the last finished vote, shown until the next vote."""
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
    """What the seat may do now, outside the card. Its shape depends only on the
    seat's public position (leader, voter, team member, token holder), never on its
    side: every team member gets both cards (see :func:`_action_area`)."""

    kind: str  # propose, vote, play, check, claim
    size: int = 0
    candidates: list[tuple[int, str]] = field(default_factory=list)
    cards: list[tuple[str, str, str]] = field(default_factory=list)
    """(value sent, label, look) per button."""
    sides: list[tuple[str, str]] = field(default_factory=list)


@dataclass
class RoleCard:
    """The face-down card: everything only this seat knows, and what only its role
    may do (the sniper's shot)."""

    role: str
    role_label: str
    side: str
    side_label: str
    partners: list[dict[str, Any]]
    """An evil seat's partners: its own side."""
    known: list[dict[str, Any]]
    """What else the seat was told (the scout's list)."""
    check_results: list[dict[str, Any]]
    my_cards: list[tuple[str, str, str]] = field(default_factory=list)
    """(mission label, card code, card label) of the cards this seat played."""
    good_cards_note: bool = False
    """A good team member's note: both buttons play «success»."""
    shoot: list[tuple[int, str]] = field(default_factory=list)
    """The sniper's targets, in the sniper phase."""
    sniper_name: str = ""
    my_vote: bool | None = None


@dataclass
class GridRow:
    """One proposal in the vote grid: missions down, seats across."""

    title: str
    mission: int
    attempt: int
    leader: int
    team: list[int]
    cells: list[tuple[int, bool | None, bool]]
    """(seat, vote or None, on the team) per seat."""
    approved: bool
    result: str | None
    result_label: str


class Board:
    """Everything the play area shows, for the viewer whose view this is.

    Each part is worked out the first time a template asks for it: a seat's own
    regions (its top and its card) read a few of them, the shared regions (drawn once
    per version for every seat) the rest, so a push does only the work its regions
    need.
    """

    def __init__(
        self, view: Mapping[str, Any], names: Mapping[int, str], playing: bool
    ) -> None:
        self.view = view
        self.names = names
        self.playing = playing
        self.ruleset: str = view["ruleset"]
        self.words: Words = words_for(self.ruleset)
        self.phrases = phrases_for(self.ruleset)

    @cached_property
    def me(self) -> int | None:
        me = self.view["me"]
        return me["seat"] if me else None

    @cached_property
    def phase(self) -> str:
        return str(self.view["phase"])

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @cached_property
    def rejections(self) -> int:
        return int(self.view["rejections"])

    @cached_property
    def _banner(self) -> tuple[str, str]:
        return _banner(self.view, self.names, self.words, self.ruleset, self.playing)

    @property
    def banner(self) -> str:
        return self._banner[0]

    @property
    def banner_tone(self) -> str:
        return self._banner[1]

    @cached_property
    def banner_detail(self) -> str:
        """Public: the status region's, drawn from the spectator's board."""
        return _banner_detail(self.view, self.names, self.ruleset, self.playing)

    @cached_property
    def _news(self) -> tuple[str, str]:
        return _news(self.view, self.names, self.ruleset)

    @property
    def news(self) -> str:
        return self._news[0]

    @property
    def news_tone(self) -> str:
        return self._news[1]

    @cached_property
    def last_vote(self) -> tuple[int, int] | None:
        """(mission, attempt) of the finished vote the seats show, until the next."""
        history = self.view["history"]
        if history and self.phase != "vote":
            return history[-1]["mission"], history[-1]["attempt"]
        return None

    @cached_property
    def grid(self) -> list[GridRow]:
        return _grid(self.view, self.words, self.ruleset)

    @cached_property
    def my_vote_cast(self) -> bool:
        me = self.view["me"]
        return bool(me) and me.get("vote") is not None

    @cached_property
    def show_tokens(self) -> bool:
        return bool(self.words.success_colour)

    @cached_property
    def propose_label(self) -> str:
        return _said(self.phrases.propose_button)

    @cached_property
    def cards_secret_label(self) -> str:
        return _said(self.phrases.cards_secret)

    @cached_property
    def on_team_label(self) -> str:
        return _said(self.phrases.on_team)

    @cached_property
    def track(self) -> list[MissionCircle]:
        return _mission_circles(self.view, self.words, self.ruleset)

    @cached_property
    def pips(self) -> list[bool]:
        return [i < self.rejections for i in range(MAX_REJECTIONS)]

    @cached_property
    def seats(self) -> list[SeatRow]:
        return _seat_rows(self.view, self.names, self.ruleset, self.playing)

    @cached_property
    def seat_names(self) -> list[str]:
        """The seats' names in seat order, the vote grid's columns: the names and
        the seats' number, not the seats' rows, which read who has voted."""
        return [self.names.get(seat, "?") for seat in range(self.view["players"])]

    @cached_property
    def log(self) -> list[LogEntry]:
        return _log(self.view, self.names, self.words, self.ruleset)

    @cached_property
    def checks(self) -> list[CheckEntry]:
        return _checks(self.view, self.names, self.ruleset)

    @cached_property
    def action(self) -> ActionArea | None:
        if not self.playing:
            return None
        return _action_area(self.view, self.names, self.words, self.me)

    @cached_property
    def role_card(self) -> RoleCard | None:
        return _role_card(self.view, self.names, self.ruleset, self.words)

    @cached_property
    def _outcome(self) -> Mapping[str, Any] | None:
        outcome: Mapping[str, Any] | None = self.view["outcome"]
        return outcome

    @property
    def winner(self) -> str | None:
        return self._outcome["winner"] if self._outcome else None

    @property
    def winner_is_good(self) -> bool:
        """The review's banner tone."""
        return self.winner == "good"

    @property
    def winner_label(self) -> str:
        if not self._outcome:
            return ""
        return _winner_label(self.ruleset, self._outcome["winner"])

    @property
    def reason_label(self) -> str:
        if not self._outcome:
            return ""
        return _reason_label(self.ruleset, self._outcome["reason"])

    @cached_property
    def curses_left(self) -> int:
        return 3 - sum(1 for m in self.view["missions"] if m["result"] == "success")

    @cached_property
    def population_left(self) -> int:
        return 3 - sum(1 for m in self.view["missions"] if m["result"] == "fail")

    @cached_property
    def sniper_target(self) -> str | None:
        sniper = self.view["sniper"] or {}
        target = sniper.get("target")
        return None if target is None else self.names.get(target)

    @property
    def sniper_hit(self) -> bool | None:
        sniper = self.view["sniper"] or {}
        hit: bool | None = sniper.get("hit")
        return hit


def _names(names: Mapping[int, str], seats: list[int], me: int | None) -> str:
    you = _("you") if me in seats else ""
    return names_list(you if seat == me else names.get(seat, "?") for seat in seats)


def _reason_label(ruleset: str, reason: str | None) -> str:
    labels = {
        "three_successes": _said(phrases_for(ruleset).three_successes),
        "three_failures": _said(phrases_for(ruleset).three_failures),
        "five_rejections": _said(phrases_for(ruleset).five_rejections),
        "scout_shot": _("the sniper shot the scout"),
        "scout_missed": _("the sniper missed the scout"),
    }
    return labels.get(reason or "", reason or "")


def _winner_label(ruleset: str, winner: str | None) -> str:
    if winner is None:
        return ""
    return _("%(side)s win") % {"side": _said(side_name(ruleset, winner)).capitalize()}


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
                _said(words.mission_success)
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
    view: Mapping[str, Any],
    names: Mapping[int, str],
    ruleset: str,
    playing: bool = True,
) -> list[SeatRow]:
    me = view["me"]["seat"] if view["me"] else None
    phase = view["phase"]
    proposal = view["proposal"]
    play = view["play"]
    token = view["token"]
    over = phase == "over"
    # What this seat secretly knows about others (evil partners, the scout's list)
    # stays on the face-down card: a glance at the board must not catch it. The
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
    # The last finished vote stays on the seats until the next vote starts.
    last_votes: dict[str, bool] = {}
    if view["history"] and phase != "vote":
        last_votes = view["history"][-1]["votes"]
    next_leader = _next_leader(view)
    rows = []
    for position in range(view["players"]):
        row = SeatRow(
            position=position, name=names.get(position, "?"), is_me=position == me
        )
        row.is_leader = position == view["leader"] and not over
        row.is_next_leader = position == next_leader and not over
        row.on_team = position in team
        row.last_vote = last_votes.get(str(position))
        if not playing:
            pass  # an abandoned game waits for nobody: no "voted" / "not yet" marks
        elif phase == "vote" and proposal:
            if position in proposal["voted"]:
                row.status, row.status_label = "voted", _("voted")
            elif position in view["voters"]:
                row.status, row.status_label = "waiting", _("not yet")
        elif phase == "mission" and play and position in play["team"]:
            if position in play["played"]:
                row.status, row.status_label = "played", _("played")
            else:
                row.status, row.status_label = "waiting", _("not yet")
        row.has_token = bool(token) and token["holder"] == position and not over
        fact = known.get(position)
        if fact is not None:
            row.side = fact.get("side")
            row.side_label = _said(side_name(ruleset, row.side)) if row.side else ""
            if fact.get("role"):
                row.role = fact["role"]
                row.role_label = _said(role_name(ruleset, row.role))
        rows.append(row)
    return rows


def _next_leader(view: Mapping[str, Any]) -> int | None:
    """Who leads if this team is turned down: the next seat (and after the mission
    too, except at a werewolf table, where the headman stays)."""
    if view["phase"] == "over":
        return None
    return (view["leader"] + 1) % view["players"]


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
                fails=item.get("fails"),
                result=item.get("result"),
                result_label=_result_label(item, words, ruleset),
            )
        )
    return entries


def _result_label(item: Mapping[str, Any], words: Words, ruleset: str) -> str:
    """A finished vote's outcome in a few words: rejected, or the mission's result
    with its fail count ("failed, 1 sabotage"; a success says its fails only if
    there were any)."""
    result, fails = item.get("result"), item.get("fails")
    if not item["approved"]:
        return _("rejected")
    if result == "success":
        label = _said(words.mission_success)
        if fails:
            label += ", " + phrases_for(ruleset).fails % {"n": fails}
        return label
    if result == "fail":
        return (
            _said(words.mission_fail)
            + ", "
            + phrases_for(ruleset).fails % {"n": fails or 0}
        )
    return _("approved")


def _grid(view: Mapping[str, Any], words: Words, ruleset: str) -> list[GridRow]:
    """Every finished vote as a row of the grid: each seat's mark, the leader and
    the team marked, and the result."""
    rows = []
    for item in view["history"]:
        votes = item["votes"]
        rows.append(
            GridRow(
                title=f"{item['mission']}.{item['attempt']}",
                mission=item["mission"],
                attempt=item["attempt"],
                leader=item["leader"],
                team=list(item["team"]),
                cells=[
                    (seat, votes.get(str(seat)), seat in item["team"])
                    for seat in range(view["players"])
                ],
                approved=item["approved"],
                result=item.get("result"),
                result_label=_result_label(item, words, ruleset),
            )
        )
    return rows


def _checks(
    view: Mapping[str, Any], names: Mapping[int, str], ruleset: str
) -> list[CheckEntry]:
    """The checks as the table saw them: who checked whom and what they announced.
    A true result is only ever on its holder's card (and on everyone's at the end,
    in the review)."""
    rows = []
    for check in view["checks"]:
        claim = check.get("claim")
        rows.append(
            CheckEntry(
                after_mission=check["after_mission"],
                holder=names.get(check["holder"], "?"),
                holder_position=check["holder"],
                target=names.get(check["target"], "?"),
                target_position=check["target"],
                claim=claim,
                claim_label=_one_of(ruleset, claim) if claim else "",
                result=None,
                result_label="",
            )
        )
    return rows


def _said(text: Any) -> str:
    """A game's word (a lazy text: a role's or a side's name, a card's, a phrase)
    in the active language. A phrase filled in with ``%`` is not one of these: it
    keeps its lazy ``%``, which writes its numbers in the language's own digits."""
    return str(text)


def _one_of(ruleset: str, side: str) -> str:
    """A person of ``side`` in the game's words ("a traitor")."""
    phrases = phrases_for(ruleset)
    return _said(phrases.good_one if side == "good" else phrases.evil_one)


def _action_area(
    view: Mapping[str, Any], names: Mapping[int, str], words: Words, me: int | None
) -> ActionArea | None:
    """The seat's action area. A team member gets both mission cards whatever their
    side, in the same places: a good player's second button plays «success» too,
    as if their hand held two success cards (the card says so), so the screen looks
    the same to a neighbour and the rules still hold."""
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
            second = "fail" if "fail" in spec["cards"] else "success"
            return ActionArea(
                kind=kind,
                cards=[
                    ("success", str(_card_label(words, "success")), "good"),
                    (second, str(_card_label(words, "fail")), "danger"),
                ],
            )
        if kind == "check":
            return ActionArea(
                kind=kind,
                candidates=[(seat, names.get(seat, "?")) for seat in spec["among"]],
            )
        if kind == "claim":
            return ActionArea(
                kind=kind,
                sides=[
                    (side, _said(words.good if side == "good" else words.evil))
                    for side in spec["sides"]
                ],
            )
    return None


def _card_label(words: Words, card: str) -> str:
    if card == "success":
        label, colour = _said(words.success_card), words.success_colour
    else:
        label, colour = _said(words.fail_card), words.fail_colour
    return f"{label} ({colour})" if colour else label


def _news(
    view: Mapping[str, Any], names: Mapping[int, str], ruleset: str
) -> tuple[str, str]:
    """The latest thing that happened, in words, and its tone: the last vote with its
    count, the last mission's result, the last claim. It stays on the board until
    something newer happens, so a reload shows the same as the push did.

    Every seat's board asks this on every push, so the events are compared by their
    order alone and only the newest is put into words."""
    latest: tuple[tuple[int, int, int], str, Mapping[str, Any]] | None = None
    for item in view["history"]:
        key = (item["mission"], 1, item["attempt"])
        if latest is None or key > latest[0]:
            latest = (key, "vote", item)
    for mission in view["missions"]:
        key = (mission["number"], 2, 0)
        if mission["result"] is not None and (latest is None or key > latest[0]):
            latest = (key, "mission", mission)
    for check in view["checks"]:
        key = (check["after_mission"], 3, 0)
        if check.get("claim") and (latest is None or key > latest[0]):
            latest = (key, "claim", check)
    if latest is None:
        return "", ""
    _key, kind, event = latest
    phrases = phrases_for(ruleset)
    if kind == "vote":
        votes = list(event["votes"].values())
        counts = {"yes": votes.count(True), "no": votes.count(False)}
        text = (phrases.approved if event["approved"] else phrases.rejected) % counts
        return text, "neutral"
    if kind == "mission":
        success = event["result"] == "success"
        fails = event["fails"] or 0
        if success and not fails:
            number = phrases.mission_number % {"n": event["number"]}
            text = f"{number}: {words_for(ruleset).mission_success}"
        else:
            text = (phrases.mission_succeeds if success else phrases.mission_fails) % {
                "mission": event["number"],
                "fails": fails,
            }
        return text, "success" if success else "fail"
    text = phrases.claimed % {
        "holder": names.get(event["holder"], "?"),
        "target": names.get(event["target"], "?"),
        "one": _one_of(ruleset, event["claim"]),
    }
    return text, "neutral"


def _banner(
    view: Mapping[str, Any],
    names: Mapping[int, str],
    words: Words,
    ruleset: str,
    playing: bool,
) -> tuple[str, str]:
    """One line that says what this player must do now, or whom the table waits for,
    and its tone. What goes under it (:func:`_banner_detail`) is public, the same
    line for every seat: the shared status region shows it.

    In the sniper phase it is the same for every seat: only the card tells the
    sniper that the shot is theirs. It reads only what changes when the table's
    decision does (the phase, the leader, the team, whether this seat may move),
    not who has voted yet, so that a seat's top region is not drawn again for
    another seat's vote."""
    me = view["me"]["seat"] if view["me"] else None
    phase = view["phase"]
    if not playing and phase != "over":
        return _("This game was abandoned before the end."), "abandoned"
    if phase == "over":
        outcome = view["outcome"] or {}
        tone = "over-good" if outcome.get("winner") == "good" else "over-evil"
        return _winner_label(ruleset, outcome.get("winner")), tone
    mine = bool(view["legal"]) and phase != "sniper"
    if phase == "proposal":
        if mine:
            size = next(
                (m["size"] for m in view["missions"] if m["number"] == view["mission"]),
                0,
            )
            return phrases_for(ruleset).you_pick % {"n": size}, "you"
        leader = names.get(view["leader"], "?")
        return phrases_for(ruleset).leader_picking % {"leader": leader}, "wait"
    if phase == "vote":
        proposal = view["proposal"] or {"team": []}
        team = _names(names, proposal["team"], me)
        leader = names.get(view["leader"], "?")
        if mine:
            return (
                phrases_for(ruleset).vote_on % {"leader": leader, "team": team},
                "you",
            )
        return (
            phrases_for(ruleset).table_votes_on % {"leader": leader, "team": team},
            "wait",
        )
    if phase == "mission":
        if mine:
            return _said(phrases_for(ruleset).you_on_mission), "you"
        return _said(phrases_for(ruleset).team_on_mission), "wait"
    if phase == "check":
        if mine:
            return _("You hold the check token: choose a player to check"), "you"
        holder = _names(names, list(view["waiting_for"]), None)
        return _("%(holder)s is checking a player") % {"holder": holder}, "wait"
    if phase == "claim":
        if mine:
            return _("Announce the side you found: the truth, or a lie"), "you"
        holder = _names(names, list(view["waiting_for"]), None)
        return (
            _("%(holder)s is about to announce the result") % {"holder": holder},
            "wait",
        )
    if phase == "sniper":
        return (
            _("Three missions succeeded, but the sniper gets one shot at the scout"),
            "wait",
        )
    return "", "wait"


_NAMES_HERE = "\x00names\x00"


def _waiting_names(names: Mapping[int, str], seats: Sequence[int]) -> SafeString:
    """Whom the table waits for, each name marked with its seat: the page marks
    its own viewer's (``data-me``, as on the board), so the line is the same for
    every seat."""
    return format_html_join(
        ", ",
        '<bdi class="waiting-name" data-seat="{}">{}</bdi>',
        ((seat, names.get(seat, "?")) for seat in seats),
    )


def _with_names(sentence: str, names_html: SafeString) -> SafeString:
    return mark_safe(  # noqa: S308 - the sentence is escaped, the names are markup
        conditional_escape(sentence).replace(_NAMES_HERE, names_html)
    )


def _banner_detail(
    view: Mapping[str, Any], names: Mapping[int, str], ruleset: str, playing: bool
) -> str:
    """The line under every seat's banner, public: how many have voted and whom the
    table waits for, the team's size, why the game ended."""
    phase = view["phase"]
    if not playing and phase != "over":
        return ""
    if phase == "over":
        return _reason_label(ruleset, (view["outcome"] or {}).get("reason"))
    if phase == "proposal":
        size = next(
            (m["size"] for m in view["missions"] if m["number"] == view["mission"]), 0
        )
        return ngettext("%(n)d player", "%(n)d players", size) % {"n": size}
    if phase == "vote":
        proposal = view["proposal"] or {"voted": []}
        sentence = _("Voted %(done)d of %(total)d · waiting for: %(names)s") % {
            "done": len(proposal["voted"]),
            "total": len(view["voters"]),
            "names": _NAMES_HERE,
        }
        return _with_names(sentence, _waiting_names(names, view["waiting_for"]))
    if phase == "mission":
        sentence = _("Waiting for: %(names)s") % {"names": _NAMES_HERE}
        return _with_names(sentence, _waiting_names(names, view["waiting_for"]))
    if phase == "sniper":
        return _("The evil side confers; the sniper shoots from their card.")
    return ""


def _role_card(
    view: Mapping[str, Any], names: Mapping[int, str], ruleset: str, words: Words
) -> RoleCard | None:
    me = view["me"]
    if not me:
        return None
    # Each seat's card is drawn on every push: the two words are looked up once.
    good_one, evil_one = _one_of(ruleset, "good"), _one_of(ruleset, "evil")
    known = [
        {
            "position": fact["seat"],
            "name": names.get(fact["seat"], "?"),
            "side": fact["side"],
            "side_label": good_one if fact["side"] == "good" else evil_one,
            "role": fact.get("role"),
            "role_label": _said(role_name(ruleset, fact["role"]))
            if fact.get("role")
            else "",
        }
        for fact in me["known"]
        if fact["seat"] != me["seat"]
    ]
    checked = {c["target"] for c in view["checks"] if c["holder"] == me["seat"]}
    evil = me["side"] == "evil"
    partners = [fact for fact in known if evil and fact["side"] == "evil"]
    known = [
        fact
        for fact in known
        if fact not in partners and fact["position"] not in checked
    ]
    results = [
        {
            "position": check["target"],
            "name": names.get(check["target"], "?"),
            "side": check["result"],
            "side_label": good_one if check["result"] == "good" else evil_one,
        }
        for check in view["checks"]
        if check.get("result") and check["holder"] == me["seat"]
    ]
    my_cards = [
        (
            str(phrases_for(ruleset).mission_number % {"n": int(number)}),
            card,
            _card_label(words, card),
        )
        for number, card in sorted(me["cards"].items(), key=lambda kv: int(kv[0]))
    ]
    playing_card = next((s for s in view["legal"] if s["type"] == "play"), None)
    shoot = next((s for s in view["legal"] if s["type"] == "shoot"), None)
    sniper = view["sniper"] or {}
    sniper_seat = sniper.get("sniper")
    return RoleCard(
        role=me["role"],
        role_label=_said(role_name(ruleset, me["role"])),
        side=me["side"],
        side_label=_said(side_name(ruleset, me["side"])),
        partners=partners,
        known=known,
        check_results=results,
        my_cards=my_cards,
        good_cards_note=playing_card is not None
        and "fail" not in playing_card["cards"],
        shoot=[(seat, names.get(seat, "?")) for seat in shoot["among"]]
        if shoot
        else [],
        sniper_name=names.get(sniper_seat, "?")
        if sniper_seat is not None and sniper_seat != me["seat"]
        else "",
        my_vote=me.get("vote"),
    )


def board(
    view: Mapping[str, Any], names: Mapping[int, str], *, playing: bool = True
) -> Board:
    """Everything the play area shows, for the viewer whose view this is.

    ``playing`` is False for a game its host abandoned: the engine does not know
    that, so the board offers no move and says the game was abandoned."""
    return Board(view, names, playing)
