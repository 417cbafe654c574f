"""Bad input on the doors a cells table owns: the form POST (plain and htmx) and the
HTML socket. A swap of a centre card, a swap of two of one's own cards, a look at an
untouched card, oneself as the second player, a discard of a colour one does not hold,
a move out of turn, a forged field: each gets a clear message (the engine's, in the
player's language) and changes nothing."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext

from accounts.models import User
from games import engine, errors, services
from games.families.cells import moves
from games.families.cells.engine import errors as cells_errors
from games.models import Game, GameAction
from games.state import load_state
from tests.factories import UserFactory
from tests.games.conftest import seated_users
from tests.games.test_consumers import TIMEOUT, connect

SEAT_COUNT = 3


# --- the form fields ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "action"),
    [
        ({"action": "confirm"}, {"type": "confirm"}),
        (
            {"action": "swap", "mine": "centre", "theirs": "2:right"},
            {"type": "swap", "mine": "centre", "player": 2, "theirs": "right"},
        ),
        # The centre and one's own seat are the engine's to refuse, in its words.
        (
            {"action": "swap", "mine": "left", "theirs": "1:centre"},
            {"type": "swap", "mine": "left", "player": 1, "theirs": "centre"},
        ),
        (
            {"action": "exchange", "exchange": "yes"},
            {"type": "exchange", "exchange": True},
        ),
        (
            {"action": "exchange", "exchange": "no"},
            {"type": "exchange", "exchange": False},
        ),
        ({"action": "mission", "partner": "3"}, {"type": "mission", "partner": 3}),
        ({"action": "peek", "slot": "right"}, {"type": "peek", "slot": "right"}),
        ({"action": "discard", "card": "red"}, {"type": "discard", "card": "red"}),
        # The same fields as the socket's JSON, a checked radio as a string.
        ({"action": ["mission"], "partner": 1}, {"type": "mission", "partner": 1}),
    ],
)
def test_form_fields_become_the_engine_action(
    fields: dict[str, Any], action: dict[str, Any]
) -> None:
    assert moves.parse_move(fields) == action


@pytest.mark.parametrize(
    "fields",
    [
        {},
        {"action": "pass"},
        {"action": "swap", "mine": "middle", "theirs": "1:left"},
        {"action": "swap", "mine": "left", "theirs": "1"},
        {"action": "swap", "mine": "left", "theirs": "one:left"},
        {"action": "swap", "mine": "left"},
        {"action": "swap", "mine": ["left", "right"], "theirs": "1:left"},
        {"action": "exchange", "exchange": "maybe"},
        {"action": "mission", "partner": "-1"},
        {"action": "mission", "partner": "²"},
        {"action": "peek", "slot": "under"},
        {"action": "discard", "card": "green"},
    ],
)
def test_forged_fields_are_not_understood(fields: dict[str, Any]) -> None:
    with pytest.raises(errors.BadAction):
        moves.parse_move(fields)


# --- a table where every refusal can be tried ------------------------------------


def _monochrome_seed() -> int:
    """A seed whose first mission draw is three cards of one colour, so the leader
    holds no card of the other colour."""
    return next(
        seed
        for seed in range(10_000)
        if len(
            set(engine.setup(engine.GameSetup("cells", SEAT_COUNT, {}, seed)).deck[:3])
        )
        == 1
    )


def _table() -> Game:
    """A started table of three, everyone past the first look."""
    users = UserFactory.create_batch(SEAT_COUNT)
    game = services.game_create(host=users[0], ruleset="cells", seat_count=SEAT_COUNT)
    for user in users[1:]:
        services.seat_join(game=game, user=user)
    with mock.patch("games.services.secrets.randbits", return_value=_monochrome_seed()):
        game = services.game_start(game=game, user=users[0])
    for user in seated_users(game).values():
        game.refresh_from_db()
        services.game_act(
            game=game, user=user, action={"type": "confirm"}, turn=game.turn
        )
    game.refresh_from_db()
    assert game.phase == "turn"
    return game


def _current(game: Game) -> int:
    game.refresh_from_db()
    return int(engine.view(load_state(game), None)["current"])


def _refusals(game: Game) -> list[tuple[int, dict[str, str], type]]:
    """(seat, form fields, the engine's refusal) for every bad move at this table."""
    me = _current(game)
    other = (me + 1) % SEAT_COUNT
    return [
        (me, {"action": "swap", "mine": "left", "theirs": f"{other}:centre"},
         cells_errors.ProtectedCentre),
        (me, {"action": "swap", "mine": "left", "theirs": f"{me}:right"},
         cells_errors.SwapWithYourself),
        (me, {"action": "peek", "slot": "centre"}, cells_errors.UntouchedSlot),
        (me, {"action": "mission", "partner": str(me)}, cells_errors.SelfPartner),
        (other, {"action": "mission", "partner": str(me)}, cells_errors.NotYourTurn),
    ]  # fmt: skip


def _russian(error: type) -> str:
    with translation.override("ru"):
        text = gettext(error.template)
    assert text != error.template, f"not translated: {error.template}"
    return text


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _unchanged(game: Game, version: int, state: Any) -> None:
    game.refresh_from_db()
    assert game.version == version
    assert GameAction.objects.filter(game=game).count() == version
    assert load_state(game) == state


@pytest.mark.django_db
def test_every_refusal_by_plain_post_and_htmx_changes_nothing() -> None:
    game = _table()
    users = seated_users(game)
    url = f"/games/t/{game.code}/act/"
    version, state = game.version, load_state(game)
    for seat, fields, error in _refusals(game):
        data = {**fields, "turn": str(game.turn)}
        page = _client(users[seat]).post(
            url, data, follow=True, headers={"accept-language": "ru"}
        )
        assert _russian(error) in page.content.decode(), fields
        _unchanged(game, version, state)
        fragment = _client(users[seat]).post(
            url, data, headers={"hx-request": "true", "accept-language": "ru"}
        )
        body = fragment.content.decode()
        assert fragment.status_code == 409
        assert 'id="table-live"' in body and _russian(error) in body, fields
        _unchanged(game, version, state)
    # A forged field never reaches the engine.
    forged = {
        "action": "swap",
        "mine": "middle",
        "theirs": "1:left",
        "turn": str(game.turn),
    }
    page = _client(users[_current(game)]).post(
        url, forged, follow=True, headers={"accept-language": "en"}
    )
    assert "That move is not understood." in page.content.decode()
    _unchanged(game, version, state)


@pytest.mark.django_db
def test_a_discard_of_a_colour_not_held_is_refused() -> None:
    game = _table()
    users = seated_users(game)
    leader = _current(game)
    services.game_act(
        game=game,
        user=users[leader],
        action={"type": "mission", "partner": (leader + 1) % SEAT_COUNT},
        turn=game.turn,
    )
    game.refresh_from_db()
    hand = load_state(game).hand
    missing = "red" if "red" not in hand else "blue"
    assert missing not in hand
    version, state = game.version, load_state(game)
    page = _client(users[leader]).post(
        f"/games/t/{game.code}/act/",
        {"action": "discard", "card": missing, "turn": str(game.turn)},
        follow=True,
        headers={"accept-language": "ru"},
    )
    assert _russian(cells_errors.CardNotHeld) in page.content.decode()
    _unchanged(game, version, state)
    # The card offers only the colour the leader holds.
    mine = _client(users[leader]).get(game.get_absolute_url()).content.decode()
    assert f'name="card" value="{hand[0]}"' in mine
    assert f'name="card" value="{missing}"' not in mine


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_every_refusal_over_the_socket_changes_nothing() -> None:
    game = await sync_to_async(_table)()
    users = await sync_to_async(seated_users)(game)
    refusals = await sync_to_async(_refusals)(game)
    version = game.version
    state = await sync_to_async(load_state)(game)
    for seat, fields, error in refusals:
        await sync_to_async(User.objects.filter(pk=users[seat].pk).update)(
            language="ru"
        )
        socket = await connect(users[seat], game.code)
        await socket.receive_from(timeout=TIMEOUT)
        await socket.send_json_to({**fields, "turn": str(game.turn)})
        # The refusal and the seat's unchanged state; a presence notice (the seat
        # before this one just left) may come between them.
        text = ""
        for _ in range(4):
            text += await socket.receive_from(timeout=TIMEOUT)
            if 'id="table-error"' in text and "data-version=" in text:
                break
        assert 'id="table-error"' in text
        assert await sync_to_async(_russian)(error) in text, fields
        assert f'data-version="{version}"' in text
        await socket.disconnect()
        await sync_to_async(_unchanged)(game, version, state)
