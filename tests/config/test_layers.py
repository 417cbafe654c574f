"""The default run's channel layer (config.layers) keeps the in-memory layer's
contract: each group member gets the message once, in its own copy; a full queue
drops it for that member only; what expired is never delivered; expired members
leave their groups. It walks for expired things at most once a second."""

from __future__ import annotations

import asyncio

import pytest
from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer

from config import layers
from config.layers import LocalChannelLayer

pytestmark = pytest.mark.asyncio


async def members(layer: LocalChannelLayer, group: str, count: int) -> list[str]:
    names = [await layer.new_channel() for _ in range(count)]
    for name in names:
        await layer.group_add(group, name)
    return names


async def test_the_site_runs_on_it_without_redis() -> None:
    from django.conf import settings as site

    if "redis" in site.CHANNEL_LAYERS["default"]["BACKEND"].lower():
        pytest.skip("this run uses Redis")
    from channels.layers import get_channel_layer

    assert isinstance(get_channel_layer(), LocalChannelLayer)


async def test_each_member_gets_the_message_once_in_its_own_copy() -> None:
    layer = LocalChannelLayer()
    names = await members(layer, "table-1", 3)
    outsider = await layer.new_channel()
    sent = {"type": "table.changed", "version": 7, "status": "playing"}
    await layer.group_send("table-1", sent)
    got = [await layer.receive(name) for name in names]
    assert got == [sent] * 3
    got[0]["version"] = 99  # one receiver's change reaches nobody else
    assert got[1]["version"] == 7 and sent["version"] == 7
    assert len({id(message) for message in got}) == 3
    for name in names:  # nothing else is waiting for them
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(layer.receive(name), 0.05)
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(layer.receive(outsider), 0.05)


async def test_a_nested_message_is_deep_copied() -> None:
    layer = LocalChannelLayer()
    first, second = await members(layer, "g", 2)
    await layer.group_send("g", {"type": "x", "seats": [1, 2]})
    one, two = await layer.receive(first), await layer.receive(second)
    one["seats"].append(3)
    assert two["seats"] == [1, 2]


async def test_a_full_queue_drops_the_message_for_that_member_only() -> None:
    layer = LocalChannelLayer(capacity=2)
    slow, quick = await members(layer, "g", 2)
    for number in range(2):
        await layer.group_send("g", {"type": "x", "n": number})
    assert (await layer.receive(quick))["n"] == 0
    assert (await layer.receive(quick))["n"] == 1
    await layer.group_send("g", {"type": "x", "n": 2})  # slow's queue is full
    assert (await layer.receive(quick))["n"] == 2
    assert [(await layer.receive(slow))["n"] for _ in range(2)] == [0, 1]
    await layer.send(slow, {"type": "x"})
    await layer.send(slow, {"type": "x"})
    with pytest.raises(ChannelFull):
        await layer.send(slow, {"type": "x"})


async def test_what_expired_is_not_delivered_and_its_channel_leaves_its_groups() -> (
    None
):
    layer = LocalChannelLayer(expiry=0.01)
    gone, alive = await members(layer, "g", 2)
    await layer.group_send("g", {"type": "x", "n": 1})
    assert (await layer.receive(alive))["n"] == 1
    await asyncio.sleep(0.05)  # gone's copy has expired
    layer._cleaned = -layers.CLEAN_EVERY  # and a walk is due
    layer.expiry = 60
    # The walk drops the expired message and the member that never took it, as
    # Channels' own layer does.
    await layer.group_send("g", {"type": "x", "n": 2})
    assert gone not in layer.groups["g"]
    assert (await layer.receive(alive))["n"] == 2
    with pytest.raises(asyncio.TimeoutError):
        await asyncio.wait_for(layer.receive(gone), 0.05)


async def test_a_message_that_expired_between_walks_is_dropped_when_taken(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(layers, "clock", lambda: 5.0)
    layer = LocalChannelLayer(expiry=0.01)
    (name,) = await members(layer, "g", 1)
    layer._cleaned = 5.0  # no walk is due
    await layer.send(name, {"type": "x", "n": 1})
    await asyncio.sleep(0.05)
    layer.expiry = 60
    await layer.send(name, {"type": "x", "n": 2})
    assert (await layer.receive(name))["n"] == 2


async def test_the_walk_for_expired_things_runs_at_most_once_a_second(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    walks = []
    real = InMemoryChannelLayer._clean_expired

    def counting(self: InMemoryChannelLayer) -> None:
        walks.append(1)
        real(self)

    monkeypatch.setattr(InMemoryChannelLayer, "_clean_expired", counting)
    clock = [100.0]
    monkeypatch.setattr(layers, "clock", lambda: clock[0])
    layer = LocalChannelLayer()
    names = await members(layer, "g", 10)
    for _ in range(5):
        await layer.group_send("g", {"type": "x"})
        for name in names:
            await layer.receive(name)
    assert len(walks) == 1  # 55 calls within the same second
    clock[0] += 1.5
    await layer.group_send("g", {"type": "x"})
    assert len(walks) == 2
