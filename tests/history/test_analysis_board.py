"""The analysis board under a finished game's replay (docs/analysis.md): a heat-map
of the exact odds that each seat was evil, the public one and each seat's, the
moments that mattered said in words on the review, and nothing of it on a game that
is not finished."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import engine
from games.engine import oracle
from games.families.resistance.engine.analysis import analyse
from games.state import action_log, game_setup
from history import analysis
from tests.history.builders import FIVE, Table, deal, random_game
from tests.history.records import g1_evil_win, g5_abandoned
from tests.history.test_replay_secrecy import _words

pytestmark = pytest.mark.django_db

EN = {"accept-language": "en"}


def _states(table: Table) -> list[Any]:
    game = table.refresh()
    state = engine.setup(game_setup(game))
    states = [state]
    for seat, action in action_log(game):
        state, _events = engine.apply(state, seat, action)
        states.append(state)
    return states


def _review(client: Client, table: Table, **query: Any) -> str:
    response = client.get(f"/history/g/{table.game.code}/", query, headers=EN)
    assert response.status_code == 200
    return response.content.decode()


def _fragment(client: Client, table: Table, step: int, perspective: str) -> str:
    response = client.get(
        f"/history/g/{table.game.code}/replay/",
        {"step": step, "as": perspective},
        headers=EN,
    )
    assert response.status_code == 200
    return response.content.decode()


def _heat_map(page: str) -> dict[int, list[int]]:
    """The board's numbers per seat, as the page prints them."""
    board = page.split("data-analysis-as")[1].split("</table>")[0]
    rows = re.findall(r'<tr data-seat="(\d+)">(.*?)</tr>', board, re.S)
    return {
        int(seat): [int(n) for n in re.findall(r"<td[^>]*>(\d+)</td>", cells)]
        for seat, cells in rows
    }


def _stages(page: str) -> list[int]:
    return [int(n) for n in re.findall(r'data-stage="(\d+)"', page)]


def test_g1_public_odds_counted_by_hand(client: Client) -> None:
    """G1 (ann and bob evil, 5 players, 10 possible evil pairs): M1 [ann, cat] one
    fail leaves the 7 pairs with ann or cat: ann and cat 4/7, the others 2/7; M2
    clean changes nothing; M3 [ann, dan] one fail leaves the 4 pairs with ann and
    {cat, dan}: ann 4/5, cat and dan 2/5, the others 1/5; M4 [bob, cat, eve] one
    fail leaves {ann, bob}, {ann, cat}, {ann, eve}, {cat, dan}: ann 3/4, cat 2/4,
    the others 1/4."""
    table = g1_evil_win()
    page = _review(client, table)
    assert _heat_map(page) == {
        0: [40, 57, 57, 80, 75],
        1: [40, 29, 29, 20, 25],
        2: [40, 57, 57, 40, 50],
        3: [40, 29, 29, 40, 25],
        4: [40, 29, 29, 20, 25],
    }
    assert "Operation 1: 1 fail" in page and "Operation 2: 0 fails" in page
    # The moments: M1 (ann 40% -> 57%), M3 (ann 57% -> 80%), M4 (dan 40% -> 25%).
    moments = re.findall(r"data-moment=\"(\d+)\"><a [^>]*>(.*?)</a>", page)
    texts = [text for _step, text in moments]
    assert len(texts) == 3
    assert texts == [
        "Operation 1: 1 fail — the odds that Ann was one of the traitors went from "
        "40% to 57%.",
        "Operation 3: 1 fail — the odds that Ann was one of the traitors went from "
        "57% to 80%.",
        "Operation 4: 1 fail — the odds that Dan was one of the traitors went from "
        "40% to 25%.",
    ]


def test_the_table_could_have_known_a_traitor_for_certain(client: Client) -> None:
    table = deal("partisans", FIVE, roles={"ann": "evil", "bob": "evil"},
                 leader="ann", in_order=True)  # fmt: skip
    table.mission(["ann", "bob"], failing=["ann", "bob"])
    table.mission(["bob", "cat", "dan"], failing=["bob"])
    table.mission(["ann", "eve"], failing=["ann"])
    page = _review(client, table)
    assert (
        "Operation 1: 2 fails — the table could have known Ann was one of the "
        "traitors (100% evil)." in page
    )
    assert "could have known Bob was one of the traitors (100% evil)" in page
    assert _heat_map(page)[2] == [40, 0, 0, 0]
    # Said only once: the later stages did not move the odds.
    assert page.count("could have known Ann") == 1
    # The moments name sides, and are marked so the leak oracle reads them: after
    # the end they give nothing away; at the step they speak of, before the end,
    # the oracle would call them a leak of ann's and bob's sides.
    states = _states(table)
    assert oracle.find_leaks(states[-1], None, page, _words("partisans")) == []
    moments = page.split("data-moments")[1].split("</section>")[0]
    leaks = oracle.find_leaks(states[0], None, moments, _words("partisans"))
    assert {(leak.kind, leak.seat) for leak in leaks} >= {("side", 0), ("side", 1)}


def test_every_column_is_the_engines_analysis_of_that_step(client: Client) -> None:
    table = random_game("partisans", 7, 4, options={"scout": True, "check": True})
    states = _states(table)
    last = len(states) - 1
    for perspective in ["all", *map(str, range(7))]:
        seat = None if perspective == "all" else int(perspective)
        page = _fragment(client, table, last, perspective)
        stages = _stages(page)
        assert stages[0] == 0 and stages == sorted(stages)
        numbers = _heat_map(page)
        for column, step in enumerate(stages):
            board = analyse(engine.view(states[step], seat))
            for position in range(7):
                expected = analysis.percent(board.probabilities[position])
                assert numbers[position][column] == expected
        # A seat's board knows at least its own side for certain.
        if seat is not None:
            assert numbers[seat][0] in (0, 100)


def test_the_current_stage_follows_the_replay(client: Client) -> None:
    table = g1_evil_win()
    stages = _stages(_fragment(client, table, 0, "all"))
    last = len(_states(table)) - 1
    ends = [following - 1 for following in stages[1:]] + [last]
    current = re.compile(r'aria-current="step" title="[^"]*" data-stage="(\d+)"')
    for step, end in zip(stages, ends, strict=True):
        for shown in {step, end}:
            page = _fragment(client, table, shown, "all")
            assert current.findall(page) == [str(step)], shown


def test_as_seen_by_a_player_is_what_that_seat_knew(client: Client) -> None:
    table = g1_evil_win()  # ann (seat 0) and bob (seat 1) evil
    ann = _heat_map(_fragment(client, table, 3, "0"))
    assert all(ann[seat] == [100] * 5 for seat in (0, 1))
    assert all(ann[seat] == [0] * 5 for seat in (2, 3, 4))
    cat = _heat_map(_fragment(client, table, 3, "2"))
    assert cat[2] == [0] * 5
    # Cat knows she is good: M1 [ann, cat] failed, so ann was evil.
    assert cat[0][1] == 100
    page = _fragment(client, table, 3, "2")
    assert "What <bdi>Cat</bdi> could have known." in page


def test_no_board_on_a_game_that_is_not_finished(client: Client) -> None:
    abandoned = g5_abandoned()
    page = _review(client, abandoned)
    assert "data-analysis" not in page and "data-moments" not in page
    assert "data-analysis" not in _fragment(client, abandoned, 1, "all")
    playing = deal("partisans", FIVE, roles={"ann": "evil"}, leader="ann",
                   in_order=True)  # fmt: skip
    playing.mission(["ann", "bob"], failing=["ann"])
    client.force_login(playing.users["cat"])
    live = client.get(reverse("games:table", args=[playing.game.code]), headers=EN)
    assert live.status_code == 200
    text = live.content.decode()
    assert "data-analysis" not in text and "data-moments" not in text
    assert analysis.board_for(playing.refresh(), {}, None) is None


@pytest.mark.parametrize("language", ["ru", "en", "fa"])
def test_the_board_in_every_language(client: Client, language: str) -> None:
    table = g1_evil_win()
    response = client.get(
        f"/history/g/{table.game.code}/", headers={"accept-language": language}
    )
    page = response.content.decode()
    assert "data-analysis" in page and "data-moments" in page
    if language == "fa":
        assert "۵۷" in page.split("data-analysis-as")[1]


def test_every_seats_board_passes_the_leak_oracle(client: Client) -> None:
    """Each seat's board, at every stage, holds nothing that seat did not know at
    that step (the oracle reads each row, marked with its seat), and nothing of
    anyone's mission cards, seen by anyone after the end."""
    table = random_game("partisans", 7, 9, options={"scout": True, "check": True})
    states = _states(table)
    final = states[-1]
    words = _words("partisans")
    stages = _stages(_fragment(client, table, 0, "all"))
    for perspective in ["all", *map(str, range(7))]:
        seat = None if perspective == "all" else int(perspective)
        for step in stages:
            page = _fragment(client, table, step, perspective)
            board = page.split('<section class="analysis"')[1].split("</section>")[0]
            assert 'data-seat="' in board
            assert oracle.find_leaks(states[step], seat, board, words) == []
            assert (
                oracle.find_leaks(
                    states[step], seat, board, words, after=final, own=False
                )
                == []
            )
