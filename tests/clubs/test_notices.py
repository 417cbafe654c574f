"""The notice board: admins write, members read, and a notice is rendered safely:
escaped, with paragraphs, line breaks and http(s) links the only markup."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from clubs import errors, services
from clubs.notices import render
from tests.clubs.conftest import ClubSetup
from tests.factories import UserFactory


def tags(html: str) -> set[str]:
    return {match.lower() for match in re.findall(r"<\s*/?\s*([a-zA-Z0-9]+)", html)}


def test_paragraphs_and_line_breaks() -> None:
    assert render("one\ntwo\n\n\nthree") == "<p>one<br>two</p><p>three</p>"
    assert render("  \n\n ") == ""


def test_links_bare_and_named() -> None:
    html = render(
        "See https://example.org/rules. Or [the map](http://maps.example/x?a=1&b=2)"
    )
    assert (
        '<a href="https://example.org/rules" rel="nofollow noopener noreferrer">'
        "https://example.org/rules</a>." in html
    )
    assert (
        '<a href="http://maps.example/x?a=1&amp;b=2" '
        'rel="nofollow noopener noreferrer">the map</a>' in html
    )


@pytest.mark.parametrize(
    "text",
    [
        "<script>alert(1)</script>",
        '<img src=x onerror="alert(1)">',
        "[click](javascript:alert(1))",
        "javascript:alert(1)",
        '[x](https://a.example/" onmouseover="alert(1))',
        "https://a.example/<script>alert(1)</script>",
        "data:text/html,<b>hi</b>",
        '<a href="https://evil.example">ok</a>',
        "[<b>bold</b>](https://a.example)",
    ],
)
def test_nothing_but_the_safe_subset_comes_out(text: str) -> None:
    html = render(text)
    assert tags(html) <= {"p", "br", "a"}
    assert "<script" not in html and "<img" not in html
    assert 'href="javascript' not in html and 'href="data' not in html
    for attributes in re.findall(r"<a\s([^>]*)>", html):
        names = re.findall(r'([a-zA-Z-]+)="[^"]*"', attributes)
        assert names == ["href", "rel"], attributes
    for href in re.findall(r'href="([^"]*)"', html):
        assert href.startswith(("http://", "https://"))
        assert "<" not in href


@pytest.mark.django_db
def test_admins_write_members_read_outsiders_see_nothing(
    private_club: ClubSetup,
) -> None:
    club = private_club
    services.notice_post(
        club=club.club,
        admin=club.admin,
        title="Пятница",
        body="Собираемся в 19:00 <b>у Оли</b>",
    )
    with pytest.raises(errors.NotAdmin):
        services.notice_post(club=club.club, admin=club.members[0], title="x", body="y")
    with pytest.raises(errors.EmptyText):
        services.notice_post(club=club.club, admin=club.admin, title=" ", body="y")
    assert club.club.notices.count() == 1
    member, outsider = Client(), Client()
    member.force_login(club.members[0])
    outsider.force_login(UserFactory())
    for path in (f"/clubs/{club.club.slug}/", f"/clubs/{club.club.slug}/notices/"):
        page = member.get(path).content.decode()
        assert "Пятница" in page
        assert "у Оли" in page and "<b>у Оли</b>" not in page
        assert "&lt;b&gt;у Оли&lt;/b&gt;" in page
        assert "Пятница" not in outsider.get(path).content.decode()
    assert outsider.get(f"/clubs/{club.club.slug}/notices/").status_code == 404
