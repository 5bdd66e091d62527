"""3-a-i…iii and 2-d at a 堅田 desk, from the registry alone: a returning player's lots
owed, with the achievement behind each, are derived by the engine and drawn without a
修羅 declaration typed by hand; an organiser's override is recorded with its reason."""

from __future__ import annotations

import datetime
from typing import Any

from django.urls import reverse

from brackets.models import DutyOverride, Entrant, EntrantRevision, SpecialFact, Tournament
from brackets.selectors.duties import in_force_of
from brackets.selectors.registry import entrant_duties
from brackets.services import rounds as svc
from brackets.services.players import achievement_add, player_card_record, player_create
from tests.conftest import client_for
from tests.players.helpers import register, title
from tests.states import use_katata


def _record(cast: dict[str, Any]) -> Any:
    player = player_create(name="修羅太郎", reading="しゅらたろう", card_name="シュラ",
                           q_level=55, by=cast["desk"])
    player_card_record(player=player, card_name="シュラ2", q_level=82, by=cast["desk"])
    title(player, cast["desk"], "we")
    day = datetime.date(2016, 8, 1)
    achievement_add(player=player, by=cast["desk"], data={
        "kind": "shiga_win", "title": "大津大会 優勝", "game_version": "tg", "held_on": day,
        "source": "大会ブログ", "limited": "tag"})  # a tag event: 3-a-ii excludes it
    achievement_add(player=player, by=cast["desk"], data={
        "kind": "seed_right", "title": "関西杯 シード権", "game_version": "tg", "held_on": day,
        "source": "関西杯 告知ページ"})
    return player


def test_3a_lots_owed_from_the_record_with_the_achievement_behind_each(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    use_katata(tournament)
    player = _record(cast)
    entrant = register(tournament, cast["desk"], name="修羅太郎", card="シュラ", q=55,
                       player=player)
    duties = entrant_duties(entrant=entrant)
    assert duties is not None and duties.owed is not None
    assert duties.owed.genre_lots == 2
    assert duties.owed.reasons == ("national_title", "seed_or_invitation")
    held = {g.ground: [a.title for a in g.behind] for g in duties.grounds}
    assert held == {"national_title": ["賢帝"], "shiga_winner": [],
                    "seed_or_invitation": ["関西杯 シード権"]}
    duties_now = in_force_of(entrant).duties
    assert (duties_now.titles, duties_now.local_wins, duties_now.invited) == (1, 0, True)
    # Derived when read, never copied: the desk's fields keep what the desk typed.
    entrant.refresh_from_db()
    assert (entrant.shura_titles, entrant.shura_local_wins, entrant.shura_invited) == (0, 0, False)
    assert not EntrantRevision.objects.filter(entrant=entrant, action="registry").exists()


def test_2d_mode_from_the_highest_card_not_the_card_played(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    use_katata(tournament)
    entrant = register(tournament, cast["desk"], name="修羅太郎", card="シュラ", q=55,
                       player=_record(cast))
    assert in_force_of(entrant).duties.q_level == 82
    duties = entrant_duties(entrant=entrant)
    assert duties is not None and duties.mode == "ボンバーマン"
    assert duties.highest is not None and duties.highest.card_name == "シュラ2"


def test_3a_lots_are_drawn_without_a_typed_declaration(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    use_katata(tournament)
    entrant = register(tournament, cast["desk"], name="修羅太郎", card="シュラ", q=55,
                       player=_record(cast))
    for i in range(6):
        register(tournament, cast["desk"], name=f"他{i}", card=f"T{i}", q=40)
    svc.rounds_configure(tournament=tournament, by=cast["organiser"])
    entrant.refresh_from_db()
    fact = svc.shura_lots_draw(tournament=tournament, entrant=entrant, by=cast["desk"])
    assert len(fact.data["genres"]) == 2
    page = client_for(cast["desk"]).get(reverse("shura_desk", args=[tournament.slug]))
    text = page.content.decode()
    assert "登録簿から導いた判定" in text and "関西杯 シード権" in text and "大会ブログ" not in text


def test_organiser_override_is_recorded_with_its_reason_and_applied(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    use_katata(tournament)
    entrant = register(tournament, cast["desk"], name="修羅太郎", card="シュラ", q=55,
                       player=_record(cast))
    url = reverse("shura_override", args=[tournament.slug])
    client = client_for(cast["organiser"])
    client.post(url, {"entrant": entrant.pk, "ground": "seed_or_invitation", "value": "0",
                      "reason": "シード権は辞退済み（本人申告・告知で確認）"})
    row = DutyOverride.objects.get()
    assert (row.value, row.by, row.reason) == (0, cast["organiser"],
                                               "シード権は辞退済み（本人申告・告知で確認）")
    assert in_force_of(entrant).duties.invited is False
    duties = entrant_duties(entrant=entrant)
    assert duties is not None and duties.owed is not None and duties.owed.genre_lots == 1
    page = client.get(reverse("shura_desk", args=[tournament.slug])).content.decode()
    assert "主催者が変更" in page and "シード権は辞退済み" in page


def test_override_without_a_reason_is_refused_and_changes_nothing(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    use_katata(tournament)
    entrant = register(tournament, cast["desk"], name="修羅太郎", card="シュラ", q=55,
                       player=_record(cast))
    client = client_for(cast["organiser"])
    response = client.post(reverse("shura_override", args=[tournament.slug]),
                           {"entrant": entrant.pk, "ground": "national_title", "value": "0",
                            "reason": ""}, follow=True)
    assert "変更の理由を入力してください。" in response.content.decode()
    assert not DutyOverride.objects.exists()
    assert in_force_of(entrant).duties.titles == 1


def test_override_after_the_lots_are_drawn_is_refused(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    use_katata(tournament)
    entrant = register(tournament, cast["desk"], name="修羅太郎", card="シュラ", q=55,
                       player=_record(cast))
    for i in range(6):
        register(tournament, cast["desk"], name=f"他{i}", card=f"T{i}", q=40)
    svc.rounds_configure(tournament=tournament, by=cast["organiser"])
    svc.shura_lots_draw(tournament=tournament, entrant=Entrant.objects.get(pk=entrant.pk),
                        by=cast["desk"])
    response = client_for(cast["organiser"]).post(
        reverse("shura_override", args=[tournament.slug]),
        {"entrant": entrant.pk, "ground": "national_title", "value": "0", "reason": "誤り"},
        follow=True)
    assert "修羅くじを引いた後のため変更できません" in response.content.decode()
    assert not DutyOverride.objects.exists()
    assert SpecialFact.objects.filter(entrant=entrant).count() == 1


def test_the_registry_adds_to_a_declaration_typed_at_the_desk_and_never_lowers_it(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """A new player's record knows nothing yet: what the desk typed (a title, a Shiga win,
    an invitation, a past win's lots) stays; a returning player's record adds its grounds."""
    use_katata(tournament)
    typed = register(tournament, cast["desk"], name="新人", card="シンジン", q=40,
                     shura_titles=1, shura_local_wins=2, shura_invited=True, past_win_lots=5)
    now = in_force_of(typed).duties
    assert (now.titles, now.local_wins, now.invited, now.past_win_lots, now.q_level) == (
        1, 2, True, 5, 40)
    returning = register(tournament, cast["desk"], name="修羅太郎", card="シュラ", q=55,
                         player=_record(cast), shura_local_wins=1)
    now = in_force_of(returning).duties
    # The record's national title and seed right are added; the typed Shiga win stays
    # (the record's is a tag event, which 3-a-ii excludes); 2-d raises Q to the highest card.
    assert (now.titles, now.local_wins, now.invited, now.q_level) == (1, 1, True, 82)
