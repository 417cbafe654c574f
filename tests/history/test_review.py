"""The post-game page: the winner and why, every role, every proposal with its
leader, team and votes, each mission's fail count (never whose card), the checks
and claims, the sniper's shot and the evil side's channel; linked from the table."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from games import services
from tests.history.builders import deal, random_game
from tests.history.records import g1_evil_win, g4_scout_shot, g5_abandoned

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}


def _page(client: Client, code: str) -> str:
    response = client.get(f"/history/g/{code}/", headers=EN)
    assert response.status_code == 200
    return response.content.decode()


def test_the_winner_why_and_every_role(client: Client) -> None:
    table = g1_evil_win()
    page = _page(client, table.game.code)
    assert "Traitors win" in page
    assert "three operations failed" in page.lower()
    for seat, side, role in [
        (0, "evil", "traitor"),
        (1, "evil", "traitor"),
        (2, "good", "partisan"),
        (3, "good", "partisan"),
        (4, "good", "partisan"),
    ]:
        assert f'data-seat="{seat}" data-side="{side}" data-role="{role}"' in page


def test_every_proposal_with_leader_team_and_each_vote(client: Client) -> None:
    table = g1_evil_win()
    page = _page(client, table.game.code)
    table_html = page.split('id="proposals-title"')[1].split("</table>")[0]
    rows = re.findall(
        r'<tr data-mission="(\d)" data-attempt="(\d)">(.*?)</tr>', table_html, re.S
    )
    assert [(m, a) for m, a, _ in rows] == [
        ("1", "1"), ("2", "1"), ("2", "2"), ("3", "1"), ("4", "1")
    ]  # fmt: skip
    rejected = rows[1][2]
    assert "<td><bdi>Bob</bdi></td>" in rejected  # the leader
    assert "<bdi>Bob</bdi>, <bdi>Dan</bdi>, <bdi>Eve</bdi>" in rejected  # the team
    votes = re.findall(r'data-seat="(\d)" data-vote="(\w+)"', rejected)
    assert votes == [
        ("0", "approve"), ("1", "approve"), ("2", "reject"), ("3", "reject"),
        ("4", "reject"),
    ]  # fmt: skip
    # Colour is never the only signal: a symbol and a word go with each mark.
    approve = '<span class="v y" aria-hidden="true">✓</span>'
    assert approve + '<span class="visually-hidden">approve' in rejected
    assert "✗ rejected" in rejected


def test_fail_counts_and_never_whose_card(client: Client) -> None:
    table = g1_evil_win()
    page = _page(client, table.game.code)
    missions = page.split('id="review-missions-title"')[1].split("</table>")[0]
    counts = re.findall(
        r'<tr data-mission="(\d)">.*?<td class="num">([^<]+)</td>', missions, re.S
    )
    assert counts == [("1", "1"), ("2", "0"), ("3", "1"), ("4", "1"), ("5", "—")]
    assert "data-card" not in page


def test_checks_claims_and_the_shot(client: Client) -> None:
    table = random_game("partisans", 7, 2, options={"scout": True, "check": True})
    game = table.refresh()
    page = _page(client, game.code)
    checks = list(game.checks.select_related("target"))
    if checks:
        for check in checks:
            mark = f'data-check-result="{check.result}"'
            assert f'data-seat="{check.target.position}" {mark}' in page
            assert f'data-claim="{check.claim}"' in page
    scout = g4_scout_shot()
    shot_page = _page(client, scout.game.code)
    assert "<bdi>Bob</bdi> shot <bdi>Ann</bdi>." in shot_page
    assert "That was the scout." in shot_page
    assert "the sniper shot the scout" in shot_page.lower()


def test_the_evil_sides_channel_is_readable_after_the_game(client: Client) -> None:
    table = deal("partisans", ["ann", "bob", "cat", "dan", "eve"],
                 roles={"ann": "scout", "bob": "sniper", "cat": "evil"}, leader="ann",
                 in_order=True, options={"scout": True})  # fmt: skip
    table.mission(["ann", "dan"])
    table.mission(["bob", "dan", "eve"])
    table.mission(["ann", "eve"])
    services.chat_post(
        game=table.refresh(),
        user=table.users["cat"],
        text="Shoot <Ann>, she knew",
        channel="evil",
    )
    table.shoot("bob", "dan")
    page = _page(client, table.game.code)
    assert "Shoot &lt;Ann&gt;, she knew" in page
    assert "That was not the scout." in page


def test_the_table_links_to_the_review_when_the_game_ends(client: Client) -> None:
    table = g1_evil_win()
    client.force_login(table.users["ann"])
    page = client.get(f"/games/t/{table.game.code}/").content.decode()
    assert f'href="/history/g/{table.game.code}/"' in page


def test_an_abandoned_game_says_so_and_reveals_no_role(client: Client) -> None:
    table = g5_abandoned()
    page = _page(client, table.game.code)
    assert "abandoned before the end" in page
    assert "data-role" not in page and "data-side" not in page
    assert "Download the game" not in page
    # The vote that was in progress stays as a spectator saw it.
    assert "data-vote" not in page.split('id="replay"')[1].split("Game log")[0]


def test_unknown_game_is_404(client: Client) -> None:
    assert client.get("/history/g/nope/").status_code == 404
    assert client.get("/history/g/nope/replay/").status_code == 404
