"""A moderator and ten players, each in their own Chromium at phone width and in
Persian, play Partisan (Mafia) through the real pages against daphne from the create
form to its end: the host creates the table and moderates it without a seat, the ten
join, the waiting room shows the table's settings, every player taps through every
night on screens of one shape, the moderator confirms each dawn from his console and
starts the day's votes, the ballots are cast, until a side wins.

The test plays purposefully, reading who is who from the engine (the test drives; the
pages only ever show each seat its own). The introduction night shows the Partisan
his three seats and the mafia each other. A plain soldier is voted out on day 1. On
night 1 the demolisher disrupts the radio operator (his answer is negative), the
mafia shoot the colonel (hit: he stays, and sleeps at midday), the sniper shoots a
citizen (the Partisan) and leaves. On day 2 the colonel names two at his midday sleep
and shoots the other soldier; every ballot is empty, nobody is defended. On night 2
the mafia shoot the radio operator, whom the nurse saves (his answer about the
demolisher is positive), and the hit colonel leaves: three against three, the mafia
win. Each night's outcome is worked out here from the choices made, by the rules
(docs/rules.md §3 "Resolution"), and compared with the resolution the moderator is
asked to confirm and with the morning every screen then announces in Persian (the
colonel's reading included).

After every move the engine's leak oracle reads every page's DOM as the socket's
pushes left it, and no page scrolls sideways; each kind of page (the night's screen,
the ballot, the console, the morning, the end, the review) passes the right-to-left
layout checks of test_rtl_browser (no horizontal scroll, nothing overlapping)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

import pytest
from django.utils import translation
from django.utils.translation import gettext
from playwright.sync_api import Page, expect

from games import engine
from games.engine import oracle
from games.families.mafia.words import words_for
from games.models import Game
from games.state import load_state
from numerals.digits import localize
from tests.e2e.test_game_browser import fits_the_phone, live
from tests.e2e.test_rtl_browser import LAYOUT, check_page
from tests.factories import UserFactory
from tests.games.families.mafia.support import secret_words

pytestmark = pytest.mark.browser

RULESET = "mafia_partisan"
MAFIA_BOXES = [
    ".mafia-grid",
    ".mafia-seats li",
    ".mafia-moves",
    ".mafia-night form",
    ".mafia-ballot form",
    ".mafia-console",
    ".role-card > summary",
]
"""Boxes of the mafia pages whose children must not overlap (besides the site's)."""
GENERAL_GUESS, RADIO_CODE = 1, 2
"""The General misses the code: the radio operator's readings stay true."""
MOVES = 400
PAGE_KINDS = {
    "create-form",
    "waiting-room",
    "waiting-room-host",
    "night-ok",
    "night-number",
    "night-seat",
    "night-general",
    "night-pair",
    "console-dawn",
    "console-day",
    "day",
    "ballot",
    "over-moderator",
    "over-player",
    "review",
}
"""Every kind of page the game visits, each laid out once at 390 px in Persian."""


def too_wide(page: Page) -> list[str]:
    """The innermost elements sticking out of the screen (for the failure message)."""
    return page.evaluate(
        """() => [...document.querySelectorAll('body *')]
            .filter(e => { const r = e.getBoundingClientRect();
                return r.width && (r.right > innerWidth + 1 || r.left < -1); })
            .filter(e => ![...e.children].some(c => {
                const r = c.getBoundingClientRect();
                return r.width && (r.right > innerWidth + 1 || r.left < -1); }))
            .slice(0, 5)
            .map(e => e.tagName + '.' + e.className + ' ' + e.textContent.slice(0, 40))
        """
    )


def check_layout(page: Page, label: str) -> None:
    """The right-to-left checks of every Persian page, and the mafia's own boxes."""
    check_page(page, label)
    problems = page.evaluate(LAYOUT, MAFIA_BOXES)
    assert not problems, f"{label}: " + "\n".join(problems[:12])


# --- the plan: what each role chooses, from who is who ------------------------------


def night_plan(state: Any) -> dict[str, dict[str, Any]]:
    """The real choices of this night or midday sleep, by step (a form's fields;
    "none": nobody)."""
    table = state.table
    if state.night == 0:
        return {"code": {"number": GENERAL_GUESS}}
    if state.night == 1:
        return {
            # The radio operator's answers are negative tonight.
            "demolisher": {"target": table.radio},
            # The colonel is hit: he stays, and sleeps at midday tomorrow.
            "general": {"mode": "shoot", "target": table.colonel},
            "nurse": {"target": table.soldiers[1]},
            "radio": {"target": table.general},
            # A citizen: the sniper leaves.
            "sniper": {"target": table.partisan},
            # Day 2's midday: the colonel names two and shoots the soldier.
            "colonel_names": {"targets": [table.soldiers[1], table.nurse]},
            "colonel_shoots": {"target": table.soldiers[1]},
        }
    return {
        "demolisher": {"target": "none"},
        # Saved by the nurse; the colonel hit last night leaves with this night.
        "general": {"mode": "shoot", "target": table.radio},
        "nurse": {"target": table.radio},
        "radio": {"target": table.demolisher},
    }


def day_victim(state: Any) -> int | None:
    """Whom the whole table votes out today: a plain soldier on day 1; nobody on
    day 2 (every ballot empty: nobody defended, no exit vote)."""
    return int(state.table.soldiers[0]) if state.day.number == 1 else None


def expected_night(state: Any, plan: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """What the night comes to by the rules (docs/rules.md §3 "Resolution"), from the
    choices made and the game as it stood when the night began: ``{"exits": {seat:
    [causes]}, "saved", "shielded", "colonel_hit", "sniper", "readings": {target:
    reading}}``."""
    table = state.table
    in_game = state.in_game
    demolished = plan.get("demolisher", {}).get("target")
    nurse = plan.get("nurse", {}).get("target") if in_game[table.nurse] else None
    saved_seat = None if demolished == table.nurse else nurse
    exits: dict[int, list[str]] = {}
    saved: list[int] = []
    shielded = False
    colonel_hit = None
    general = plan["general"]
    shot = general["target"]
    assert general["mode"] == "shoot"
    soldiers_in = any(in_game[s] for s in table.soldiers)
    if shot == saved_seat:
        saved.append(shot)
    elif shot == table.partisan and soldiers_in:
        shielded = True
    elif shot == table.colonel and not state.colonel_hit_night:
        colonel_hit = shot
    else:
        exits.setdefault(shot, []).append("shot")
    sniper_result = None
    sniped = plan.get("sniper", {}).get("target", "none")
    if in_game[table.sniper] and sniped != "none":
        if demolished == table.sniper:
            sniper_result = "blocked"
        elif sniped == table.general:
            sniper_result = "no_effect"
        elif sniped in table.mafia:
            if sniped == saved_seat:
                saved.append(sniped)
                sniper_result = "saved"
            else:
                exits.setdefault(sniped, []).append("sniped")
                sniper_result = "hit"
        else:
            sniper_result = "missed"
            exits.setdefault(table.sniper, []).append("sniper_missed")
    if state.colonel_hit_night and in_game[table.colonel]:
        exits.setdefault(table.colonel, []).append("colonel_due")
    readings = {}
    asked = plan.get("radio", {}).get("target")
    if asked is not None and in_game[table.radio]:
        positive = (
            demolished != table.radio
            and asked in table.mafia
            and GENERAL_GUESS != RADIO_CODE
        )
        readings[asked] = "positive" if positive else "negative"
    return {
        "exits": {seat: exits[seat] for seat in sorted(exits)},
        "saved": saved,
        "shielded": shielded,
        "colonel_hit": colonel_hit,
        "sniper": sniper_result,
        "readings": readings,
    }


def morning_lines(
    night: int,
    left: list[int],
    names: Mapping[int, str],
    *,
    midday: bool = False,
    colonel_shot: tuple[int, str] | None = None,
) -> list[str]:
    """The morning as a Persian screen reads it: who left in the night, whether the
    hit colonel sleeps at midday, and the side of the player he shot the day before
    (``colonel_shot``: his target and its side). No kicks, and no recruitment
    announced, in this game."""
    with translation.override("fa"):
        lines = [gettext("Morning after night %(n)s.") % {"n": localize(night, "fa")}]
        if left:
            joined = ", ".join(names[seat] for seat in left)
            lines.append(
                gettext("Left the game in the night: %(names)s.") % {"names": joined}
            )
        elif night:
            lines.append(gettext("Nobody left the game in the night."))
        if midday:
            lines.append(gettext("There is a midday sleep today."))
        if colonel_shot is not None:
            lines.append(
                gettext("The colonel's shot: %(name)s was on the side of the %(side)s.")
                % {
                    "name": names[colonel_shot[0]],
                    "side": words_for(RULESET).side(colonel_shot[1]),
                }
            )
    return lines


# --- moves, clicked in the pages ----------------------------------------------------


def night_fields(
    seat: int, spec: Mapping[str, Any], plan: Mapping[str, Any]
) -> dict[str, Any]:
    """The fields a seat fills in at this step: the plan's when it is awake, else any
    legal tap (the first seat its grid offers other than its own)."""
    if spec["type"] == "choose":
        return dict(plan.get(spec["step"], {}))
    form = spec["form"]
    targets = [t for t in spec.get("targets") or [] if t != seat] or spec.get("targets")
    if form == "number":
        return {"number": 3}
    if form == "seat":
        return {"target": targets[0] if targets else "none"}
    if form == "pair":
        return {"targets": targets[:2]}
    if form == "general":
        return {"mode": "shoot", "target": targets[0]}
    return {}


def tap_night(page: Page, spec: Mapping[str, Any], fields: Mapping[str, Any]) -> None:
    """Fill in the night's screen as a player taps it, and confirm."""
    screen = page.locator("section.mafia-night")
    expect(screen).to_have_attribute("data-form", spec["form"])
    if spec["form"] == "number":
        screen.locator(f"input[name=number][value='{fields['number']}']").check()
    if "mode" in fields:
        screen.locator(f"input[name=mode][value={fields['mode']}]").check()
    if "target" in fields:
        screen.locator(f"input[name=target][value='{fields['target']}']").check()
    for target in fields.get("targets", ()):
        screen.locator(f"input[name=targets][value='{target}']").check()
    screen.locator("button[type=submit]").click()


def cast_ballot(page: Page, candidate: int | None) -> None:
    """A raised hand for ``candidate``, or an empty ballot."""
    ballot = page.locator("section.mafia-ballot")
    if candidate is not None:
        ballot.locator(f"input[name=candidates][value='{candidate}']").check()
    ballot.locator("button[type=submit]").click()


def console_move(host: Page, move: str, vote: str | None = None) -> None:
    form = host.locator(f"form.mafia-move[data-move={move}]")
    if vote is not None:
        form = form.filter(has=host.locator(f"input[name=vote][value={vote}]"))
    if form.get_attribute("data-confirm"):
        # The moderator says yes to the console's "are you sure?".
        host.once("dialog", lambda dialog: dialog.accept())
    form.locator("button[type=submit]").click()


# --- the game -----------------------------------------------------------------------


def test_a_moderated_game_in_persian_at_phone_width_played_to_its_end(
    new_player: Callable[..., Page],
) -> None:
    checked: set[str] = set()

    def look_once(page: Page, label: str) -> None:
        """The layout checks, once per kind of page."""
        if label not in checked:
            checked.add(label)
            check_layout(page, label)

    host_user = UserFactory()
    users = UserFactory.create_batch(10)
    host = new_player(host_user, locale="fa-IR")
    host.goto("/games/new/")
    host.locator(f"input[name=ruleset][value={RULESET}]").check()
    host.locator("select[name=seat_count]").select_option("10")
    look_once(host, "create-form")
    host.locator("form.create-table button[type=submit]").click()
    expect(live(host)).to_have_attribute("data-status", "open")
    code = Game.objects.get().code
    pages = {}
    for user in users:
        page = new_player(user, locale="fa-IR")
        page.goto(f"/games/t/{code}/")
        expect(page.locator("[data-table-settings]")).to_be_visible()
        look_once(page, "waiting-room")
        page.locator("form[action$='/join/'] button").click()
        pages[user.pk] = page
    assert host.locator("html").get_attribute("dir") == "rtl"
    start = host.locator("form[action$='/start/'] button")
    expect(start).to_be_enabled(timeout=10_000)
    look_once(host, "waiting-room-host")
    start.click()
    everyone = [host, *pages.values()]
    for page in everyone:
        expect(live(page)).to_have_attribute("data-status", "playing", timeout=10_000)
    game = Game.objects.get(code=code)
    seats = {seat.position: pages[seat.user_id] for seat in game.seats.all()}
    names = {seat.position: seat.user.display_name for seat in game.seats.all()}
    seats[engine.MODERATOR] = host
    expect(host.locator("[data-console]")).to_be_visible()
    words = secret_words()

    def move(page: Page, make: Callable[[], None], version: int) -> None:
        """One move clicked in ``page``; every screen then shows the new state."""
        make()
        try:
            expect(live(page)).not_to_have_attribute(
                "data-version", str(version), timeout=10_000
            )
        except AssertionError as refused:
            # A refused move leaves the version; the page says why.
            said = page.locator("main").inner_text()[:800]
            raise AssertionError(f"the move was not taken:\n{said}") from refused
        new_version = Game.objects.get(code=code).version
        for other in everyone:
            expect(live(other)).to_have_attribute(
                "data-version", str(new_version), timeout=10_000
            )

    nights_resolved = 0
    colonel_shot: tuple[int, str] | None = None
    for _ in range(MOVES):
        game = Game.objects.get(code=code)
        state = load_state(game)
        for seat, page in seats.items():
            leaks = oracle.find_leaks(state, seat, page.content(), words)
            assert not leaks, (seat, game.version, leaks)
            assert fits_the_phone(page), (seat, game.phase, too_wide(page))
        view = engine.view(state, None)
        phase = view["phase"]
        table = state.table
        plan = night_plan(state)
        if phase == "over":
            break
        if phase in ("night", "midday"):
            # Every player still in the game taps the step's screen, the lowest
            # seat first.
            waiting = sorted(s for s in engine.waiting_for(state) if s >= 0)
            assert waiting, f"a {phase} step with nobody to tap"
            seat = waiting[0]
            spec = engine.legal_actions(state, seat)[0]
            fields = night_fields(seat, spec, plan)
            if spec["type"] == "choose" and spec["step"] == "code":
                fields = {
                    "number": RADIO_CODE if seat == table.radio else GENERAL_GUESS
                }
            if spec["type"] == "choose" and spec["step"] == "colonel_shoots":
                target = fields["target"]
                colonel_shot = (
                    target,
                    "mafia" if target in table.mafia else "citizens",
                )
            page = seats[seat]
            look_once(page, f"night-{spec['form']}")
            move(page, partial(tap_night, page, spec, fields), game.version)
        elif phase == "dawn":
            night = state.night
            expected = expected_night(state, plan) if night else {"exits": {}}
            if night:
                ledger = engine.view(state, engine.MODERATOR)["ledger"]
                resolution = ledger["night"]["resolution"]
                assert {
                    e["seat"]: e["causes"] for e in resolution["exits"]
                } == expected["exits"], (night, resolution, expected)
                for key in ("saved", "shielded", "colonel_hit", "sniper"):
                    assert resolution[key] == expected[key], (night, key, resolution)
                # The console shows the night's outcome to confirm, with the names.
                shown = host.locator("[data-console] [data-resolution]")
                expect(shown).to_be_visible()
                hit = (
                    [] if expected["colonel_hit"] is None else [expected["colonel_hit"]]
                )
                for seat in [*expected["exits"], *expected["saved"], *hit]:
                    expect(shown).to_contain_text(names[seat])
                look_once(host, "console-dawn")
            else:
                check_introduction(seats, table)
            move(host, partial(console_move, host, "confirm_night"), game.version)
            lines = morning_lines(
                night,
                list(expected["exits"]),
                names,
                midday=expected.get("colonel_hit") is not None,
                colonel_shot=colonel_shot,
            )
            check_morning(seats, lines, code)
            colonel_shot = None
            nights_resolved += 1
            radio = seats[table.radio]
            for target, reading in expected.get("readings", {}).items():
                answer = radio.locator(
                    f"#role-card [data-reading][data-seat='{target}']"
                )
                expect(answer.last).to_have_attribute("data-reading", reading)
        elif phase == "vote":
            victim = day_victim(state)
            voter = min(s for s in engine.waiting_for(state) if s >= 0)
            page = seats[voter]
            look_once(page, "ballot")
            move(page, partial(cast_ballot, page, victim), game.version)
        else:
            assert phase == "day", phase
            day = view["day"]
            look_once(host, "console-day")
            look_once(seats[0], "day")
            midday = day["midday"]
            if midday and midday["stage"] in ("owed", "named"):
                make = partial(console_move, host, "midday")
            elif not day["defence_vote"]:
                make = partial(console_move, host, "start_vote", "defence")
            elif day["defended"] and not day["exit_vote"]:
                assert day["defended"] == [day_victim(state)]
                make = partial(console_move, host, "start_vote", "exit")
            else:
                make = partial(console_move, host, "end_day")
            move(host, make, game.version)
    else:
        raise AssertionError("the game never ended")
    assert nights_resolved == 3  # the introduction night and two main nights
    final = engine.view(state, None)
    assert final["outcome"]["winner"] == "mafia"
    with translation.override("fa"):
        outcome = gettext("The %(side)s win.") % {
            "side": words_for(RULESET).side("mafia")
        }
    review_url = f"/history/g/{code}/"
    for label, page in (("over-moderator", host), ("over-player", seats[0])):
        look_once(page, label)
    for page in everyone:
        expect(page.locator(".banner.done").first).to_have_text(outcome)
        expect(page.locator(f"a[href='{review_url}']")).to_be_visible()
    # The review, reached from the link, shows every card: in the site's list of
    # roles and on the game's own board.
    page = seats[0]
    page.locator(f"a[href='{review_url}']").click()
    expect(page).to_have_url(re.compile(re.escape(review_url) + "$"))
    roles = page.locator("section[aria-labelledby=review-roles-title] li[data-role]")
    expect(roles).to_have_count(10)
    every_card = page.locator(".mafia-board").filter(has=page.locator("li[data-role]"))
    for dealt in final["roles"]:
        with translation.override("fa"):
            label = str(words_for(RULESET).role(dealt["role"]))
        for where in (roles, every_card.last.locator("li[data-role]")):
            card = where.and_(page.locator(f"[data-seat='{dealt['seat']}']"))
            expect(card).to_have_attribute("data-role", dealt["role"])
            expect(card).to_contain_text(label)
            expect(card).to_contain_text(names[dealt["seat"]])
    look_once(page, "review")
    assert checked == PAGE_KINDS, checked ^ PAGE_KINDS


def check_morning(seats: Mapping[int, Page], lines: list[str], code: str) -> None:
    """Every screen announces the morning as the rules give it: in the day's news
    while the game goes on, and in the record of what was announced."""
    game = Game.objects.get(code=code)
    for page in seats.values():
        record = page.locator("section.mafia-record li")
        texts = [text.strip() for text in record.all_inner_texts()]
        start = texts.index(lines[0]) if lines[0] in texts else -1
        assert texts[start : start + len(lines)] == lines, (texts, lines)
        if game.status != Game.Status.FINISHED:
            news = [t.strip() for t in page.locator("p[data-news]").all_inner_texts()]
            assert news == lines, (news, lines)


def check_introduction(seats: Mapping[int, Page], table: Any) -> None:
    """What the introduction night showed, on the cards: the Partisan the two plain
    soldiers and the traitor soldier (not which is which), each mafia member the
    others."""
    partisan = seats[table.partisan].locator("#role-card li[data-seat]")
    shown = {
        int(seat) for seat in partisan.evaluate_all("l => l.map(e => e.dataset.seat)")
    }
    assert shown == {*table.soldiers, table.traitor}, shown
    for member in table.mafia:
        known = seats[member].locator("#role-card li[data-seat]")
        seen = {
            int(seat) for seat in known.evaluate_all("l => l.map(e => e.dataset.seat)")
        }
        assert set(table.mafia) - {member} <= seen <= set(table.mafia), (member, seen)
