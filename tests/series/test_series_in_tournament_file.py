"""#14 items 5 and 6: the tournament file (version 3) carries the tournament's series, its
part in it and the series' hand-granted berths. Imported elsewhere it joins the series of
the same slug (created if absent), never records a granted place twice, and refuses a
series that contradicts the server's; versions 1 and 2 still import. Round trip: every
tournament of a series exported and imported into an empty database shows the same series
page."""

from __future__ import annotations

import datetime
import json
from typing import Any

import pytest
from django.urls import reverse

from brackets.exporters.tournament_file import (
    TournamentFileError,
    checksum,
    tournament_file_export,
    tournament_file_import,
)
from brackets.hosted.receive import tournament_replace_delete
from brackets.models import (
    Entrant,
    Player,
    QmaVersion,
    Series,
    SeriesBerthGrant,
    Tournament,
)
from brackets.selectors.series import series_of
from brackets.services.players import player_create
from brackets.services.series import berth_grant, tournament_series_set
from tests.conftest import client_for
from tests.players.helpers import register
from tests.series.helpers import forget_everything, kansai5, play, pool, qualifier
from tests.states import use_katata

OTSU = {"qualifier": "大津予選", "held_on": datetime.date(2019, 1, 5), "place": 1,
        "source": "大津予選の結果ページ"}


def export(t: Tournament) -> dict[str, Any]:
    return json.loads(tournament_file_export(tournament=t))


def stamped(data: dict[str, Any]) -> str:
    data.pop("checksum", None)
    data["checksum"] = checksum(data)
    return json.dumps(data, ensure_ascii=False)


def otsu_winner(series: Series, cast: dict[str, Any]) -> Player:
    """A berth won at a qualifier run elsewhere: its holder entered no tournament here."""
    holder = player_create(name="大津の覇者", reading="おおつのはしゃ", card_name="OTSU",
                           q_level=80, by=cast["desk"])
    berth_grant(series=series, player=holder, by=cast["organiser"], **OTSU)
    return holder


def berth_lists(series_slug: str) -> str:
    """The public series page from its title to the eligible players: every qualifier with
    its berth winners, the main event, who is still eligible."""
    html = client_for(None).get(reverse("public_series", args=[series_slug])).content.decode()
    start = html.index("<h1")
    return html[start:html.index("</ul>", html.index('id="series-eligible"'))]


@pytest.fixture
def small_series(tournament: Tournament, cast: dict[str, Any], catalog: QmaVersion
                 ) -> dict[str, Any]:
    """関西杯5: one qualifier with two registered players, the main event, and a berth
    granted by hand for a qualifier run elsewhere."""
    series = kansai5(cast)
    q1 = qualifier(series, "katata-1", datetime.date(2019, 1, 13), catalog, cast)
    walker = player_create(name="まだの人", reading="まだのひと", card_name="MADA", q_level=50,
                           by=cast["desk"])
    register(q1, cast["desk"], name=walker.name, card="MADA", q=50, player=walker)
    use_katata(tournament)
    tournament_series_set(tournament=tournament, series=series, role="main")
    return {"series": series, "q1": q1, "main": tournament,
            "holder": otsu_winner(series, cast), "walker": walker}


def test_the_file_names_the_series_the_role_and_the_hand_granted_berths(
        small_series: dict[str, Any]) -> None:
    data = export(small_series["q1"])
    assert data["version"] == 4
    section = data["series"]
    assert {k: section[k] for k in ("slug", "name", "game_version", "role")} == {
        "slug": "kansai-cup-5", "name": "関西杯5", "game_version": "we", "role": "qualifier"}
    grant = section["grants"][0]
    assert {k: grant[k] for k in ("qualifier", "held_on", "place", "source", "by")} == {
        "qualifier": "大津予選", "held_on": "2019-01-05", "place": 1,
        "source": "大津予選の結果ページ", "by": "org"}
    assert grant["at"].endswith("+00:00")
    # The holder entered no tournament here, yet the registry carries them for the grant.
    holder = next(p for p in data["registry"]["player"] if p["id"] == grant["player"])
    assert holder["name"] == "大津の覇者"
    assert export(small_series["main"])["series"]["role"] == "main"


def test_a_tournament_in_no_series_has_no_series_section(tournament: Tournament) -> None:
    assert "series" not in export(tournament)


def test_the_berth_count_travels_as_the_qualifiers_preset_setting(
        small_series: dict[str, Any]) -> None:
    q1 = small_series["q1"]
    Tournament.objects.filter(pk=q1.pk).update(preset_settings={"berths": 2})
    data = export(Tournament.objects.get(pk=q1.pk))
    forget_everything()
    imported = tournament_file_import(data=json.dumps(data, ensure_ascii=False))
    from brackets.adapters.series import berths_of

    assert berths_of(imported) == 2


def test_an_import_joins_the_series_of_the_same_slug_and_never_grants_a_place_twice(
        small_series: dict[str, Any], cast: dict[str, Any], catalog: QmaVersion) -> None:
    """The venue's file of a new qualifier meets the series server, which already has the
    series, its main event and the 大津 berth."""
    series = small_series["series"]
    q2 = qualifier(series, "katata-2", datetime.date(2019, 2, 10), catalog, cast)
    data = export(q2)
    tournament_replace_delete(q2)
    imported = tournament_file_import(data=json.dumps(data, ensure_ascii=False),
                                      by=cast["organiser"])
    member = series_of(tournament=imported)
    assert member is not None and (member.series.pk, member.role) == (series.pk, "qualifier")
    assert SeriesBerthGrant.objects.count() == 1
    assert Series.objects.count() == 1


def test_a_server_without_the_series_creates_it_and_records_the_grants_with_who_and_when(
        small_series: dict[str, Any]) -> None:
    data = export(small_series["q1"])
    granted_at = data["series"]["grants"][0]["at"]
    forget_everything()
    imported = tournament_file_import(data=json.dumps(data, ensure_ascii=False))
    series = Series.objects.get(slug="kansai-cup-5")
    assert (series.name, series.game_version) == ("関西杯5", "we")
    assert list(series.qualifiers.all()) == [imported]
    grant = SeriesBerthGrant.objects.get()
    assert (grant.series, grant.qualifier, grant.place, grant.source, grant.by.username) == (
        series, "大津予選", 1, "大津予選の結果ページ", "org")
    assert grant.at.isoformat() == granted_at
    assert grant.player.name == "大津の覇者" and grant.player.cards.get().card_name == "OTSU"


@pytest.mark.parametrize(("edit", "where", "why"), [
    (lambda s: s.update(role="main"), "series.role", "既に本戦"),
    (lambda s: s.update(game_version="tg"), "series.game_version", "のシリーズです"),
    (lambda s: s.update(slug="kansai-cup-5b"), "series.name", "別のシリーズ"),
])
def test_a_file_contradicting_the_servers_series_is_refused_and_changes_nothing(
        small_series: dict[str, Any], cast: dict[str, Any], catalog: QmaVersion,
        edit: Any, where: str, why: str) -> None:
    """A second main event, the series under another game version, or its name under
    another identifier: the import says why and writes nothing."""
    q2 = qualifier(small_series["series"], "katata-2", datetime.date(2019, 2, 10), catalog, cast)
    data = export(q2)
    tournament_replace_delete(q2)
    edit(data["series"])
    before = (Tournament.objects.count(), Series.objects.count(),
              SeriesBerthGrant.objects.count(), Player.objects.count())
    with pytest.raises(TournamentFileError) as refused:
        tournament_file_import(data=stamped(data))
    assert refused.value.where == where
    assert why in refused.value.message
    assert (Tournament.objects.count(), Series.objects.count(),
            SeriesBerthGrant.objects.count(), Player.objects.count()) == before


@pytest.mark.parametrize(("edit", "where"), [
    (lambda s: s["grants"][0].update(source=" "), "series.grants[0].source"),
    (lambda s: s["grants"][0].update(place=0), "series.grants[0].place"),
    (lambda s: s["grants"][0].update(held_on="5 Jan"), "series.grants[0].held_on"),
    (lambda s: s["grants"][0].update(player=99), "series.grants[0].player"),
    (lambda s: s.update(role="final"), "series.role"),
    (lambda s: s.update(slug="関西"), "series.slug"),
    (lambda s: s.update(withdrawn=[]), "series"),
])
def test_a_malformed_series_section_refuses_the_whole_import(
        small_series: dict[str, Any], edit: Any, where: str) -> None:
    data = export(small_series["q1"])
    forget_everything()
    edit(data["series"])
    with pytest.raises(TournamentFileError) as refused:
        tournament_file_import(data=stamped(data))
    assert refused.value.where == where
    assert "ファイルが壊れています" in refused.value.message
    assert not Tournament.objects.exists() and not Series.objects.exists()
    assert not Player.objects.exists()


def test_a_file_of_version_2_imports_into_no_series(small_series: dict[str, Any]) -> None:
    data = export(small_series["q1"])
    forget_everything()
    data["version"] = 2
    data.pop("series")
    imported = tournament_file_import(data=stamped(data))
    assert series_of(tournament=imported) is None
    assert Entrant.objects.get(tournament=imported).player.name == "まだの人"


def test_a_series_exported_and_imported_into_an_empty_database_shows_the_same_page(
        tournament: Tournament, cast: dict[str, Any], catalog: QmaVersion) -> None:
    """Two qualifiers played to the end (the second grants two berths), a berth granted by
    hand, the main event: the page's berth lists and eligible players are the same after
    the files travelled."""
    series = kansai5(cast)
    otsu_winner(series, cast)
    players = pool(13)
    q1 = qualifier(series, "katata-1", datetime.date(2019, 1, 13), catalog, cast)
    first = play(q1, players, cast)
    q2 = qualifier(series, "katata-2", datetime.date(2019, 2, 10), catalog, cast)
    Tournament.objects.filter(pk=q2.pk).update(preset_settings={"berths": 2})
    play(q2, [p for p in players if p != first], cast, seed=6)
    use_katata(tournament)
    tournament_series_set(tournament=tournament, series=series, role="main")
    venue_page = berth_lists(series.slug)
    assert venue_page.count('class="berth"') == 4  # 大津, q1's champion, q2's two
    files = [export(t) for t in (q1, q2, tournament)]

    forget_everything()
    for data in files:
        tournament_file_import(data=json.dumps(data, ensure_ascii=False))

    assert berth_lists(series.slug) == venue_page
    assert SeriesBerthGrant.objects.count() == 1
