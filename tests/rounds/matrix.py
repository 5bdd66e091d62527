"""Role-matrix entries for the round, match and public bracket URLs (issue 4).

Merged into ``tests/test_role_matrix.MATRIX``. The objects the URLs need (a drawn,
running round with a group) are built lazily from the matrix's world and cached in it.
"""

from __future__ import annotations

from typing import Any

OK, LOGIN, DENY = "ok", "login", "deny"
USERS = ["anonymous", "desk", "bracket", "organiser", "outsider", "admin"]
PUBLIC = dict.fromkeys(USERS, OK)
BRACKET = {"anonymous": LOGIN, "desk": DENY, "bracket": OK, "organiser": OK, "outsider": DENY,
           "admin": OK}
DESK = {"anonymous": LOGIN, "desk": OK, "bracket": DENY, "organiser": OK, "outsider": DENY,
        "admin": OK}
ORGANISER = {"anonymous": LOGIN, "desk": DENY, "bracket": DENY, "organiser": OK,
             "outsider": DENY, "admin": OK}


def rounds_world(world: dict[str, Any]) -> dict[str, Any]:
    """A shop-top2 tournament state: round 1 drawn and running, one group to open."""
    if "rounds_group" in world:
        return world
    from brackets.models import Entrant, Group, Round
    from brackets.services import rounds as svc

    tournament = world["tournament"]
    if not Round.objects.filter(tournament=tournament).exists():
        for i in range(8):
            Entrant.objects.get_or_create(
                tournament=tournament, card_name=f"RM{i:02d}",
                defaults={"name": f"行列選手{i}", "checked_in": True, "q_level": 60})
        Entrant.objects.filter(tournament=tournament).update(checked_in=True)
        rounds = svc.rounds_configure(tournament=tournament, by=None)
        svc.round_draw(round=rounds[0], by=None)
        svc.round_start(round=rounds[0], by=None)
    rnd = Round.objects.get(tournament=tournament, number=1)
    world["rounds_round"] = rnd
    world["rounds_group"] = Group.objects.filter(round=rnd).order_by("number").first()
    world["rounds_entrant"] = Entrant.objects.filter(tournament=tournament,
                                                     card_name="RM00").first()
    return world


def _round(w: dict[str, Any]) -> dict[str, Any]:
    return {"slug": w["tournament"].slug, "number": rounds_world(w)["rounds_round"].number}


def _group(w: dict[str, Any]) -> dict[str, Any]:
    return {"slug": w["tournament"].slug, "group_id": rounds_world(w)["rounds_group"].id}


def _entry(expect: dict[str, str], method: str = "GET", kwargs: Any = None) -> Any:
    from tests.test_role_matrix import Entry

    if kwargs is None:
        return Entry(expect, method=method)
    return Entry(expect, method=method, kwargs=kwargs)


def rounds_matrix() -> dict[str, Any]:
    return {
        "rounds_index": _entry(BRACKET),
        "rounds_configure": _entry(ORGANISER, "POST"),
        "round_detail": _entry(BRACKET, kwargs=_round),
        "round_action": _entry(BRACKET, "POST",
                               kwargs=lambda w: {**_round(w), "action": "start"}),
        "round_advance_preview": _entry(BRACKET, kwargs=_round),
        "round_special": _entry(BRACKET, kwargs=_round),
        "match_page": _entry(BRACKET, kwargs=_group),
        "match_selection": _entry(BRACKET, "POST", kwargs=_group),
        "match_results": _entry(BRACKET, "POST", kwargs=_group),
        "match_action": _entry(BRACKET, "POST", kwargs=_group),
        "match_confirm": _entry(BRACKET, "POST", kwargs=_group),
        "match_special": _entry(BRACKET, "POST", kwargs=_group),
        "match_history": _entry(BRACKET, kwargs=_group),
        "shura_desk": _entry(DESK),
        "public_bracket": _entry(PUBLIC),
        "public_round": _entry(PUBLIC, kwargs=_round),
        "public_round_live": _entry(PUBLIC, kwargs=_round),
        "public_projector": _entry(PUBLIC, kwargs=_round),
        "public_player": _entry(PUBLIC, kwargs=lambda w: {
            "slug": w["tournament"].slug,
            "entrant_id": rounds_world(w)["rounds_entrant"].id}),
    }
