"""The phone and accessibility audit of a page, shared by the audit's browser tests.

:class:`Audit` opens each page a test names for one viewer in Russian, English and
Persian; in each language it lays the page out at 390 px and at 360 px and checks
that it fits (``js/fits.js``: no sideways scroll of the document, nothing off the
screen or cut off, every sideways-scrolling box a labelled, focusable region), and
at 390 px it runs axe-core (the ``axe-playwright-python`` package ships it) and
notes every violation. The problems of all pages are gathered and reported together
at the end of the test, so one run names them all.

PODPOLYE_SCREENSHOTS=<folder> saves a PNG of every page at 390 px.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from accounts.models import User

FITS = (Path(__file__).with_name("js") / "fits.js").read_text(encoding="utf-8")
LANGUAGES = ("ru", "en", "fa")
LOCALES = {"ru": "ru-RU", "en": "en-US", "fa": "fa-IR"}
WIDTHS = (390, 360)
HEIGHT = 844
SHOTS = os.environ.get("PODPOLYE_SCREENSHOTS", "")
AXE_OPTIONS = {"resultTypes": ["violations"]}


def _axe() -> Any:
    from axe_playwright_python.sync_playwright import Axe

    return Axe()


def violations(page: Page) -> list[str]:
    """axe-core's violations on the page as it stands, one line each."""
    found = _axe().run(page, options=AXE_OPTIONS).response["violations"]
    lines = []
    for rule in found:
        targets = [" ".join(map(str, node["target"])) for node in rule["nodes"]]
        lines.append(
            f"axe {rule['id']} ({rule['impact']}, {len(targets)}): "
            + "; ".join(targets[:4])
        )
    return lines


def fits(page: Page) -> list[str]:
    """What sticks out or is cut off at the page's present width."""
    return list(page.evaluate(FITS))


@dataclass
class Audit:
    """One test's audit: the pages it opened and the problems they showed."""

    new_player: Callable[..., Page]
    problems: list[str] = field(default_factory=list)
    pages: dict[Any, Page] = field(default_factory=dict)
    looked: int = 0

    def page_for(self, user: User | None, language: str) -> Page:
        """The viewer's page in ``language``: a player's language is their
        profile's; a visitor's is their browser's (one context per language)."""
        if user is not None:
            User.objects.filter(pk=user.pk).update(language=language)
            key: Any = user.pk
        else:
            key = language
        if key not in self.pages:
            self.pages[key] = (
                self.new_player(user)
                if user is not None
                else self.new_player(locale=LOCALES[language])
            )
        return self.pages[key]

    def look(
        self,
        user: User | None,
        url: str,
        label: str,
        *,
        languages: Iterable[str] = LANGUAGES,
        ready: Callable[[Page], None] | None = None,
    ) -> Page:
        """Open ``url`` as ``user`` (a visitor if None) in each language and check
        it at both widths; ``ready`` waits for what the page must show first."""
        page = None
        for language in languages:
            page = self.page_for(user, language)
            page.set_viewport_size({"width": WIDTHS[0], "height": HEIGHT})
            page.goto(url)
            if ready is not None:
                ready(page)
            self.check(page, f"{label} [{language}]")
        assert page is not None
        return page

    def check(self, page: Page, label: str) -> None:
        """The page as it is now: fits at every width; no axe violation."""
        self.looked += 1
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": HEIGHT})
            self.problems += [f"{label} @{width}: {p}" for p in fits(page)]
        page.set_viewport_size({"width": WIDTHS[0], "height": HEIGHT})
        if SHOTS:
            folder = Path(SHOTS)
            folder.mkdir(parents=True, exist_ok=True)
            safe = "".join(c if c.isalnum() or c in "-_" else "_" for c in label)
            page.screenshot(
                path=str(folder / f"{safe}.png"), full_page=True, caret="initial"
            )
        self.problems += [f"{label}: {v}" for v in violations(page)]

    def assert_clean(self) -> None:
        assert self.looked, "no page was audited"
        assert not self.problems, f"{len(self.problems)} problems:\n" + "\n".join(
            self.problems
        )


def table_ready(page: Page) -> None:
    """A table's page once its socket's first frame has redrawn the live area."""
    expect(page.locator("body")).to_have_attribute("data-socket", "on")
    page.wait_for_load_state("networkidle")
