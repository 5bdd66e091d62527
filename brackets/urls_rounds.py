"""URLs of rounds, matches and the public bracket (issue 4), included by brackets/urls.py.

Every name here is placed in the role matrix by tests/rounds/matrix.py.
"""

from __future__ import annotations

from django.urls import path

from brackets.views import public, public_player, rounds

urlpatterns = [
    path("t/<slug:slug>/rounds/", rounds.rounds_index, name="rounds_index"),
    path("t/<slug:slug>/rounds/configure/", rounds.rounds_configure, name="rounds_configure"),
    path("t/<slug:slug>/rounds/<int:number>/", rounds.round_detail, name="round_detail"),
    path("t/<slug:slug>/rounds/<int:number>/do/<str:action>/", rounds.round_action,
         name="round_action"),
    path("t/<slug:slug>/rounds/<int:number>/advance/", rounds.round_advance_preview,
         name="round_advance_preview"),
    path("t/<slug:slug>/rounds/<int:number>/special/", rounds.round_special,
         name="round_special"),
    path("t/<slug:slug>/match/<int:group_id>/", rounds.match_page, name="match_page"),
    path("t/<slug:slug>/match/<int:group_id>/selection/", rounds.match_selection,
         name="match_selection"),
    path("t/<slug:slug>/match/<int:group_id>/results/", rounds.match_results,
         name="match_results"),
    path("t/<slug:slug>/match/<int:group_id>/action/", rounds.match_action,
         name="match_action"),
    path("t/<slug:slug>/match/<int:group_id>/confirm/", rounds.match_confirm,
         name="match_confirm"),
    path("t/<slug:slug>/match/<int:group_id>/special/", rounds.match_special,
         name="match_special"),
    path("t/<slug:slug>/match/<int:group_id>/history/", rounds.match_history,
         name="match_history"),
    path("t/<slug:slug>/shura/", rounds.shura_desk, name="shura_desk"),
    path("p/<slug:slug>/bracket/", public.public_bracket, name="public_bracket"),
    path("p/<slug:slug>/r/<int:number>/", public.public_round, name="public_round"),
    path("p/<slug:slug>/r/<int:number>/live/", public.public_round_live,
         name="public_round_live"),
    path("p/<slug:slug>/r/<int:number>/projector/", public.public_projector,
         name="public_projector"),
    path("p/<slug:slug>/players/<int:entrant_id>/", public_player.public_player, name="public_player"),
]
