"""``manage.py demo``: a full, realistic desk, created once however often it runs."""

from __future__ import annotations

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from brackets.models import Entrant, EntrantRevision, Membership, Rank, Tournament
from brackets.models.entrants import CARD_NAME_MAX
from brackets.services.entrants import _has_kanji

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("demo", *args, stdout=out)
    return out.getvalue()


def _declares_shura(entrant: Entrant) -> bool:
    return bool(entrant.shura_titles or entrant.shura_local_wins or entrant.shura_voluntary
                or entrant.shura_extra_lots or entrant.past_win_lots)


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
    # 九州杯IX has no 修羅 lots and fixed modes: nobody declares 修羅 or プチ修羅.
    assert not [e for e in entrants if _declares_shura(e) or e.opt_up]
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


def test_kyushu_demo_desk_shows_no_shura_badge_because_the_preset_has_no_shura_rule(
        client: Client) -> None:
    run()
    tournament = Tournament.objects.get(slug="demo")
    organiser = get_user_model().objects.create_superuser("demo-admin", password="x")
    client.force_login(organiser)
    page = client.get(f"/t/{tournament.slug}/desk/").content.decode()
    assert "badge text-bg-danger shura-badge" not in page
    assert "修羅 くじ" not in page


def test_katata_demo_declares_shura_because_that_preset_has_shura_lots() -> None:
    out = run("--preset", "katata-kansai5-qualifier")
    tournament = Tournament.objects.get(slug="demo")
    assert tournament.preset == "katata-kansai5-qualifier"
    assert "堅田大会" in tournament.name
    entrants = list(Entrant.objects.filter(tournament=tournament))
    assert len(entrants) == 72, out
    assert 3 <= len([e for e in entrants if _declares_shura(e)]) <= 10
    assert {e.opt_up for e in entrants if e.opt_up} == {"pinpoint", "bomber"}
