from django.urls import include, path

from tracker.catalog import cards as catalog
from tracker.catalog.picker import card_picks
from tracker.matches import views
from tracker.people import accounts, agreement_views, clubs, sharing
from tracker.review import stats_views
from tracker.review import views as review
from tracker.web import app_shell

from .games.cardmaster import views as cardmaster_views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("sw.js", app_shell.service_worker, name="service_worker"),
    path("manifest.webmanifest", app_shell.web_manifest, name="web_manifest"),
    path("offline/", app_shell.offline, name="offline"),
    path("settings/", app_shell.settings_page, name="settings"),
    path("settings/theme/", app_shell.set_theme, name="set_theme"),
    path("settings/language/", app_shell.set_language, name="set_language"),
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
    path("matches/<int:pk>/requests/<int:proposal_id>/answer/", agreement_views.proposal_answer,
         name="proposal_answer"),
    path("matches/<int:pk>/requests/<int:proposal_id>/withdraw/", agreement_views.proposal_withdraw,
         name="proposal_withdraw"),
    path("matches/<int:pk>/cardmaster/ai-turn/", cardmaster_views.match_ai_turn, name="cardmaster_ai_turn"),
    path("matches/<int:pk>/cardmaster/hint/", cardmaster_views.match_hint, name="cardmaster_hint"),
    path("matches/<int:pk>/cardmaster/steps/", cardmaster_views.match_steps, name="cardmaster_steps"),
    path("matches/<int:pk>/cardmaster/analysis/", cardmaster_views.match_analysis, name="cardmaster_analysis"),
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
    path("clubs/", clubs.club_list, name="club_list"),
    path("clubs/new/", clubs.club_new, name="club_new"),
    path("clubs/<int:pk>/", clubs.club_detail, name="club_detail"),
    path("clubs/<int:pk>/invites/", clubs.club_invite_new, name="club_invite_new"),
    path("clubs/<int:pk>/invites/<int:invite_id>/revoke/", clubs.club_invite_revoke, name="club_invite_revoke"),
    path("clubs/<int:pk>/settings/", clubs.club_settings, name="club_settings"),
    path("clubs/<int:pk>/members/<int:member_id>/", clubs.club_member, name="club_member"),
    path("clubs/<int:pk>/leave/", clubs.club_leave, name="club_leave"),
    path("clubs/join/<str:token>/", clubs.club_join, name="club_join"),
    path("stats/", stats_views.stats_overview, name="stats"),
    path("stats/players/<int:pk>/", stats_views.stats_player, name="stats_player"),
    path("cards/", catalog.card_games, name="card_games"),
    path("cards/<slug:slug>/", catalog.card_list, name="card_list"),
    path("cards/<slug:slug>/new/", catalog.card_new, name="card_new"),
    path("cards/<slug:slug>/pick/", card_picks, name="card_picks"),
    path("cards/<slug:slug>/<int:pk>/", catalog.card_detail, name="card_detail"),
    path("cards/<slug:slug>/<int:pk>/edit/", catalog.card_edit, name="card_edit"),
    path("cards/<slug:slug>/<int:pk>/delete/", catalog.card_delete, name="card_delete"),
    path("cards/<slug:slug>/export.csv", catalog.card_export, name="card_export"),
    path("cards/<slug:slug>/import/", catalog.card_import, name="card_import"),
    path("", include("tracker.competition.urls")),  # ratings, tournaments, collections
]
