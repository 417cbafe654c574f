"""Writing ratings: a counted game's result into its players' ratings, once; a
voided game's result back out of them; a fresh computation from every counted game.

The arithmetic is ``clubs.rating`` (openskill); this module loads and stores. All
rating writes of a game family hold that family's :class:`RatingLedger` row lock, so
games are rated one at a time in one order (``RatedGame.number``), and a
recomputation can rewind to any game and replay the ones after it. The unique
``RatedGame`` row per game, checked under that lock, is what makes a retried or
doubled finish rate a game exactly once.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Q, QuerySet

from clubs.families import family_of_ruleset
from clubs.models import (
    ClubTable,
    PlayerRating,
    RatedGame,
    RatingChange,
    RatingLedger,
    SideRating,
)
from clubs.rating import Book, GameResult, Rated, SeatResult, SideKey, Skill
from games.models import Game, Seat


@dataclass(frozen=True)
class Finished:
    result: GameResult
    finished_at: dt.datetime


# --- the finish hook ---------------------------------------------------------------


def game_finished(game: Game) -> None:
    """``games.hooks.finish_hooks``: inside the transaction that ends ``game``. A
    season's table now counts for its season, and its result goes into the
    ratings."""
    table = (
        ClubTable.objects.filter(game_id=game.pk, season__isnull=False)
        .only("pk", "counted", "voided_at")
        .first()
    )
    if table is None or table.voided_at is not None:
        return
    if not table.counted:
        ClubTable.objects.filter(pk=table.pk).update(counted=True)
    rating_game_rate(game=game)


def counted_games(family: str) -> QuerySet[ClubTable]:
    """The club tables whose games count in ``family``'s ratings."""
    return ClubTable.objects.filter(
        season__family=family,
        counted=True,
        voided_at__isnull=True,
        game__status=Game.Status.FINISHED,
    )


# --- loading -----------------------------------------------------------------------


def _ledger(family: str) -> RatingLedger:
    """The family's ledger row, locked until the transaction ends."""
    RatingLedger.objects.get_or_create(family=family)
    return RatingLedger.objects.select_for_update().get(family=family)


def _finished(seats: QuerySet[Seat]) -> dict[int, Finished]:
    """Results of the games behind ``seats``, by game id: one query."""
    rows = seats.order_by("game_id", "position", "pk").values_list(
        "game_id", "user_id", "side", "won",
        "game__ruleset", "game__seat_count", "game__finished_at",
    )  # fmt: skip
    grouped: dict[int, tuple[list[SeatResult], tuple[str, int, dt.datetime]]] = {}
    for game_id, user_id, side, won, ruleset, players, finished_at in rows:
        entry = grouped.setdefault(game_id, ([], (ruleset, players, finished_at)))
        entry[0].append(SeatResult(user_id=user_id, side=side, won=bool(won)))
    return {
        game_id: Finished(
            result=GameResult(
                game_id=game_id,
                ruleset=ruleset,
                players=players,
                seats=tuple(seat_results),
            ),
            finished_at=finished_at,
        )
        for game_id, (seat_results, (ruleset, players, finished_at)) in grouped.items()
    }


def _side_key_text(key: SideKey) -> str:
    return f"{key[0]}|{key[1]}|{key[2]}"


def _side_key(text: str) -> SideKey:
    ruleset, players, side = text.split("|")
    return (ruleset, int(players), side)


def _load_book(family: str, user_ids: Iterable[int], keys: Iterable[SideKey]) -> Book:
    book = Book()
    for rating in PlayerRating.objects.filter(family=family, user_id__in=set(user_ids)):
        book.players[rating.user_id] = Skill(rating.mu, rating.sigma)
        book.games[rating.user_id] = rating.games
    keys = set(keys)
    if keys:
        condition = Q()
        for ruleset, players, side in keys:
            condition |= Q(ruleset=ruleset, players=players, side=side)
        for side_rating in SideRating.objects.filter(condition):
            key = (side_rating.ruleset, side_rating.players, side_rating.side)
            book.sides[key] = Skill(side_rating.mu, side_rating.sigma)
            book.side_games[key] = side_rating.games
    return book


# --- storing -----------------------------------------------------------------------


def _sides_json(rated: Rated) -> dict[str, Any]:
    return {
        _side_key_text(key): {
            "before": [before.mu, before.sigma],
            "after": [after.mu, after.sigma],
        }
        for key, (before, after) in rated.sides.items()
    }


def _changes(
    family: str, rated_game: RatedGame, rated: Rated, at: dt.datetime
) -> list[RatingChange]:
    return [
        RatingChange(
            rated_game=rated_game,
            user_id=user_id,
            family=family,
            number=rated_game.number,
            won=won,
            mu_before=before.mu,
            sigma_before=before.sigma,
            mu=after.mu,
            sigma=after.sigma,
            ordinal=after.ordinal,
            at=at,
        )
        for user_id, (before, after, won) in sorted(rated.players.items())
    ]


def _store_book(
    family: str, book: Book, user_ids: Iterable[int], keys: Iterable[SideKey]
) -> None:
    """Write the book's ratings of ``user_ids`` and ``keys``; a player or side left
    with no rated game has no rating row (as in a fresh computation)."""
    user_ids, keys = set(user_ids), set(keys)
    existing = {
        rating.user_id: rating
        for rating in PlayerRating.objects.filter(family=family, user_id__in=user_ids)
    }
    to_update, to_create, to_delete = [], [], []
    for user_id in sorted(user_ids):
        games = book.games.get(user_id, 0)
        row = existing.get(user_id)
        if games == 0:
            if row is not None:
                to_delete.append(row.pk)
            continue
        skill = book.players[user_id]
        fields = {
            "mu": skill.mu,
            "sigma": skill.sigma,
            "ordinal": skill.ordinal,
            "games": games,
        }
        if row is None:
            to_create.append(PlayerRating(user_id=user_id, family=family, **fields))
        else:
            for name, value in fields.items():
                setattr(row, name, value)
            to_update.append(row)
    PlayerRating.objects.filter(pk__in=to_delete).delete()
    PlayerRating.objects.bulk_create(to_create, batch_size=500)
    PlayerRating.objects.bulk_update(
        to_update, ["mu", "sigma", "ordinal", "games"], batch_size=500
    )
    for key in sorted(keys):
        ruleset, players, side = key
        games = book.side_games.get(key, 0)
        rows = SideRating.objects.filter(ruleset=ruleset, players=players, side=side)
        if games == 0:
            rows.delete()
            continue
        skill = book.sides[key]
        SideRating.objects.update_or_create(
            ruleset=ruleset,
            players=players,
            side=side,
            defaults={
                "family": family,
                "mu": skill.mu,
                "sigma": skill.sigma,
                "games": games,
            },
        )


# --- the three writes --------------------------------------------------------------


def rating_game_rate(*, game: Game) -> RatedGame | None:
    """Put one counted, finished game into its family's ratings, exactly once: a
    second call for the same game (a retried finish, two finishes racing) finds its
    ``RatedGame`` under the ledger lock and changes nothing."""
    family = family_of_ruleset(game.ruleset)
    with transaction.atomic():
        ledger = _ledger(family)
        if RatedGame.objects.filter(game_id=game.pk).exists():
            return None
        # Read under the lock: a call racing the game's end sees it either not yet
        # over (and rates nothing) or already rated.
        if not counted_games(family).filter(game_id=game.pk).exists():
            return None
        finished = _finished(Seat.objects.filter(game_id=game.pk)).get(game.pk)
        if finished is None:
            return None
        result = finished.result
        keys = [(result.ruleset, result.players, s.side) for s in result.seats]
        book = _load_book(family, [s.user_id for s in result.seats], keys)
        rated = book.apply(result)
        if rated is None:
            return None
        ledger.rated += 1
        ledger.save(update_fields=["rated"])
        rated_game = RatedGame.objects.create(
            game_id=game.pk,
            family=family,
            number=ledger.rated,
            sides=_sides_json(rated),
        )
        RatingChange.objects.bulk_create(
            _changes(family, rated_game, rated, finished.finished_at)
        )
        _store_book(family, book, rated.players, rated.sides)
    return rated_game


def ratings_remove_game(*, game: Game) -> int:
    """Take a voided game out of its family's ratings: rewind every player and side
    rating to before it, then rate again, in their order, the games rated after it.
    Returns how many games were rated again. The result equals a fresh computation
    without the game (:func:`ratings_rebuild`; tests/clubs hold them equal)."""
    family = family_of_ruleset(game.ruleset)
    with transaction.atomic():
        _ledger(family)
        voided = RatedGame.objects.filter(game_id=game.pk).first()
        if voided is None:
            return 0
        later = list(
            RatedGame.objects.filter(family=family, number__gte=voided.number).order_by(
                "number"
            )
        )
        changes = RatingChange.objects.filter(
            family=family, number__gte=voided.number
        ).order_by("number", "user_id")
        first: dict[int, Skill] = {}
        seen: Counter[int] = Counter()
        for user_id, mu, sigma in changes.values_list(
            "user_id", "mu_before", "sigma_before"
        ):
            first.setdefault(user_id, Skill(mu, sigma))
            seen[user_id] += 1
        side_first: dict[SideKey, Skill] = {}
        side_seen: Counter[SideKey] = Counter()
        for rated_game in later:
            for text, values in rated_game.sides.items():
                key = _side_key(text)
                side_first.setdefault(key, Skill(*values["before"]))
                side_seen[key] += 1
        book = _load_book(family, first, side_first)
        for user_id, skill in first.items():
            book.players[user_id] = skill
            book.games[user_id] = book.games.get(user_id, 0) - seen[user_id]
        for key, skill in side_first.items():
            book.sides[key] = skill
            book.side_games[key] = book.side_games.get(key, 0) - side_seen[key]
        replayed = [rated_game for rated_game in later if rated_game.pk != voided.pk]
        results = _finished(
            Seat.objects.filter(
                game_id__in=RatedGame.objects.filter(
                    family=family, number__gt=voided.number
                ).values("game_id")
            )
        )
        changes.delete()
        voided.delete()
        new_changes: list[RatingChange] = []
        for rated_game in replayed:
            finished = results[rated_game.game_id]
            rated = book.apply(finished.result)
            rated_game.sides = _sides_json(rated) if rated else {}
            if rated is not None:
                new_changes += _changes(family, rated_game, rated, finished.finished_at)
        RatedGame.objects.bulk_update(replayed, ["sides"], batch_size=500)
        RatingChange.objects.bulk_create(new_changes, batch_size=1000)
        touched = set(first) | {c.user_id for c in new_changes}
        _store_book(family, book, touched, set(side_first))
    return len(replayed)


def ratings_rebuild(*, family: str) -> int:
    """The fresh computation: forget the family's ratings and rate every counted
    game again, in the order the games ended. Returns how many were rated."""
    with transaction.atomic():
        ledger = _ledger(family)
        RatedGame.objects.filter(family=family).delete()
        PlayerRating.objects.filter(family=family).delete()
        SideRating.objects.filter(family=family).delete()
        games = counted_games(family).values("game_id")
        finished = sorted(
            _finished(Seat.objects.filter(game_id__in=games)).values(),
            key=lambda item: (item.finished_at, item.result.game_id),
        )
        book = Book()
        rated_games: list[RatedGame] = []
        pending: list[tuple[RatedGame, Rated, dt.datetime]] = []
        for item in finished:
            rated = book.apply(item.result)
            if rated is None:
                continue
            rated_game = RatedGame(
                game_id=item.result.game_id,
                family=family,
                number=len(rated_games) + 1,
                sides=_sides_json(rated),
            )
            rated_games.append(rated_game)
            pending.append((rated_game, rated, item.finished_at))
        RatedGame.objects.bulk_create(rated_games, batch_size=1000)
        changes: list[RatingChange] = []
        for rated_game, rated, at in pending:
            changes += _changes(family, rated_game, rated, at)
        RatingChange.objects.bulk_create(changes, batch_size=2000)
        PlayerRating.objects.bulk_create(
            [
                PlayerRating(
                    user_id=user_id,
                    family=family,
                    mu=skill.mu,
                    sigma=skill.sigma,
                    ordinal=skill.ordinal,
                    games=book.games[user_id],
                )
                for user_id, skill in sorted(book.players.items())
            ],
            batch_size=1000,
        )
        SideRating.objects.bulk_create(
            [
                SideRating(
                    family=family,
                    ruleset=key[0],
                    players=key[1],
                    side=key[2],
                    mu=skill.mu,
                    sigma=skill.sigma,
                    games=book.side_games[key],
                )
                for key, skill in sorted(book.sides.items())
            ]
        )
        ledger.rated = len(rated_games)
        ledger.save(update_fields=["rated"])
    return len(rated_games)
