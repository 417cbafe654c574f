"""``bench.live``'s programs when a move's POST gets no answer (the connection cut
under it): the move is not counted, it is reported apart from the server's
refusals, and the seat sends no second move decided on the same view (an unnamed
move whose fate is unknown cannot be sent again safely). Once the measured window
ends no seat starts another move, so that the run can close its connections with
no move in flight: closing them under moves in flight was where the runs' ReadErrors
came from."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx

from bench.live import Measure, Seat, TableGame, arguments

VIEW = {
    "type": "view",
    "version": 3,
    "turn": 2,
    "status": "playing",
    "view": {"ruleset": "partisans", "legal": [{"type": "vote"}]},
}


def _seat(measure: Measure, answer: Any) -> Seat:
    client = httpx.AsyncClient(
        transport=httpx.MockTransport(answer), base_url="http://bench"
    )
    seat = Seat(
        key="key",
        http=client,
        ws_url="ws://bench",
        rng=random.Random(1),
        args=arguments(["--think-ms", "0"]),
        measure=measure,
    )
    seat.game = TableGame("code", "partisans", 5)
    return seat


def _measure() -> Measure:
    measure = Measure(tables=1)
    measure.window = (0.0, float("inf"))
    measure.flat_out = True
    measure.all_playing.set()
    return measure


async def _moves_over(seat: Seat) -> None:
    """Until the seat has no move in flight (each may start the next): a bound on
    waiting for an event, not a timing."""

    async def over() -> None:
        while seat.moves:
            await asyncio.gather(*seat.moves)

    await asyncio.wait_for(over(), 30)


def test_a_move_whose_post_got_no_answer_is_not_counted_nor_sent_again() -> None:
    sent: list[dict[str, Any]] = []

    def cut(request: httpx.Request) -> httpx.Response:
        sent.append(json.loads(request.content))
        raise httpx.ReadError("cut", request=request)

    async def main() -> tuple[Measure, Seat]:
        measure = _measure()
        seat = _seat(measure, cut)
        seat.latest = VIEW
        seat.maybe_move()
        await _moves_over(seat)
        # The same view again (a push that changes nothing for this seat).
        seat.maybe_move()
        await _moves_over(seat)
        await seat.http.aclose()
        return measure, seat

    measure, seat = asyncio.run(main())
    assert len(sent) == 1 and sent[0]["turn"] == 2
    assert measure.failed == {"ReadError: cut": 1}
    assert not measure.refused and not measure.seen_moves
    assert seat.game is not None and not seat.game.sent
    assert not seat.busy and seat.decided_on == 3


def test_no_move_starts_once_the_window_has_ended() -> None:
    sent: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(200, json={"version": 4})

    async def main() -> tuple[Measure, Seat]:
        measure = _measure()
        seat = _seat(measure, answer)
        measure.stopping = True
        seat.latest = VIEW
        seat.maybe_move()
        await _moves_over(seat)
        await seat.http.aclose()
        return measure, seat

    measure, seat = asyncio.run(main())
    assert not sent and not seat.busy and not measure.failed
