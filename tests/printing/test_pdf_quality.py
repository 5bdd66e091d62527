"""What a printer sees: the Japanese font is embedded (as a subset) and nothing else is
needed, and one page of every PDF document, rendered by poppler, has ink where its
Japanese words stand (a missing or broken font leaves those boxes empty)."""

from __future__ import annotations

import shutil
from typing import Any

import pytest

from brackets.models import Tournament
from brackets.printing.base import FONT
from brackets.printing.registry import DocumentError, all_documents
from tests.printing.pdfcheck import fonts, ink_in_boxes, page_png

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="poppler-utils not installed"),
]


def pdfs(t: Tournament) -> dict[str, bytes]:
    """The first renderable choice of every PDF document."""
    out: dict[str, bytes] = {}
    for doc in all_documents():
        if doc.content_type != "application/pdf":
            continue
        for choice in doc.choices(t):
            try:
                out[doc.slug] = doc.render(t, **choice.options)[2]
                break
            except DocumentError:
                continue
    return out


def test_every_pdf_embeds_the_japanese_font_and_shows_its_text(
        kyushu_finished: Tournament, katata_drawn: Tournament) -> None:
    rendered = pdfs(kyushu_finished)
    rendered.update({f"katata:{k}": v for k, v in pdfs(katata_drawn).items()})
    assert {"name-tags", "bracket-chart", "final-set-order", "katata:shura-lottery"} <= set(
        rendered)
    for slug, content in rendered.items():
        listed = fonts(content)
        assert listed, slug
        for font in listed:
            # Every font is the IPAex subset, embedded: nothing depends on the printer.
            assert font["name"].endswith("+" + FONT), (slug, font)
            assert font["emb"] == "yes" and font["sub"] == "yes", (slug, font)
        words = ink_in_boxes(content)
        assert len(words) >= 3, (slug, words)
        blank = [(w, share) for w, share in words if share < 0.03]
        assert not blank, f"{slug}: no ink where {blank} stand"


def test_a_blank_page_is_caught(tmp_path: Any) -> None:
    """The ink check itself: white-on-white Japanese text has boxes but no ink."""
    import io

    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen.canvas import Canvas

    from brackets.printing.base import register_fonts

    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4)
    canvas.setFont(register_fonts(), 20)
    canvas.setFillColorRGB(1, 1, 1)
    canvas.drawString(100, 700, "白い文字は見えない")
    canvas.showPage()
    canvas.save()
    shares = ink_in_boxes(buffer.getvalue())
    assert shares and all(share < 0.03 for _w, share in shares)
    assert page_png(buffer.getvalue()).exists()


def test_entry_sheet_qr_code_has_segnos_modules_where_a_camera_looks() -> None:
    """Rasterise a drawn QR code and read back every module: same matrix as segno's."""
    import io

    import segno
    from PIL import Image
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfgen.canvas import Canvas

    from brackets.printing.entry_sheets import QrCode

    url = "http://192.168.0.10:8000/p/kyushu9/players/123/"
    size = 200.0
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=A4)
    QrCode(url, size).drawOn(canvas, 100, 400)
    canvas.showPage()
    canvas.save()
    dpi = 144
    image = Image.open(page_png(buffer.getvalue(), dpi=dpi)).convert("L")
    matrix = segno.make(url, error="m", micro=False, mask=0).matrix
    count = len(matrix) + 4
    module = size / count
    page_h = A4[1]
    wrong = 0
    for r, row in enumerate(matrix):
        for c, dark in enumerate(row):
            x = 100 + (c + 2.5) * module
            y_top = page_h - (400 + size - (r + 2.5) * module)
            pixel = image.getpixel((int(x * dpi / 72), int(y_top * dpi / 72)))
            wrong += (pixel < 128) != bool(dark)
    assert wrong == 0
    assert segno.make(url, error="m", micro=False, mask=0).designator.endswith("-M")
