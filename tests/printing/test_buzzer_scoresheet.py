"""The judge's score sheet of a buzzer round: players in seat order, a box per question up
to the round's limit, the rules in every page's header; blank or filled with the decided
version so far. Read back with pdftotext and rendered with pdftoppm."""

from __future__ import annotations

import re
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation
from PIL import Image

from brackets.engine.buzzer import QUIZ_003
from brackets.models import Tournament
from brackets.services.buzzer import buzzer_round_create
from tests.buzzer_web.factories import played_round_with_protests
from tests.printing.pdfcheck import PDFTOTEXT, fonts, page_count, page_png

pytestmark = pytest.mark.django_db


def sheet(client: Client, t: Tournament, round_id: int, **options: Any) -> bytes:
    url = reverse("document_download", kwargs={"slug": t.slug, "doc_slug": "buzzer-scoresheet"})
    response = client.get(url, {"round": round_id, **options})
    assert response.status_code == 200, response.content[:300]
    assert response["Content-Type"] == "application/pdf"
    return response.content


def pages_text(content: bytes) -> list[str]:
    """pdftotext's text of each page, whitespace removed."""
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "sheet.pdf"
        pdf.write_bytes(content)
        out = subprocess.run([PDFTOTEXT, "-layout", str(pdf), "-"], capture_output=True,
                             text=True, check=True).stdout
    return [re.sub(r"\s+", "", page) for page in out.split("\f") if page.strip()]


def assert_renders(content: bytes) -> None:
    """Every page rasterises (pdftoppm) to a page with ink on it, every font embedded."""
    for number in range(1, page_count(content) + 1):
        image = Image.open(page_png(content, number, dpi=60)).convert("L")
        assert image.getextrema()[0] < 100, number
    assert all(f["emb"] == "yes" for f in fonts(content))


def test_blank_sheet_has_every_player_in_seat_order_and_the_rules(
    tournament: Tournament, cast: dict[str, Any], clients: dict[str, Client]
) -> None:
    round_ = played_round_with_protests(tournament, cast)
    content = sheet(clients["bracket"], tournament, round_.pk)
    assert_renders(content)
    assert page_count(content) == 1
    text = pages_text(content)[0]
    assert "5○2×・勝ち抜け2人・限定35問" in text
    positions = [text.index(f"選手{n}") for n in range(1, 5)]
    assert positions == sorted(positions)
    # 35 boxes: two blocks (1–18, 19–35), nothing of the round written in.
    assert "第1問〜第18問" in text and "第19問〜第35問" in text
    assert "2○0×" not in text and "記入済み" not in text


def test_filled_sheet_carries_the_decided_version_so_far(
    tournament: Tournament, cast: dict[str, Any], clients: dict[str, Client]
) -> None:
    round_ = played_round_with_protests(tournament, cast)
    content = sheet(clients["bracket"], tournament, round_.pk, filled=1)
    assert_renders(content)
    text = pages_text(content)[0]
    assert "（4問目まで記入済み）" in text
    # Totals after the thrown-out question's replacement: 選手2 2○, 選手1's ○ gone.
    for total in ("0○1×", "2○0×", "1○0×"):
        assert total in text
    assert "差" in text.split("正解なし・没問")[1]


def test_a_long_round_prints_the_rules_and_names_on_every_page(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    rp = QUIZ_003.round("extra-1")
    names = [f"長い名前のプレーヤー{n:02d}" for n in range(1, 41)]
    round_ = buzzer_round_create(tournament=tournament, name=rp.name, group_name="",
                                 config=rp.config, players=[{"name": n} for n in names])
    content = sheet(clients["organiser"], tournament, round_.pk)
    assert_renders(content)
    pages = pages_text(content)
    assert len(pages) >= 3
    for page in pages:
        assert "2回の誤答・無回答で着席" in page and rp.name.replace(" ", "") in page
    joined = "".join(pages)
    assert all(name in joined for name in names)
    assert "第1問〜第15問" in joined  # a written round's last question bounds the boxes


def test_sheet_prints_in_the_staff_language_with_names_as_entered(
    tournament: Tournament, cast: dict[str, Any], clients: dict[str, Client]
) -> None:
    round_ = played_round_with_protests(tournament, cast)
    client = clients["bracket"]
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    text = "".join(pages_text(sheet(client, tournament, round_.pk)))
    with translation.override("en"):
        title = re.sub(r"\s+", "", translation.gettext("早押し記録用紙"))
    assert title != "早押し記録用紙" and title in text
    assert "選手1" in text and "早押し記録用紙" not in text


def test_sheet_is_a4_landscape(tournament: Tournament, cast: dict[str, Any],
                                clients: dict[str, Client]) -> None:
    round_ = played_round_with_protests(tournament, cast)
    content = sheet(clients["bracket"], tournament, round_.pk, filled=1)
    width, height = Image.open(page_png(content, 1, dpi=60)).size
    assert abs(width / height - 297 / 210) < 0.01
