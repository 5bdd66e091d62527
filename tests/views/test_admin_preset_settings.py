"""The admin's tournament form validates and saves preset settings as the settings screen does."""

from __future__ import annotations

from typing import Any

import pytest

from brackets.adapters.rounds import round_rules
from brackets.models import Round, Tournament
from brackets.services import rounds as svc
from tests.conftest import client_for
from tests.rounds.helpers import add_entrants

pytestmark = pytest.mark.django_db


def _admin_change(tournament: Tournament, admin: Any, settings_json: str,
                  preset: str | None = None) -> Any:
    """POST the tournament's admin change form with every field as stored except the
    rule settings (typed as JSON text)."""
    t = Tournament.objects.get(id=tournament.id)
    data = {"slug": t.slug, "name": t.name, "date": "", "venue": t.venue,
            "capacity": t.capacity, "seed_slots": t.seed_slots, "fee": t.fee,
            "version": t.version_id, "preset": preset or t.preset,
            "preset_settings": settings_json, "status": t.status,
            "lottery_seed": t.lottery_seed, "_save": "保存"}
    if t.two_person_confirmation:
        data["two_person_confirmation"] = "on"
    return client_for(admin).post(f"/admin/brackets/tournament/{t.id}/change/", data)


@pytest.mark.parametrize(("typed", "message"), [
    ('{"r2_size": -4}', "2回戦の人数（惜敗率で補充）は4以上にしてください。"),
    ('{"k7_draw_per": "game"}', "下関カードの抽選単位：選べない値です。"),
    ('{"r3_capacity_a": 10}', "ルールA（10名）とルールB（8名）の合計を3回戦の人数（20名）にし"),
    ('{"no_such_setting": 1}', "このプリセットにない設定です：no_such_setting"),
    ('[1, 2]', "JSONのオブジェクト"),
    ('{"final_wins_needed": "two"}', "決勝の先取勝利数の値が正しくありません。"),
])
def test_admin_refuses_bad_preset_settings(tournament: Tournament, cast: dict[str, Any],
                                           typed: str, message: str) -> None:
    """Tournament.preset_settings was saved from the admin as typed, so a negative round
    size or an unknown choice broke the rounds later; the admin form now shows the rule
    settings screen's Japanese error and saves nothing."""
    from brackets.models import PresetSettingChange

    tournament.preset = "kyushu-cup-ix"
    tournament.save()
    response = _admin_change(tournament, cast["admin"], typed)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert Tournament.objects.get(id=tournament.id).preset_settings == {}
    assert not PresetSettingChange.objects.filter(tournament=tournament).exists()


def test_admin_saves_good_preset_settings_through_the_service(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """A valid value is saved as the settings screen saves it: recorded per key with who
    changed it, and rounds configured but not drawn carry the new rule."""
    from brackets.models import PresetSettingChange

    tournament.preset = "kyushu-cup-ix"
    tournament.save()
    add_entrants(tournament, 16)
    svc.rounds_configure(tournament=tournament, by=cast["organiser"])
    response = _admin_change(tournament, cast["admin"], '{"k7_draw_per": "round"}')
    assert response.status_code == 302
    assert Tournament.objects.get(id=tournament.id).preset_settings == {"k7_draw_per": "round"}
    change = PresetSettingChange.objects.get(tournament=tournament, key="k7_draw_per")
    assert change.by == cast["admin"] and change.new_value == "round"
    assert round_rules(Round.objects.get(tournament=tournament, number=4)).k7_draw_per_round


def test_admin_cannot_change_settings_after_round_one_is_drawn(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """The settings screen refuses changes once round 1 is drawn (past rounds keep their
    rules); the admin did not. Re-saving the same settings stays possible."""
    tournament.preset = "kyushu-cup-ix"
    tournament.save()
    add_entrants(tournament, 16)
    r1 = svc.rounds_configure(tournament=tournament, by=cast["organiser"])[0]
    svc.round_draw(round=r1, by=cast["organiser"])
    response = _admin_change(tournament, cast["admin"], '{"k7_draw_per": "round"}')
    assert response.status_code == 200
    assert "1回戦の抽選後はルール設定を変更できません" in response.content.decode()
    assert Tournament.objects.get(id=tournament.id).preset_settings == {}
    assert _admin_change(tournament, cast["admin"], "{}").status_code == 302
