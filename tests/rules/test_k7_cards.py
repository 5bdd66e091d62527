"""K7 下関ルール・改: the cards are drawn before any selection, what they allow is shown, and a
physical draw is recorded as drawn."""

from __future__ import annotations

import random
from typing import Any

import pytest

from brackets import engine_adapter as ea
from brackets.adapters.rounds import round_rules
from brackets.models import Group, Round, Seat, SelectionFact, SpecialFact, Tournament
from brackets.services import rounds as svc
from tests.conftest import client_for
from tests.printing.world import build_kyushu
from tests.rounds.helpers import add_entrants

pytestmark = pytest.mark.django_db


def _card_round_group(tournament: Tournament, user: Any, per: str = "match") -> Group:
    """A running 九州杯IX round 4 (下関ルール・改, K7) with one four-player group, no cards yet.

    Built directly rather than by playing rounds 1–3: the tests below choose exact sets
    (芸能/四択 …) that a real history could already have banned.
    """
    from brackets.services import preset_settings as pss

    tournament.preset = "kyushu-cup-ix"
    tournament.save()
    if per != "match":
        pss.settings_save(tournament=tournament, by=user, values={"k7_draw_per": per})
    people = add_entrants(tournament, 8)
    svc.rounds_configure(tournament=tournament, by=user)
    r4 = Round.objects.get(tournament=tournament, number=4)
    assert round_rules(r4).cards and round_rules(r4).k7_draw_per_round == (per == "round")
    Round.objects.filter(id=r4.id).update(status=Round.Status.RUNNING)
    groups = []
    for number, label in ((1, "A"), (2, "B")):
        group = Group.objects.create(round=r4, number=number, label=label)
        for n, e in enumerate(people[(number - 1) * 4:number * 4], start=1):
            Seat.objects.create(group=group, number=n, entrant=e)
        groups.append(group)
    return groups[0]


def test_selection_before_the_card_draw_is_refused(tournament: Tournament,
                                                   cast: dict[str, Any]) -> None:
    """In round 4 a tablet could save 芸能/四択 before the 下関 cards were drawn, although
    the cards decide what may be chosen; now the service refuses it in Japanese, saving
    nothing, and accepts a set the drawn cards allow."""
    user = cast["bracket"]
    group = _card_round_group(tournament, user)
    version = Group.objects.get(id=group.id).version
    with pytest.raises(svc.RoundError, match="下関カードがまだ引かれていません") as refused:
        svc.selection_save(group=group, by=user, seat_number=1, genre="芸能", format="四択",
                           difficulty="HARD")
    assert refused.value.field == "cards"
    assert "保存していません" in refused.value.message
    assert not SelectionFact.objects.filter(group=group).exists()
    assert Group.objects.get(id=group.id).version == version

    svc.card_draw(group=group, by=user, cards=[("芸能", "セレクト"), ("社会", "パネル")])
    fact = svc.selection_save(group=Group.objects.get(id=group.id), by=user, seat_number=1,
                              genre="芸能", format="四択", difficulty="HARD")
    assert fact.accepted_illegal is False


def test_one_draw_per_round_unlocks_every_match(tournament: Tournament,
                                                cast: dict[str, Any]) -> None:
    """With k7_draw_per = round the round's one draw (recorded on any match) serves every
    match, so the other matches may select once it exists, and not before."""
    user = cast["bracket"]
    group = _card_round_group(tournament, user, per="round")
    other = Group.objects.get(round=group.round, label="B")
    with pytest.raises(svc.RoundError, match="下関カード"):
        svc.selection_save(group=other, by=user, seat_number=2, genre="社会", format="四択",
                           difficulty="HARD")
    svc.card_draw(group=group, by=user, cards=[("芸能", "セレクト"), ("社会", "パネル")])
    fact = svc.selection_save(group=Group.objects.get(id=other.id), by=user, seat_number=2,
                              genre="社会", format="四択", difficulty="HARD")
    assert fact.group_id == other.id


def test_match_page_waits_for_the_cards(tournament: Tournament, cast: dict[str, Any]) -> None:
    """The match page offered the selection form before the draw; it now says the cards
    come first, and a posted selection is refused with that message (HTTP 400)."""
    user = cast["bracket"]
    group = _card_round_group(tournament, user)
    client = client_for(user)
    url = f"/t/{tournament.slug}/match/{group.id}/"
    html = client.get(url).content.decode()
    assert "下関カードを引くまで出題は登録できません" in html
    assert 'class="selection-form"' not in html
    assert 'name="card_group_1"' in html  # the draw itself is still offered

    response = client.post(f"{url}selection/", {"seat": "1", "set": "芸能|四択",
                                                 "difficulty": "HARD", "key": "k7-selection"})
    assert response.status_code == 400
    assert "下関カードがまだ引かれていません" in response.content.decode()
    assert not SelectionFact.objects.filter(group=group).exists()

    svc.card_draw(group=group, by=user)
    assert SpecialFact.objects.filter(group=group, kind="card_draw").exists()
    html = client.get(url).content.decode()
    assert "下関カードを引くまで出題は登録できません" not in html
    assert 'class="selection-form"' in html


def test_rounds_without_cards_are_not_held_back(tournament: Tournament,
                                                cast: dict[str, Any]) -> None:
    """Only the card round waits for a draw: a round-1 selection saves as before."""
    user = cast["bracket"]
    tournament.preset = "kyushu-cup-ix"
    tournament.save()
    add_entrants(tournament, 8)
    r1 = svc.rounds_configure(tournament=tournament, by=user)[0]
    assert not round_rules(r1).cards
    svc.round_draw(round=r1, by=user)
    group = Group.objects.filter(round=r1).order_by("number").first()
    fact = svc.selection_save(group=group, by=user, seat_number=1, genre="芸能",
                              format="四択", difficulty="HARD")
    assert fact.id


def test_card_draw_says_what_is_allowed_and_where_it_came_from(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """After 「アプリで引く」 the page showed three badges and 「アプリで抽選（round-4/cards/A）」:
    no seed to redo the draw with, no word on why there were three cards, and staff had
    to work out the allowed genres and groups themselves while the players waited."""
    from brackets.models import SpecialFact

    user = cast["bracket"]
    group = _card_round_group(tournament, user)
    client = client_for(user)
    url = f"/t/{tournament.slug}/match/{group.id}/"
    svc.card_draw(group=group, by=user, cards=[("芸能", "セレクト"), ("社会", "パネル")])
    html = client.get(url).content.decode()
    assert "使用可：ジャンル <strong>芸能・社会</strong> ／ 形式群 <strong>セレクト・パネル</strong>" in html
    assert "追加で引いたカード" not in html
    assert "実物の抽選を記録" in html

    other = Group.objects.get(round=group.round, label="B")
    svc.card_draw(group=other, by=user)
    fact = SpecialFact.objects.filter(group=other, kind="card_draw").latest("id")
    cards = fact.data["cards"]
    html = client.get(f"/t/{tournament.slug}/match/{other.id}/").content.decode()
    genres = "・".join(dict.fromkeys(c[0] for c in cards))
    assert f"ジャンル <strong>{genres}</strong>" in html
    assert f"<code>{tournament.lottery_seed}</code> / <code>{fact.lottery_purpose}</code>" in html
    assert ("追加で引いたカード" in html) == (len(cards) > 2)


def _round4_group(tournament: Tournament, user: Any) -> Any:
    """A drawn 九州杯IX round-4 group (K7 cards) with four entrants, built directly."""
    from brackets.models import Group, Round, Seat
    from brackets.services import rounds as svc
    from tests.rounds.helpers import add_entrants

    tournament.preset = "kyushu-cup-ix"
    tournament.save()
    people = add_entrants(tournament, 4)
    svc.rounds_configure(tournament=tournament, by=user)
    r4 = Round.objects.get(tournament=tournament, number=4)
    assert round_rules(r4).cards
    Round.objects.filter(id=r4.id).update(status=Round.Status.RUNNING)
    group = Group.objects.create(round=r4, number=1, label="A")
    for n, e in enumerate(people, start=1):
        Seat.objects.create(group=group, number=n, entrant=e)
    return group


def test_physical_card_form_offers_the_decks_groups(tournament: Tournament,
                                                    cast: dict[str, Any]) -> None:
    """The app could draw a サブジャンル card, but the form to record a physical draw did
    not offer サブジャンル, so such a card could not be recorded."""
    group = _round4_group(tournament, cast["bracket"])
    page = client_for(cast["bracket"]).get(f"/t/{tournament.slug}/match/{group.id}/")
    html = page.content.decode()
    form = html[html.index('name="card_group_1"'):]
    form = form[:form.index("</select>")]
    assert "サブジャンル" in form and "セレクト" in form
    assert "ランダム" not in form


def test_wrong_card_count_is_explained_in_japanese(tournament: Tournament,
                                                   cast: dict[str, Any]) -> None:
    """Two cards sharing a genre answered 「…：3 cards should have been drawn, 2 recorded」."""
    group = _round4_group(tournament, cast["bracket"])
    response = client_for(cast["bracket"]).post(
        f"/t/{tournament.slug}/match/{group.id}/special/",
        {"action": "cards_physical", "card_genre_1": "スポーツ", "card_group_1": "パネル",
         "card_genre_2": "スポーツ", "card_group_2": "キーボード"})
    html = response.content.decode()
    assert response.status_code == 400
    assert "3枚目も" in html
    assert "should have been drawn" not in html


def test_refused_physical_card_draw_keeps_the_cards_staff_picked(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """A refused 下関 physical draw (K7: two cards sharing a genre need a third) came back
    with every select blank; staff had to pick all cards again."""

    from django.utils.html import escape

    from brackets.models import Group, SpecialFact
    from brackets.services import rounds as svc
    from tests.printing.world import play_round

    t = tournament
    user = cast["organiser"]
    build_kyushu(t, user, count=20, seeds=4, upto=2)
    r3 = Round.objects.get(tournament=t, number=3)
    play_round(r3, user, random.Random(3))
    svc.round_advance(round=r3, by=user)
    r4 = Round.objects.get(tournament=t, number=4)
    svc.round_draw(round=r4, by=user)
    group = Group.objects.filter(round=r4).order_by("number").first()
    deck = svc._deck(ea.catalog_for(t.version_id), r4)
    genre = deck[0].genre
    groups = [c.group for c in deck if c.genre == genre]
    first, second = groups[0], next(g for g in groups if g != groups[0])
    staff = client_for(cast["bracket"])
    response = staff.post(f"/t/{t.slug}/match/{group.id}/special/", {
        "action": "cards_physical", "card_genre_1": genre, "card_group_1": first,
        "card_genre_2": genre, "card_group_2": second})
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="cards-error"' in html
    form = html.split('id="cards-physical"')[1].split("</form>")[0]
    for name, value in (("card_genre_1", genre), ("card_group_1", first),
                        ("card_genre_2", genre), ("card_group_2", second)):
        select = form.split(f'name="{name}"')[1].split("</select>")[0]
        assert f"<option selected>{escape(value)}</option>" in select
    assert 'name="card_genre_3"' in form and "<option selected>" not in form.split(
        'name="card_genre_3"')[1].split("</select>")[0]
    assert not SpecialFact.objects.filter(group=group, kind="card_draw").exists()
    half = staff.post(f"/t/{t.slug}/match/{group.id}/special/", {
        "action": "cards_physical", "card_genre_1": genre, "card_group_1": first,
        "card_genre_2": deck[-1].genre})
    assert half.status_code == 400
    assert "カード2はジャンルと形式群の両方を選んでください" in half.content.decode()
