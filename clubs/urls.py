from django.urls import path

from clubs import views

app_name = "clubs"

urlpatterns = [
    path("", views.directory, name="directory"),
    path("new/", views.club_new, name="new"),
    path("ratings/", views.ratings, name="ratings"),
    path("ratings/<str:family>/", views.ratings, name="ratings_family"),
    path("invite/<str:token>/", views.invite, name="invite"),
    path("<str:slug>/", views.club_page, name="club"),
    path("<str:slug>/edit/", views.club_edit, name="edit"),
    path("<str:slug>/join/", views.club_join, name="join"),
    path("<str:slug>/join/cancel/", views.club_request_cancel, name="join_cancel"),
    path("<str:slug>/leave/", views.club_leave, name="leave"),
    path("<str:slug>/members/", views.members, name="members"),
    path("<str:slug>/members/approve/", views.request_approve, name="approve"),
    path("<str:slug>/members/decline/", views.request_decline, name="decline"),
    path("<str:slug>/members/remove/", views.member_remove, name="remove"),
    path("<str:slug>/members/role/", views.member_role, name="role"),
    path("<str:slug>/members/owner/", views.ownership_transfer, name="transfer"),
    path("<str:slug>/invites/", views.invite_create, name="invite_create"),
    path("<str:slug>/invites/revoke/", views.invite_revoke, name="invite_revoke"),
    path("<str:slug>/notices/", views.notice_list, name="notices"),
    path("<str:slug>/notices/post/", views.notice_post, name="notice_post"),
    path("<str:slug>/notices/delete/", views.notice_delete, name="notice_delete"),
    path("<str:slug>/tables/new/", views.table_new, name="table_new"),
    path("<str:slug>/seasons/new/", views.season_new, name="season_new"),
    path("<str:slug>/seasons/<int:season>/", views.season_page, name="season"),
    path("<str:slug>/void/<str:code>/", views.game_void, name="void"),
    path("<str:slug>/days/new/", views.day_new, name="day_new"),
    path("<str:slug>/days/<int:day>/", views.day_page, name="day"),
    path("<str:slug>/days/<int:day>/signup/", views.day_signup, name="day_signup"),
    path(
        "<str:slug>/days/<int:day>/withdraw/", views.day_withdraw, name="day_withdraw"
    ),
    path("<str:slug>/days/<int:day>/seat/", views.day_seat, name="day_seat"),
]
