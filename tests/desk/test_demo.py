"""``manage.py demo``: a full, realistic desk, created once however often it runs."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from brackets.models import Entrant, EntrantRevision, Membership, Rank, Tournament
from brackets.models.entrants import CARD_NAME_MAX
from brackets.services.entrants import _has_kanji

pytestmark = pytest.mark.django_db


def run() -> str:
    out = io.StringIO()
    call_command("demo", stdout=out)
    return out.getvalue()


def test_demo_creates_a_full_desk_once() -> None:
    first = run()
    tournament = Tournament.objects.get(slug="demo")
    assert tournament.preset == "kyushu-cup-ix"
    entrants = list(Entrant.objects.filter(tournament=tournament))
    assert len(entrants) == 72
    assert "パスワード" in first
    # Names with kana readings, card names within QMA's limit.
    assert all(e.name and e.reading and not _has_kanji(e.reading) for e in entrants)
    assert all(0 < len(e.card_name) <= CARD_NAME_MAX for e in entrants)
    assert len({e.card_name for e in entrants}) == 72
    # Q levels over every rank band of the tournament's catalog.
    for rank in Rank.objects.filter(version=tournament.version):
        assert any(rank.q_min <= e.q_level <= rank.q_max for e in entrants), rank.name
    assert sorted(e.seed for e in entrants if e.seed) == [1, 2, 3, 4, 5, 6, 7]
    shura = [e for e in entrants if e.shura_titles or e.shura_local_wins or e.shura_voluntary or e.past_win_lots]
    assert 3 <= len(shura) <= 10
    checked_in = sum(e.checked_in for e in entrants)
    paid = sum(e.fee_paid for e in entrants)
    assert 50 < checked_in < 72 and 50 < paid < 72
    assert EntrantRevision.objects.filter(entrant__tournament=tournament).count() == 72
    users = get_user_model().objects
    assert Membership.objects.filter(tournament=tournament, user=users.get(username="desk"), role="desk").exists()
    assert Membership.objects.filter(tournament=tournament, user=users.get(username="bracket"), role="bracket").exists()

    second = run()
    assert Tournament.objects.filter(slug="demo").count() == 1
    assert Entrant.objects.filter(tournament=tournament).count() == 72
    assert EntrantRevision.objects.filter(entrant__tournament=tournament).count() == 72
    assert "パスワード:" not in second


def test_demo_fills_in_entrants_deleted_since() -> None:
    run()
    doomed = list(Entrant.objects.filter(seed__isnull=True).values_list("pk", flat=True)[:5])
    Entrant.objects.filter(pk__in=doomed).delete()
    run()
    assert Entrant.objects.filter(tournament__slug="demo").count() == 72
