"""Staff pages in general: forms styled for tablets, Japanese error pages, the dashboard."""

from __future__ import annotations

from typing import Any

import pytest

from brackets.forms import StaffForm
from brackets.models import Tournament
from tests.conftest import client_for
from tests.states import use_katata

pytestmark = pytest.mark.django_db


def test_staff_form_fields_are_styled_for_tablets() -> None:
    """The staff page showed bare browser inputs (tiny select) beside Bootstrap pages."""
    form = StaffForm()
    assert "form-control" in str(form["username"])
    assert "form-control" in str(form["password"])
    assert "form-select" in str(form["role"])


def test_forbidden_and_missing_pages_speak_japanese(tournament: Tournament,
                                                    cast: dict[str, Any]) -> None:
    """A desk user following a link got a bare English 「403 Forbidden」; a wrong URL
    answered 「Not Found」 with no way back."""
    desk = client_for(cast["desk"])
    forbidden = desk.get(f"/t/{tournament.slug}/settings/")
    assert forbidden.status_code == 403
    assert "権限がありません" in forbidden.content.decode()
    missing = client_for(None).get("/p/no-such-tournament/")
    assert missing.status_code == 404
    assert "ページが見つかりません" in missing.content.decode()


def test_language_menu_names_english_in_english() -> None:
    """In Japanese the menu offered 「英語(米国)」 (Django's ja name of "English")."""
    from django.test import Client

    html = Client().get("/").content.decode()
    assert ">English</option>" in html
    assert "英語(米国)" not in html


@pytest.mark.django_db
def test_bracket_dashboard_puts_the_rounds_before_the_buzzer_console(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """At a QMA arcade event the tablet's one task (回戦を開く) was the last card, after the
    buzzer-round console nobody at the cabinets uses."""
    use_katata(tournament)
    page = client_for(cast["bracket"]).get(f"/t/{tournament.slug}/").content.decode()
    assert page.index("回戦を開く") < page.index("早押しを開く")
