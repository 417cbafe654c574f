"""Real finished games for the history tests, written through ``games.services``.

A test names its players and the roles it needs (``roles={"ann": "evil"}``, or a role
code such as ``"scout"``) and who leads first; :func:`deal` finds a seed that deals
exactly that and starts the table with it, so every row in the database is what a
live game writes and the expected numbers can be worked out by hand.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from unittest import mock

from accounts.models import User
from games import engine, services
from games.models import Game
from games.state import load_state
from tests.factories import UserFactory

SEAT_SHUFFLE = 0x5EA75
"""games.services.game_start shuffles the seats with Random(seed ^ this)."""


def player(username: str) -> User:
    user = User.objects.filter(username=username).first()
    if user is None:
        user = UserFactory(username=username, display_name=username.capitalize())
    return user


def _deal_matches(
    names: Sequence[str],
    ruleset: str,
    options: Mapping[str, Any],
    seed: int,
    roles: Mapping[str, str],
    leader: str | None,
    in_order: bool,
) -> bool:
    order = _shuffled(names, seed)
    if in_order and order != list(names):
        return False
    state = engine.setup(engine.GameSetup(ruleset, len(names), dict(options), seed))
    if leader is not None and order[engine.view(state, None)["leader"]] != leader:
        return False
    for name, wanted in roles.items():
        me = engine.view(state, order.index(name))["me"]
        if wanted not in (me["side"], me["role"]):
            return False
    return True


def find_seed(
    names: Sequence[str],
    ruleset: str,
    options: Mapping[str, Any],
    roles: Mapping[str, str],
    leader: str | None,
    in_order: bool = False,
) -> int:
    """The first seed that deals ``roles``, makes ``leader`` lead first and (with
    ``in_order``) seats the players in the order of ``names``. Remembered: the
    search can take a second and fixtures ask the same question in every test."""
    key = (
        tuple(names),
        ruleset,
        tuple(sorted(options.items())),
        tuple(sorted(roles.items())),
        leader,
        in_order,
    )
    if key not in _SEEDS:
        _SEEDS[key] = next(
            (
                seed
                for seed in range(500_000)
                if _deal_matches(names, ruleset, options, seed, roles, leader, in_order)
            ),
            -1,
        )
    if _SEEDS[key] < 0:
        raise AssertionError("no seed deals these roles")
    return _SEEDS[key]


_SEEDS: dict[tuple[Any, ...], int] = {}


@dataclass
class Table:
    """A started game and its players by username."""

    game: Game
    users: dict[str, User]

    def refresh(self) -> Game:
        self.game.refresh_from_db()
        return self.game

    @property
    def position(self) -> dict[str, int]:
        seats = self.game.seats.select_related("user")
        return {seat.user.username: seat.position for seat in seats}

    def name_at(self, position: int) -> str:
        return next(name for name, pos in self.position.items() if pos == position)

    def public(self) -> dict[str, Any]:
        return engine.view(load_state(self.refresh()), None)

    def state(self) -> Any:
        return load_state(self.refresh())

    def act(self, name: str, action: Mapping[str, Any]) -> None:
        game = self.refresh()
        services.game_act(
            game=game, user=self.users[name], action=dict(action), turn=game.turn
        )

    @property
    def leader(self) -> str:
        return self.name_at(self.public()["leader"])

    def propose(self, team: Iterable[str]) -> None:
        where = self.position
        self.act(
            self.leader, {"type": "propose", "team": sorted(where[n] for n in team)}
        )

    def vote(self, rejecting: Iterable[str] = ()) -> None:
        """Every voter votes: approve, except the names in ``rejecting``."""
        against = set(rejecting)
        for position in self.public()["voters"]:
            name = self.name_at(position)
            self.act(name, {"type": "vote", "approve": name not in against})

    def play(self, failing: Iterable[str] = ()) -> None:
        """Every team member plays: fail for the names in ``failing``."""
        fails = set(failing)
        for position in self.public()["play"]["team"]:
            name = self.name_at(position)
            card = "fail" if name in fails else "success"
            self.act(name, {"type": "play", "card": card})

    def mission(
        self,
        team: Iterable[str],
        *,
        failing: Iterable[str] = (),
        rejecting: Iterable[str] = (),
    ) -> None:
        """The current leader proposes ``team``, it is approved, and played."""
        self.propose(team)
        self.vote(rejecting)
        self.play(failing)

    def rejected(self, team: Iterable[str], rejecting: Iterable[str]) -> None:
        self.propose(team)
        self.vote(rejecting)

    def check(self, target: str, claim: str) -> None:
        holder = self.name_at(self.public()["token"]["holder"])
        self.act(holder, {"type": "check", "target": self.position[target]})
        self.act(holder, {"type": "claim", "side": claim})

    def shoot(self, sniper: str, target: str) -> None:
        self.act(sniper, {"type": "shoot", "target": self.position[target]})

    def abandon(self) -> None:
        services.game_abandon(game=self.refresh(), user=self.game.host)

    def finish_randomly(self, rng: random.Random, *, limit: int = 2_000) -> None:
        """Random legal moves through the services until the game is over."""
        for _ in range(limit):
            state = self.state()
            if engine.outcome(state) is not None:
                return
            seat, action = engine.random_action(state, rng)
            self.act(self.name_at(seat), action)
        raise AssertionError("the game did not end")


def deal(
    ruleset: str,
    names: Sequence[str],
    *,
    roles: Mapping[str, str] | None = None,
    leader: str | None = None,
    options: Mapping[str, Any] | None = None,
    private: bool = False,
    name: str = "",
    in_order: bool = False,
) -> Table:
    """Seat ``names`` (the first hosts) and start with a seed that deals ``roles``
    and makes ``leader`` the first leader; ``in_order`` seats them in that order,
    so the leadership goes round the list as written."""
    users = {username: player(username) for username in names}
    host = users[names[0]]
    game = services.game_create(
        host=host,
        ruleset=ruleset,
        seat_count=len(names),
        options=dict(options or {}),
        is_private=private,
        name=name,
    )
    for username in names[1:]:
        services.seat_join(game=game, user=users[username])
    game.refresh_from_db()
    seed = find_seed(names, ruleset, game.options, roles or {}, leader, in_order)
    with mock.patch("games.services.secrets.randbits", return_value=seed):
        services.game_start(game=game, user=host)
    table = Table(game=game, users=users)
    assert all(table.position[n] == i for i, n in enumerate(_shuffled(names, seed)))
    return table


def _shuffled(names: Sequence[str], seed: int) -> list[str]:
    order = list(names)
    random.Random(seed ^ SEAT_SHUFFLE).shuffle(order)
    return order


FIVE = ["ann", "bob", "cat", "dan", "eve"]


def random_game(
    ruleset: str,
    players: int,
    seed: int,
    *,
    options: Mapping[str, Any] | None = None,
    private: bool = False,
) -> Table:
    """A complete game of random legal moves, for properties over whole games."""
    names = [f"p{seed}_{i}" for i in range(players)]
    table = deal(ruleset, names, options=options, private=private)
    table.finish_randomly(random.Random(seed))
    return table
