"""Who sees what of a club. A non-member finds none of a private club's tables,
games, standings or notices (not in a page, a list, the history or a socket); a
public club's members-only table may be watched but not joined; a removed member
loses access at once, their open table socket included."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from accounts.models import User
from clubs import errors, services
from config.asgi import application
from games import errors as game_errors
from games import services as game_services
from games.models import Game
from tests.clubs.conftest import (
    ClubSetup,
    league_game,
    league_table,
    make_club,
    open_season,
)
from tests.factories import UserFactory


def client_for(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def listed(client: Client, path: str, code: str) -> bool:
    return code in client.get(path).content.decode()


@pytest.mark.django_db
def test_a_private_clubs_inside_is_hidden_from_outsiders(
    private_club: ClubSetup,
) -> None:
    club = private_club
    season = open_season(club)
    finished = league_game(club, club.everyone[:5], season, seed=1)
    live = league_table(club, club.everyone[5:10], season=season)
    services.notice_post(club=club.club, admin=club.admin, title="Секрет", body="x")
    slug = club.club.slug
    member = client_for(club.members[-1])
    for viewer in (None, UserFactory()):
        outsider = client_for(viewer)
        for path in (
            f"/games/t/{live.code}/",
            f"/history/g/{finished.code}/",
            f"/history/g/{finished.code}/export.json",
            f"/clubs/{slug}/seasons/{season.pk}/",
            f"/clubs/{slug}/members/",
            f"/clubs/{slug}/notices/",
        ):
            assert outsider.get(path).status_code == 404, path
            assert member.get(path).status_code == 200, path
        page = outsider.get(f"/clubs/{slug}/").content.decode()
        assert finished.code not in page and live.code not in page
        assert "Секрет" not in page and "Осень" not in page
        assert not listed(outsider, "/games/", live.code)
        assert not listed(outsider, "/history/", finished.code)
        assert not listed(outsider, f"/history/?club={slug}", finished.code)
        season_list = outsider.get(f"/history/?season={season.pk}").content.decode()
        assert finished.code not in season_list and "Осень" not in season_list
        assert "Подполье на Лиговском" not in outsider.get("/clubs/").content.decode()
    assert listed(member, "/history/", finished.code)
    assert listed(member, f"/history/?season={season.pk}", finished.code)
    assert listed(member, f"/clubs/{slug}/", live.code)


@pytest.mark.django_db
def test_an_outsider_cannot_take_a_seat_at_a_members_only_table(
    club: ClubSetup, private_club: ClubSetup
) -> None:
    outsider = UserFactory()
    for setup, status in ((club, 200), (private_club, 404)):
        game = services.club_table_create(
            club=setup.club, user=setup.members[0], ruleset="partisans", seat_count=5
        )
        with pytest.raises(game_errors.SeatNotAllowed):
            game_services.seat_join(game=game, user=outsider)
        assert game.seats.count() == 1
        # A public club's table may be watched; a private club's does not exist.
        assert client_for(outsider).get(f"/games/t/{game.code}/").status_code == status
        assert not listed(client_for(outsider), "/games/", game.code)
        assert listed(client_for(setup.members[1]), "/games/", game.code)
        game_services.seat_join(game=game, user=setup.members[1])


@pytest.mark.django_db
def test_an_admin_may_open_a_table_to_everyone(private_club: ClubSetup) -> None:
    club, guest = private_club, UserFactory()
    with pytest.raises(errors.PublicTableNotAllowed):
        services.club_table_create(
            club=club.club,
            user=club.members[0],
            ruleset="partisans",
            seat_count=5,
            members_only=False,
        )
    game = services.club_table_create(
        club=club.club,
        user=club.admin,
        ruleset="partisans",
        seat_count=5,
        members_only=False,
    )
    game_services.seat_join(game=game, user=guest)
    assert client_for(guest).get(f"/games/t/{game.code}/").status_code == 200
    # Still a private club's table: not listed to those outside it.
    assert not listed(client_for(UserFactory()), "/games/", game.code)


@pytest.mark.django_db
def test_a_removed_member_loses_the_private_clubs_pages_at_once(
    private_club: ClubSetup,
) -> None:
    club = private_club
    game = league_table(club, club.everyone[:5])
    removed = club.members[0]
    viewer = client_for(removed)
    assert viewer.get(f"/games/t/{game.code}/").status_code == 200
    services.member_remove(club=club.club, admin=club.admin, user_id=removed.pk)
    assert viewer.get(f"/games/t/{game.code}/").status_code == 404
    assert viewer.get(f"/clubs/{club.club.slug}/members/").status_code == 404


def _session_cookie(user: User) -> str:
    return client_for(user).cookies["sessionid"].value


async def _socket(user: User, code: str) -> WebsocketCommunicator:
    cookie = await sync_to_async(_session_cookie)(user)
    return WebsocketCommunicator(
        application,
        f"/ws/table/{code}/",
        headers=[
            (b"origin", b"http://127.0.0.1"),
            (b"host", b"127.0.0.1"),
            (b"cookie", f"sessionid={cookie}".encode()),
        ],
    )


async def _connect(user: User, code: str) -> WebsocketCommunicator:
    communicator = await _socket(user, code)
    connected, _ = await communicator.connect(timeout=30)
    assert connected
    return communicator


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_a_removed_members_socket_closes_and_the_others_stay() -> None:
    club = await sync_to_async(make_club)(private=True, members=6)
    players = club.everyone[:5]
    game: Game = await sync_to_async(league_table)(club, players)
    removed, staying, watcher = players[2], players[3], club.everyone[6]
    sockets = {
        user.pk: await _connect(user, game.code) for user in (removed, staying, watcher)
    }
    for socket in sockets.values():
        assert 'id="table-live"' in await socket.receive_from(timeout=30)
    await sync_to_async(services.member_remove)(
        club=club.club, admin=club.admin, user_id=removed.pk
    )
    closed = await sockets[removed.pk].receive_output(timeout=30)
    assert closed == {"type": "websocket.close", "code": 4404}
    for user in (staying, watcher):
        assert await sockets[user.pk].receive_nothing(timeout=0.5)
    # A new connection is refused too.
    again = await _socket(removed, game.code)
    connected, code = await again.connect(timeout=30)
    assert not connected and code == 4404
    for user in (staying, watcher):
        await sockets[user.pk].disconnect()


@pytest.mark.django_db
def test_the_api_hides_a_private_clubs_table_from_outsiders(
    private_club: ClubSetup,
) -> None:
    from tests.api.support import program

    club = private_club
    game = league_table(club, club.everyone[:5])
    outsider, member = program(), program(club.members[-1])
    for path in (f"tables/{game.code}", f"tables/{game.code}/view"):
        assert outsider.get(path).status == 404, path
        assert member.get(path).status == 200, path
    assert outsider.post(f"tables/{game.code}/join").status == 404
    assert game.code not in str(outsider.get("tables").body)
