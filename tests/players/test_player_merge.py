"""An organiser merges two duplicate records of one person; the merge is recorded (who,
when, which two, why), never silent, and refused with the reason when both played one
tournament."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from brackets.models import Player, PlayerMerge, Tournament
from brackets.selectors.registry import player_lookup, player_record
from brackets.services.players import player_create
from tests.conftest import client_for
from tests.players.helpers import register


def _pair(cast: dict[str, Any]) -> tuple[Player, Player]:
    a = player_create(name="山田", reading="やまだ", card_name="ヤマダ", q_level=70, by=cast["desk"])
    b = player_create(name="山田", reading="やまだ", card_name="ヤマダ2", q_level=40, by=cast["desk"])
    return a, b


def test_merge_is_recorded_with_who_when_which_two_and_why(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    kept, dup = _pair(cast)
    response = client_for(cast["organiser"]).post(
        reverse("registry_merge", args=[tournament.slug, kept.pk]),
        {"merged": str(dup.pk), "reason": "同じ人（本人に確認）"})
    assert response.status_code == 302
    merge = PlayerMerge.objects.get()
    assert (merge.kept, merge.merged, merge.reason, merge.by) == (kept, dup, "同じ人（本人に確認）",
                                                                  cast["organiser"])
    assert merge.at is not None
    record = player_record(player=kept)
    assert sorted(c.card_name for c in record.cards) == ["ヤマダ", "ヤマダ2"]
    assert [m.player.pk for m in player_lookup(card_name="ヤマダ2")] == [kept.pk]
    page = client_for(cast["desk"]).get(reverse("registry_player", args=[tournament.slug, dup.pk]))
    assert page.status_code == 302  # the duplicate is read as the player it was merged into


def test_merge_of_two_players_of_one_tournament_is_refused_and_changes_nothing(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    kept, dup = _pair(cast)
    register(tournament, cast["desk"], name="山田", card="ヤマダ", q=70, player=kept)
    register(tournament, cast["desk"], name="山田", card="ヤマダ2", q=40, player=dup)
    response = client_for(cast["organiser"]).post(
        reverse("registry_merge", args=[tournament.slug, kept.pk]),
        {"merged": str(dup.pk), "reason": "重複"})
    assert response.status_code == 422
    text = response.content.decode()
    assert "同じ大会（九州杯IX）に別々に出場しているため、同一人物として統合できません" in text
    assert not PlayerMerge.objects.exists()


def test_merge_without_a_reason_is_refused(tournament: Tournament, cast: dict[str, Any]) -> None:
    kept, dup = _pair(cast)
    response = client_for(cast["organiser"]).post(
        reverse("registry_merge", args=[tournament.slug, kept.pk]), {"merged": str(dup.pk)})
    assert response.status_code == 422
    assert "統合の理由を入力してください。" in response.content.decode()
    assert not PlayerMerge.objects.exists()


def test_desk_staff_cannot_merge(tournament: Tournament, cast: dict[str, Any]) -> None:
    kept, dup = _pair(cast)
    response = client_for(cast["desk"]).post(
        reverse("registry_merge", args=[tournament.slug, kept.pk]),
        {"merged": str(dup.pk), "reason": "重複"})
    assert response.status_code == 403
    assert not PlayerMerge.objects.exists()
