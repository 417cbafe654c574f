"""Which digits a move's number fields accept: ASCII only.

``str.isdigit`` says yes to "²", "①" and "٣"; ``int`` then crashes on the first two
and reads the third as 3. Our own pages only ever send ASCII digits (a Persian
interface shows Persian numerals but submits ASCII values), so every other digit is
refused as a move the server does not understand, and nothing changes."""

from __future__ import annotations

import pytest
from django.test import Client
from hypothesis import example, given, settings
from hypothesis import strategies as st

from games import errors
from games.forms import move_from_fields
from tests.fuzz.tables import awaited_seats, fingerprint
from tests.games.conftest import seated_users, start_table

# Every character Unicode calls a digit or numeric that is not an ASCII digit.
OTHER_DIGITS = st.characters(
    categories=["Nd", "No", "Nl"], exclude_characters="0123456789"
)


@settings(max_examples=200, derandomize=True, deadline=None)
@given(st.text(OTHER_DIGITS, min_size=1, max_size=3), st.sampled_from(["turn", "t"]))
@example("²", "turn")
@example("①", "t")
@example("٣", "t")
def test_a_number_in_other_digits_is_a_bad_move(number: str, where: str) -> None:
    fields = {"action": "check", "turn": "0", "target": "1"}
    fields["turn" if where == "turn" else "target"] = number
    with pytest.raises(errors.BadAction):
        move_from_fields("partisans", fields)
    with pytest.raises(errors.BadAction):
        move_from_fields(
            "partisans", {"action": "propose", "turn": "0", "team": ["0", number]}
        )


@settings(max_examples=50, derandomize=True, deadline=None)
@given(st.integers(min_value=0, max_value=999))
def test_ascii_numbers_are_read(number: int) -> None:
    action, turn = move_from_fields(
        "partisans", {"action": "shoot", "turn": str(number), "target": f" {number} "}
    )
    assert action == {"type": "shoot", "target": number}
    assert turn == number


@pytest.mark.parametrize("number", ["", "1234", "+1", "-1", "1_0", " "])
def test_other_shapes_are_refused(number: str) -> None:
    with pytest.raises(errors.BadAction):
        move_from_fields(
            "partisans", {"action": "shoot", "turn": "0", "target": number}
        )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("field", "value"), [("team", "٣"), ("turn", "²"), ("team", "①")]
)
def test_a_foreign_digit_in_a_posted_move_changes_nothing(
    field: str, value: str
) -> None:
    """Through the page: a clear refusal (never a 500), and the table as it was."""
    game = start_table("partisans", 5)
    leader = awaited_seats(game)[0]
    client = Client()
    client.force_login(seated_users(game)[leader])
    fields = {"action": "propose", "turn": str(game.turn), "team": [str(leader)]}
    if field == "team":
        fields["team"] = [str(leader), value]
    else:
        fields["turn"] = value
    before = fingerprint(game)
    response = client.post(
        f"/games/t/{game.code}/act/",
        fields,
        headers={"hx-request": "true", "accept-language": "en"},
    )
    assert response.status_code == 400
    assert "That move is not understood." in response.content.decode()
    assert fingerprint(game) == before
