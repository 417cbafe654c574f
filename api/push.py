"""Telling the sockets a token opened that it was revoked (they close themselves)."""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

from api.payloads import token_group

logger = logging.getLogger(__name__)


def token_revoked_on_commit(token_id: int) -> None:
    def send() -> None:
        layer = get_channel_layer()
        if layer is None:
            return
        try:
            async_to_sync(layer.group_send)(
                token_group(token_id), {"type": "token.revoked"}
            )
        except Exception:
            # The row is gone already: the next connection with this key fails.
            logger.exception("telling token %s's sockets it was revoked", token_id)

    transaction.on_commit(send)
