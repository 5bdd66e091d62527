"""URLs of the floor (issue 15): cabinet sets, calls, each set's tablet, the projector's
call. Included by brackets/urls.py; every name is placed in the role matrix by
tests/floor/matrix.py."""

from __future__ import annotations

from django.urls import path

from brackets.views import floor

urlpatterns = [
    path("t/<slug:slug>/floor/", floor.floor_page, name="floor_page"),
    path("t/<slug:slug>/floor/sets/", floor.floor_set_add, name="floor_set_add"),
    path("t/<slug:slug>/floor/sets/<int:set_id>/service/", floor.floor_set_service,
         name="floor_set_service"),
    path("t/<slug:slug>/floor/sets/<int:set_id>/tablet/", floor.floor_tablet,
         name="floor_tablet"),
    path("t/<slug:slug>/floor/sets/<int:set_id>/state.json", floor.floor_tablet_state,
         name="floor_tablet_state"),
    path("t/<slug:slug>/floor/<int:number>/call/", floor.floor_call, name="floor_call"),
    path("t/<slug:slug>/floor/<int:number>/call-next/", floor.floor_call_next,
         name="floor_call_next"),
    path("t/<slug:slug>/floor/<int:number>/repeat/", floor.floor_repeat, name="floor_repeat"),
    path("t/<slug:slug>/floor/<int:number>/release/", floor.floor_release,
         name="floor_release"),
    path("t/<slug:slug>/floor/<int:number>/no-show/", floor.floor_no_show,
         name="floor_no_show"),
    path("t/<slug:slug>/floor/<int:number>/planned-start/", floor.floor_planned_start,
         name="floor_planned_start"),
    path("p/<slug:slug>/r/<int:number>/call/", floor.public_floor_call,
         name="public_floor_call"),
]
