"""A whole 九州杯IX (K1–K10) run by people on tablets in real Chromium, from the entry desk
to the champion: 65 entrants (7 seeds) and 2 no-shows imported and checked in at the desk,
then the organiser and the bracket staff do everything else by tapping the pages.

The advancers of every round are checked against an independent reading of the facts the
staff typed (tests/rounds/test_full_events.py's helpers), as run_kyushu does through the
services. One screenshot of each kind of page goes to /tmp/shots/kyushu/ (768 px).
"""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from brackets.models import Entrant, Group, Round, Seat, SelectionFact, Tournament
from brackets.selectors.rounds import advancers_of
from tests.browser.conftest import TABLET, login
from tests.conftest import PASSWORD
from tests.rounds.test_full_events import expected_top, expected_wildcards, scores_of

SHOTS = "/tmp/shots/kyushu"
_TAKEN: set[str] = set()


def shot(page: Any, name: str) -> None:
    """One screenshot per kind of page (the first time it is seen)."""
    if name in _TAKEN:
        return
    _TAKEN.add(name)
    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def tap(page: Any, target: Any) -> None:
    """Tap something that loads a page (a link, or a form's button: POST, redirect, GET)."""
    locator = page.locator(target) if isinstance(target, str) else target
    with page.expect_navigation():
        locator.click()


def entry_csv(count: int, seeds: int, no_shows: int) -> bytes:
    """A pre-entry export as organisers get it from a form: Japanese headers, ○ marks."""
    lines = ["お名前,カードネーム,よみがな,ホーム店舗,最高Qレベル,シード,受付"]
    for i in range(1, count + 1):
        seed = str(i) if i <= seeds else ""
        lines.append(f"選手{i:02d},CN{i:02d},せんしゅ{i:02d},テスト店,{40 + i % 50},{seed},○")
    for i in range(1, no_shows + 1):
        lines.append(f"欠席{i},KS{i:02d},けっせき{i},テスト店,50,,")
    return ("\n".join(lines) + "\n").encode("utf-8")


def seat_numbers(page: Any) -> tuple[list[int], list[int]]:
    """(players' seats, dummies' seats) of the match page on screen."""
    players, dummies = [], []
    for card in page.locator(".seat-card").all():
        n = int((card.get_attribute("id") or "seat-0").split("-")[1])
        (dummies if "dummy-row" in (card.get_attribute("class") or "") else players).append(n)
    return players, dummies


def legal_sets(page: Any, n: int) -> list[str]:
    return page.evaluate(
        "n => Array.from(document.querySelectorAll(`#seat-${n} optgroup`)[0].children)"
        ".map(o => o.value)", n)


def choose_sets(page: Any, rng: random.Random) -> None:
    """Each player's set, chosen from what the page offers as legal, registered seat by
    seat (the page reloads after each save and recomputes the others' options)."""
    players, _dummies = seat_numbers(page)
    for n in players:
        card = page.locator(f"#seat-{n}")
        if card.locator(".current-selection").count():
            continue
        options = legal_sets(page, n)
        assert options, f"seat {n} has no legal set"
        card.locator("select[name=set]").select_option(options[rng.randrange(len(options))])
        assert card.locator(".illegal-reason").inner_text().strip() == ""
        tap(page, card.locator("button", has_text="出題を登録"))
        assert page.locator("#match-error").count() == 0, page.locator("#match-error").inner_text()
        assert page.locator(f"#seat-{n} .current-selection").count() == 1


def enter_results(page: Any, rng: random.Random, scores: dict[int, int] | None = None) -> None:
    """The result screen, as the staff read it: every seat's score and on-screen place
    (the dummy's too)."""
    players, dummies = seat_numbers(page)
    seats = sorted(players + dummies)
    if scores is None:
        scores = dict(zip(seats, rng.sample(range(5000, 40000), len(seats))))
    ordered = sorted(seats, key=lambda n: -scores[n])
    for place, n in enumerate(ordered, 1):
        page.fill(f"input[name=score_{n}]", f"{scores[n] / 100:.2f}")
        page.select_option(f"select[name=place_{n}]", str(place))
    tap(page, "#results-form button.btn-success")
    assert page.locator("#match-error").count() == 0, page.locator("#match-error").inner_text()
    assert page.locator("#group-status").inner_text().strip() != ""


def play_round_groups(page: Any, rng: random.Random, round_label: str,
                      before_sets: Any = None) -> None:
    """From the round page, open the first group and go through every group in turn with
    the group tabs, entering selections then results."""
    tap(page, page.locator(".group-card a.card-header").first)
    while True:
        shot(page, f"match-{round_label}-before-768")
        if before_sets is not None:
            before_sets(page)
        choose_sets(page, rng)
        enter_results(page, rng)
        shot(page, f"match-{round_label}-after-768")
        following = page.locator(".group-tabs a.btn-dark + a")
        if following.count() == 0:
            break
        tap(page, following)
    tap(page, page.locator(".group-tabs a").first)  # back to the round page


def round_step(page: Any, button: str) -> None:
    tap(page, page.locator("form button", has_text=button))
    assert page.locator(".alert-danger").count() == 0, page.locator(".alert-danger").inner_text()


def open_round(page: Any, name: str) -> None:
    """From the rounds list, by the round's name."""
    tap(page, page.locator("nav a", has_text="回戦一覧"))
    open_round_list(page, name)


def open_round_list(page: Any, name: str) -> None:
    """On the rounds list, the round named exactly ``name`` (決勝 is not 準決勝)."""
    tap(page, page.locator(".list-group-item").filter(
        has=page.locator("strong").get_by_text(name, exact=True)))


def advance(page: Any, label: str) -> None:
    """締め切る → 勝ち抜けを確認 (the 惜敗率 table) → 確定."""
    page.reload()
    round_step(page, "締め切る")
    tap(page, page.locator("a", has_text="勝ち抜けを確認"))
    shot(page, f"advance-{label}-768")
    # The third-place match and the final decide places, not who advances.
    confirm = "この内容で順位を確定" if label in ("third", "final") else "この内容で勝ち抜けを確定"
    tap(page, page.locator("button", has_text=confirm))
    assert page.locator(".alert-success").count() == 1


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_kyushu_cup_ix_from_desk_to_champion_on_tablets(
        live_server: Any, tournament: Tournament, cast: dict[str, Any], browser: Any,
        tablet_page: Any, tmp_path: Any) -> None:
    rng = random.Random(9)
    url = live_server.url
    slug = tournament.slug
    _TAKEN.clear()

    # --- The organiser picks the preset on the settings page.
    org = browser.new_context(viewport=TABLET, locale="ja-JP").new_page()
    org.set_default_timeout(10_000)
    login(org, url, "org", PASSWORD)
    org.goto(f"{url}/t/{slug}/")
    shot(org, "dashboard-768")
    tap(org, org.locator("a", has_text="大会設定"))
    org.select_option("#id_preset", "kyushu-cup-ix")
    shot(org, "settings-768")
    tap(org, org.locator("button", has_text="保存"))
    assert Tournament.objects.get(id=tournament.id).preset == "kyushu-cup-ix"

    # --- The desk imports the pre-entries (65 + 2 who never come) and confirms.
    desk = browser.new_context(viewport=TABLET, locale="ja-JP").new_page()
    desk.set_default_timeout(10_000)
    login(desk, url, "desk", PASSWORD)
    desk.goto(f"{url}/t/{slug}/")
    tap(desk, desk.locator("a", has_text="受付を開く"))
    shot(desk, "desk-768")
    tap(desk, desk.locator(".desk-nav a", has_text="取り込み"))
    csv_path = tmp_path / "entries.csv"
    csv_path.write_bytes(entry_csv(65, 7, 2))
    desk.set_input_files("input[type=file]", str(csv_path))
    shot(desk, "import-768")
    tap(desk, desk.locator("button", has_text="読み込んで確認する"))
    assert "新規 67人" in desk.locator("#import-summary").inner_text()
    assert "エラー 0行" in desk.locator("#import-summary").inner_text()
    shot(desk, "import-preview-768")
    tap(desk, desk.locator("button", has_text="67人を取り込む"))
    shot(desk, "desk-after-import-768")
    entrants = Entrant.objects.filter(tournament=tournament)
    assert entrants.count() == 67
    assert entrants.filter(checked_in=True).count() == 65
    assert entrants.filter(seed__isnull=False).count() == 7
    seeds = set(entrants.filter(seed__isnull=False).values_list("id", flat=True))

    # --- The organiser creates the rounds, draws round 1 and starts it.
    tap(org, org.locator("a", has_text="回戦を開く"))
    tap(org, org.locator("button", has_text="プリセットから回戦を作成"))
    names = org.locator(".list-group-item strong").all_inner_texts()
    assert names == ["1回戦", "2回戦", "3回戦", "4回戦", "準決勝", "3位決定戦", "決勝"]
    shot(org, "rounds-768")
    tap(org, org.locator(".list-group-item", has_text="1回戦"))
    assert "受付済 58 名で抽選" in org.locator("main, body").first.inner_text()
    shot(org, "round-configured-768")
    round_step(org, "抽選する")
    assert tournament.lottery_seed in org.locator("#round-summary").inner_text()
    shot(org, "round-drawn-768")
    r1 = Round.objects.get(tournament=tournament, number=1)
    r1_players = set(Seat.objects.filter(group__round=r1, entrant__isnull=False)
                     .values_list("entrant_id", flat=True))
    assert len(r1_players) == 58 and not (r1_players & seeds)
    assert org.locator(".group-card").count() == 15
    assert org.locator(".group-card .dummy-row").count() == 2  # K2
    org.locator("#round-accepting").wait_for()  # 抽選済 takes input at once: no 開始 step

    # --- Bracket staff on the tablet: round 1, with one illegal choice shown and refused.
    tab = tablet_page
    login(tab, url, "bracket", PASSWORD)
    tab.goto(f"{url}/t/{slug}/")
    tap(tab, tab.locator("a", has_text="回戦を開く"))
    open_round_list(tab, "1回戦")
    shot(tab, "round-running-768")
    play_round_groups(tab, rng, "r1")
    advance(org, "r1")
    adv1 = advancers_of(r1)
    assert adv1 is not None and len(adv1) == 33  # 30 group tops + 3 wildcards (K4)
    assert set(adv1) == expected_top(r1, 2) | expected_wildcards(r1, 2, 3)

    # --- Round 2: the seeds join, never two in a group (K5); illegal choice shown here,
    # where every player has a round-1 history (K1).
    open_round(org, "2回戦")
    round_step(org, "抽選する")
    r2 = Round.objects.get(tournament=tournament, number=2)
    assert org.locator(".group-card").count() == 10
    for g in Group.objects.filter(round=r2):
        assert Seat.objects.filter(group=g, entrant__seed__isnull=False).count() <= 1
    assert set(Seat.objects.filter(group__round=r2, entrant__isnull=False)
               .values_list("entrant_id", flat=True)) == set(adv1) | seeds
    org.locator("#round-accepting").wait_for()  # 抽選済 takes input at once: no 開始 step

    def illegal_first(page: Any) -> None:
        """A player who played 芸能 or 四択 in round 1 tries them again: the reason shows
        as soon as it is picked, and the save is refused."""
        if "match-illegal-768" in _TAKEN:
            return
        players, _d = seat_numbers(page)
        n = next(n for n in players if page.locator(f"#seat-{n} option.illegal").count())
        card = page.locator(f"#seat-{n}")
        bad = card.locator("option.illegal").first.get_attribute("value")
        card.locator("select[name=set]").select_option(bad)
        reason = card.locator(".illegal-reason").inner_text()
        assert "使用済" in reason or "使用" in reason, reason
        shot(page, "match-illegal-768")
        tap(page, card.locator("button", has_text="出題を登録"))
        assert page.locator("#match-error").count() == 1
        assert SelectionFact.objects.filter(group__round=r2).count() == 0

    tap(tab, tab.locator("a", has_text="回戦一覧"))
    open_round_list(tab, "2回戦")
    play_round_groups(tab, rng, "r2", before_sets=illegal_first)
    advance(org, "r2")
    adv2 = advancers_of(r2)
    assert adv2 is not None and len(adv2) == 20 and set(adv2) == expected_top(r2, 2)

    # --- Round 3: everyone's A/B form, then the assignment in processing order (K6).
    open_round(org, "3回戦")
    tap(org, org.locator("a", has_text="特別ルールの入力"))
    r3 = Round.objects.get(tournament=tournament, number=3)
    wishes: dict[str, str] = {}
    for i in range(20):
        form = org.locator("form", has=org.locator("input[name=action][value=rule]")).nth(i)
        wish = rng.choice("AB")
        tap(org, form.locator("button", has_text=wish))
    assert org.locator("#assignment tbody tr").count() == 20  # the processing order
    shot(org, "rule-select-768")
    counts = org.locator("#assignment-counts").inner_text()
    assert "ルールA：12名（定員12）" in counts and "ルールB：8名（定員8）" in counts
    basis = org.locator("#assignment tbody tr td:nth-child(3)").all_inner_texts()
    assert all("1位 · 得点" in b for b in basis[:10])  # R2 winners by score first (K6)
    assigned = org.locator("#assignment tbody tr td:nth-child(5)").all_inner_texts()
    assert sum(a.startswith("A") for a in assigned) == 12
    assert sum(a.startswith("B") for a in assigned) == 8
    tap(org, org.locator("nav a", has_text="3回戦"))
    round_step(org, "抽選する")
    assert Group.objects.filter(round=r3, rule="A").count() == 3
    assert Group.objects.filter(round=r3, rule="B").count() == 2
    org.locator("#round-accepting").wait_for()  # 抽選済 takes input at once: no 開始 step
    tap(tab, tab.locator("a", has_text="回戦一覧"))
    open_round_list(tab, "3回戦")
    play_round_groups(tab, rng, "r3")
    advance(org, "r3")
    adv3 = advancers_of(r3)
    assert adv3 is not None and len(adv3) == 8
    assert set(adv3) == expected_top(r3, 2, "A") | expected_top(r3, 1, "B")

    # --- Round 4: 下関ルール・改, the app draws the cards from the stored seed (K7).
    open_round(org, "4回戦")
    round_step(org, "抽選する")
    org.locator("#round-accepting").wait_for()  # 抽選済 takes input at once: no 開始 step
    r4 = Round.objects.get(tournament=tournament, number=4)

    def draw_cards(page: Any) -> None:
        if page.locator("button", has_text="アプリで引く").count():
            assert page.locator(".cards-pending").count() > 0
            tap(page, page.locator("button", has_text="アプリで引く"))
        assert page.locator("section .badge.text-bg-primary").count() >= 2
        assert "使用可" in page.locator("#cards-allowed").inner_text()
        assert tournament.lottery_seed in page.locator("section").first.inner_text()
        shot(page, "match-r4-cards-768")

    tap(tab, tab.locator("a", has_text="回戦一覧"))
    open_round_list(tab, "4回戦")
    play_round_groups(tab, rng, "r4", before_sets=draw_cards)
    advance(org, "r4")
    adv4 = advancers_of(r4)
    assert adv4 is not None and len(adv4) == 4 and set(adv4) == expected_top(r4, 2)

    # --- Semi-final: every player's ban entered, then revealed together (K8).
    open_round(org, "準決勝")
    round_step(org, "抽選する")
    org.locator("#round-accepting").wait_for()  # 抽選済 takes input at once: no 開始 step
    sf = Round.objects.get(tournament=tournament, number=5)
    ban_genres = ["芸能", "スポーツ", "芸能", "社会"]

    def bans(page: Any) -> None:
        # No selection before the reveal (K8): the page says so instead of the forms.
        assert page.locator(".bans-pending").count() == 4
        assert page.locator(".selection-form").count() == 0
        forms = page.locator("form", has=page.locator("input[name=action][value=ban]"))
        for i in range(forms.count()):
            form = page.locator("form", has=page.locator("input[name=action][value=ban]")).nth(i)
            form.locator("select[name=genre]").select_option(ban_genres[i])
            tap(page, form.locator("button"))
        shot(page, "match-sf-bans-entered-768")
        tap(page, page.locator("button", has_text="一斉公開"))
        assert page.locator("section .badge.text-bg-danger").count() == 3
        assert page.locator(".selection-form").count() == 4
        shot(page, "match-sf-bans-revealed-768")

    tap(tab, tab.locator("a", has_text="回戦一覧"))
    open_round_list(tab, "準決勝")
    play_round_groups(tab, rng, "sf", before_sets=bans)
    g = Group.objects.get(round=sf)
    assert not SelectionFact.objects.filter(group=g, genre__in=["芸能", "スポーツ", "社会"]).exists()
    advance(org, "sf")
    order_sf = [eid for eid, _s in scores_of(sf)["A"]]
    assert advancers_of(sf) == order_sf[:2]

    # --- Third-place match: partners chosen from the players present (K9).
    open_round(org, "3位決定戦")
    tap(org, org.locator("a", has_text="特別ルールの入力"))
    shot(org, "third-special-768")
    others = list(Entrant.objects.filter(tournament=tournament, checked_in=True)
                  .exclude(id__in=order_sf).order_by("name"))
    for i, partner in enumerate(others[:2]):
        form = org.locator("form", has=org.locator("input[name=action][value=partner]")).nth(i)
        form.locator("select[name=partner]").select_option(str(partner.id))
        tap(org, form.locator("button"))
    assert org.locator(".text-success", has_text="✓").count() == 2
    shot(org, "third-partners-768")
    tap(org, org.locator("nav a", has_text="3位決定戦"))
    round_step(org, "抽選する")
    third = Round.objects.get(tournament=tournament, number=6)
    tg = Group.objects.get(round=third)
    assert {Seat.objects.get(group=tg, number=n).entrant_id for n in (1, 4)} == set(order_sf[2:])
    org.locator("#round-accepting").wait_for()  # 抽選済 takes input at once: no 開始 step
    tap(tab, tab.locator("a", has_text="回戦一覧"))
    open_round_list(tab, "3位決定戦")
    play_round_groups(tab, rng, "third")
    advance(org, "third")
    contenders = {eid: s for eid, s in scores_of(third)[tg.label] if eid in order_sf[2:]}
    assert advancers_of(third) == [max(contenders, key=lambda e: contenders[e])]

    # --- Final: partners, dice, the winner's decision, best of 3 (K10).
    open_round(org, "決勝")
    tap(org, org.locator("a", has_text="特別ルールの入力"))
    for i, partner in enumerate(others[2:4]):
        form = org.locator("form", has=org.locator("input[name=action][value=partner]")).nth(i)
        form.locator("select[name=partner]").select_option(str(partner.id))
        tap(org, form.locator("button"))
    tap(org, org.locator("form", has=org.locator("input[name=action][value=dice]"))
        .locator("button"))
    dice_text = org.locator("#dice-result").inner_text()
    assert all(Entrant.objects.get(id=c).name in dice_text for c in order_sf[:2])
    shot(org, "final-dice-768")
    org.select_option("select[name=winner_decides]", "question_order")
    org.select_option("select[name=question_order]", "alternating")
    tap(org, org.locator("form", has=org.locator("input[name=action][value=setup]"))
        .locator("button"))
    shot(org, "final-setup-768")
    assert org.locator("select[name=question_order]").input_value() == "alternating"
    assert org.locator("select[name=winner_decides]").input_value() == "question_order"
    tap(org, org.locator("nav a").get_by_text("決勝", exact=True))
    round_step(org, "抽選する")
    org.locator("#round-accepting").wait_for()  # 抽選済 takes input at once: no 開始 step
    final = Round.objects.get(tournament=tournament, number=7)
    tap(tab, tab.locator("a", has_text="回戦一覧"))
    open_round_list(tab, "決勝")
    tap(tab, tab.locator(".group-card a.card-header").first)
    wins: dict[int, int] = {}
    for game in Group.objects.filter(round=final).order_by("game"):
        if max(wins.values(), default=0) == 2:
            assert tab.locator("#series-decided").count() == 1
            assert tab.locator(".selection-form").count() == 0
            shot(tab, "match-final-unneeded-768")
            break
        assert "出題順" in tab.locator(".alert-info").inner_text()
        assert tab.locator(".pair-role").count() == 4  # 対戦者 ×2, パートナー ×2 (K10)
        choose_sets(tab, rng)
        enter_results(tab, rng)
        shot(tab, f"match-final-g{game.game}-768")
        a = Seat.objects.get(group=game, number=1).entrant_id
        b = Seat.objects.get(group=game, number=4).entrant_id
        sc = dict(scores_of(final)[game.label])
        winner = a if sc[a] > sc[b] else b
        wins[winner] = wins.get(winner, 0) + 1
        score = tab.locator("#series-score").inner_text()
        assert f"{wins.get(a, 0)}勝 – {wins.get(b, 0)}勝" in score, score
        following = tab.locator(".group-tabs a.btn-dark + a")
        if following.count():
            tap(tab, following)
    advance(org, "final")
    champion = max(wins, key=lambda p: wins[p])
    assert advancers_of(final) == [champion] and wins[champion] == 2

    # --- The public page names the champion.
    public = browser.new_context(viewport=TABLET, locale="ja-JP").new_page()
    public.goto(f"{url}/p/{slug}/")
    shot(public, "public-home-768")
    public.goto(f"{url}/p/{slug}/bracket/")
    podium = public.locator("#podium .podium-champion").inner_text()
    assert Entrant.objects.get(id=champion).name in podium
    shot(public, "public-bracket-768")
    public.goto(f"{url}/p/{slug}/r/1/")
    shot(public, "public-r1-768")
    public.goto(f"{url}/p/{slug}/players/{champion}/")
    assert public.locator("#player-finish").inner_text() == "優勝"
    shot(public, "public-player-768")
    for ctx_page in (org, desk, public):
        ctx_page.context.close()
