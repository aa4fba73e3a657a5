from django.urls import path

from . import views

urlpatterns = [
    path("ratings/", views.ratings_index, name="ratings_index"),
    path("clubs/<int:club_id>/ratings/", views.leaderboard, name="leaderboard"),
    path("clubs/<int:club_id>/ratings/players/<int:pk>/", views.player_rating, name="player_rating"),
    path("ratings/battles/<int:pk>/", views.battle_rating, name="battle_rating"),
    path("ratings/battles/<int:pk>/confirm/", views.battle_confirm, name="battle_confirm"),
    path("matches/<int:pk>/void/", views.match_void, name="match_void"),
    path("tournaments/", views.tournaments_index, name="tournaments_index"),
    path("clubs/<int:club_id>/tournaments/", views.tournament_list, name="tournament_list"),
    path("tournaments/<int:pk>/", views.tournament_detail, name="tournament_detail"),
    path("tournaments/<int:pk>/reopen/", views.tournament_reopen, name="tournament_reopen"),
    path("tournaments/<int:pk>/pair/", views.tournament_pair, name="tournament_pair"),
    path("tournaments/<int:pk>/entrants/", views.tournament_entrant, name="tournament_entrant"),
    path("tournaments/<int:pk>/drop/", views.tournament_drop, name="tournament_drop"),
    path("tournaments/<int:pk>/finish/", views.tournament_finish, name="tournament_finish"),
    # A player's personal collection, and their collection in a club.
    path("collections/", views.collection_index, name="collection_index"),
    path("collections/<int:pk>/", views.collection_detail, name="collection_detail"),
    path("collections/<int:pk>/add/", views.collection_add, name="collection_add"),
    path("collections/<int:pk>/upgrade/<int:entry>/", views.collection_upgrade, name="collection_upgrade"),
    path("collections/clubs/<int:club>/", views.club_collections, name="club_collections"),
    path("collections/clubs/<int:club>/<int:pk>/", views.collection_detail, name="club_collection_detail"),
    path("collections/clubs/<int:club>/<int:pk>/add/", views.collection_add, name="club_collection_add"),
    path("collections/clubs/<int:club>/<int:pk>/upgrade/<int:entry>/", views.collection_upgrade,
         name="club_collection_upgrade"),
]
