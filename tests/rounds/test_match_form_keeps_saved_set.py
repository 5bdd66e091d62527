"""The match page shows each seat's saved set and difficulty in its form, so a tablet
that changes only the difficulty taps once (the form used to come back empty)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import reverse

from brackets.models import Group
from brackets.services import rounds as svc
from tests.conftest import client_for

pytestmark = pytest.mark.django_db


def _seat_form(html: str, seat: int) -> str:
    start = html.index(f'name="seat" value="{seat}"')
    return html[start:html.index("</form>", start)]


def test_saved_set_and_difficulty_come_preselected(group: Group, cast: dict[str, Any]) -> None:
    svc.selection_save(group=group, by=cast["bracket"], seat_number=1, genre="芸能",
                       format="四択", difficulty="NORMAL")
    html = client_for(cast["bracket"]).get(
        reverse("match_page", args=[group.round.tournament.slug, group.id])).content.decode()
    seat1 = _seat_form(html, 1)
    assert re.findall(r'<option[^>]*selected[^>]*>', seat1) == [
        '<option value="芸能|四択" selected>']
    assert re.search(r'value="NORMAL" checked', seat1)
    # A seat with nothing saved keeps the empty pick and the default difficulty.
    seat2 = _seat_form(html, 2)
    assert " selected" not in seat2
    assert re.search(r'value="HARD" checked', seat2)
