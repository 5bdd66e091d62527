"""K3: an undefined 惜敗率 (the group's 1st scored ≤ 0) is flagged, not a bare 「—」.

domain.md K3 「If the reference score is ≤ 0 the ratio is undefined: flag it」. The cells
still read 「—」; beside them the tablet, the public round page, the advancement page and
the result sheet now say why, and what orders those players below the cut (the round's
tie-break chain after 惜敗率: 得点 → 抽選 by default).
"""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache

from brackets.models import Group, Tournament
from brackets.selectors import rounds as sel
from brackets.selectors.round_documents import round_document
from brackets.services import rounds as svc
from tests.conftest import client_for
from tests.rounds.conftest import running_round_one

pytestmark = pytest.mark.django_db

ZEROS = {1: ("0.00", 1), 2: ("0.00", 2), 3: ("0.00", 3), 4: ("0.00", 4)}
WHY = "1位の得点が0点以下のため惜敗率がありません"
CHAIN = "得点 → 抽選（大会の抽選シードで記録）"


@pytest.fixture
def zero_group(tournament: Tournament, cast: dict[str, Any]) -> Group:
    rnd = running_round_one(tournament, 16, cast["organiser"])
    group = Group.objects.filter(round=rnd).order_by("number").first()
    svc.results_save(group=group, by=cast["bracket"], rows=ZEROS)
    cache.clear()
    return Group.objects.get(id=group.id)


def test_k3_undefined_ratio_carries_its_reason(zero_group: Group) -> None:
    gv = sel.group_view(zero_group)
    assert gv.ratios and all(r.why == "reference_not_positive" for r in gv.ratios.values())


def test_k3_tablet_says_why_and_what_orders_them(zero_group: Group,
                                                 cast: dict[str, Any]) -> None:
    html = client_for(cast["bracket"]).get(
        f"/t/{zero_group.round.tournament.slug}/match/{zero_group.id}/").content.decode()
    assert f"この組は{WHY}" in html and CHAIN in html


def test_k3_round_card_flags_the_group(zero_group: Group, cast: dict[str, Any]) -> None:
    html = client_for(cast["organiser"]).get(
        f"/t/{zero_group.round.tournament.slug}/rounds/1/").content.decode()
    assert f"この組は{WHY}" in html and "ratio-undefined-note" in html


def test_k3_public_round_page_and_result_sheet_flag_the_group(zero_group: Group) -> None:
    t = zero_group.round.tournament
    html = client_for(None).get(f"/p/{t.slug}/r/1/").content.decode()
    assert f"{zero_group.label}組は{WHY}" in html and CHAIN in html
    doc = round_document(t, 1)
    assert f"{zero_group.label}組は{WHY}" in doc.ratio_note and CHAIN in doc.ratio_note


def test_k3_no_flag_when_every_group_has_a_ratio(tournament: Tournament,
                                                 cast: dict[str, Any]) -> None:
    rnd = running_round_one(tournament, 16, cast["organiser"])
    group = Group.objects.filter(round=rnd).order_by("number").first()
    svc.results_save(group=group, by=cast["bracket"],
                     rows={1: ("310.50", 1), 2: ("290.00", 2), 3: ("250.00", 3),
                           4: ("180.00", 4)})
    assert sel.undefined_ratio_note(sel.round_view(rnd)) == ""
    assert not any(WHY in w for w in sel.group_view(group).warnings)
