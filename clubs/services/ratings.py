"""Writing a league game's result: into its season's standings and its players'
ratings when it ends, once; back out of both when it is voided; and a fresh
computation of either from every counted game.

The rating arithmetic is ``clubs.rating`` (openskill); this module loads and stores.
All these writes for a game family hold that family's :class:`RatingLedger` row
lock, so games are counted and rated one at a time in one order
(``RatedGame.number``), and a recomputation can rewind to any game and replay the
ones after it. A game enters the standings when its ``ClubTable.counted`` turns
true and the ratings when its unique ``RatedGame`` row is written, each checked
under the lock: a retried or doubled finish counts and rates a game exactly once.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Count, F, Q, QuerySet

from clubs.families import family_of_ruleset
from clubs.models import (
    ClubTable,
    PlayerRating,
    RatedGame,
    RatingChange,
    RatingLedger,
    Season,
    SeasonTally,
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
    season's table now counts for its season: its result goes into the standings
    and the ratings. A game played with bots never does."""
    if game.with_bots:
        return
    table = (
        ClubTable.objects.filter(game_id=game.pk)
        .values("season_id", "voided_at")
        .first()
    )
    if table is None or table["season_id"] is None or table["voided_at"] is not None:
        return
    with transaction.atomic():
        # The table's row first, then the family's ledger: the order a void takes.
        newly = ClubTable.objects.filter(game_id=game.pk, counted=False).update(
            counted=True
        )
        ledger = _ledger(family_of_ruleset(game.ruleset))
        if newly:
            _tally(table["season_id"], game.pk, +1)
        _rate(game, ledger)


def _tally(season_id: int, game_id: int, step: int) -> None:
    """Add (``step`` 1) or take away (-1) one game's seats in its season's standings.
    Called under the family's ledger lock: no two games change tallies at once."""
    seats = list(
        Seat.objects.filter(game_id=game_id).values_list("user_id", "side", "won")
    )
    SeasonTally.objects.bulk_create(
        [
            SeasonTally(season_id=season_id, user_id=user_id, side=side)
            for user_id, side, _won in seats
        ],
        ignore_conflicts=True,
    )
    groups: dict[tuple[str, bool], list[int]] = {}
    for user_id, side, won in seats:
        groups.setdefault((side, bool(won)), []).append(user_id)
    for (side, won), user_ids in sorted(groups.items()):
        SeasonTally.objects.filter(
            season_id=season_id, side=side, user_id__in=user_ids
        ).update(
            played=F("played") + step,
            won=F("won") + (step if won else 0),
        )
    if step < 0:
        SeasonTally.objects.filter(season_id=season_id, played=0).delete()


def season_tallies_rebuild(*, season: Season) -> int:
    """The standings of ``season`` counted afresh from the seats of its counted
    games (a bulk load, or a check). Returns the number of rows."""
    with transaction.atomic():
        _ledger(season.family)
        SeasonTally.objects.filter(season=season).delete()
        games = ClubTable.objects.filter(
            season=season, counted=True, voided_at__isnull=True
        ).values("game_id")
        rows = (
            Seat.objects.filter(game_id__in=games)
            .values("user_id", "side")
            .annotate(played=Count("pk"), won=Count("pk", filter=Q(won=True)))
            .order_by()
        )
        tallies = SeasonTally.objects.bulk_create(
            [SeasonTally(season=season, **row) for row in rows], batch_size=1000
        )
    return len(tallies)


def league_game_void(*, game: Game, season_id: int) -> None:
    """A voided game leaves its season's standings and its family's ratings."""
    with transaction.atomic():
        _ledger(family_of_ruleset(game.ruleset))
        _tally(season_id, game.pk, -1)
        ratings_remove_game(game=game)


def counted_games(family: str) -> QuerySet[ClubTable]:
    """The club tables whose games count in ``family``'s ratings."""
    return ClubTable.objects.filter(
        season__family=family,
        counted=True,
        voided_at__isnull=True,
        game__status=Game.Status.FINISHED,
        game__with_bots=False,
    )


# --- loading -----------------------------------------------------------------------


def _ledger(family: str) -> RatingLedger:
    """The family's ledger row, locked until the transaction ends (created the
    first time a family has a season)."""
    ledger = RatingLedger.objects.select_for_update().filter(family=family).first()
    if ledger is None:
        RatingLedger.objects.get_or_create(family=family)
        ledger = RatingLedger.objects.select_for_update().get(family=family)
    return ledger


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


def _side_rows(keys: Iterable[SideKey]) -> dict[SideKey, SideRating]:
    keys = set(keys)
    if not keys:
        return {}
    condition = Q()
    for ruleset, players, side in keys:
        condition |= Q(ruleset=ruleset, players=players, side=side)
    return {
        (row.ruleset, row.players, row.side): row
        for row in SideRating.objects.filter(condition)
    }


def _player_rows(family: str, user_ids: Iterable[int]) -> dict[int, PlayerRating]:
    return {
        row.user_id: row
        for row in PlayerRating.objects.filter(family=family, user_id__in=set(user_ids))
    }


def _load_book(family: str, user_ids: Iterable[int], keys: Iterable[SideKey]) -> Book:
    book = Book()
    for user_id, rating in _player_rows(family, user_ids).items():
        book.players[user_id] = Skill(rating.mu, rating.sigma)
        book.games[user_id] = rating.games
    for key, side_rating in _side_rows(keys).items():
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
    with no rated game has no rating row (as in a fresh computation). A few bulk
    queries, whatever the number of players."""
    players = _player_rows(family, user_ids)
    created: list[PlayerRating] = []
    for user_id in sorted(set(user_ids)):
        games = book.games.get(user_id, 0)
        if games == 0:
            continue
        skill = book.players[user_id]
        row = players.get(user_id) or PlayerRating(user_id=user_id, family=family)
        row.mu, row.sigma, row.ordinal, row.games = (
            skill.mu,
            skill.sigma,
            skill.ordinal,
            games,
        )
        if row.pk is None:
            created.append(row)
    _write_rows(
        PlayerRating,
        created,
        [row for row in players.values() if row.games and row.pk],
        [row.pk for user_id, row in players.items() if not book.games.get(user_id)],
        ["mu", "sigma", "ordinal", "games"],
    )
    sides = _side_rows(keys)
    created_sides: list[SideRating] = []
    for key in sorted(set(keys)):
        games = book.side_games.get(key, 0)
        if games == 0:
            continue
        ruleset, size, side = key
        skill = book.sides[key]
        side_row = sides.get(key) or SideRating(
            family=family, ruleset=ruleset, players=size, side=side
        )
        side_row.mu, side_row.sigma, side_row.games = skill.mu, skill.sigma, games
        if side_row.pk is None:
            created_sides.append(side_row)
    _write_rows(
        SideRating,
        created_sides,
        [row for key, row in sides.items() if book.side_games.get(key)],
        [row.pk for key, row in sides.items() if not book.side_games.get(key)],
        ["mu", "sigma", "games"],
    )


def _write_rows(
    model: Any,
    created: list[Any],
    updated: list[Any],
    deleted: list[int],
    fields: list[str],
) -> None:
    if deleted:
        model.objects.filter(pk__in=deleted).delete()
    if created:
        model.objects.bulk_create(created, batch_size=500)
    if updated:
        model.objects.bulk_update(updated, fields, batch_size=500)


# --- the three writes --------------------------------------------------------------


def rating_game_rate(*, game: Game) -> RatedGame | None:
    """Put one counted, finished game into its family's ratings, exactly once: a
    second call for the same game (a retried finish, two finishes racing) finds its
    ``RatedGame`` under the ledger lock and changes nothing."""
    with transaction.atomic():
        return _rate(game, _ledger(family_of_ruleset(game.ruleset)))


def _rate(game: Game, ledger: RatingLedger) -> RatedGame | None:
    """:func:`rating_game_rate` with the family's ledger locked."""
    family = ledger.family
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
