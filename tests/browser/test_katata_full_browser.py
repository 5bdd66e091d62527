"""A whole 堅田大会 (関西杯5 qualifier, H0–H9) run by people on tablets in real Chromium.

From the entry desk to the champion through the UI only: the desk imports pre-entries,
registers 修羅 players on the full form and walk-ins on the fast form, checks everyone in
and draws the 修羅 lots; the organiser makes the rounds from the preset and draws
them; bracket staff enter every seat's selection (one illegal set refused, then accepted
with the −400 penalty, H7), the scores and placements; the organiser reads the 惜敗率 table
before confirming the advancers, round after round, to the final that ranks all four.
Advancers and the champion are checked against an independent reading of the entered
scores (with the penalty) and against the engine's own reading. Screenshots of every kind
of page go to /tmp/shots/katata/.
"""

from __future__ import annotations

import os
import random
import re
from decimal import Decimal
from typing import Any

import pytest

from brackets.adapters.rounds import round_rules
from brackets.models import Entrant, Group, Round, Seat, SelectionFact, Tournament
from brackets.selectors import rounds as sel
from tests.browser.conftest import TABLET, login
from tests.conftest import PASSWORD

SHOTS = "/tmp/shots/katata"
PENALTY = Decimal(400)

# (name, reading, card name, highest-card Q level): run_katata's 13 Q levels.
PEOPLE = [
    ("堅田一郎", "かたた いちろう", "イチロウ", 95),
    ("浮御堂二郎", "うきみどう じろう", "ジロウ", 85),
    ("比良三郎", "ひら さぶろう", "サブロウ", 82),
    ("琵琶四郎", "びわ しろう", "シロウ", 70),
    ("近江五郎", "おうみ ごろう", "ゴロウ", 65),
    ("瀬田六郎", "せた ろくろう", "ロクロウ", 60),
    ("唐崎七郎", "からさき しちろう", "シチロウ", 55),
    ("石山八郎", "いしやま はちろう", "ハチロウ", 45),
    ("三井九郎", "みい くろう", "クロウ", 40),
    ("矢橋十郎", "やばせ じゅうろう", "ジュウロウ", 33),
    ("粟津十一", "あわづ じゅういち", "ジュウイチ", 30),
    ("雄琴十二", "おごと じゅうに", "ジュウニ", 20),
    ("坂本十三", "さかもと じゅうぞう", "ジュウゾウ", 10),
]
FULL_FORM = {0, 4, 8}  # 修羅 declarations need the full form
WALK_INS = {10, 11, 12}
IMPORTED = [i for i in range(13) if i not in FULL_FORM | WALK_INS]


def shot(page: Any, name: str) -> None:
    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def go(page: Any, locator: Any) -> None:
    """Tap something that loads a new page and wait for it."""
    with page.expect_navigation():
        locator.click()


def no_sideways_scroll(page: Any) -> None:
    """A person on an upright tablet never has to scroll the page sideways."""
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= TABLET["width"] + 1, f"{page.url} is {width}px wide"


def staff_page(browser: Any, live_server: Any, username: str) -> Any:
    context = browser.new_context(viewport=TABLET, locale="ja-JP")
    page = context.new_page()
    page.set_default_timeout(10_000)
    login(page, live_server.url, username, PASSWORD)
    return page


# ------------------------------------------------------------------ the desk


def desk_registers_everyone(page: Any, base: str, slug: str) -> None:
    page.goto(f"{base}/t/{slug}/")
    go(page, page.get_by_role("link", name="受付を開く"))
    shot(page, "01-desk-empty")

    # Pre-entries arrive as a form export: import them, check the preview, confirm.
    go(page, page.locator(".desk-nav a", has_text="取り込み"))
    rows = ["タイムスタンプ,お名前,ふりがな,カードネーム,最高Qレベル"]
    rows += [f"2026/11/01 10:0{n % 10},{PEOPLE[i][0]},{PEOPLE[i][1]},{PEOPLE[i][2]},{PEOPLE[i][3]}"
             for n, i in enumerate(IMPORTED)]
    page.set_input_files("input[type=file]", files=[{
        "name": "pre-entries.csv", "mimeType": "text/csv",
        "buffer": ("\n".join(rows) + "\n").encode("utf-8")}])
    shot(page, "02-import")
    go(page, page.get_by_role("button", name="読み込んで確認する"))
    assert page.locator('[data-summary="new"]').inner_text().strip() == f"新規 {len(IMPORTED)}人"
    shot(page, "03-import-preview")
    go(page, page.get_by_role("button", name=f"{len(IMPORTED)}人を取り込む"))
    assert page.locator(".alert-success").count() == 1

    # 修羅 declarations on the full form, the way the desk reads them off the entry sheet.
    shura = {0: {"shura_titles": "1", "shura_local_wins": "1"},
             4: {"shura_voluntary": True, "shura_extra_lots": "1"},
             8: {"opt_up": "bomber"}}
    for i in sorted(FULL_FORM):
        name, reading, card, q = PEOPLE[i]
        go(page, page.locator(".desk-nav a", has_text="詳細登録"))
        page.fill("#id_name", name)
        page.fill("#id_reading", reading)
        page.fill("#id_card_name", card)
        page.fill("#id_q_level", str(q))
        page.check("#id_checked_in")
        for field, value in shura[i].items():
            if value is True:
                page.check(f"#id_{field}")
            elif field == "opt_up":
                page.select_option(f"#id_{field}", value)
            else:
                page.fill(f"#id_{field}", value)
        if i == 0:
            shot(page, "04-entrant-form-shura")
        go(page, page.get_by_role("button", name="登録する"))
        assert page.locator(".alert-success").count() == 1, page.content()[:2000]

    # Walk-ins on the desk page's fast form; one of them pays and checks in later.
    for i in sorted(WALK_INS):
        name, reading, card, q = PEOPLE[i]
        if not page.locator("#walkin").get_attribute("open") is not None:
            page.click("#walkin > summary")
        page.fill("#id_walkin-name", name)
        page.fill("#id_walkin-reading", reading)
        page.fill("#id_walkin-card_name", card)
        page.fill("#id_walkin-q_level", str(q))
        if i != 12:
            page.check("#id_walkin-checked_in")
        go(page, page.locator("#walkin-form button[type=submit]"))
        assert page.locator(".alert-success").count() == 1

    # One tap checks in whoever has not been checked in yet.
    for i in [*IMPORTED, 12]:
        name = PEOPLE[i][0]
        page.fill("#desk-q", PEOPLE[i][1].replace(" ", ""))
        page.wait_for_selector('#desk-results [data-result-count="1"]')
        row = page.locator("#entrant-list tbody tr", has_text=name)
        row.locator('button[data-flag="checked_in"]').click()
        page.wait_for_selector('#entrant-list button[data-flag="checked_in"][data-state="on"]')
    page.fill("#desk-q", "")
    page.wait_for_selector('#desk-results [data-result-count="13"]')
    shot(page, "05-desk-all-checked-in")
    no_sideways_scroll(page)


def desk_draws_lots(page: Any, base: str, slug: str) -> None:
    # From the desk's own menu: the preset has 修羅 lots, so the desk bar leads there.
    page.goto(f"{base}/t/{slug}/desk/")
    go(page, page.locator(".desk-nav a", has_text="修羅くじ"))
    shot(page, "07-shura-before")
    rows = page.locator("tbody.shura-entrant")
    names = rows.locator("tr:first-child td:first-child").all_inner_texts()
    # Only the 修羅 players: the titled one (2 lots) and the volunteer with one extra (2);
    # プチ修羅の道 (a stricter mode only) draws nothing.
    assert names == [PEOPLE[0][0], PEOPLE[4][0]]
    go(page, rows.filter(has_text=PEOPLE[0][0]).get_by_role("button", name="アプリで引く"))
    # The volunteer drew from the real box: the desk records what was drawn.
    row = rows.filter(has_text=PEOPLE[4][0])
    selects = row.locator("select[name=genre]")
    assert selects.count() == 2
    selects.nth(0).select_option("スポーツ")
    selects.nth(1).select_option("社会")
    go(page, row.get_by_role("button", name="実物を記録"))
    shot(page, "08-shura-drawn")
    no_sideways_scroll(page)


# ------------------------------------------------------------------ rounds


def organiser_step(page: Any, button: str) -> None:
    """One of the round page's own buttons (抽選する, 締め切る)."""
    go(page, page.get_by_role("button", name=button))
    errors = page.locator(".alert-danger").all_inner_texts()
    assert not errors, errors


def enter_group(page: Any, base: str, slug: str, group: Group, rng: random.Random,
                illegal: dict[str, Any] | None, shot_prefix: str) -> dict[int, Decimal]:
    """Bracket staff at the cabinets: each seat's selection, then the result screen.
    Returns the screen scores by seat number."""
    # Already on the round page (the first group) or on a match page: one tap either way.
    if page.locator(".group-tabs").count():
        go(page, page.locator(".group-tabs a", has_text=group.label).last)
    else:
        go(page, page.locator(".group-card a.card-header", has_text=group.label).first)
    assert page.locator("h1").inner_text().startswith(f"{group.round.name} {group.label}")
    seats = {s.number: s.entrant_id for s in Seat.objects.filter(
        group=group, superseded_by__isnull=True)}
    players = sorted(n for n, e in seats.items() if e is not None)
    for n in players:
        card = page.locator(f"#seat-{n}")
        if illegal and seats[n] == illegal["entrant_id"]:
            value = illegal["value"]
            card.locator("select[name=set]").select_option(value)
            card.locator(".btn-group label", has_text="EASY").click()
            reason = card.locator(".illegal-reason").inner_text()
            assert illegal["reason"] in reason, reason
            assert card.locator(".confirm-illegal").is_visible()
            # The box says what confirming costs (H7: −400), before anyone ticks it.
            assert f"−{PENALTY}点" in card.locator(".confirm-illegal").inner_text()
            shot(page, f"{shot_prefix}-illegal-picked")
            go(page, card.get_by_role("button", name="出題を登録"))
            error = page.locator("#match-error").inner_text()
            assert "規定違反" in error and illegal["reason"] in error, error
            assert not SelectionFact.objects.filter(seat__group=group,
                                                    seat__number=n).exists()
            shot(page, f"{shot_prefix}-illegal-refused")
            card = page.locator(f"#seat-{n}")
            # What staff picked is still there, the difficulty too: only the box to tick.
            assert card.locator("select[name=set]").input_value() == value
            assert card.locator("input[name=difficulty]:checked").get_attribute("value") \
                == "EASY"
            card.locator(".confirm-illegal input[type=checkbox]").check()
            go(page, card.get_by_role("button", name="出題を登録"))
            current = page.locator(f"#seat-{n} .current-selection").inner_text()
            assert "違反" in current and "EASY" in current, current
            continue
        options = card.locator("optgroup[label='選択可'] option")
        values = options.evaluate_all("os => os.map(o => o.value)")
        assert values, f"seat {n} has no legal option"
        card.locator("select[name=set]").select_option(values[rng.randrange(len(values))])
        assert card.locator(".illegal-reason").inner_text() == ""
        card.locator(".btn-group label").nth(rng.randrange(3)).click()
        go(page, card.get_by_role("button", name="出題を登録"))
        assert page.locator("#match-error").count() == 0
    assert SelectionFact.objects.filter(seat__group=group).values("seat").distinct().count() \
        == len(players)
    shot(page, f"{shot_prefix}-selected")

    everyone = sorted(seats)
    values = rng.sample(range(5000, 40000), len(everyone))
    screen = {n: Decimal(v) / 100 for n, v in zip(everyone, values)}
    order = sorted(everyone, key=lambda n: -screen[n])
    for place, n in enumerate(order, 1):
        page.fill(f"input[name=score_{n}]", f"{screen[n]:.2f}")
        page.select_option(f"select[name=place_{n}]", str(place))
    go(page, page.locator("#results-form button"))
    assert page.locator("#match-error").count() == 0
    assert page.locator(".ratio-cell").all_inner_texts().count("100.00") >= 1
    shot(page, f"{shot_prefix}-results")
    no_sideways_scroll(page)
    return screen


def expected_order(group: Group, screen: dict[int, Decimal]) -> list[int]:
    """Real players of the group best first, by the screen score less any penalty (H7):
    an independent reading of what was entered, not the engine's."""
    seats = {s.number: s.entrant_id for s in Seat.objects.filter(
        group=group, superseded_by__isnull=True)}
    penalties: dict[int, Decimal] = {}
    for fact in SelectionFact.objects.filter(seat__group=group).order_by("id"):
        # The newest selection of the seat counts; one accepted as illegal costs PENALTY.
        penalties[fact.seat.number] = PENALTY if fact.accepted_illegal else Decimal(0)
    adjusted = {n: screen[n] - penalties.get(n, Decimal(0)) for n in seats if seats[n]}
    return [seats[n] for n in sorted(adjusted, key=lambda n: -adjusted[n])]


def expected_ratio_table(groups: dict[str, tuple[list[int], dict[int, Decimal]]],
                         k: int) -> list[int]:
    """K3 by hand: everyone below the top ``k`` of their group, by score ÷ the group
    winner's score (the dummy never counts), best first."""
    rest = []
    for order, score in groups.values():
        top = score[order[0]]
        rest += [(score[e] / top, score[e], e) for e in order[k:]]
    return [e for _r, _s, e in sorted(rest, key=lambda r: (-r[0], -r[1]))]


def scores_by_entrant(group: Group, screen: dict[int, Decimal]) -> dict[int, Decimal]:
    seats = {s.number: s.entrant_id for s in Seat.objects.filter(
        group=group, superseded_by__isnull=True)}
    penalties = {f.seat.number: PENALTY if f.accepted_illegal else Decimal(0) for f in
                 SelectionFact.objects.filter(seat__group=group).order_by("id")}
    return {seats[n]: screen[n] - penalties.get(n, Decimal(0)) for n in seats if seats[n]}


def open_round(page: Any, base: str, slug: str, name: str) -> None:
    """From the dashboard, as staff start their day: 回戦を開く, then the round by name."""
    page.goto(f"{base}/t/{slug}/")
    go(page, page.get_by_role("link", name="回戦を開く"))
    go(page, page.locator(".list-group-item").filter(
        has=page.locator("strong", has_text=re.compile(f"^{name}$"))))


def play_round(pages: dict[str, Any], base: str, slug: str, rnd: Round, rng: random.Random,
               illegal: dict[str, Any] | None, tag: str) -> dict[str, list[int]]:
    """The organiser is on the round's page; the round is drawn, started, played on the
    tablet, closed, and left on the advance page with its 惜敗率 table."""
    org, staff = pages["org"], pages["bracket"]
    assert org.locator("h1").inner_text() == rnd.name
    organiser_step(org, "抽選する")
    shot(org, f"{tag}-round-drawn")
    org.locator("#round-accepting").wait_for()  # 抽選済 takes input at once: no 開始 step
    open_round(staff, base, slug, rnd.name)
    orders: dict[str, list[int]] = {}
    scores: dict[str, tuple[list[int], dict[int, Decimal]]] = {}
    for i, group in enumerate(Group.objects.filter(round=rnd).order_by("number")):
        pick = illegal if illegal and Seat.objects.filter(
            group=group, entrant_id=illegal["entrant_id"]).exists() else None
        screen = enter_group(staff, base, slug, group, rng, pick,
                             f"{tag}-match-{group.label}" if i == 0 or pick else f"{tag}-match")
        orders[group.label] = expected_order(group, screen)
        scores[group.label] = (orders[group.label], scores_by_entrant(group, screen))
    # Nobody reloads the organiser's page: it follows the tablets and offers 締め切る.
    org.wait_for_selector("form[action$='/do/close/'] button:not([disabled])",
                          timeout=15_000)
    org.wait_for_load_state()
    shot(org, f"{tag}-round-all-done")
    organiser_step(org, "締め切る")
    go(org, org.get_by_role("link", name="勝ち抜けを確認"))
    if not round_rules(rnd).spec.is_ranked_final:
        # The 惜敗率 table shown before confirming: everyone below the cut, in the order
        # the entered scores (less the −400) give.
        names = dict(Entrant.objects.filter(tournament=rnd.tournament)
                     .values_list("id", "name"))
        listed = org.locator(".ratio-table tbody tr td:nth-child(2)").all_inner_texts()
        assert [t.strip() for t in listed] == [
            names[e] for e in expected_ratio_table(scores, rnd.advance_per_group)]
    shot(org, f"{tag}-advance-preview")
    no_sideways_scroll(org)
    return orders


# ------------------------------------------------------------------ the test


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_katata_from_the_desk_to_the_champion(live_server: Any, tournament: Tournament,
                                             cast: dict[str, Any], browser: Any,
                                             tablet_page: Any) -> None:
    tournament.preset = "katata-kansai5-qualifier"
    tournament.slug = "katata"
    tournament.name = "堅田大会"
    tournament.save()
    base, slug = live_server.url, tournament.slug
    rng = random.Random(2026)

    desk = tablet_page
    login(desk, base, "desk", PASSWORD)
    desk_registers_everyone(desk, base, slug)
    entrants = {e.name: e for e in Entrant.objects.filter(tournament=tournament)}
    assert len(entrants) == 13 and all(e.checked_in for e in entrants.values())
    first = entrants[PEOPLE[0][0]]
    assert (first.shura_titles, first.shura_local_wins, first.q_level) == (1, 1, 95)
    assert entrants[PEOPLE[4][0]].shura_voluntary and entrants[PEOPLE[4][0]].shura_extra_lots == 1
    assert entrants[PEOPLE[8][0]].opt_up == "bomber"

    org = staff_page(browser, live_server, "org")
    org.goto(f"{base}/t/{slug}/")
    go(org, org.get_by_role("link", name="回戦を開く"))
    go(org, org.get_by_role("button", name="プリセットから回戦を作成"))
    names = org.locator(".list-group-item strong").all_inner_texts()
    assert names == ["1回戦", "準決勝", "決勝"]
    shot(org, "06-rounds-index")
    go(org, org.locator(".list-group-item", has_text="1回戦"))
    # H4: the 修羅 lots come first; the round page says who still owes them.
    pending = org.locator("#shura-pending").inner_text()
    assert f"（2名）：{PEOPLE[4][0]}、{PEOPLE[0][0]}" in pending, pending  # by reading
    assert org.get_by_role("button", name="抽選する").is_disabled()
    shot(org, "06b-round1-waits-for-lots")

    desk_draws_lots(desk, base, slug)
    org.reload()
    assert org.locator("#shura-pending").count() == 0
    lots = sel.lots_of(tournament, [first.id, entrants[PEOPLE[4][0]].id])
    assert len(lots[first.id]["genres"]) == 2
    assert lots[entrants[PEOPLE[4][0]].id]["genres"] == ["スポーツ", "社会"]

    staff = staff_page(browser, live_server, "bracket")
    pages = {"org": org, "bracket": staff}
    r1, semi, final = Round.objects.filter(tournament=tournament).order_by("number")
    # H7: the first 修羅 player picks a genre their lot banned; refused, then accepted
    # with the −400 penalty because a legal set existed.
    banned = lots[first.id]["genres"][0]
    illegal = {"entrant_id": first.id, "value": f"{banned}|四択", "reason": "修羅くじ"}

    orders = play_round(pages, base, slug, r1, rng, illegal, "10-r1")
    assert SelectionFact.objects.filter(seat__entrant_id=first.id,
                                        accepted_illegal=True).count() == 1
    expected = {e for order in orders.values() for e in order[:2]}
    preview = sel.advancement_preview(r1, sel.round_view(r1))
    shown = org.locator("body").inner_text()
    for e in Entrant.objects.filter(id__in=expected):
        assert e.name in shown
    assert "勝ち抜け 8名（追加勝ち抜けなし）" in shown
    assert "各組上位以外（惜敗率順・敗退）" in shown
    go(org, org.get_by_role("button", name="この内容で勝ち抜けを確定"))
    assert set(sel.advancers_of(Round.objects.get(id=r1.id))) == expected
    go(org, org.locator("#next-round", has_text="準決勝"))
    (_rule, outcome), = preview
    assert {int(p) for p in outcome.players} == expected

    orders = play_round(pages, base, slug, semi, rng, None, "20-semi")
    expected = {e for order in orders.values() for e in order[:2]}
    go(org, org.get_by_role("button", name="この内容で勝ち抜けを確定"))
    assert set(sel.advancers_of(Round.objects.get(id=semi.id))) == expected
    go(org, org.locator("#next-round", has_text="決勝"))
    assert set(Seat.objects.filter(group__round=final).values_list("entrant_id", flat=True)) \
        in (set(), expected)

    orders = play_round(pages, base, slug, final, rng, None, "30-final")
    (order,) = orders.values()
    champion = Entrant.objects.get(id=order[0])
    # H1: the final ranks all four; the page names the places, the champion first.
    places = org.locator(".final-order tr").all_inner_texts()
    assert [p.split() for p in places] == [
        [label, Entrant.objects.get(id=e).name]
        for label, e in zip(["優勝", "準優勝", "3位", "4位"], order)]
    go(org, org.get_by_role("button", name="この内容で順位を確定"))
    assert "最終順位を確定しました" in org.locator(".alert-success").inner_text()
    assert sel.advancers_of(Round.objects.get(id=final.id))[:1] == [champion.id]
    assert sel.final_order(sel.round_view(final))[:1] == [str(champion.id)]
    assert champion.name in org.locator(".podium-champion").inner_text()
    assert org.get_by_role("link", name="特別ルールの入力").count() == 0
    shot(org, "31-final-advanced")

    public = browser.new_context(viewport=TABLET, locale="ja-JP").new_page()
    public.goto(f"{base}/p/{slug}/")
    shot(public, "40-public-home")
    go(public, public.get_by_role("link", name="トーナメント表・結果"))
    assert champion.name in public.locator(".podium-champion").inner_text()
    shot(public, "41-public-bracket")
    public.goto(f"{base}/p/{slug}/r/1/")
    shot(public, "42-public-r1")
    public.goto(f"{base}/p/{slug}/players/{first.id}/")
    shot(public, "43-public-player")

    # Afterwards: the penalised group's record, from the tablet in three taps.
    b_label = Group.objects.get(round=r1, seats__entrant_id=first.id).label
    open_round(staff, base, slug, "1回戦")
    go(staff, staff.locator(".group-card a.card-header", has_text=b_label).first)
    go(staff, staff.get_by_role("link", name="履歴"))
    assert "違反" in staff.locator("body").inner_text()
    shot(staff, "50-match-history")
    no_sideways_scroll(staff)
    staff.goto(f"{base}/t/{slug}/")
    shot(staff, "51-dashboard-bracket")
