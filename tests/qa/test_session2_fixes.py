"""QA regressions, second session: K7 selections before the 下関 draw, the player page's
「まだ選べるもの」 after the final's history reset (K10), and the admin's preset settings.

Each test names what a person saw, so a later change that brings it back fails here.
"""

from __future__ import annotations

from typing import Any

import pytest

from brackets.adapters.rounds import round_rules
from brackets.models import Group, Round, Seat, SelectionFact, SpecialFact, Tournament
from brackets.services import rounds as svc
from tests.conftest import client_for
from tests.rounds.helpers import add_entrants

pytestmark = pytest.mark.django_db


# ------------------------------------------------------------ K7: cards before selections


def _card_round_group(tournament: Tournament, user: Any, per: str = "match") -> Group:
    """A running 九州杯IX round 4 (下関ルール・改, K7) with one four-player group, no cards yet.

    Built directly (as the other QA tests do) rather than by playing rounds 1–3.
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
                                                 "difficulty": "HARD", "key": "s2-k7"})
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


# ------------------------------------------- player page: what the next match allows (K10)


def _next_choices_html(html: str) -> str:
    part = html[html.index('id="next-choices"'):]
    return part[:part.index("</div>")]


def _legal_genres(html: str) -> list[str]:
    import re
    from html import unescape

    return [unescape(g) for g in re.findall(r'badge text-bg-success me-1">([^<]+)<',
                                            _next_choices_html(html))]


def _kyushu_upto(tournament: Tournament, user: Any, upto: int) -> dict[int, int]:
    """九州杯IX played through ``upto`` (tests.printing.world); the semi-final's places."""
    from brackets.selectors import rounds as sel
    from tests.printing.world import build_kyushu

    build_kyushu(tournament, user, count=20, seeds=4, upto=upto)
    semi = Round.objects.get(tournament=tournament, name="準決勝")
    return {r.place: int(r.player) for r in sel.round_table(sel.round_view(semi))}


def _pre_final_genres(tournament: Tournament, entrant_id: int) -> set[str]:
    return set(SelectionFact.objects.filter(
        seat__entrant_id=entrant_id, seat__superseded_by__isnull=True,
        group__round__tournament=tournament).exclude(group__round__kind="partner_series")
        .values_list("genre", flat=True))


def test_finalists_page_shows_the_finals_reset_history(tournament: Tournament,
                                                       cast: dict[str, Any]) -> None:
    """A finalist's 「まだ選べるもの」 left out every genre used since round 1, but the final
    resets the history (K10): before the final it now shows what the final allows."""
    places = _kyushu_upto(tournament, cast["organiser"], upto=5)
    finalist = places[1]
    used = _pre_final_genres(tournament, finalist)
    assert used
    html = client_for(None).get(f"/p/{tournament.slug}/players/{finalist}/").content.decode()
    block = _next_choices_html(html)
    assert "次の回戦（決勝）" in block
    assert "決勝・履歴リセット後" in block
    assert used <= set(_legal_genres(html))


def test_third_place_partner_sees_no_history_restriction(tournament: Tournament,
                                                         cast: dict[str, Any]) -> None:
    """The third-place match ignores history (K9): a partner seated there is told so, and
    nothing they used before is shown as unavailable; a player out of the event has no
    next match instead of a stale list."""
    from brackets.models import Entrant

    places = _kyushu_upto(tournament, cast["organiser"], upto=5)
    third = Round.objects.get(tournament=tournament, kind="partner_match")
    partner_facts = SpecialFact.objects.filter(round=third, kind="partner")
    partner = int(partner_facts.first().data["partner"])
    used = _pre_final_genres(tournament, partner)
    html = client_for(None).get(f"/p/{tournament.slug}/players/{partner}/").content.decode()
    block = _next_choices_html(html)
    assert "3位決定戦" in block and "履歴による制限なし" in block
    assert used <= set(_legal_genres(html))

    busy = set(places.values()) | {int(f.data["partner"]) for f in SpecialFact.objects.filter(
        tournament=tournament, kind="partner")}
    out = next(e for e in Entrant.objects.filter(tournament=tournament).order_by("id")
               if e.id not in busy and not Seat.objects.filter(
                   entrant=e, group__round__number__gte=5).exists())
    html = client_for(None).get(f"/p/{tournament.slug}/players/{out.id}/").content.decode()
    assert "出場が決まっている次の試合はありません" in _next_choices_html(html)
    assert _legal_genres(html) == []


def test_finalists_page_follows_the_pairs_final_history(tournament: Tournament,
                                                        cast: dict[str, Any]) -> None:
    """During the final the page shows exactly what the match page allows for the next
    game: the pair's game-1 genres are gone (basic rule within the final, per pair), the
    genres used before the final are back."""
    import random

    from brackets import engine_adapter as ea
    from brackets.selectors import rounds as sel
    from tests.rounds.helpers import play_group

    user = cast["organiser"]
    places = _kyushu_upto(tournament, user, upto=6)
    final = Round.objects.get(tournament=tournament, kind="partner_series")
    game1, game2 = list(Group.objects.filter(round=final).order_by("game"))[:2]
    play_group(game1, user, random.Random(5))
    finalist = places[1]
    seat = Seat.objects.get(group=game2, entrant_id=finalist, superseded_by__isnull=True)
    mate_seat = {1: 2, 2: 1, 3: 4, 4: 3}[seat.number]
    pair = {finalist, Seat.objects.get(group=game2, number=mate_seat,
                                       superseded_by__isnull=True).entrant_id}
    final_used = set(SelectionFact.objects.filter(group=game1, seat__entrant_id__in=pair)
                     .values_list("genre", flat=True))
    catalog = ea.catalog_for(tournament.version_id)
    expected = sel.seat_choices(sel.group_view(game2), catalog)[seat.number].choices

    html = client_for(None).get(f"/p/{tournament.slug}/players/{finalist}/").content.decode()
    shown = _legal_genres(html)
    assert shown == list(expected.legal_genres)
    assert f"決勝 {game2.label}" in _next_choices_html(html)
    assert final_used and not final_used & set(shown)
    assert (_pre_final_genres(tournament, finalist) - final_used) <= set(shown)


# ------------------------------------------------ admin: preset settings validated (JSON)


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
