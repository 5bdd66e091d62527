"""The public pages as players see them on a phone (390 px) and as the room sees them on a
projector (1920x1080): headers and words kept whole, tables in their own scroll boxes, large
type when a round has few groups, and readable contrast on coloured rows."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings

from brackets import engine_adapter as ea
from brackets.models import Group, Tournament
from brackets.selectors import rounds as sel
from brackets.views.public import PROJ_BIG_ROWS
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


ROUNDS_CSS = Path(settings.BASE_DIR) / "brackets" / "static" / "brackets" / "rounds.css"


def _get(url: str) -> str:
    response = client_for(None).get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def _finished(tournament: Tournament, cast: dict[str, Any]) -> None:
    from tests.printing.world import build_kyushu

    build_kyushu(tournament, cast["organiser"], count=20, seeds=4)


def _css_rules(selector: str) -> str:
    """The declarations of every rule of rounds.css whose selector list names ``selector``."""
    css = re.sub(r"/\*.*?\*/", "", ROUNDS_CSS.read_text(), flags=re.S)
    found = [body for sels, body in re.findall(r"([^{}]+)\{([^{}]*)\}", css)
             if selector in [s.strip() for s in sels.split(",")]]
    return " ".join(found)


def test_public_table_css_keeps_headers_and_words_whole() -> None:
    """The phone rules the wrapped tables rely on: headers on one line, Japanese words broken
    only at spaces, numbers never broken."""
    assert "nowrap" in _css_rules(".public-table th")
    assert "keep-all" in _css_rules(".public-table td")
    assert "nowrap" in _css_rules(".public-table td.num")


def test_round_tables_sit_in_a_phone_safe_scroll_box(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """The cross-group table and the wildcard table: each in its own scroll box with the
    phone rules, so 順位 / 惜敗率 / names are not cut into one or two characters a line."""
    _finished(tournament, cast)
    html = _get(f"/p/{tournament.slug}/r/1/")
    boxes = re.findall(r'<div class="table-responsive public-table"><table[^>]*>(.*?)</table>',
                       html, flags=re.S)
    assert len(boxes) >= 2
    assert any("判定" in b and "順位" in b for b in boxes)
    assert not re.search(r'<div class="table-responsive"><table', html)


def test_bracket_final_ranking_table_is_phone_safe(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """最終順位 (成績: 'A組3位 132.36点 惜敗率53.87') breaks at its spaces, not inside 惜敗率."""
    _finished(tournament, cast)
    html = _get(f"/p/{tournament.slug}/bracket/")
    section = html[html.index('id="final-ranking"'):]
    assert '<div class="table-responsive public-table"><table' in section


def test_player_games_table_scrolls_in_its_box_not_the_page(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """A 3位決定戦 player's row (3位決定戦 twice, a パートナー badge) was wider than a phone and
    moved the whole page sideways; the 出題 cell broke 美術・文/学 and タイピン/グ."""
    _finished(tournament, cast)
    third = Group.objects.get(round__tournament=tournament, round__number=6)
    player = next(s.entrant_id for s in sel.group_view(third).seats if s.entrant_id)
    html = _get(f"/p/{tournament.slug}/players/{ea.player_key(player)}/")
    assert re.search(r'<div class="table-responsive public-table"><table class="table table-sm"'
                     r' id="games">.*?</table></div>', html, flags=re.S)
    # 出題: genre / format / difficulty, each kept whole, lines broken only between them.
    body = html[html.index("<tbody>"):html.index("</tbody>")]
    pieces = re.findall(r'<td><span class="text-nowrap">([^<]+) /</span> '
                        r'<span class="text-nowrap">([^<]+) /</span> '
                        r'<span class="text-nowrap">([^<]+)</span></td>', body)
    assert pieces and all(d in {"EASY", "NORMAL", "HARD"} for *_x, d in pieces)


def test_projector_fills_the_screen_when_a_round_has_few_groups(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """Up to four groups: two wide columns in large type (proj-sparse) instead of four narrow
    ones across the top quarter of the screen."""
    _finished(tournament, cast)
    css = _css_rules("body.projector .proj-sparse .table")
    assert "font-size" in css
    for number in (1, 7):  # 4 groups; the final's 2 games
        html = _get(f"/p/{tournament.slug}/r/{number}/projector/")
        row = re.search(r'<div class="row ([^"]*)">', html).group(1).split()
        assert "proj-sparse" in row and "row-cols-xl-4" not in row, number


def test_projector_keeps_dense_columns_for_many_groups(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """九州杯 round 1 with 65 entrants (16 groups) still uses six columns, not the big type."""
    from tests.printing.world import build_kyushu

    build_kyushu(tournament, cast["organiser"], count=65, seeds=7, upto=0)
    html = _get(f"/p/{tournament.slug}/r/1/projector/")
    row = re.search(r'<div class="row ([^"]*)">', html).group(1).split()
    assert {"proj-dense", "row-cols-xxl-6"} <= set(row) and "proj-sparse" not in row


def test_projector_ratio_table_is_large_when_short(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """A 惜敗率 table of at most PROJ_BIG_ROWS rows is set in large type (proj-table-big)."""
    _finished(tournament, cast)
    assert "font-size" in _css_rules("body.projector .proj-table-big .table")
    html = _get(f"/p/{tournament.slug}/r/1/projector/?view=table")
    rows = html.count("<tr") - html.count("<thead")  # body rows of the wildcard table(s)
    assert 0 < rows <= PROJ_BIG_ROWS
    assert re.search(r'<div class="proj-tables proj-table-big">', html)


def test_projector_ratio_table_stays_normal_when_long(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """65 entrants, round 1: 28 rows around the cut; large type would push most off screen."""
    from tests.printing.world import build_kyushu

    build_kyushu(tournament, cast["organiser"], count=65, seeds=7, upto=1)
    html = _get(f"/p/{tournament.slug}/r/1/projector/?view=table")
    rows = html.count("<tr") - html.count("<thead")
    assert rows > PROJ_BIG_ROWS
    assert '<div class="proj-tables">' in html


def _luminance(hex_colour: str) -> float:
    channels = [int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _contrast(a: str, b: str) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


ROW_BACKGROUNDS = ("#d1e7dd", "#fff3cd", "#f8d7da")


def _colour(selector: str) -> str:
    found = re.search(r"(?<![-\w])color:\s*(#[0-9a-fA-F]{6})", _css_rules(selector))
    assert found, selector
    return found.group(1)


def test_names_and_wc_mark_are_readable_on_coloured_rows(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """Screenshots measured 3.47:1 for a linked name on a green (勝ち抜け) row and 4.26:1
    for the WC mark on an amber row; both now meet 4.5:1 (normal-size text)."""
    link = _colour('.public-table tr[class*="table-"] a')
    assert link == _colour('.public-group tr[class*="table-"] a') == _colour(".podium-row a")
    wc = _colour(".wildcard-mark")
    for background in ROW_BACKGROUNDS:
        assert _contrast(link, background) >= 4.5, (link, background)
        assert _contrast(wc, background) >= 4.5, (wc, background)
    # The rules match the pages: names are links in coloured rows of the cards and tables.
    _finished(tournament, cast)
    html = _get(f"/p/{tournament.slug}/r/1/")
    assert re.search(r'class="card h-100 public-group".*?<tr class="table-success"><td>1</td>'
                     r'<td><a href=', html, flags=re.S)
    cross = re.search(r'<div class="table-responsive public-table">(.*?)</div>', html,
                      flags=re.S).group(1)
    assert re.search(r'<tr class="table-success[^"]*"[^>]*>.*?<a href=', cross, flags=re.S)
