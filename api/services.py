"""The only code that writes API tokens."""

from __future__ import annotations

from dataclasses import dataclass

from accounts.models import User
from api import push
from api.models import ApiToken
from api.tokens import key_digest, key_new, key_prefix


@dataclass(frozen=True)
class IssuedToken:
    """A token just made, with its plain key: the only time anyone sees it."""

    token: ApiToken
    key: str


def token_create(*, user: User, name: str = "") -> IssuedToken:
    key = key_new()
    token = ApiToken.objects.create(
        user=user, name=name.strip(), prefix=key_prefix(key), key_hash=key_digest(key)
    )
    return IssuedToken(token=token, key=key)


def token_revoke(*, token: ApiToken) -> None:
    """Delete the token and close the sockets it opened: a revoked key stops
    receiving a seat's view at once, not at its next reconnect."""
    token_id = token.pk
    ApiToken.objects.filter(pk=token_id).delete()
    push.token_revoked_on_commit(token_id)
