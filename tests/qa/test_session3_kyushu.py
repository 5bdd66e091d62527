"""QA regressions, third session: what a person stumbled on running a whole 九州杯IX on
tablets (tests/browser/test_kyushu_full_browser.py), each test naming what they saw.
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

import pytest

from brackets import engine_adapter as ea
from brackets.adapters.rounds import round_rules
from brackets.models import Entrant, Group, Round, Seat, SelectionFact, Tournament
from brackets.selectors import rounds as sel
from brackets.services import rounds as svc
from tests.conftest import client_for
from tests.rounds.helpers import add_entrants

pytestmark = pytest.mark.django_db


# ------------------------------------------------------ K8: selections wait for the reveal


def _semi_final_group(tournament: Tournament, user: Any) -> Group:
    """A running 九州杯IX semi-final (K8) with one four-player group, no bans yet.

    Built directly (as the other QA tests do) rather than by playing rounds 1–4."""
    tournament.preset = "kyushu-cup-ix"
    tournament.save()
    people = add_entrants(tournament, 4)
    svc.rounds_configure(tournament=tournament, by=user)
    sf = Round.objects.get(tournament=tournament, number=5)
    assert round_rules(sf).bans
    Round.objects.filter(id=sf.id).update(status=Round.Status.RUNNING)
    group = Group.objects.create(round=sf, number=1, label="A")
    for n, e in enumerate(people, start=1):
        Seat.objects.create(group=group, number=n, entrant=e)
    return group


def test_semi_final_selection_before_the_reveal_is_refused(tournament: Tournament,
                                                           cast: dict[str, Any]) -> None:
    """The semi-final's tablet took 芸能/四択 while the bans were still being written: it was
    checked against no ban at all, and stayed even after 芸能 was revealed as banned. Now
    the service refuses any selection before the reveal, and the page says why instead of
    offering the form."""
    user = cast["bracket"]
    group = _semi_final_group(tournament, user)
    seats = list(Seat.objects.filter(group=group).select_related("entrant").order_by("number"))
    for seat in seats[:3]:
        svc.ban_record(group=group, entrant=seat.entrant, genre="芸能", by=user)
    with pytest.raises(svc.RoundError, match="一斉公開するまで") as refused:
        svc.selection_save(group=group, by=user, seat_number=1, genre="芸能", format="四択",
                           difficulty="HARD")
    assert refused.value.field == "bans"
    assert not SelectionFact.objects.filter(group=group).exists()

    client = client_for(user)
    url = f"/t/{tournament.slug}/match/{group.id}/"
    html = client.get(url).content.decode()
    assert "禁止ジャンルを一斉公開するまで出題は登録できません" in html
    assert 'class="selection-form"' not in html
    response = client.post(f"{url}selection/", {"seat": "1", "set": "芸能|四択",
                                                 "difficulty": "HARD", "key": "s3-k8"})
    assert response.status_code == 400
    assert not SelectionFact.objects.filter(group=group).exists()

    svc.ban_record(group=group, entrant=seats[3].entrant, genre="社会", by=user)
    svc.ban_reveal(group=group, by=user)
    html = client.get(url).content.decode()
    assert "禁止ジャンルを一斉公開するまで" not in html
    assert 'class="selection-form"' in html
    with pytest.raises(svc.RoundError):  # 芸能 is banned now (refused: illegal_selection)
        svc.selection_save(group=Group.objects.get(id=group.id), by=user, seat_number=1,
                           genre="芸能", format="四択", difficulty="HARD")
    fact = svc.selection_save(group=Group.objects.get(id=group.id), by=user, seat_number=1,
                              genre="スポーツ", format="四択", difficulty="HARD")
    assert fact.id


def test_ban_button_label_stays_on_one_line(tournament: Tournament,
                                            cast: dict[str, Any]) -> None:
    """At 768 px 「記入済✓」 broke into 「記入 / 済✓」 beside the genre select."""
    user = cast["bracket"]
    group = _semi_final_group(tournament, user)
    seat = Seat.objects.filter(group=group).select_related("entrant").first()
    svc.ban_record(group=group, entrant=seat.entrant, genre="芸能", by=user)
    html = client_for(user).get(f"/t/{tournament.slug}/match/{group.id}/").content.decode()
    assert '<button class="btn btn-outline-primary text-nowrap">記入済✓</button>' in html


# ---------------------------------------------- K10: a game after the series is decided


def _play_game(game: Group, user: Any, winner: int, rng: random.Random) -> None:
    """Legal sets for every seat, then a result screen where ``winner`` tops the group."""
    catalog = ea.catalog_for(game.round.tournament.version_id)
    for seat in Seat.objects.filter(group=game, superseded_by__isnull=True).order_by("number"):
        gv = sel.group_view(Group.objects.get(id=game.id))
        options = [o for o in sel.seat_choices(gv, catalog)[seat.number].choices.options()
                   if o.legal]
        option = options[rng.randrange(len(options))]
        svc.selection_save(group=Group.objects.get(id=game.id), by=user,
                           seat_number=seat.number, genre=option.genre, format=option.format,
                           difficulty="HARD")
    seats = list(Seat.objects.filter(group=game, superseded_by__isnull=True)
                 .order_by("number"))
    ordered = sorted(seats, key=lambda s: (s.entrant_id != winner, s.number))
    rows = {s.number: (str(Decimal(300 - 20 * i)), i + 1) for i, s in enumerate(ordered)}
    svc.results_save(group=Group.objects.get(id=game.id), by=user, rows=rows)


def test_unneeded_final_game_offers_no_forms(tournament: Tournament,
                                             cast: dict[str, Any]) -> None:
    """After a 2–0 final, game 3's tablet page said 「入力しても結果は変わりません」 and
    offered every form, but each save was refused. Now the page says the game is not
    played and offers no selection, result or reseat form."""
    from tests.printing.world import build_kyushu

    user = cast["organiser"]
    build_kyushu(tournament, user, upto=6)
    final = Round.objects.get(tournament=tournament, number=7)
    svc.round_start(round=final, by=user)
    games = list(Group.objects.filter(round=final).order_by("game"))
    champion = Seat.objects.get(group=games[0], number=1).entrant_id
    rng = random.Random(3)
    for game in games[:2]:
        _play_game(game, user, champion, rng)
    client = client_for(cast["bracket"])
    html = client.get(f"/t/{tournament.slug}/match/{games[2].id}/").content.decode()
    name = Entrant.objects.get(id=champion).name
    assert (f"この試合は不要です：{name} さんの勝ちで決着しています。"
            "この試合は行わないため入力はできません。") in html
    assert "入力しても結果は変わりません" not in html
    assert 'class="selection-form"' not in html
    assert "結果を登録" not in html
    assert "席替え" not in html
    # Games that decide the series keep their forms.
    html = client.get(f"/t/{tournament.slug}/match/{games[1].id}/").content.decode()
    assert "結果を登録" in html


# ------------------------------------------------ K6: why the processing order is so


def test_rule_assignment_shows_what_made_the_order(tournament: Tournament,
                                                   cast: dict[str, Any]) -> None:
    """Round 3's assignment table listed 処理順 1–20 with no reason: staff checking a
    complaint could not see that winners come by score and runners-up by 惜敗率, nor how
    full each rule was. Each row now shows the round-2 group, place and score/惜敗率, with
    the rule and each rule's count against its capacity."""
    from tests.printing.world import build_kyushu

    user = cast["organiser"]
    build_kyushu(tournament, user, upto=2)
    html = client_for(user).get(f"/t/{tournament.slug}/rounds/3/special/").content.decode()
    assert "処理順は2回戦の各組1位を得点順、続いて2位を惜敗率順" in html
    assert "ルールA：12名（定員12）" in html and "ルールB：8名（定員8）" in html
    table = html[html.index('id="assignment"'):]
    table = table[:table.index("</table>")]
    rows = table.split("<tr")[2:]
    assert len(rows) == 20
    assert all("1位 · 得点" in r for r in rows[:10])  # 10 group winners first, by score
    assert all("2位 · 惜敗率" in r for r in rows[10:])


# ------------------------------------------------------- K10: dice and the decisions


def test_final_dice_and_setup_read_as_recorded(tournament: Tournament,
                                               cast: dict[str, Any]) -> None:
    """The final's page showed the dice as 「5–6 → 名前」 (whose 5?) and, after the
    decisions were recorded, the form went back to 席順 / first finalist / 単純 right
    above 「出題順: 交互」. Rolls now carry both names, the form shows what was recorded,
    and who decided what is said."""
    from brackets.models import SpecialFact
    from tests.printing.world import build_kyushu

    user = cast["organiser"]
    build_kyushu(tournament, user, upto=6)
    final = Round.objects.get(tournament=tournament, number=7)
    dice = SpecialFact.objects.filter(round=final, kind="dice").latest("id").data
    setup = SpecialFact.objects.filter(round=final, kind="final_setup").latest("id").data
    names = {str(e.id): e.name for e in Entrant.objects.filter(
        id__in=[int(p) for p in dice["players"]])}
    html = client_for(user).get(f"/t/{tournament.slug}/rounds/7/special/").content.decode()
    a, b = (names[str(p)] for p in dice["players"])
    first_roll = dice["rolls"][0]
    assert f"{a} {first_roll[0]} – {first_roll[1]} {b}" in html
    assert f"{names[str(dice['winner'])]} の勝ち" in html
    assert '<option value="alternating" selected>' in html
    assert f'<option value="{setup["first"]}" selected>' in html
    assert '<option value="seat_order" selected>' in html  # build_kyushu: winner took seats
    assert (f"（席順は{names[str(setup['seat_order_by'])]}、"
            f"出題順は{names[str(setup['question_order_by'])]}が決定）") in html


# ------------------------------------------------------- K7: what the cards allow


def test_card_draw_says_what_is_allowed_and_where_it_came_from(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """After 「アプリで引く」 the page showed three badges and 「アプリで抽選（round-4/cards/A）」:
    no seed to redo the draw with, no word on why there were three cards, and staff had
    to work out the allowed genres and groups themselves while the players waited."""
    from brackets.models import SpecialFact
    from tests.qa.test_session2_fixes import _card_round_group

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


# -------------------------------------------- K9/K10: who plays, who partners, the score


def test_pair_games_name_contenders_partners_and_the_series(tournament: Tournament,
                                                            cast: dict[str, Any]) -> None:
    """The final's match page showed four equal seats with 順位 and 惜敗率 for all: nothing
    said seats 1 and 4 play for the title and 2 and 3 only partner them, nor where the
    best of 3 stood after a game."""
    from tests.printing.world import build_kyushu

    user = cast["organiser"]
    build_kyushu(tournament, user, upto=6)
    final = Round.objects.get(tournament=tournament, number=7)
    svc.round_start(round=final, by=user)
    game1 = Group.objects.get(round=final, game=1)
    client = client_for(cast["bracket"])
    html = client.get(f"/t/{tournament.slug}/match/{game1.id}/").content.decode()
    assert html.count("pair-role role-contender") == 2
    assert html.count("pair-role role-partner") == 2
    seats = {s.number: s.entrant for s in Seat.objects.filter(group=game1)
             .select_related("entrant")}
    assert f"{seats[1].name} 0勝 – 0勝 {seats[4].name}" in html

    _play_game(game1, user, seats[4].id, random.Random(5))
    html = client.get(f"/t/{tournament.slug}/match/{game1.id}/").content.decode()
    assert html.count("pair-role role-winner") == 1 and html.count("pair-role role-loser") == 1
    assert f"{seats[1].name} 0勝 – 1勝 {seats[4].name}" in html
    third = Group.objects.get(round__tournament=tournament, round__number=6)
    html = client.get(f"/t/{tournament.slug}/match/{third.id}/").content.decode()
    assert html.count("pair-role role-partner") == 2
    assert "id=\"series-score\"" not in html  # a single game: no series


# ------------------------------------------------------ desk: the import preview


def test_import_preview_without_errors_has_no_empty_error_column(
        tournament: Tournament, clients: dict[str, Any]) -> None:
    """At 768 px the preview of a clean 67-row file spent a third of the width on an empty
    16rem 「エラー」 column (and a red 「エラー 0行」 badge), pushing シード and 受付 off
    screen. The column appears only when some row has an error."""
    from tests.desk.test_import import preview_url, upload

    client = clients["desk"]
    good = "お名前,カードネーム,シード,受付\n山田,ヤマダ,1,○\n鈴木,スズキ,,○\n".encode()
    upload(client, tournament, "good.csv", good)
    html = client.get(preview_url(tournament)).content.decode()
    table = html[html.index('id="import-rows"'):]
    assert ">エラー</th>" not in table
    assert 'text-bg-danger fs-6" data-summary="errors"' not in html

    bad = "お名前,カードネーム\n山田,ヤマダ\n,カードだけ\n".encode()
    upload(client, tournament, "bad.csv", bad)
    html = client.get(preview_url(tournament)).content.decode()
    table = html[html.index('id="import-rows"'):]
    assert ">エラー</th>" in table
    assert 'text-bg-danger fs-6" data-summary="errors"' in html


# ------------------------------------------------------ public: the player's own page


def test_player_page_says_where_the_player_finished(tournament: Tournament,
                                                    cast: dict[str, Any]) -> None:
    """The champion's own page listed their games down to the final and never said 優勝
    (nor 準優勝 / 3位 for the others), and a seed's list began at round 2 unexplained."""
    from tests.printing.world import build_kyushu

    build_kyushu(tournament, cast["organiser"], count=20, seeds=4)
    public = client_for(None)
    labels = {row.label: row.player for row in sel.podium(tournament)}
    assert set(labels) == {"優勝", "準優勝", "3位"}
    for label, player in labels.items():
        html = public.get(f"/p/{tournament.slug}/players/{player}/").content.decode()
        assert f'id="player-finish">{label}</span>' in html
    seed = Entrant.objects.filter(tournament=tournament, seed__isnull=False).order_by("seed")[0]
    html = public.get(f"/p/{tournament.slug}/players/{seed.id}/").content.decode()
    assert f"シード{seed.seed}</span>" in html
    fourth = [e for e in Entrant.objects.filter(tournament=tournament)
              if str(e.id) not in labels.values()][0]
    html = public.get(f"/p/{tournament.slug}/players/{fourth.id}/").content.decode()
    assert 'id="player-finish"' not in html


def test_public_round_explains_the_wc_mark(tournament: Tournament,
                                           cast: dict[str, Any]) -> None:
    """Round 1's public page marked K4's three wildcards 「WC」 with nothing on the page
    saying what WC means (the bracket page had a legend, the round page none)."""
    from tests.printing.world import build_kyushu

    build_kyushu(tournament, cast["organiser"], upto=1)
    html = client_for(None).get(f"/p/{tournament.slug}/r/1/").content.decode()
    assert html.count('<span class="wildcard-mark">WC</span>') == 3 + 1  # 3 rows + legend
    assert '<span class="wildcard-mark">WC</span> = 追加勝ち抜け（惜敗率）' in html
    html = client_for(None).get(f"/p/{tournament.slug}/r/2/").content.decode()
    assert "= 追加勝ち抜け（惜敗率）" not in html  # round 2: no wildcards, no legend


# ------------------------------------------------------ K9: choosing the partners


def test_partner_select_starts_empty_and_says_the_rule(tournament: Tournament,
                                                       cast: dict[str, Any]) -> None:
    """The 3位決定戦's partner selects both showed the same first name preselected, so one
    tap on 記録 recorded a partner nobody chose, and the page did not say who may partner
    or that partners' places do not count. An empty choice is now refused by name."""
    from tests.printing.world import build_kyushu

    user = cast["organiser"]
    build_kyushu(tournament, user, upto=5)
    third = Round.objects.get(tournament=tournament, number=6)
    client = client_for(user)
    url = f"/t/{tournament.slug}/rounds/6/special/"
    html = client.get(url).content.decode()
    # build_kyushu already recorded both partners: their selects show them, no placeholder.
    assert "— 選んでください —" not in html
    assert "パートナーの順位は数えない" in html and "対戦者以外の来場者から" in html
    from brackets.models import SpecialFact

    SpecialFact.objects.filter(round=third, kind="partner").delete()
    html = client.get(url).content.decode()
    assert html.count('<option value="">— 選んでください —</option>') == 2
    contender = next(e for e in Entrant.objects.filter(tournament=tournament)
                     if f'name="contender" value="{e.id}"' in html)
    response = client.post(url, {"action": "partner", "contender": str(contender.id),
                                 "partner": ""})
    assert response.status_code == 400
    assert f"{contender.name} さんのパートナーを選んでください。" in response.content.decode()
    assert not SpecialFact.objects.filter(round=third, kind="partner").exists()


def test_one_match_round_is_not_named_twice(tournament: Tournament,
                                            cast: dict[str, Any]) -> None:
    """The third-place match's tablet page was headed 「3位決定戦 3位決定戦」 (round name,
    then the group's label, which is the round's name)."""
    from tests.printing.world import build_kyushu

    build_kyushu(tournament, cast["organiser"], upto=5)
    group = Group.objects.get(round__tournament=tournament, round__number=6)
    assert group.label == "3位決定戦"
    html = client_for(cast["bracket"]).get(
        f"/t/{tournament.slug}/match/{group.id}/").content.decode()
    assert "3位決定戦 3位決定戦" not in html
    assert '<h1 class="h4 mb-0">3位決定戦</h1>' in html
    sf = Group.objects.get(round__tournament=tournament, round__number=5)
    html = client_for(cast["bracket"]).get(f"/t/{tournament.slug}/match/{sf.id}/").content.decode()
    assert '<h1 class="h4 mb-0">準決勝 A</h1>' in html


def test_desk_page_links_are_in_japanese(tournament: Tournament,
                                         clients: dict[str, Any]) -> None:
    """With 67 entrants the desk list ended in 「1 2 next»」: django-tables2's English."""
    import re

    add_entrants(tournament, 67)
    html = clients["desk"].get(f"/t/{tournament.slug}/desk/").content.decode()
    assert re.search(r'class="page-link">次へ <span aria-hidden="true">&raquo;</span>', html)
    assert not re.search(r'class="page-link">\s*next', html)
    html = clients["desk"].get(f"/t/{tournament.slug}/desk/?page=2").content.decode()
    assert '<span aria-hidden="true">&laquo;</span> 前へ</a>' in html
    assert not re.search(r'&laquo;</span>\s*previous', html)


def test_third_place_loser_is_fourth_not_second(tournament: Tournament,
                                                cast: dict[str, Any]) -> None:
    """The 3位決定戦's 最終順位 page listed 「3位 winner / 2位 loser」."""
    from tests.printing.world import build_kyushu

    user = cast["organiser"]
    build_kyushu(tournament, user, upto=5)
    third = Round.objects.get(tournament=tournament, number=6)
    svc.round_start(round=third, by=user)
    from tests.rounds.helpers import play_group

    play_group(Group.objects.get(round=third), user, random.Random(2))
    svc.round_close(round=third, by=user)
    html = client_for(user).get(f"/t/{tournament.slug}/rounds/6/advance/").content.decode()
    table = html[html.index("final-order"):]
    assert "3位</th>" in table and "4位</th>" in table
    assert "2位</th>" not in table


def test_semi_final_losers_are_sent_to_the_third_place_match(tournament: Tournament,
                                                             cast: dict[str, Any]) -> None:
    """The 準決勝's advance page headed its 3rd and 4th 「敗退」, but K8 sends them to the
    3位決定戦."""
    from tests.printing.world import build_kyushu

    user = cast["organiser"]
    build_kyushu(tournament, user, upto=4)
    sf = Round.objects.get(tournament=tournament, number=5)  # drawn, bans revealed
    from tests.rounds.helpers import play_round

    play_round(sf, user, random.Random(4))
    html = client_for(user).get(f"/t/{tournament.slug}/rounds/5/advance/").content.decode()
    assert "各組上位以外（惜敗率順）：3・4位は3位決定戦へ" in html
    assert "敗退" not in html
    html = client_for(user).get(f"/t/{tournament.slug}/rounds/4/advance/").content.decode()
    assert "3位決定戦へ" not in html  # round 4 feeds no third-place match
