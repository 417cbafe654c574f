"""A page as htmx's socket extension keeps it: the live area's parts by their ids,
each frame's elements swapped in by id (``hx-swap-oob="true"``: a part, or a row of
one), put next to a row (``afterend:#id`` / ``beforebegin:#id``: a wrapper whose
children are a new row) or appended to (``beforeend``, a chat line)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

_TABLE_PART = re.compile(r"^<(tbody|thead|tfoot|tr|td|th|caption|colgroup)\b")
_BESIDE = re.compile(r'^<\w+ hx-swap-oob="(afterend|beforebegin):#([^"]+)">')

_VOID = {"input", "br", "img", "meta", "link", "hr", "source", "wbr", "col"}
PARTS = re.compile(r"^(table-state|table-clock|table-presence|table-extras|region-.+)$")
_NOW = re.compile(r' data-now="\d+"')


class Elements(HTMLParser):
    """Every element with an id, as (id, start, end) offsets of its whole HTML."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=False)
        self.html = html
        self.lines = [0]
        for line in html.split("\n"):
            self.lines.append(self.lines[-1] + len(line) + 1)
        self.open: list[tuple[str, str, int]] = []
        self.found: list[tuple[str, int, int]] = []
        self.top: list[tuple[str, int, int]] = []
        self.feed(html)
        self.close()

    def _at(self) -> int:
        line, column = self.getpos()
        return self.lines[line - 1] + column

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        at = self._at()
        ident = dict(attrs).get("id") or ""
        if tag in _VOID:
            end = at + len(self.get_starttag_text() or "")
            if ident:
                self.found.append((ident, at, end))
            if not self.open:
                self.top.append((ident, at, end))
            return
        self.open.append((tag, ident, at))

    def handle_endtag(self, tag: str) -> None:
        at = self._at()
        while self.open:
            opened, ident, start = self.open.pop()
            if opened == tag:
                break
        else:
            return
        end = self.html.index(">", at) + 1
        if ident:
            self.found.append((ident, start, end))
        if not self.open:
            self.top.append((ident, start, end))


def _plain(html: str) -> str:
    """A part as compared: without the swap marker and the server's clock time."""
    return _NOW.sub("", html.replace(' hx-swap-oob="true"', ""))


def parts_of(area: str) -> dict[str, str]:
    """The live area's parts, by id."""
    found = Elements(area)
    return {
        ident: _plain(area[start:end])
        for ident, start, end in found.found
        if PARTS.match(ident)
    }


def apply(page: dict[str, str], frame: str) -> None:
    """``frame`` swapped into ``page`` as the browser does. A frame that holds the
    whole area (``table-live``) replaces every part."""
    found = Elements(frame)
    for ident, start, end in found.top:
        whole = frame[start:end]
        if ident == "table-live":
            page.clear()
            page.update(parts_of(whole))
        elif PARTS.match(ident):
            page[ident] = _plain(whole)
        elif ident and ' hx-swap-oob="true"' in whole[: whole.index(">")]:
            # A browser parses a table's part outside a <table> as nothing.
            assert not _TABLE_PART.match(whole), f"#{ident} would be lost"
            _swap_row(page, ident, _plain(whole))
        elif beside := _BESIDE.match(whole):
            inner = whole[beside.end() : whole.rindex("</")]
            _put_beside(page, beside.group(2), _plain(inner), beside.group(1))


def _swap_row(page: dict[str, str], ident: str, row: str) -> None:
    """A row of a region (``{% filter row %}``) swapped in by its id, in the part
    that holds it; a row no part holds is an error, as it would be lost."""
    for name, html in page.items():
        for found, start, end in Elements(html).found:
            if found == ident:
                page[name] = html[:start] + row + html[end:]
                return
    raise AssertionError(f"no part holds #{ident}")


def _put_beside(page: dict[str, str], anchor: str, rows: str, how: str) -> None:
    """New rows put after (``afterend``) or before (``beforebegin``) the element
    ``#anchor``, in the part that holds it; an anchor no part holds is an error."""
    for name, html in page.items():
        for found, start, end in Elements(html).found:
            if found == anchor:
                at = end if how == "afterend" else start
                page[name] = html[:at] + rows + html[at:]
                return
    raise AssertionError(f"no part holds #{anchor}")
