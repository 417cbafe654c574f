"""Site-wide WebSocket plumbing: the base every consumer builds on.

Every frame passes the base's checks before a subclass sees it, cheapest first, and
no frame can crash a socket:

1. the socket's own token bucket (``WEBSOCKET_FRAME_RATE`` frames a second, bursts of
   ``WEBSOCKET_FRAME_BURST``): no I/O at all, so a client flooding its socket costs
   the server almost nothing and never reaches the database;
2. the frame's shape: text only (a binary frame is refused), at most
   ``MAX_FRAME_CHARS`` characters, and no NUL character (PostgreSQL cannot store one;
   raw or written as the JSON escape);
3. the user's allowance over all their sockets (``WEBSOCKET_USER_FRAMES`` per
   ``WEBSOCKET_USER_WINDOW`` seconds), counted in the shared cache with its atomic
   ``incr``, so opening more sockets does not multiply it. If the cache is down the
   per-socket bucket alone applies. An in-process cache (the default run's) is
   counted right on the event loop; a shared one from a worker thread.

A refused frame is answered with one error frame (the first of a run of rate-limited
frames only; a client that keeps flooding is closed with 4429) in the socket's own
format: the API's ``{"type": "error", "code", "message"}`` when ``json_mode`` is set,
else the page's error fragment (``error_template``, swapped in out of band by htmx).
Then, for the HTML path, ``receive`` decodes JSON safely (invalid JSON, or nesting
deeper than ``MAX_DEPTH``, is answered, not raised). An exception escaping a
subclass's handler is logged and answered with a ``server_error`` frame: the socket
stays open and the state is whatever the last committed transaction left.

Every frame a consumer writes, whatever wrote it (an answer, a push, a redraw, a
relayed voice signal, a handler of a channel layer message), passes one guard
(``AuthenticatedConsumer.to_client``, the ``send`` Channels is given): a frame to a
socket that has gone away meanwhile (``socket_gone``: the server refuses the write)
is dropped, logged at debug; never raised, so it neither ends the consumer with an
error nor cuts short what it was doing, and never mistaken for a fault. Any other
failure to write is raised, and logged with its traceback where it is handled.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from asgiref.sync import sync_to_async
from channels.consumer import get_handler_name
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.core.cache import cache, caches
from django.core.cache.backends.dummy import DummyCache
from django.core.cache.backends.locmem import LocMemCache
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext

from games.errors import GameError
from live import requests as errors
from live.requests import error_json

logger = logging.getLogger(__name__)

# Close codes: 4000-4999 are free for applications; each echoes an HTTP status.
CLOSE_BAD_REQUEST = 4400
CLOSE_UNAUTHENTICATED = 4401
CLOSE_FLOODING = 4429
# The channel layer (Redis) cannot be reached: the socket is accepted and closed at
# once with this code, and the page tries again after a pause (docs/live.md).
CLOSE_UNAVAILABLE = 4503

MAX_FRAME_CHARS = 16 * 1024
MAX_DEPTH = 16
# After this many rate-limited frames in a row the client is not slowing down.
FLOOD_CLOSE_AFTER = 200

_NUL = "\x00"
_JSON_NUL = re.compile(r"(?<!\\)(?:\\\\)*\\u0000")

# The clocks the buckets fill by and the users' windows are counted by; tests
# replace them to stop time.
clock: Callable[[], float] = time.monotonic
wall_clock: Callable[[], float] = time.time


@dataclass
class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved up; a frame takes one."""

    rate: float
    burst: float
    tokens: float
    stamp: float

    @classmethod
    def full(cls, rate: float, burst: float) -> TokenBucket:
        return cls(rate=rate, burst=burst, tokens=burst, stamp=clock())

    def take(self) -> bool:
        now = clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


def layer_unreachable(exc: BaseException) -> bool:
    """Whether ``exc`` says the channel layer's server cannot be reached now (a
    refused or lost connection, a time-out), rather than a fault in the code."""
    if isinstance(exc, ConnectionError | TimeoutError | OSError):
        return True
    try:
        import redis.exceptions
    except ImportError:  # pragma: no cover - redis is always installed
        return False
    return isinstance(
        exc, redis.exceptions.ConnectionError | redis.exceptions.TimeoutError
    )


def socket_gone(exc: BaseException) -> bool:
    """Whether ``exc``, raised by writing a frame, says the client's socket has gone
    away: daphne refuses a write to a socket that is closing (either end closed it,
    and its disconnect has not reached the consumer yet) with autobahn's
    ``Disconnected``. Anything else is a fault, not a goodbye."""
    try:
        from autobahn.exception import Disconnected
    except ImportError:  # pragma: no cover - daphne always brings it
        return False
    return isinstance(exc, Disconnected)


def fault_in(exc: BaseException) -> BaseException | None:
    """The fault in ``exc`` and what was being handled when it was raised: the first
    exception of that chain that is neither a socket gone (``socket_gone``) nor a
    refusal being answered (a player's ``GameError``, a frame's ``RequestError``);
    None when the chain is only a goodbye met while answering."""
    seen: set[int] = set()
    link: BaseException | None = exc
    while link is not None and id(link) not in seen:
        seen.add(id(link))
        if not socket_gone(link) and not isinstance(
            link, errors.RequestError | GameError
        ):
            return link
        link = link.__cause__ or link.__context__
    return None


def has_nul(text: str) -> bool:
    """A NUL, raw or as the JSON escape (after an even run of backslashes)."""
    return _NUL in text or _JSON_NUL.search(text) is not None


def route_has_nul(scope: dict[str, Any]) -> bool:
    kwargs = (scope.get("url_route") or {}).get("kwargs") or {}
    texts = [scope.get("path") or "", *(str(value) for value in kwargs.values())]
    query = scope.get("query_string") or b""
    return any(_NUL in text for text in texts) or b"%00" in query.lower()


def depth_of(value: Any, limit: int) -> int:
    """How deeply ``value`` nests lists and objects, counted up to ``limit + 1``."""
    deepest = 0
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if not isinstance(item, dict | list):
            continue
        deepest = max(deepest, depth)
        if deepest > limit:
            return deepest
        children = item.values() if isinstance(item, dict) else item
        stack.extend((child, depth + 1) for child in children)
    return deepest


def decode_frame(text_data: str | None) -> Any:
    """A text frame's JSON, strictly (duplicate keys, NaN and Infinity refused, as
    for the API); raises the ``RequestError`` to answer with."""
    if text_data is None:
        raise errors.BinaryFrame
    if len(text_data) > MAX_FRAME_CHARS:
        raise errors.BodyTooLarge(limit=MAX_FRAME_CHARS)
    try:
        content = json.loads(
            text_data,
            object_pairs_hook=errors.no_duplicate_keys,
            parse_constant=errors.no_constants,
        )
    except errors.DuplicateKey as exc:
        reason = gettext("the key “%(key)s” appears twice") % {"key": exc.args[0]}
        raise errors.InvalidJson(reason=reason) from None
    except errors.LoneSurrogate:
        raise errors.InvalidJson(reason=errors.LONE_SURROGATE) from None
    except (ValueError, RecursionError):
        raise errors.InvalidJson(reason=gettext("it is not valid JSON")) from None
    if depth_of(content, MAX_DEPTH) > MAX_DEPTH:
        raise errors.TooDeep(limit=MAX_DEPTH)
    return content


def _user_frame_allowed(user_id: int) -> bool:
    """Count one frame against the user's allowance in the shared cache (fixed
    windows; ``incr``, and ``add`` only for a window's first frame, both atomic in
    Redis: one step for every frame but the first, where adding first made every
    frame two). A cache that cannot be reached allows the frame: the per-socket
    bucket still holds."""
    window = settings.WEBSOCKET_USER_WINDOW
    key = f"ws-frames:{user_id}:{int(wall_clock() // window)}"
    try:
        count = _count_frame(key, window * 2)
    except Exception:
        logger.warning("websocket frame count: cache unreachable", exc_info=True)
        return True
    return count <= settings.WEBSOCKET_USER_FRAMES


async def _user_frame_counted(user_id: int) -> bool:
    """``_user_frame_allowed`` from the event loop. The default run's cache lives in
    this process (a dictionary under a lock: no I/O), so it is counted right here;
    the hop to a worker thread and back cost a third of a millisecond of every move
    sent over a socket, before the move's own hop to the database thread. A shared
    cache (Redis) answers over the network, so it is asked from a worker thread and
    the loop serves other sockets meanwhile."""
    if isinstance(caches["default"], LocMemCache | DummyCache):
        return _user_frame_allowed(user_id)
    return await sync_to_async(_user_frame_allowed, thread_sensitive=False)(user_id)


def _count_frame(key: str, timeout: int) -> int:
    for _ in range(3):
        try:
            return int(cache.incr(key))
        except ValueError:  # the window's first frame
            if cache.add(key, 1, timeout=timeout):
                return 1
            # Another socket of the user's added it meanwhile: count on it.
    raise RuntimeError("the frame count kept disappearing")


class AuthenticatedConsumer(AsyncJsonWebsocketConsumer):
    """Accepts logged-in users only; anonymous sockets are closed before acceptance,
    and so is a socket the subclass's ``admit`` refuses, or whose address holds a
    NUL character (4400)."""

    # Whether the socket speaks JSON to a program (True) or HTML fragments to a page.
    json_mode = False
    # The page's error region, replaced out of band by htmx's ws extension.
    error_template = "games/_error.html"

    bucket: TokenBucket
    refused_in_a_row = 0
    accepted = False
    # The server's own ``send``, behind ``to_client``.
    server_send: Callable[[dict[str, Any]], Any]

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """Channels' loop over the client's and the layer's messages, writing
        through ``to_client``. A layer that cannot be reached (Redis down, on
        connect or later) ends the socket with ``CLOSE_UNAVAILABLE``, not an error
        close (1011) the page cannot tell from a bug: accepted first if it was not,
        so the code reaches the client."""
        self.server_send = send
        try:
            await super().__call__(scope, receive, self.to_client)
        except Exception as exc:
            if not layer_unreachable(exc):
                raise
            logger.warning(
                "websocket closed: channel layer unreachable (%s): %s",
                type(exc).__name__,
                scope.get("path"),
            )
            try:
                if not self.accepted:
                    await send({"type": "websocket.accept"})
                await send({"type": "websocket.close", "code": CLOSE_UNAVAILABLE})
            except Exception:
                logger.info("the client left before the socket was closed")
            try:
                await self.disconnect(CLOSE_UNAVAILABLE)
            except Exception as error:
                if not layer_unreachable(error):
                    raise

    async def to_client(self, message: dict[str, Any]) -> None:
        """The one way out to the client: every message a consumer sends (``send``,
        ``send_json``, ``accept``, ``close``) comes here. A frame the server refuses
        because the socket has gone (either end closed it, and its disconnect has
        not reached the consumer yet) is dropped and logged at debug: nobody is
        left to read it, and the disconnect that follows ends the consumer. Any
        other failure is raised."""
        try:
            await self.server_send(message)
        except Exception as exc:
            if message.get("type") != "websocket.send" or not socket_gone(exc):
                raise
            self.log_gone(exc)

    async def accept(self, subprotocol: Any = None, headers: Any = None) -> None:
        await super().accept(subprotocol, headers)
        self.accepted = True

    async def connect(self) -> None:
        if route_has_nul(self.scope):
            await self.close(code=CLOSE_BAD_REQUEST)
            return
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        if not await self.admit():
            return
        self.bucket = TokenBucket.full(
            settings.WEBSOCKET_FRAME_RATE, settings.WEBSOCKET_FRAME_BURST
        )
        await self.accept()
        await self.on_connect()

    async def dispatch(self, message: dict[str, Any]) -> None:
        """A message to its handler, as Channels does, without Channels' hop to a
        thread to close stale database connections before every message: every
        consumer here reaches the database only through ``database_sync_to_async``,
        which closes them itself around each call, and a table's push answered from
        its snapshot touches no database at all. (The hops were ten a move, one per
        seat, each waiting in line behind the move's own database thread: most of
        the time between a move's commit and its first push.)"""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def admit(self) -> bool:
        """Hook for subclasses, before acceptance: return False after closing the
        socket with a code of your own to refuse it."""
        return True

    async def on_connect(self) -> None:
        """Hook for subclasses, called after the socket is accepted."""

    # Every frame, before any subclass -----------------------------------------

    async def websocket_receive(self, message: dict[str, Any]) -> None:
        refusal = self.frame_refusal(message)
        if refusal is None and not await _user_frame_counted(self.scope["user"].pk):
            refusal = errors.RateLimited()
        if refusal is not None:
            await self.refuse(refusal)
            return
        self.refused_in_a_row = 0
        try:
            await super().websocket_receive(message)
        except Exception as exc:
            if fault_in(exc) is None:
                # A socket gone, met some way other than a write (``to_client``
                # drops those): nothing is wrong, and there is nobody to tell. (A
                # fault being handled when it was met is logged below, with the
                # whole chain.)
                self.log_gone(exc)
                return
            logger.exception("websocket frame failed: %s", self.scope.get("path"))
            await self.answer(errors.ServerError())

    def frame_refusal(self, message: dict[str, Any]) -> errors.RequestError | None:
        """Why this frame is refused before anything reads it, or None."""
        if not hasattr(self, "bucket") or not self.bucket.take():
            return errors.RateLimited()
        text = message.get("text")
        if text is None:
            return errors.BinaryFrame()
        if len(text) > MAX_FRAME_CHARS:
            return errors.BodyTooLarge(limit=MAX_FRAME_CHARS)
        if has_nul(text):
            return errors.ForbiddenCharacter()
        return None

    async def refuse(self, refusal: errors.RequestError) -> None:
        """Answer a refused frame; once per run of rate-limited frames, and a
        client that will not slow down is closed."""
        self.refused_in_a_row += 1
        if isinstance(refusal, errors.RateLimited):
            if self.refused_in_a_row > FLOOD_CLOSE_AFTER:
                await self.close(code=CLOSE_FLOODING)
                return
            if self.refused_in_a_row > 1:
                return
        await self.answer(refusal)

    async def answer(self, exc: errors.RequestError) -> None:
        """``send_error``: to a socket that has gone meanwhile, nothing
        (``to_client``). Any other failure, rendering the frame included, is
        raised."""
        await self.send_error(exc)

    def log_gone(self, exc: BaseException) -> None:
        logger.debug(
            "websocket frame dropped, the socket has gone (%s): %s",
            type(exc).__name__,
            self.scope.get("path"),
        )

    async def send_error(self, exc: errors.RequestError) -> None:
        """One error frame in the socket's own format and language."""
        with translation.override(self.error_language()):
            if self.json_mode:
                await self.send_json({"type": "error", **error_json(exc)})
            else:
                html = render_to_string(
                    self.error_template, {"error": str(exc), "oob": True}
                )
                await self.send(text_data=html)

    def error_language(self) -> str:
        """The language the subclass speaks to this socket (``language``, set on
        connect), else the site's default."""
        return getattr(self, "language", "") or settings.LANGUAGE_CODE

    async def receive(
        self,
        text_data: str | None = None,
        bytes_data: bytes | None = None,
        **kwargs: Any,
    ) -> None:
        """Decode the frame's JSON safely, then hand it to ``receive_json``."""
        try:
            with translation.override(self.error_language()):
                content = decode_frame(text_data)
        except errors.RequestError as exc:
            await self.answer(exc)
            return
        await self.receive_json(content, **kwargs)


class PingConsumer(AuthenticatedConsumer):
    """The skeleton endpoint: answers a ping with a pong naming the user."""

    json_mode = True

    async def on_connect(self) -> None:
        await self.send_json({"type": "hello", "user": self.scope["user"].display_name})

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if isinstance(content, dict) and content.get("type") == "ping":
            await self.send_json({"type": "pong"})
        else:
            await self.send_json({"type": "error", "error": "unknown message"})
