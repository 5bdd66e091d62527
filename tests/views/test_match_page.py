"""The tablet's match page: its heading and the feedback after a save."""

from __future__ import annotations

from typing import Any

import pytest

from brackets import engine_adapter as ea
from brackets.models import Group, Seat, Tournament
from brackets.selectors import rounds as sel
from tests.conftest import client_for
from tests.printing.world import build_kyushu

pytestmark = pytest.mark.django_db


def test_one_match_round_is_not_named_twice(tournament: Tournament,
                                            cast: dict[str, Any]) -> None:
    """The third-place match's tablet page was headed 「3位決定戦 3位決定戦」 (round name,
    then the group's label, which is the round's name)."""

    build_kyushu(tournament, cast["organiser"], upto=5)
    group = Group.objects.get(round__tournament=tournament, round__number=6)
    assert group.label == "3位決定戦"
    html = client_for(cast["bracket"]).get(
        f"/t/{tournament.slug}/match/{group.id}/").content.decode()
    assert "3位決定戦 3位決定戦" not in html
    assert '<h1 class="h4 mb-0">3位決定戦</h1>' in html
    sf = Group.objects.get(round__tournament=tournament, round__number=5)
    html = client_for(cast["bracket"]).get(f"/t/{tournament.slug}/match/{sf.id}/").content.decode()
    assert '<h1 class="h4 mb-0">準決勝 A</h1>' in html


def test_match_saves_redirect_with_a_saved_message(tournament: Tournament,
                                                   cast: dict[str, Any]) -> None:
    """After 出題を登録 / 結果を登録 the tablet came back to the page with no sign the tap
    had been recorded; a refused save sat on the POST URL (a reload re-posted it)."""
    from brackets.models import Group
    from tests.rounds.conftest import running_round_one

    rnd = running_round_one(tournament, 16, cast["organiser"])
    group = Group.objects.filter(round=rnd).order_by("number").first()
    staff = client_for(cast["bracket"])
    page = f"/t/{tournament.slug}/match/{group.id}/"
    gv = sel.group_view(group)
    sc = sel.seat_choices(gv, ea.catalog_for(tournament.version_id))[1]
    legal = next(o for o in sc.choices.options() if o.legal)
    response = staff.post(f"{page}selection/", {"seat": "1", "set": f"{legal.genre}|{legal.format}",
                                                "difficulty": "HARD", "key": "selection-k1"})
    assert response.status_code == 302 and response["Location"] == page
    assert "保存しました" in staff.get(page).content.decode()
    again = staff.post(f"{page}selection/", {"seat": "1", "set": f"{legal.genre}|{legal.format}",
                                             "difficulty": "HARD", "key": "selection-k1"})
    assert again.status_code == 302  # the double tap is the same save, said the same way
    assert "保存しました" in staff.get(page).content.decode()
    seats = Seat.objects.filter(group=group).count()
    rows = {f"score_{n}": str(300 - n) for n in range(1, seats + 1)}
    rows.update({f"place_{n}": "2" for n in range(1, seats + 1)})  # no 1位: refused
    refused = staff.post(f"{page}results/", {**rows, "key": "results-k2"})
    assert refused.status_code == 400
    html = refused.content.decode()
    assert f'data-page-url="{page}"' in html
    assert 'value="299"' in html  # what staff typed is still there
    assert "保存しました" not in html
