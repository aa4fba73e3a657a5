from django.urls import include, path

from . import accounts, catalog, review, sharing, stats_views, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("accounts/sign-in/", accounts.sign_in, name="sign_in"),
    path("accounts/sign-out/", accounts.sign_out, name="sign_out"),
    path("accounts/sign-up/", accounts.sign_up, name="sign_up"),
    path("accounts/password/", accounts.password_change, name="password_change"),
    path("matches/", views.match_list, name="match_list"),
    path("matches/new/<slug:slug>/", views.match_new, name="match_new"),
    path("matches/<int:pk>/", views.match_detail, name="match_detail"),
    path("matches/<int:pk>/poll", views.match_poll, name="match_poll"),
    path("matches/<int:pk>/act/", views.match_act, name="match_act"),
    path("matches/<int:pk>/goto/", views.match_goto, name="match_goto"),
    path("matches/import/", review.match_import, name="match_import"),
    path("matches/<int:pk>/log/", review.match_log, name="match_log"),
    path("matches/<int:pk>/replay/", review.match_replay, name="match_replay"),
    path("matches/<int:pk>/export.json", review.match_export, {"kind": "json"}, name="match_export_json"),
    path("matches/<int:pk>/export.txt", review.match_export, {"kind": "text"}, name="match_export_text"),
    path("matches/<int:pk>/invites/", sharing.invite_new, name="invite_new"),
    path("matches/<int:pk>/invites/<int:invite_id>/revoke/", sharing.invite_revoke, name="invite_revoke"),
    path("join/<str:token>/", sharing.join, name="join"),
    path("matches/<int:pk>/seat/<int:seat>/pass/", views.match_pass, name="match_pass"),
    path("matches/<int:pk>/seat/<int:seat>/entry/", views.match_entry, name="match_entry"),
    path("stats/", stats_views.stats_overview, name="stats"),
    path("stats/players/<int:pk>/", stats_views.stats_player, name="stats_player"),
    path("cards/", catalog.card_games, name="card_games"),
    path("cards/<slug:slug>/", catalog.card_list, name="card_list"),
    path("cards/<slug:slug>/new/", catalog.card_new, name="card_new"),
    path("cards/<slug:slug>/<int:pk>/", catalog.card_detail, name="card_detail"),
    path("cards/<slug:slug>/<int:pk>/edit/", catalog.card_edit, name="card_edit"),
    path("cards/<slug:slug>/<int:pk>/delete/", catalog.card_delete, name="card_delete"),
    path("cards/<slug:slug>/export.csv", catalog.card_export, name="card_export"),
    path("cards/<slug:slug>/import/", catalog.card_import, name="card_import"),
    path("", include("tracker.competition.urls")),  # ratings, tournaments, collections
]
