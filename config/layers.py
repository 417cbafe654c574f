"""The channel layer of the default run (one process, no Redis): Channels' in-memory
layer, with the same messages, capacities, expiries and groups, for less work per
message.

Channels' own in-memory layer, on every ``receive`` and every ``group_send``, walks
every queued message and every group member of the process to drop the expired ones,
deep-copies each message for each receiver, and sends to a group's members through
one task each. At a table of ten that is a walk of the whole process's sockets ten
times a move and eleven tasks and ten deep copies per move; with many tables open
it grows with their number. Here:

- expired messages and group members are dropped at most once a second (what
  expires is a minute or a day old, so a second's delay in dropping it changes
  nothing a socket sees: a message that old is dropped as it is taken, below);
- a message made only of plain values (the group messages the site sends: a type, a
  version, a status) is copied as a dictionary, which is all a deep copy of it does;
- a group send puts the message in each member's queue directly, as ``send`` does,
  with no task in between (a full queue drops it for that member only, as before).

Redis deployments use channels_redis, untouched (config.settings)."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import time
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer

CLEAN_EVERY = 1.0
"""Seconds between two walks for expired messages and group members."""

# The clock the walks are spaced by; tests replace it.
clock = time.monotonic

_PLAIN = (str, int, float, bool, type(None), bytes)


def _copy(message: dict[str, Any]) -> dict[str, Any]:
    """What a receiver gets: its own copy, so that nothing it changes in it reaches
    another receiver or the sender."""
    if all(type(value) in _PLAIN for value in message.values()):
        return dict(message)
    return copy.deepcopy(message)


class LocalChannelLayer(InMemoryChannelLayer):  # type: ignore[misc]
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._cleaned = -CLEAN_EVERY

    def _clean_expired(self) -> None:
        now = clock()
        if now - self._cleaned < CLEAN_EVERY:
            return
        self._cleaned = now
        super()._clean_expired()

    def _queue(self, channel: str) -> asyncio.Queue[Any]:
        queue = self.channels.get(channel)
        if queue is None:
            queue = self.channels[channel] = asyncio.Queue(
                maxsize=self.get_capacity(channel)
            )
        return queue

    def _put(self, channel: str, message: dict[str, Any]) -> None:
        queue = self._queue(channel)
        try:
            queue.put_nowait((time.time() + self.expiry, _copy(message)))
        except asyncio.QueueFull:
            raise ChannelFull(channel) from None

    async def send(self, channel: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "message is not a dict"
        self.require_valid_channel_name(channel)
        assert "__asgi_channel__" not in message
        self._put(channel, message)

    async def receive(self, channel: str) -> dict[str, Any]:
        self.require_valid_channel_name(channel)
        self._clean_expired()
        queue = self._queue(channel)
        try:
            while True:
                expires, message = await queue.get()
                # Expired while it waited for a walk: dropped as the walk would.
                if expires >= time.time():
                    break
        finally:
            if queue.empty() and self.channels.get(channel) is queue:
                del self.channels[channel]
        result: dict[str, Any] = message
        return result

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, ())):
            # A full queue drops the message for that member only.
            with contextlib.suppress(ChannelFull):
                self._put(channel, message)
