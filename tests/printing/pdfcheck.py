"""Looking inside rendered PDFs: text (pypdf), fonts (pdffonts), pixels (pdftoppm)."""

from __future__ import annotations

import io
import re
import subprocess
import tempfile
from pathlib import Path

from pypdf import PdfReader

PDFTOPPM = "/usr/bin/pdftoppm"
PDFFONTS = "/usr/bin/pdffonts"
PDFTOTEXT = "/usr/bin/pdftotext"
CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def pdf_text(content: bytes) -> str:
    reader = PdfReader(io.BytesIO(content))
    return "\n".join(page.extract_text() or "" for page in reader.pages)


def page_count(content: bytes) -> int:
    return len(PdfReader(io.BytesIO(content)).pages)


def fonts(content: bytes) -> list[dict[str, str]]:
    """pdffonts' table: name, type, emb, sub per font."""
    with tempfile.NamedTemporaryFile(suffix=".pdf") as handle:
        handle.write(content)
        handle.flush()
        out = subprocess.run([PDFFONTS, handle.name], capture_output=True, text=True,
                             check=True).stdout
    rows = []
    for line in out.splitlines()[2:]:
        parts = line.split()
        # name type [type2] encoding emb sub uni object id
        rows.append({"name": parts[0], "emb": parts[-5], "sub": parts[-4], "uni": parts[-3]})
    return rows


def japanese_word_boxes(content: bytes, page: int = 1) -> list[tuple[str, float, float, float,
                                                                      float]]:
    """(word, xMin, yMin, xMax, yMax) in points for the page's words with Japanese text."""
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "doc.pdf"
        pdf.write_bytes(content)
        html = Path(tmp) / "words.html"
        subprocess.run([PDFTOTEXT, "-bbox", "-f", str(page), "-l", str(page), str(pdf),
                        str(html)], check=True, capture_output=True)
        text = html.read_text(encoding="utf-8")
    boxes = []
    for m in re.finditer(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" '
                         r'yMax="([\d.]+)">([^<]*)</word>', text):
        word = m.group(5)
        if CJK.search(word):
            boxes.append((word, float(m.group(1)), float(m.group(2)), float(m.group(3)),
                          float(m.group(4))))
    return boxes


def page_png(content: bytes, page: int = 1, dpi: int = 72) -> Path:
    """Render one page to a grey PNG with pdftoppm; returns its path (in a temp dir)."""
    tmp = Path(tempfile.mkdtemp(prefix="pdfpage-"))
    pdf = tmp / "doc.pdf"
    pdf.write_bytes(content)
    subprocess.run([PDFTOPPM, "-f", str(page), "-l", str(page), "-r", str(dpi), "-gray",
                    "-png", "-singlefile", str(pdf), str(tmp / "page")], check=True,
                   capture_output=True)
    return tmp / "page.png"


def ink_in_boxes(content: bytes, page: int = 1, dpi: int = 72, limit: int = 12
                 ) -> list[tuple[str, float]]:
    """For the page's Japanese words: the share of dark pixels inside each word's box.

    A word whose glyphs failed to render (missing font, tofu-free blank) has no ink there.
    """
    from PIL import Image

    image = Image.open(page_png(content, page, dpi)).convert("L")
    scale = dpi / 72
    out = []
    for word, x0, y0, x1, y1 in japanese_word_boxes(content, page)[:limit]:
        box = (int(x0 * scale), int(y0 * scale), max(int(x1 * scale), int(x0 * scale) + 1),
               max(int(y1 * scale), int(y0 * scale) + 1))
        region = image.crop(box)
        pixels = list(region.tobytes())
        dark = sum(1 for v in pixels if v < 160)
        out.append((word, dark / max(len(pixels), 1)))
    return out
