"""H2 プチ修羅の道: a declaration must be stricter than the mode the entrant's rank gives.

The desk refuses a declaration no stricter than the rank's mode, with the reason; one
recorded before (a raised Q level, a switched preset) leaves the rank's stricter mode in
force instead of breaking pages."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError

from brackets import engine_adapter as ea
from brackets.engine import Mode
from brackets.models import Entrant, Seat, Tournament
from brackets.selectors import rounds as sel
from brackets.services import entrants as desk
from brackets.services import rounds as svc
from tests.rounds.helpers import add_entrants
from tests.states import use_katata

pytestmark = pytest.mark.django_db


def _form(**extra: Any) -> dict[str, Any]:
    return {"name": "山田太郎", "reading": "やまだたろう", "card_name": "ヤマダ", **extra}


@pytest.mark.django_db
def test_desk_refuses_an_opt_up_no_stricter_than_the_rank(tournament: Tournament,
                                                          cast: dict[str, Any]) -> None:
    use_katata(tournament)
    with pytest.raises(ValidationError) as info:
        desk.entrant_register(tournament=tournament, by=cast["desk"],
                              data=_form(q_level="90", opt_up="pinpoint"))
    message = " ".join(info.value.message_dict["opt_up"])
    assert "プチ修羅の道（ピンポイント）" in message and "Qレベル90" in message
    assert "ボンバーマン" in message
    assert not Entrant.objects.filter(tournament=tournament).exists()
    # Stricter than the rank (Q60 gives ピンポイント) is what the rule is for.
    desk.entrant_register(tournament=tournament, by=cast["desk"],
                          data=_form(q_level="60", opt_up="bomber"))
    assert Entrant.objects.get(tournament=tournament).opt_up == "bomber"


@pytest.mark.django_db
def test_raising_the_q_level_past_the_declaration_is_refused(tournament: Tournament,
                                                             cast: dict[str, Any]) -> None:
    use_katata(tournament)
    e = desk.entrant_register(tournament=tournament, by=cast["desk"],
                              data=_form(q_level="30", opt_up="pinpoint"))
    e = Entrant.objects.get(id=getattr(e, "id", e.pk))
    with pytest.raises(ValidationError) as info:
        desk.entrant_update(tournament=tournament, entrant_id=e.id, by=cast["desk"],
                            base_revision=e.revision,
                            data=_form(q_level="85", opt_up="pinpoint"))
    assert "opt_up" in info.value.message_dict
    assert Entrant.objects.get(id=e.id).q_level == 30


@pytest.mark.django_db
def test_fixed_mode_presets_ignore_the_declaration(tournament: Tournament,
                                                   cast: dict[str, Any]) -> None:
    tournament.preset = "kyushu-cup-ix"  # K1: everyone BOMBER, ranks do not matter
    tournament.save()
    desk.entrant_register(tournament=tournament, by=cast["desk"],
                          data=_form(q_level="90", opt_up="pinpoint"))
    assert ea.opt_up_laxer_than_rank(tournament, 90, "pinpoint") is None


@pytest.mark.django_db
def test_a_stale_declaration_leaves_the_rank_mode_and_pages_work(
        tournament: Tournament, cast: dict[str, Any], clients: dict[str, Any]) -> None:
    use_katata(tournament)
    entrants = add_entrants(tournament, 8, q_levels=[90] * 8)
    # Recorded before the check existed (or before the Q level was raised).
    Entrant.objects.filter(id=entrants[0].id).update(opt_up="pinpoint")
    rounds = svc.rounds_configure(tournament=tournament, by=cast["organiser"])
    svc.round_draw(round=rounds[0], by=cast["organiser"])
    svc.round_start(round=rounds[0], by=cast["organiser"])
    group = Seat.objects.get(entrant_id=entrants[0].id).group
    slug = tournament.slug
    for url in (f"/t/{slug}/match/{group.id}/", f"/t/{slug}/rounds/1/", f"/p/{slug}/r/1/",
                f"/p/{slug}/players/{entrants[0].id}/"):
        assert clients["bracket"].get(url).status_code == 200, url
    e = Entrant.objects.get(id=entrants[0].id)
    rules = ea.player_rules("preset", ea.rules_input_from_entrant(e, None), tournament)
    assert rules.mode is Mode.BOMBER  # the rank's mode, the stricter of the two
    gv = sel.group_view(group)
    assert gv.error == ""
