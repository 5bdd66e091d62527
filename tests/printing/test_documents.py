"""Every registered document renders for demo-like tournaments and says what it should.

Two named states: 九州杯IX played to the champion (every round document has data), and
堅田大会 with 修羅 lots drawn and round 1 drawn (rank modes, lots, forms before results).
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from typing import Any

import pytest

from brackets.adapters.rounds import round_rules
from brackets.models import Entrant, Group, Round, Seat, SpecialFact, Tournament
from brackets.printing.registry import DocumentError, all_documents, get_document
from brackets.selectors.round_documents import final_ranking
from tests.printing.pdfcheck import page_count, pdf_text

pytestmark = pytest.mark.django_db


def seated_names(t: Tournament, number: int) -> list[str]:
    seats = Seat.objects.filter(group__round__tournament=t, group__round__number=number,
                                superseded_by__isnull=True, entrant__isnull=False)
    return sorted({s.entrant.name for s in seats.select_related("entrant")})


def compact(text: str) -> str:
    """Extracted text without the spaces and line breaks layout puts between glyphs."""
    return "".join(text.split())


def expect_all(text: str, wanted: list[str], what: str) -> None:
    flat = compact(text)
    missing = [w for w in wanted if compact(w) not in flat]
    assert not missing, f"{what}: missing {missing[:5]}"


# ------------------------------------------------------------------- expectations per slug


def names_all(t: Tournament, opts: dict[str, Any]) -> list[str]:
    return [e.card_name for e in Entrant.objects.filter(tournament=t)]


def entry_sheet_text(t: Tournament, opts: dict[str, Any]) -> list[str]:
    first = Entrant.objects.filter(tournament=t).order_by("id").first()
    assert first is not None
    wanted = ["エントリーシート", first.name, first.reading, first.card_name,
              f"Q{first.q_level}", "修羅くじ", "1回戦"]
    if t.preset == "kyushu-cup-ix":
        wanted.append("基本ルール（高火力ボンバーマン）")
    else:
        lots = SpecialFact.objects.filter(tournament=t, kind="shura_lots", entrant=first).first()
        assert lots is not None
        wanted += ["高火力ボンバーマン（修羅）", *lots.data["genres"]]
    seat = Seat.objects.filter(group__round__tournament=t, group__round__number=1,
                               entrant=first, superseded_by__isnull=True).first()
    if seat is not None:
        wanted.append(f"{seat.group.label}　サテ{seat.number}")
    if first.seed and t.preset == "kyushu-cup-ix":
        wanted.append("シード（2回戦から出場）")
    return wanted


def round_names(t: Tournament, opts: dict[str, Any]) -> list[str]:
    return seated_names(t, opts["round"])


def match_sheet_text(t: Tournament, opts: dict[str, Any]) -> list[str]:
    labels = list(Group.objects.filter(round__tournament=t, round__number=opts["round"])
                  .values_list("label", flat=True))
    return ["入力者", "確認者", "得点", "順位", *labels, *seated_names(t, opts["round"])]


def result_text(t: Tournament, opts: dict[str, Any]) -> list[str]:
    rnd = Round.objects.get(tournament=t, number=opts["round"])
    wanted = ["結果", *seated_names(t, opts["round"])]
    if not round_rules(rnd).spec.is_last:
        wanted += ["惜敗率", "100.00", "勝ち抜け"]
    return wanted


def rule_form_text(t: Tournament, opts: dict[str, Any]) -> list[str]:
    return ["ルールA", "ルールB", "定員12名", "定員8名", "1位のみ勝ち抜け",
            *seated_names(t, opts["round"])]


def ban_form_text(t: Tournament, opts: dict[str, Any]) -> list[str]:
    return ["禁止ジャンル用紙", "理系学問", "アニメ&ゲーム", *seated_names(t, opts["round"])]


def card_text(t: Tournament, opts: dict[str, Any]) -> list[str]:
    from brackets import engine_adapter as ea
    from brackets.engine import shimonoseki_deck

    cards = shimonoseki_deck(ea.catalog_for(t.version_id))
    return [f"下関カードNo.{len(cards)}", *(f"{c.genre}" for c in cards),
            *(c.group for c in cards), "野球・サッカー・スポーツその他"]


def shura_text(t: Tournament, opts: dict[str, Any]) -> list[str]:
    wanted = ["修羅くじ記録", "立会人"]
    for fact in SpecialFact.objects.filter(tournament=t, kind="shura_lots"):
        wanted += [fact.entrant.name, *fact.data["genres"]]
    return wanted


def usage_text(t: Tournament, opts: dict[str, Any]) -> list[str]:
    return ["使用済みジャンル", "残りジャンル", *seated_names(t, opts["round"])]


def set_order_text(t: Tournament, opts: dict[str, Any]) -> list[str]:
    return ["出題順シート", "第1試合", "第2試合", "出題順序：交互", "パートナー",
            *seated_names(t, opts["round"])]


def standings_text(t: Tournament, opts: dict[str, Any]) -> list[str]:
    ranking = final_ranking(t)
    return ["最終順位", "優勝", ranking[0].name, ranking[1].name, ranking[-1].name]


def chart_text(t: Tournament, opts: dict[str, Any]) -> list[str]:
    ranking = final_ranking(t)
    if not ranking:  # only round 1 drawn: its groups and players
        return ["1回戦", *seated_names(t, 1)]
    return ["1回戦", "4回戦", "決勝", ranking[0].name]


def batch_text(t: Tournament, opts: dict[str, Any]) -> list[str]:
    return ["組分け表", "入力者", *seated_names(t, opts["round"])]


PDF_EXPECT: dict[str, Callable[[Tournament, dict[str, Any]], list[str]]] = {
    "buzzer-scoresheet": lambda t, o: ["選手1", "選手2", "選手3", "選手4"],
    "name-tags": names_all,
    "entry-sheets": entry_sheet_text,
    "desk-batch": lambda t, o: names_all(t, o) + entry_sheet_text(t, o),
    "group-table": round_names,
    "match-sheets": match_sheet_text,
    "result-sheets": result_text,
    "rule-forms": rule_form_text,
    "ban-forms": ban_form_text,
    "shimonoseki-cards": card_text,
    "shura-lottery": shura_text,
    "usage-cards": usage_text,
    "final-set-order": set_order_text,
    "floor-queue": lambda t, o: ["呼び出し表"],
    "final-standings": standings_text,
    "bracket-chart": chart_text,
    "round-batch": batch_text,
    "rule-page": lambda t, o: ["大会ルール", "【基本ルール】", "【惜敗率と同率の扱い】",
                               "【各ラウンド・ルール＆勝ち抜け条件】", "【ペナルティと禁止事項】"],
}


def check_xlsx(t: Tournament, slug: str, opts: dict[str, Any], content: bytes) -> None:
    from openpyxl import load_workbook

    book = load_workbook(io.BytesIO(content))
    for sheet in book.worksheets:
        assert sheet.freeze_panes == "A2", (slug, sheet.title)
        assert sheet.max_row >= 2, (slug, sheet.title)
        header = [c.value for c in sheet[1]]
        assert all(header), (slug, header)
    values = {str(c.value) for s in book.worksheets for row in s.iter_rows() for c in row}
    if slug == "round-xlsx":
        assert set(seated_names(t, opts["round"])) <= values
        first = book.worksheets[0]
        widths = {k: v.width for k, v in first.column_dimensions.items()}
        # 選手 column: wide enough for a four-kanji name (8 half-width columns) and more.
        assert widths["D"] >= 10
    if slug == "ranking-xlsx":
        assert final_ranking(t)[0].name in values


def render_everything(t: Tournament) -> dict[tuple[str, str], tuple[str, str, bytes]]:
    out = {}
    for doc in all_documents():
        for choice in doc.choices(t):
            try:
                out[(doc.slug, json.dumps(dict(choice.options)))] = doc.render(
                    t, **choice.options)
            except DocumentError:
                continue
    return out


def check_rendered(t: Tournament, rendered: dict[tuple[str, str], tuple[str, str, bytes]]
                   ) -> set[str]:
    seen = set()
    for (slug, opts_json), (filename, content_type, content) in rendered.items():
        opts = json.loads(opts_json)
        assert filename.startswith(t.slug), filename
        seen.add(slug)
        if content_type == "application/pdf":
            assert content.startswith(b"%PDF"), slug
            text = pdf_text(content)
            pages = page_count(content)
            expect_all(text, [t.name, f"1 / {pages}"], f"{slug} header")
            expect_all(text, PDF_EXPECT[slug](t, opts), f"{slug} {opts}")
        elif content_type.endswith("spreadsheetml.sheet"):
            check_xlsx(t, slug, opts, content)
        elif content_type == "application/json":
            data = json.loads(content)
            assert data["format"] == "kyushu-tournament" and data["version"] == 4
        else:  # pragma: no cover - a new kind of document needs a check here
            raise AssertionError(f"no check for {slug} ({content_type})")
    return seen


def test_every_document_renders_for_both_seed_tournaments(
        kyushu_finished: Tournament, katata_drawn: Tournament, cast: dict[str, Any]) -> None:
    """One build of each state (a full 65-player event takes a few seconds), many checks.
    The finished 九州杯IX also holds a played live buzzer round, so the buzzer files
    render among the rest."""
    from tests.buzzer_web.factories import played_round_with_protests

    registry_player()
    played_round_with_protests(kyushu_finished, cast)
    seen = check_rendered(kyushu_finished, render_everything(kyushu_finished))
    seen |= check_rendered(katata_drawn, render_everything(katata_drawn))
    every = {doc.slug for doc in all_documents()}
    assert every - seen == set(), f"never rendered: {every - seen}"
    assert set(PDF_EXPECT) <= every
    check_kyushu_special_rounds(kyushu_finished)
    check_desk_batch_pages(kyushu_finished)
    check_page_set_up(kyushu_finished)


def registry_player() -> None:
    """The registry is shared by every tournament: one player with a card and an
    achievement, so its workbook has a row on each sheet."""
    import datetime

    from django.contrib.auth import get_user_model

    from brackets.services.players import achievement_add, player_create

    desk = get_user_model().objects.order_by("pk").first()
    player = player_create(name="登録簿太郎", reading="とうろくぼたろう", card_name="トウロク",
                           q_level=80, by=desk)
    achievement_add(player=player, by=desk, data={
        "kind": "shiga_win", "title": "堅田大会 優勝", "game_version": "tg",
        "held_on": datetime.date(2016, 5, 1), "source": "大会告知ページ"})


def check_kyushu_special_rounds(kyushu_finished: Tournament) -> None:
    text = compact(pdf_text(get_document("group-table").render(kyushu_finished, round=3)[2]))
    assert "ルールA" in text and "ルールB" in text
    sheet = compact(pdf_text(get_document("match-sheets").render(kyushu_finished, round=4)[2]))
    assert "下関カード：" in sheet
    cards = SpecialFact.objects.filter(tournament=kyushu_finished, kind="card_draw").first()
    assert cards is not None
    genre, group = cards.data["cards"][0]
    assert compact(f"{genre}×{group}") in sheet
    bans = compact(pdf_text(get_document("match-sheets").render(kyushu_finished, round=5)[2]))
    assert "禁止ジャンル：" in bans


def check_page_set_up(kyushu_finished: Tournament) -> None:
    """A4 portrait by default, the wall chart A3 landscape; the last page says n / n."""
    from pypdf import PdfReader

    chart = PdfReader(io.BytesIO(get_document("bracket-chart").render(kyushu_finished)[2]))
    box = chart.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (1191, 842)
    sheets = PdfReader(io.BytesIO(get_document("match-sheets").render(kyushu_finished,
                                                                      round=1)[2]))
    box = sheets.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (595, 842)
    n = len(sheets.pages)
    assert f"{n} / {n}" in (sheets.pages[-1].extract_text() or "")
    assert f"1 / {n}" in (sheets.pages[0].extract_text() or "")


def check_desk_batch_pages(kyushu_finished: Tournament) -> None:
    """Ten tags a sheet, then one entry sheet per entrant."""
    count = Entrant.objects.filter(tournament=kyushu_finished).count()
    tags = page_count(get_document("name-tags").render(kyushu_finished)[2])
    assert tags == -(-count // 10)
    batch = get_document("desk-batch").render(kyushu_finished)[2]
    assert page_count(batch) == tags + count


def test_documents_refuse_rounds_that_have_nothing_yet(katata_drawn: Tournament) -> None:
    with pytest.raises(DocumentError, match="抽選"):
        get_document("match-sheets").render(katata_drawn, round=2)
    with pytest.raises(DocumentError, match="結果"):
        get_document("result-sheets").render(katata_drawn, round=1)
    with pytest.raises(DocumentError, match="回戦"):
        get_document("group-table").render(katata_drawn, round=99)
    with pytest.raises(DocumentError, match="回戦"):
        get_document("group-table").render(katata_drawn)


def test_blank_forms_before_the_round_is_known(tournament: Tournament, cast: dict[str, Any]
                                               ) -> None:
    from tests.printing.world import build_kyushu

    build_kyushu(tournament, cast["organiser"], count=20, seeds=0, upto=1)
    rules = get_document("rule-forms").render(tournament, round=3)[2]
    assert page_count(rules) == 5  # 20 blank forms (capacities 12 + 8), four per sheet
    assert "ルールA" in pdf_text(rules)
    bans = get_document("ban-forms").render(tournament, round=5)[2]
    assert page_count(bans) == 2
    cards = get_document("shimonoseki-cards").render(tournament)[2]
    assert "No.35" in pdf_text(cards)  # 7 genres × (4 format groups + サブジャンル)


def test_renders_are_deterministic(tournament: Tournament, cast: dict[str, Any]) -> None:
    from tests.printing.world import build_kyushu

    build_kyushu(tournament, cast["organiser"], count=20, seeds=0, upto=1)
    doc = get_document("match-sheets")
    assert doc.render(tournament, round=1) == doc.render(tournament, round=1)
