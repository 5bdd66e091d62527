"""Role-matrix entries for the floor URLs (issue 15), merged into
``tests/test_role_matrix.MATRIX``. Organisers manage the sets and the timetable; bracket
staff call groups and open a set's tablet; the projector's call is public."""

from __future__ import annotations

from typing import Any

from tests.rounds.matrix import BRACKET, ORGANISER, PUBLIC, _entry, _round, rounds_world


def floor_world(world: dict[str, Any]) -> dict[str, Any]:
    """The rounds world plus one cabinet set."""
    if "floor_set" in world:
        return world
    from brackets.models import CabinetSet

    rounds_world(world)
    world["floor_set"], _ = CabinetSet.objects.get_or_create(
        tournament=world["tournament"], name="行列A台")
    return world


def _set(w: dict[str, Any]) -> dict[str, Any]:
    return {"slug": w["tournament"].slug, "set_id": floor_world(w)["floor_set"].id}


def floor_matrix() -> dict[str, Any]:
    return {
        "floor_page": _entry(BRACKET),
        "floor_set_add": _entry(ORGANISER, "POST"),
        "floor_set_service": _entry(BRACKET, "POST", kwargs=_set),
        "floor_tablet": _entry(BRACKET, kwargs=_set),
        "floor_tablet_state": _entry(BRACKET, kwargs=_set),
        "floor_call": _entry(BRACKET, "POST", kwargs=_round),
        "floor_call_next": _entry(BRACKET, "POST", kwargs=_round),
        "floor_repeat": _entry(BRACKET, "POST", kwargs=_round),
        "floor_release": _entry(BRACKET, "POST", kwargs=_round),
        "floor_no_show": _entry(BRACKET, "POST", kwargs=_round),
        "floor_planned_start": _entry(ORGANISER, "POST", kwargs=_round),
        "public_floor_call": _entry(PUBLIC, kwargs=_round),
    }
