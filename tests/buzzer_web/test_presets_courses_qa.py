"""QA regressions for the Number10 course-choice form on the presets page."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from brackets.models import BuzzerRound, Tournament

pytestmark = pytest.mark.django_db


def test_course_order_defaults_count_from_one(
    tournament: Tournament, clients: dict[str, Client]
) -> None:
    """The four seed-004 courses default to draw order 1–4, not their tournament place 3–6."""
    page = clients["organiser"].get(reverse("buzzer_presets", kwargs={"slug": tournament.slug}))
    body = page.content.decode()
    values = re.findall(r'name="order-3r-[^"]+" type="number" min="1" value="(\d+)"', body)
    assert values == ["1", "2", "3", "4"]


@pytest.mark.parametrize(
    ("orders", "message"),
    [
        (("1", "abc", "3", "4"), "コースの順番は1以上の数字で入力してください。"),
        (("1", "-1", "3", "4"), "コースの順番は1以上の数字で入力してください。"),
        (("1", "1", "3", "4"), "コースの順番が重複しています。"),
    ],
)
def test_bad_course_order_is_refused_in_japanese(
    tournament: Tournament, clients: dict[str, Client], orders: tuple[str, ...], message: str
) -> None:
    """A bad draw order gives a Japanese message and creates nothing (it used to be a 500)."""
    slugs = ("3r-updown", "3r-freeze", "3r-swedish", "3r-10by10")
    data = {"preset": "abc-the25th-004", "courses": "1"}
    for slug, order in zip(slugs, orders):
        data[f"order-{slug}"] = order
        data[f"raised-{slug}"] = ""
    response = clients["organiser"].post(
        reverse("buzzer_presets", kwargs={"slug": tournament.slug}), data, follow=True
    )
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not BuzzerRound.objects.filter(tournament=tournament).exists()
