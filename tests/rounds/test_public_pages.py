"""Public pages show results, never staff-only data (notes, who entered what)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from django.urls import reverse

from brackets.models import Entrant, Group, Tournament
from tests.rounds.test_full_events import run_katata

pytestmark = pytest.mark.django_db


def test_public_pages_hide_staff_data(tournament: Tournament, cast: dict[str, Any],
                                      clients: Any) -> None:
    run_katata(tournament, cast["organiser"], random.Random(3))
    Entrant.objects.filter(tournament=tournament).update(notes="秘密メモ：受付だけが読む")
    group = Group.objects.filter(round__tournament=tournament, round__number=1).first()
    anonymous = clients["anonymous"]
    slug = tournament.slug
    entrant = Entrant.objects.filter(tournament=tournament).first()
    urls = [reverse("public_bracket", args=[slug]),
            reverse("public_round", args=[slug, 1]),
            reverse("public_round_live", args=[slug, 1]),
            reverse("public_projector", args=[slug, 1]) + "?view=table",
            reverse("public_player", args=[slug, entrant.id])]
    for url in urls:
        body = anonymous.get(url).content.decode()
        assert "秘密メモ" not in body, url
        for user in cast.values():  # nobody's user name (who entered what) is shown
            assert f">{user.username}<" not in body, (url, user.username)
    body = anonymous.get(reverse("public_round", args=[slug, 1])).content.decode()
    assert group.label in body and "惜敗率" in body


def test_player_page_shows_rounds_lots_and_what_remains(tournament: Tournament,
                                                        cast: dict[str, Any],
                                                        clients: Any) -> None:
    run_katata(tournament, cast["organiser"], random.Random(3))
    shura = Entrant.objects.filter(tournament=tournament).order_by("id").first()
    body = clients["anonymous"].get(reverse("public_player", args=[tournament.slug,
                                                                   shura.id])).content.decode()
    assert "修羅くじ" in body and "まだ選べるもの" in body
    assert "1回戦" in body and "ボンバーマン" in body
