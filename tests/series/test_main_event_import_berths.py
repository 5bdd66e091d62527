"""0-a at the main event's entry file import, as at its desk: a row whose player holds no
berth of the series is listed as refused with the reason in the preview and nothing about
it is stored, unless an organiser records a reason for that row; a berth holder's row is
registered and linked to the registry player it is with certainty."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from brackets.adapters.entrant_files import ImportRefused
from brackets.models import BerthOverride, Entrant, Player, Tournament
from brackets.services.entrant_imports import entrant_import_confirm, entrant_import_create
from tests.conftest import client_for
from tests.series.test_main_event_desk_berths import REFUSAL, _main_event

ROWS = "名前,よみがな,カードネーム,Qレベル\r\n出場権者,しゅつじょうけんしゃ,ケンリ,70\r\n一般人,いっぱんじん,イッパン,40\r\n"


def _upload(tournament: Tournament, cast: dict[str, Any]) -> str:
    batch = entrant_import_create(tournament=tournament, by=cast["desk"],
                                  filename="pre-entry.csv", content=ROWS.encode())
    return batch.token


def test_import_preview_lists_a_row_without_a_berth_as_refused_with_the_reason(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    _series, holder, _other = _main_event(tournament, cast)
    token = _upload(tournament, cast)
    page = client_for(cast["organiser"]).get(
        reverse("desk_import_preview", args=[tournament.slug, token])).content.decode()
    assert REFUSAL in page
    assert 'data-row="3" data-status="error"' in page and 'data-row="2" data-status="new"' in page
    assert 'name="override_3"' in page
    with pytest.raises(ImportRefused):
        entrant_import_confirm(tournament=tournament, token=token, by=cast["desk"])
    assert not Entrant.objects.filter(tournament=tournament).exists()
    outcome = entrant_import_confirm(tournament=tournament, token=token, by=cast["desk"],
                                     skip_errors=True, shown_skipped=[3])
    assert (outcome.created, outcome.skipped) == ([2], [3])
    entrant = Entrant.objects.get(tournament=tournament)
    assert entrant.player_id == holder.pk and not BerthOverride.objects.exists()


def test_organiser_admits_a_row_without_a_berth_with_a_recorded_reason(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    _main_event(tournament, cast)
    token = _upload(tournament, cast)
    with pytest.raises(ImportRefused) as refused:  # the desk cannot decide it
        entrant_import_confirm(tournament=tournament, token=token, by=cast["desk"],
                               berth_overrides={3: "招待選手"})
    assert "主催者だけ" in refused.value.message
    assert not Entrant.objects.filter(tournament=tournament).exists()
    response = client_for(cast["organiser"]).post(
        reverse("desk_import_preview", args=[tournament.slug, token]),
        {"action": "confirm", "skip_errors": "1", "shown_skipped": "3",
         "override_3": "招待選手（主催者判断）"})
    assert response.status_code == 302
    admitted = Entrant.objects.get(tournament=tournament, name="一般人")
    override = BerthOverride.objects.get()
    assert (override.entrant, override.reason, override.by) == (
        admitted, "招待選手（主催者判断）", cast["organiser"])
    assert admitted.player == Player.objects.get(name="一般人")
