"""An organiser withdraws or corrects an achievement entered by hand: the correction is a
fact of its own (who, when, why) that supersedes the row, nothing is deleted, the player's
page shows the history, and the derived duties (3-a lots, the 6-c-iii allowance, H0) and
the entrant's duties in force stop or change counting at once. Every refusal says why (its
wording in brackets/messages.py) and changes nothing."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from brackets.adapters.rounds import round_rules
from brackets.engine import PastWin, format_lots_allowed
from brackets.messages import ERROR_TEXT
from brackets.models import (
    Achievement,
    AchievementCorrection,
    Entrant,
    QmaVersion,
    Round,
    Tournament,
)
from brackets.selectors.duties import in_force_of
from brackets.selectors.registry import eligibility_for, entrant_duties, player_record
from brackets.selectors.registry_sheets import registry_rows
from brackets.services import rounds as svc
from brackets.services.players import achievement_add, player_card_record, player_create
from brackets.services.registry_corrections import achievement_correct, achievement_withdraw
from tests.conftest import client_for
from tests.players.helpers import katata, katata_won_with_four_lots, register, title
from tests.players.test_h0_berth_holders import in_kansai5
from tests.states import use_katata

TITLE = {"kind": "national_title", "title": "賢帝", "game_version": "tg",
         "held_on": datetime.date(2016, 3, 1), "source": "QMA公式 全国大会結果"}


def _titled(cast: dict[str, Any]) -> Any:
    player = player_create(name="称号持ち", reading="しょうごうもち", card_name="ショウゴウ",
                           q_level=70, by=cast["desk"])
    title(player, cast["desk"])
    return player


def _entrant_with_title(tournament: Tournament, cast: dict[str, Any]) -> tuple[Any, Entrant]:
    use_katata(tournament)
    player = _titled(cast)
    entrant = register(tournament, cast["desk"], name=player.name, card="ショウゴウ", q=70,
                       player=player)
    assert in_force_of(entrant).duties.titles == 1
    return player, entrant


def test_a_withdrawn_title_stops_owing_its_lot_and_the_entrant_follows(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    player, entrant = _entrant_with_title(tournament, cast)
    row = Achievement.objects.get(player=player)
    achievement_withdraw(player=player, achievement_id=row.pk, reason="別人の称号だった",
                         by=cast["organiser"])
    duties = entrant_duties(entrant=entrant)
    assert duties is not None and duties.owed is not None and duties.owed.genre_lots == 0
    assert [g.behind for g in duties.grounds if g.ground == "national_title"] == [[]]
    # the lot the registry gave is gone before the draw (derived when read, never copied)
    assert in_force_of(entrant).duties.titles == 0
    correction = AchievementCorrection.objects.get()
    assert (correction.achievement, correction.replacement, correction.reason,
            correction.by) == (row, None, "別人の称号だった", cast["organiser"])
    assert correction.at is not None
    assert Achievement.objects.filter(pk=row.pk).exists()  # never deleted
    assert player_record(player=player).achievements == []


def test_a_value_the_desk_typed_over_the_registry_stays_after_a_withdrawal(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    use_katata(tournament)
    player = _titled(cast)
    entrant = register(tournament, cast["desk"], name=player.name, card="ショウゴウ", q=70,
                       player=player, shura_titles=2)  # the desk knew of a second title
    entrant.refresh_from_db()
    assert entrant.shura_titles == 2
    achievement_withdraw(player=player, achievement_id=Achievement.objects.get().pk,
                         reason="取り下げ", by=cast["organiser"])
    entrant.refresh_from_db()
    assert entrant.shura_titles == 2


def test_a_correction_to_another_version_changes_the_3a_ground(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    player, entrant = _entrant_with_title(tournament, cast)
    old = Achievement.objects.get(player=player)
    new = achievement_correct(player=player, achievement_id=old.pk,
                              data={**TITLE, "game_version": "kiseki"},
                              reason="バージョンの入力誤り", by=cast["organiser"])
    assert new.pk != old.pk and new.game_version == "kiseki"
    correction = AchievementCorrection.objects.get()
    assert (correction.achievement, correction.replacement) == (old, new)
    old.refresh_from_db()
    assert old.game_version == "tg"  # the row as entered, untouched
    duties = entrant_duties(entrant=entrant)
    assert duties is not None and duties.owed is not None and duties.owed.genre_lots == 0
    assert in_force_of(entrant).duties.titles == 0
    assert [a.pk for a in player_record(player=player).achievements] == [new.pk]


def test_a_withdrawn_title_takes_a_past_champion_below_the_6ciii_allowance(
        tournament: Tournament, cast: dict[str, Any], catalog: QmaVersion) -> None:
    """6-c-iii needs 4 genre lots now: title and seed right (3-a-i, iii) and two extra;
    withdrawing the title leaves 3, which takes the allowance from k to 0 at once."""
    first = katata("katata-first", datetime.date(2018, 11, 4), catalog, cast)
    champion = katata_won_with_four_lots(first, cast)
    # 賢者 now (Q50 or more), as 6-c-iii asks.
    player_card_record(player=champion.player, card_name=champion.card_name, q_level=60,
                       by=cast["desk"])
    title(champion.player, cast["desk"])
    achievement_add(player=champion.player, by=cast["desk"], data={
        "kind": "seed_right", "title": "関西杯 シード権", "game_version": "tg",
        "held_on": datetime.date(2016, 8, 1), "source": "関西杯 告知ページ"})
    second = katata("katata-second", datetime.date(2019, 1, 13), catalog, cast)
    entrant = register(second, cast["desk"], name=champion.name, card=champion.card_name,
                       q=60, player=champion.player, shura_extra_lots=2)
    for i in range(8):
        register(second, cast["desk"], name=f"他{i}", card=f"S{i}", q=40)
    svc.rounds_configure(tournament=second, by=cast["organiser"])
    before = entrant_duties(entrant=entrant)
    assert before is not None and before.owed is not None and before.owed.genre_lots == 4
    m = round_rules(Round.objects.get(tournament=second, number=1)).max_matches
    assert before.format_lots == format_lots_allowed(
        [PastWin(4)], q_level=60, genre_lots_now=4, max_matches=m) > 0
    achievement_withdraw(player=champion.player,
                         achievement_id=Achievement.objects.get(player=champion.player,
                                                                kind="national_title").pk,
                         reason="称号は同名の別人", by=cast["organiser"])
    after = entrant_duties(entrant=entrant)
    assert after is not None and after.owed is not None and after.owed.genre_lots == 3
    assert after.format_lots == 0


def test_a_withdrawn_berth_achievement_no_longer_refuses_at_h0(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    use_katata(tournament)
    in_kansai5(tournament)
    player = player_create(name="本戦組", reading="", card_name="ホンセン", q_level=60, by=None)
    row = achievement_add(player=player, by=cast["desk"], data={
        "kind": "main_berth", "title": "本戦出場権", "game_version": "we",
        "held_on": datetime.date(2019, 2, 1), "source": "関西杯5 草津予選 優勝"})
    assert eligibility_for(tournament=tournament, player=player, card_name="ホンセン")
    achievement_withdraw(player=player, achievement_id=row.pk, reason="予選名の誤り",
                         by=cast["organiser"])
    assert eligibility_for(tournament=tournament, player=player, card_name="ホンセン") == []


def test_the_registry_sheet_keeps_the_withdrawn_row_with_its_state(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    player = _titled(cast)
    achievement_withdraw(player=player, achievement_id=Achievement.objects.get().pk,
                         reason="取り下げ", by=cast["organiser"])
    sheets = registry_rows(players=[player])
    assert sheets.players[0]["achievements"] == 0
    assert [(a["title"], a["state"]) for a in sheets.achievements] == [("賢帝", "取り下げ")]


@pytest.mark.parametrize("code,call", [
    ("correction_no_reason", lambda p, a, u: achievement_withdraw(
        player=p, achievement_id=a.pk, reason="  ", by=u)),
    ("correction_reason_long", lambda p, a, u: achievement_withdraw(
        player=p, achievement_id=a.pk, reason="長" * 201, by=u)),
    ("correction_unchanged", lambda p, a, u: achievement_correct(
        player=p, achievement_id=a.pk, data=TITLE, reason="同じ", by=u)),
    ("achievement_no_source", lambda p, a, u: achievement_correct(
        player=p, achievement_id=a.pk, data={**TITLE, "source": ""}, reason="訂正", by=u)),
    ("correction_no_reason", lambda p, a, u: achievement_correct(
        player=p, achievement_id=a.pk, data={**TITLE, "title": "賢王"}, reason="", by=u)),
])
def test_a_refused_correction_says_why_and_changes_nothing(
        tournament: Tournament, cast: dict[str, Any], code: str, call: Any) -> None:
    player = _titled(cast)
    row = Achievement.objects.get()
    with pytest.raises(ValidationError) as refused:
        call(player, row, cast["organiser"])
    wording = ERROR_TEXT[code]
    text = str(wording).split("{")[0]
    assert any(text in m for m in refused.value.messages)
    assert Achievement.objects.count() == 1 and not AchievementCorrection.objects.exists()


def test_a_withdrawn_achievement_cannot_be_withdrawn_or_corrected_again(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    player = _titled(cast)
    row = Achievement.objects.get()
    achievement_withdraw(player=player, achievement_id=row.pk, reason="一度目",
                         by=cast["organiser"])
    for call in (lambda: achievement_withdraw(player=player, achievement_id=row.pk,
                                              reason="二度目", by=cast["organiser"]),
                 lambda: achievement_correct(player=player, achievement_id=row.pk,
                                             data={**TITLE, "title": "賢王"}, reason="訂正",
                                             by=cast["organiser"])):
        with pytest.raises(ValidationError) as refused:
            call()
        assert refused.value.messages == [str(ERROR_TEXT["correction_already_withdrawn"])]
    assert AchievementCorrection.objects.count() == 1 and Achievement.objects.count() == 1


def test_the_page_withdraws_and_shows_the_history(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    player = _titled(cast)
    row = Achievement.objects.get()
    url = reverse("registry_achievement_withdraw", args=[tournament.slug, player.pk, row.pk])
    response = client_for(cast["organiser"]).post(url, {"reason": "出典の大会は別人の記録"})
    assert response.status_code == 302
    page = client_for(cast["organiser"]).get(
        reverse("registry_player", args=[tournament.slug, player.pk]))
    text = page.content.decode()
    assert 'id="achievement-history"' in text
    assert "取り下げ" in text and "出典の大会は別人の記録" in text
    assert cast["organiser"].username in text


def test_the_page_corrects_and_shows_both_rows(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    player = _titled(cast)
    row = Achievement.objects.get()
    url = reverse("registry_achievement_correct", args=[tournament.slug, player.pk, row.pk])
    response = client_for(cast["organiser"]).post(url, {
        "kind": "national_title", "title": "賢王", "game_version": "tg",
        "held_on": "2016-03-01", "source": "QMA公式 全国大会結果", "reason": "称号名の誤り"})
    assert response.status_code == 302
    text = client_for(cast["organiser"]).get(
        reverse("registry_player", args=[tournament.slug, player.pk])).content.decode()
    assert "賢王" in text and "<s>賢帝" in text and "称号名の誤り" in text


def test_the_page_refuses_a_withdrawal_without_a_reason_in_japanese(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    player = _titled(cast)
    row = Achievement.objects.get()
    url = reverse("registry_achievement_withdraw", args=[tournament.slug, player.pk, row.pk])
    response = client_for(cast["organiser"]).post(url, {"reason": ""})
    assert response.status_code == 422
    assert str(ERROR_TEXT["correction_no_reason"]) in response.content.decode()
    assert not AchievementCorrection.objects.exists()


def test_desk_staff_cannot_withdraw(tournament: Tournament, cast: dict[str, Any]) -> None:
    player = _titled(cast)
    row = Achievement.objects.get()
    url = reverse("registry_achievement_withdraw", args=[tournament.slug, player.pk, row.pk])
    assert client_for(cast["desk"]).post(url, {"reason": "理由"}).status_code == 403
    assert not AchievementCorrection.objects.exists()
