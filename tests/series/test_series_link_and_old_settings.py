"""The tournament's series is chosen on its settings form (at most one series, one main
event per series), and 堅田 tournaments saved with the former ``series`` setting become
qualifiers of that series (migration 0017_series)."""

from __future__ import annotations

import datetime
import importlib
from typing import Any

from django.apps import apps
from django.urls import reverse

from brackets.models import PresetSettingChange, QmaVersion, Series, Tournament
from brackets.selectors.series import series_of
from brackets.services.series import series_create, tournament_series_set
from tests.conftest import client_for
from tests.states import KATATA


def _settings_post(t: Tournament, **extra: Any) -> dict[str, Any]:
    return {"name": t.name, "slug": t.slug, "date": t.date.isoformat() if t.date else "",
            "venue": t.venue, "capacity": t.capacity, "seed_slots": t.seed_slots,
            "fee": t.fee, "version": t.version_id, "preset": t.preset, "status": t.status,
            **extra}


def test_settings_form_puts_the_tournament_in_one_series(tournament: Tournament,
                                                         cast: dict[str, Any]) -> None:
    s5 = series_create(name="関西杯5", slug="kansai-cup-5", game_version="we", by=None)
    s6 = series_create(name="関西杯6", slug="kansai-cup-6", game_version="we", by=None)
    url = reverse("tournament_edit", args=[tournament.slug])
    org = client_for(cast["organiser"])
    assert org.post(url, _settings_post(tournament, series=s5.pk,
                                        series_role="qualifier")).status_code == 302
    assert series_of(tournament=tournament) is not None
    assert org.post(url, _settings_post(tournament, series=s6.pk,
                                        series_role="main")).status_code == 302
    member = series_of(tournament=tournament)
    assert member is not None and (member.series, member.role) == (s6, "main")
    assert not s5.qualifiers.exists()  # moved, not in two series


def test_a_second_main_event_is_refused_and_nothing_changes(
        tournament: Tournament, other_tournament: Tournament, cast: dict[str, Any]) -> None:
    s5 = series_create(name="関西杯5", slug="kansai-cup-5", game_version="we", by=None)
    tournament_series_set(tournament=other_tournament, series=s5, role="main")
    url = reverse("tournament_edit", args=[tournament.slug])
    refused = client_for(cast["organiser"]).post(url, _settings_post(
        tournament, series=s5.pk, series_role="main", venue="変えた店"))
    assert refused.status_code == 200
    assert "には既に本戦（別の大会）があります" in refused.content.decode()
    tournament.refresh_from_db()
    assert tournament.venue == "テスト店" and series_of(tournament=tournament) is None


def test_the_organiser_creates_a_series_from_the_tournament(tournament: Tournament,
                                                            cast: dict[str, Any]) -> None:
    url = reverse("series_index", args=[tournament.slug])
    org = client_for(cast["organiser"])
    created = org.post(url, {"name": "関西杯5", "slug": "kansai-cup-5", "game_version": "we"})
    assert created.status_code == 302
    series = Series.objects.get()
    assert list(series.qualifiers.all()) == [tournament] and series.by == cast["organiser"]
    again = org.post(url, {"name": "関西杯5", "slug": "kansai-cup-5", "game_version": "xx"})
    assert again.status_code == 422
    text = again.content.decode()
    assert "バージョンを選択肢から選んでください。" in text
    assert Series.objects.count() == 1


def test_former_series_settings_become_series_links(catalog: QmaVersion) -> None:
    migration = importlib.import_module("brackets.migrations.0017_series")
    default = Tournament.objects.create(slug="k1", name="堅田1", version=catalog, preset=KATATA,
                                        date=datetime.date(2019, 1, 13))
    changed = Tournament.objects.create(slug="k2", name="堅田2", version=catalog, preset=KATATA,
                                        preset_settings={"series": "関西杯6", "max_lots": 3})
    other = Tournament.objects.create(slug="s1", name="店舗大会", version=catalog)
    migration.series_from_settings(apps, None)
    assert list(Series.objects.get(name="関西杯5").qualifiers.all()) == [default]
    assert Series.objects.get(slug="kansai-cup-5").name == "関西杯5"
    assert list(Series.objects.get(name="関西杯6").qualifiers.all()) == [changed]
    changed.refresh_from_db()
    assert changed.preset_settings == {"max_lots": 3}
    change = PresetSettingChange.objects.get(tournament=changed)
    assert (change.key, change.old_value, change.reset) == ("series", "関西杯6", True)
    assert series_of(tournament=other) is None
