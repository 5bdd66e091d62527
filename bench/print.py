"""Printing speed (a script, not a test): ``python3 bench/print.py``.

For 72 and for 1,024 entrants: every name tag, every entry sheet and the round-1 match
sheets in one PDF, rendered through the document contract (selector reads included), with
seconds and page counts, next to the floor: a raw reportlab canvas writing the same number
of pages of comparable Japanese text (a title, a name, about thirty labelled lines) with
the same embedded font subset, measured in the same run. Prints the ratio.

Targets: ≤ 3× the floor, and the 72-entrant batch under 0.5 s.

It works on a throwaway SQLite database in a temporary folder, so no venue data is touched.
"""

from __future__ import annotations

import io
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.pop("DATABASE_URL", None)
os.environ["KYUSHU_VAR_DIR"] = tempfile.mkdtemp(prefix="kyushu-bench-print-")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "kyushu.settings")

import django

django.setup()

from django.core.management import call_command
from pypdf import PdfReader
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from brackets.models import Entrant, QmaVersion, Tournament
from brackets.printing._rounds import ROUND_OPTION
from brackets.printing.base import CompositePdf, register_fonts
from brackets.printing.registry import BASE_URL_OPTION, Option
from brackets.services.catalog import catalog_load_builtin
from brackets.services.rounds import round_draw, rounds_configure

SIZES = (72, 1024)
RUNS = {72: 5, 1024: 1}
SURNAMES = ["山田", "鈴木", "佐藤", "高橋", "田中", "伊藤", "渡辺", "中村", "小林", "加藤"]
GIVEN = ["太郎", "花子", "一郎", "美咲", "翔太", "結衣", "大輔", "真由美"]
CARDS = ["アルフ", "ルキア", "セリオス", "シャロン", "カイル", "クララ", "ユウ", "リエル"]


class DoorsBatch(CompositePdf):
    """What the desk and the staff print before round 1 (not registered: bench only)."""

    slug = "bench-doors"
    title = "名札・エントリーシート・1回戦対戦記録用紙"
    parts = ("name-tags", "entry-sheets", "match-sheets")
    options: ClassVar[Mapping[str, Option]] = {**ROUND_OPTION, "base_url": BASE_URL_OPTION}


def prepare(count: int) -> Tournament:
    version = QmaVersion.objects.get(slug="qma-2016")
    tournament = Tournament.objects.create(slug=f"bench{count}", name="堅田大会 ベンチ大会",
                                           version=version, preset="katata-kansai5-qualifier",
                                           capacity=count, lottery_seed="bench")
    Entrant.objects.bulk_create([
        Entrant(tournament=tournament, name=f"{SURNAMES[i % 10]}{GIVEN[i % 8]}",
                reading="やまだたろう", card_name=f"{CARDS[i % 8]}{i}"[:8],
                home_store="ゲームセンター九州", q_level=30 + i % 70, checked_in=True,
                shura_titles=1 if i % 17 == 0 else 0)
        for i in range(count)])
    rounds = rounds_configure(tournament=tournament, by=None)
    round_draw(round=rounds[0], by=None)
    return tournament


def raw_canvas(pages: int) -> bytes:
    """The floor: the same number of pages of Japanese text, straight onto a canvas."""
    font = register_fonts()
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4, invariant=1, initialFontName=font)
    width, height = A4
    for page in range(pages):
        canvas.setFont(font, 9)
        canvas.drawString(12 * mm, height - 9 * mm, "堅田大会 ベンチ大会　エントリーシート")
        canvas.drawRightString(width - 12 * mm, height - 9 * mm, f"{page + 1} / {pages}")
        canvas.setFont(font, 26)
        canvas.drawString(12 * mm, height - 40 * mm,
                          f"{SURNAMES[page % 10]}{GIVEN[page % 8]}")
        canvas.setFont(font, 10.5)
        for line in range(30):
            y = height - 55 * mm - line * 7 * mm
            canvas.drawString(12 * mm, y, "カードネーム・よみがな・制限モード")
            canvas.drawString(70 * mm, y, f"{CARDS[line % 8]}{page}　高火力ボンバーマン")
            canvas.rect(12 * mm, y - 2 * mm, 186 * mm, 7 * mm, stroke=1, fill=0)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def timed(func: Any, runs: int) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(runs):
        start = time.perf_counter()
        result = func()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def main() -> None:
    call_command("migrate", verbosity=0)
    catalog_load_builtin()
    register_fonts()
    doc = DoorsBatch()
    raw_canvas(2)  # warm both paths (font metrics, glyph tables)
    print(f"{'entrants':>8} {'pages':>6} {'documents s':>12} {'raw canvas s':>13} "
          f"{'ratio':>6} {'KB':>7}")
    for count in SIZES:
        tournament = prepare(count)
        doc.render(tournament, round=1)  # warm caches (catalog, templates of styles)
        seconds, (_name, _type, content) = timed(
            lambda t=tournament: doc.render(t, round=1), RUNS[count])
        pages = len(PdfReader(io.BytesIO(content)).pages)
        floor, raw = timed(lambda n=pages: raw_canvas(n), RUNS[count])
        assert len(PdfReader(io.BytesIO(raw)).pages) == pages
        print(f"{count:>8} {pages:>6} {seconds:>12.3f} {floor:>13.3f} "
              f"{seconds / floor:>6.2f} {len(content) // 1024:>7}")


if __name__ == "__main__":
    main()
