"""The staff round page and the public round page draw each group with one card template
(templates/brackets/_group_card.html); what differs is a parameter of the card."""

from __future__ import annotations

from typing import Any

import pytest

from brackets.models import Group, Tournament
from tests.conftest import client_for
from tests.states import round_1_running

pytestmark = pytest.mark.django_db


def test_staff_and_public_round_pages_share_the_group_card(tournament: Tournament,
                                                           cast: dict[str, Any]) -> None:
    round_1_running(tournament, cast["organiser"])
    groups = list(Group.objects.filter(round__tournament=tournament, round__number=1))
    staff = client_for(cast["organiser"]).get(f"/t/{tournament.slug}/rounds/1/")
    public = client_for(cast["outsider"]).get(f"/p/{tournament.slug}/r/1/")
    for response in (staff, public):
        assert "brackets/_group_card.html" in [t.name for t in response.templates]
    staff_html, public_html = staff.content.decode(), public.content.decode()
    for g in groups:
        # Staff: the header is the one-tap link to the match page; public: an anchor.
        assert f'href="/t/{tournament.slug}/match/{g.id}/"><strong>{g.label}</strong>' in staff_html
        assert f'<div class="card h-100 public-group" id="pg-{g.label}">' in public_html
    assert staff_html.count("card h-100 group-card status-") == len(groups)
    assert public_html.count("card h-100 public-group") == len(groups)
