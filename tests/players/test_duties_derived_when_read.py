"""3-a duties are derived from the registry whenever they are read, never copied at
registration: an achievement recorded after a player registered reaches the desk list, the
desk's entrant page, the 修羅 page and the usage card without any button. Once the lots are
drawn (or round 1 is), what was drawn stays: a duty the record gives only later is shown to
staff as a warning and changes nothing."""

from __future__ import annotations

import datetime
from typing import Any

from django.urls import reverse

from brackets.models import Entrant, Round, SpecialFact, Tournament
from brackets.printing.usage_cards import usage_cards
from brackets.selectors.duties import in_force_of
from brackets.services import rounds as svc
from brackets.services.players import achievement_add, player_create
from tests.conftest import client_for
from tests.floor.helpers import draw_released
from tests.players.helpers import register, title
from tests.states import KATATA_Q_LEVELS, use_katata

WARNING = "修羅くじの抽選後に登録簿へ記録された内容があります"


def _field(tournament: Tournament, cast: dict[str, Any]) -> tuple[Entrant, Entrant]:
    """堅田 at the desk: a returning FREE-rank player with no achievement on record yet, a
    second registry player, and eleven others; the rounds configured."""
    use_katata(tournament)
    subject = player_create(name="後日判明", reading="ごじつはんめい", card_name="ゴジツ",
                            q_level=40, by=cast["desk"])
    late = player_create(name="抽選後判明", reading="ちゅうせんごはんめい", card_name="チュウセン",
                         q_level=45, by=cast["desk"])
    a = register(tournament, cast["desk"], name=subject.name, card="ゴジツ", q=40, player=subject)
    b = register(tournament, cast["desk"], name=late.name, card="チュウセン", q=45, player=late)
    for i, q in enumerate(KATATA_Q_LEVELS[:11]):
        register(tournament, cast["desk"], name=f"他{i}", card=f"T{i:02d}", q=q)
    svc.rounds_configure(tournament=tournament, by=cast["organiser"])
    return a, b


def _seed_right(player: Any, user: Any) -> None:
    achievement_add(player=player, by=user, data={
        "kind": "seed_right", "title": "関西杯 シード権", "game_version": "tg",
        "held_on": datetime.date(2016, 9, 1), "source": "関西杯 告知ページ"})


def _card_of(tournament: Tournament, entrant: Entrant) -> Any:
    _name, cards = usage_cards(tournament, 1)
    return next(c for c in cards if c.card_name == entrant.card_name)


def test_an_achievement_added_after_registration_changes_the_lots_owed_without_a_button(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    entrant, _other = _field(tournament, cast)
    desk = client_for(cast["desk"])
    edit = reverse("desk_entrant_edit", args=[tournament.slug, entrant.pk])
    assert 'data-lots-owed="0"' in desk.get(edit).content.decode()
    assert "修羅 くじ1本" not in desk.get(reverse("desk", args=[tournament.slug])).content.decode()

    title(entrant.player, cast["desk"])  # recorded on the player's page, after registration

    assert "修羅 くじ1本" in desk.get(reverse("desk", args=[tournament.slug])).content.decode()
    page = desk.get(edit).content.decode()
    assert 'data-lots-owed="1"' in page and "賢帝" in page
    shura = desk.get(reverse("shura_desk", args=[tournament.slug])).content.decode()
    assert "登録簿から再計算" not in shura  # nothing to press: the page reads the record
    assert f'<td class="text-nowrap fw-bold">{entrant.name}</td>\n<td class="text-nowrap">1</td>' \
        in shura
    entrant.refresh_from_db()
    assert entrant.shura_titles == 0  # nothing copied into what the desk typed

    fact = svc.shura_lots_draw(tournament=tournament, entrant=entrant, by=cast["desk"])
    assert len(fact.data["genres"]) == 1 and fact.data["reasons"] == ["national_title"]
    draw_released(Round.objects.get(tournament=tournament, number=1), cast["organiser"])
    card = _card_of(tournament, entrant)
    assert "修羅" in card.mode
    assert ("修羅くじ（大会中使用不可）", fact.data["genres"][0]) in card.remaining


def test_after_the_lottery_drawn_lots_stay_and_a_later_duty_is_a_warning(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    entrant, late = _field(tournament, cast)
    title(entrant.player, cast["desk"])
    fact = svc.shura_lots_draw(tournament=tournament, entrant=entrant, by=cast["desk"])

    _seed_right(entrant.player, cast["desk"])  # the record gains a seed right after the lottery
    now = in_force_of(entrant)
    assert now.owed is not None and now.owed.genre_lots == 1
    assert now.later is not None and now.later.invited
    desk = client_for(cast["desk"])
    shura = desk.get(reverse("shura_desk", args=[tournament.slug])).content.decode()
    assert WARNING in shura and "ジャンルくじ 1本 → 2本" in shura
    edit = desk.get(reverse("desk_entrant_edit", args=[tournament.slug, entrant.pk]))
    assert WARNING in edit.content.decode()
    # A corrected draw uses the duty in force at the lottery.
    again = svc.shura_lots_draw(tournament=tournament, entrant=entrant, by=cast["desk"],
                                genres=[fact.data["genres"][0]])
    assert again.data["reasons"] == ["national_title"]

    draw_released(Round.objects.get(tournament=tournament, number=1), cast["organiser"])
    title(late.player, cast["desk"])  # round 1 drawn: no lot can be drawn any more
    after = in_force_of(late)
    assert after.owed is not None and not after.owed.shura
    assert after.later is not None and after.later.titles == 1
    card = _card_of(tournament, late)
    assert "修羅" not in card.mode
    shura = desk.get(reverse("shura_desk", args=[tournament.slug])).content.decode()
    assert f'data-duty-warning="{late.pk}"' in shura
    assert SpecialFact.objects.filter(entrant=late).count() == 0
    assert len(_card_of(tournament, entrant).remaining[-1][1].split("・")) == 1


def _grounds(*kinds: str) -> Any:
    from brackets.engine import Achievement, shura_grounds

    return shura_grounds([Achievement(f"a{i}", kind, "tg", "2016-01-01", "出典")
                          for i, kind in enumerate(kinds)])


def test_the_combination_rule_only_adds_to_the_desk_and_overrides_have_the_last_word() -> None:
    from brackets.engine import CardRecord, DeskDuties, RecordGives, duties_in_force

    typed = DeskDuties(titles=1, local_wins=0, invited=False, volunteer=True, extra_lots=1,
                       past_win_lots=5, q_level=60)
    record = RecordGives(grounds=_grounds("shiga_win", "shiga_win", "seed_right"),
                         highest=CardRecord("サブ", 85), past_win_lots=4)
    combined = duties_in_force(typed, record)
    assert combined == DeskDuties(titles=1, local_wins=2, invited=True, volunteer=True,
                                  extra_lots=1, past_win_lots=5, q_level=85)
    assert duties_in_force(typed, None) == typed  # nothing on record: the desk's typing
    overridden = duties_in_force(typed, record, {"national_title": 0, "seed_or_invitation": 0,
                                                 "past_win_lots": 3})
    assert (overridden.titles, overridden.invited, overridden.past_win_lots) == (0, False, 3)
    assert duties_in_force(DeskDuties(), None, {"shiga_winner": 1}).local_wins == 1


def test_a_withdrawal_after_the_lottery_keeps_the_drawn_duty_and_shows_as_a_later_change(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """The lots were drawn while the title was in force: withdrawing it afterwards leaves
    the duty they were drawn under, and the change reaches staff as the warning."""
    from brackets.models import Achievement
    from brackets.services.registry_corrections import achievement_withdraw

    entrant, _late = _field(tournament, cast)
    title(entrant.player, cast["desk"])
    svc.shura_lots_draw(tournament=tournament, entrant=entrant, by=cast["desk"])

    achievement_withdraw(player=entrant.player, reason="別人の称号だった", by=cast["organiser"],
                         achievement_id=Achievement.objects.get(player=entrant.player).pk)
    now = in_force_of(entrant)
    assert now.duties.titles == 1 and now.owed is not None and now.owed.genre_lots == 1
    assert now.later is not None and now.later.titles == 0
