"""Drawing helpers for the small paper forms players fill in (four per A4, cut marks)."""

from __future__ import annotations

import re

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from brackets.printing.base import fit_size, register_fonts, truncate

FORM_W_MM, FORM_H_MM = 93, 128


def form_frame(canvas: Canvas, width: float, height: float, title: str, subtitle: str
               ) -> float:
    """Title block of a form; returns the y below it (origin: the form's lower-left)."""
    font = register_fonts()
    pad = 6 * mm
    canvas.setFillColor(colors.black)
    canvas.setFont(font, 8)
    canvas.drawString(pad, height - pad - 4, truncate(subtitle, width - 2 * pad, 8))
    size = fit_size(title, width - 2 * pad, 15, 10)
    canvas.setFont(font, size)
    canvas.drawString(pad, height - pad - 8 - size, truncate(title, width - 2 * pad, size))
    return height - pad - 14 - size


def write_line(canvas: Canvas, x: float, y: float, width: float, label: str,
               value: str = "", size: float = 10.5) -> None:
    """``label`` and an underlined blank (or the printed ``value``) to write on."""
    font = register_fonts()
    canvas.setFont(font, 9)
    canvas.drawString(x, y, label)
    label_w = canvas.stringWidth(label, font, 9) + 3 * mm
    canvas.setLineWidth(0.5)
    canvas.line(x + label_w, y - 1.5, x + width, y - 1.5)
    if value:
        value_size = fit_size(value, width - label_w - 2 * mm, size, 7)
        canvas.setFont(font, value_size)
        canvas.drawString(x + label_w + 1 * mm, y + 0.5, value)


def checkbox(canvas: Canvas, x: float, y: float, size: float = 5 * mm) -> None:
    canvas.setLineWidth(0.8)
    canvas.rect(x, y, size, size, stroke=1, fill=0)


# A line may break after a list separator or a space, never inside a word: a usage card's
# 「ランダム」 or 「アニメ＆ゲーム」 is read as one word (「ラン/ダム」 reads as two).
_WORD = re.compile(r"[^・、，,／/ 　]+[・、，,／/ 　]*|[・、，,／/ 　]+")


def wrap_lines(text: str, width: float, size: float) -> list[str]:
    """``text`` broken into lines that fit ``width``, at word boundaries (after 「・」 「、」
    「／」 or a space); a word wider than a whole line (a sentence) runs on from where the
    line stands and breaks by character."""
    font = register_fonts()

    def fits(line: str) -> bool:
        return pdfmetrics.stringWidth(line.rstrip(), font, size) <= width

    lines: list[str] = []
    line = ""
    for word in _WORD.findall(text):
        if fits(line + word):
            line += word
            continue
        if line and fits(word):
            lines.append(line.rstrip())
            line = ""
        for ch in word:
            if not fits(line + ch) and line:
                lines.append(line.rstrip())
                line = ""
            line += ch
    if line.strip():
        lines.append(line.rstrip())
    return lines


def paragraph(canvas: Canvas, x: float, y: float, width: float, text: str,
              size: float = 8.5, leading: float | None = None) -> float:
    """Draw wrapped text from ``y`` downwards; returns the y below the last line."""
    leading = leading or size * 1.35
    canvas.setFont(register_fonts(), size)
    for line in wrap_lines(text, width, size):
        canvas.drawString(x, y, line)
        y -= leading
    return y
