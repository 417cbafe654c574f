"""A notice's plain text as HTML: paragraphs, line breaks and links, nothing else.

Everything the author wrote is escaped first; the only markup that can come out is
``<p>``, ``<br>`` and ``<a href="http(s)://…" rel="nofollow noopener noreferrer">``,
built by ``format_html``. A link is a bare ``http(s)://`` address, or
``[text](http(s)://address)``; any other scheme (``javascript:``, ``data:``) stays
text.
"""

from __future__ import annotations

import re

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

LINK = re.compile(
    r"\[(?P<text>[^\[\]\n]{1,200})\]\((?P<target>https?://[^\s()<>\"']{1,500})\)"
    r"|(?P<bare>https?://[^\s<>\"']{1,500})"
)
TRAILING = ".,;:!?)»"
"""Punctuation after a bare address that belongs to the sentence, not the link."""


def _link(href: str, text: str) -> SafeString:
    return format_html(
        '<a href="{}" rel="nofollow noopener noreferrer">{}</a>', href, text
    )


def _line(line: str) -> SafeString:
    """One line with its links; every other character escaped."""
    parts: list[str] = []
    at = 0
    for match in LINK.finditer(line):
        parts.append(escape(line[at : match.start()]))
        if match.group("bare"):
            address = match.group("bare")
            trimmed = address.rstrip(TRAILING)
            parts.append(_link(trimmed, trimmed))
            parts.append(escape(address[len(trimmed) :]))
        else:
            parts.append(_link(match.group("target"), match.group("text")))
        at = match.end()
    parts.append(escape(line[at:]))
    return mark_safe("".join(parts))  # noqa: S308 - each part was escaped above


def render(text: str) -> SafeString:
    """Paragraphs at blank lines, ``<br>`` at single line ends."""
    paragraphs = re.split(r"\n\s*\n", text.replace("\r\n", "\n").strip())
    html = [
        format_html(
            "<p>{}</p>",
            mark_safe(  # noqa: S308 - every line was escaped by _line
                "<br>".join(_line(line) for line in paragraph.split("\n"))
            ),
        )
        for paragraph in paragraphs
        if paragraph.strip()
    ]
    return mark_safe("".join(html))  # noqa: S308 - every paragraph built by format_html
