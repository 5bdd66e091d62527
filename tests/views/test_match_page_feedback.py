"""What the tablet's match page says after a save: 変更はありません when nothing changed
(issue 19); the penalty field, the penalised score, the dice field and which values are
saved after another tablet's save won (issue 13, item 14)."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from brackets.adapters.rounds import round_rules
from brackets.labels import penalised_score_html
from brackets.models import Entrant, Group, PenaltyFact, ResultFact, Round, Seat, Tournament
from brackets.selectors import rounds as sel
from tests.conftest import client_for
from tests.printing.world import build_kyushu
from tests.rounds.conftest import running_round_one

pytestmark = pytest.mark.django_db


def _first_group(tournament: Tournament, cast: dict[str, Any]) -> Group:
    rnd = running_round_one(tournament, 16, cast["organiser"])
    return Group.objects.filter(round=rnd).order_by("number").first()


def _rows(group: Group, scores: list[int]) -> dict[str, str]:
    seats = Seat.objects.filter(group=group, superseded_by__isnull=True).count()
    rows = {f"score_{n}": str(scores[n - 1]) for n in range(1, seats + 1)}
    rows.update({f"place_{n}": str(n) for n in range(1, seats + 1)})
    return rows


def test_results_saved_again_unchanged_say_nothing_changed(tournament: Tournament,
                                                           cast: dict[str, Any]) -> None:
    group = _first_group(tournament, cast)
    staff = client_for(cast["bracket"])
    page = f"/t/{tournament.slug}/match/{group.id}/"
    rows = _rows(group, [300, 250, 200, 150])
    first = staff.post(f"{page}results/", {**rows, "key": "r-first"})
    assert first.status_code == 302
    html = staff.get(page).content.decode()
    assert "保存しました" in html and "変更はありません" not in html
    facts = ResultFact.objects.filter(group=group).count()

    again = staff.post(f"{page}results/", {**rows, "key": "r-again"})
    assert again.status_code == 302
    html = staff.get(page).content.decode()
    assert "変更はありません" in html and "保存しました" not in html
    assert ResultFact.objects.filter(group=group).count() == facts

    corrected = staff.post(f"{page}results/", {**rows, "score_1": "310", "key": "r-fix"})
    assert corrected.status_code == 302
    html = staff.get(page).content.decode()
    assert "保存しました" in html and "変更はありません" not in html
    assert ResultFact.objects.filter(group=group).count() == facts + 1


def test_the_penalty_field_starts_empty_where_the_event_has_no_set_penalty(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """九州杯IX refuses illegal sets (no set penalty): the form was prefilled with 0, which
    the save then refused. Now it starts empty and says what to type."""
    group = _first_group(tournament, cast)
    assert round_rules(group.round).penalty == 0
    staff = client_for(cast["bracket"])
    page = f"/t/{tournament.slug}/match/{group.id}/"
    html = staff.get(page).content.decode()
    field = re.search(r'<input[^>]*name="points"[^>]*>', html).group(0)
    assert 'value=""' in field and "placeholder=" in field
    refused = staff.post(f"{page}action/", {"action": "penalty", "seat": "1", "points": "",
                                            "reason": "遅刻", "key": "p-empty"})
    assert refused.status_code == 400
    assert not PenaltyFact.objects.filter(group=group).exists()
    saved = staff.post(f"{page}action/", {"action": "penalty", "seat": "1", "points": "100",
                                          "reason": "遅刻", "key": "p-100"})
    assert saved.status_code == 302
    assert PenaltyFact.objects.get(group=group).points == Decimal(100)


def test_the_penalty_field_starts_at_the_events_penalty_and_it_is_accepted(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    """堅田 penalises an illegal set (H7): the field starts at that penalty, and saving it
    as it stands records it."""
    tournament.preset = "katata-kansai5-qualifier"
    tournament.save()
    rnd = running_round_one(tournament, 8, cast["organiser"], preset="katata-kansai5-qualifier")
    group = Group.objects.filter(round=rnd).order_by("number").first()
    rules = round_rules(rnd)
    assert rules.penalty > 0
    staff = client_for(cast["bracket"])
    page = f"/t/{tournament.slug}/match/{group.id}/"
    field = re.search(r'<input[^>]*name="points"[^>]*>',
                      staff.get(page).content.decode()).group(0)
    prefilled = re.search(r'value="([^"]*)"', field).group(1)
    assert Decimal(prefilled) == rules.penalty
    saved = staff.post(f"{page}action/", {"action": "penalty", "seat": "1",
                                          "points": prefilled, "reason": "遅刻", "key": "p"})
    assert saved.status_code == 302
    assert PenaltyFact.objects.get(group=group).points == rules.penalty


def test_a_penalised_score_reads_the_same_on_the_match_round_and_public_pages(
        tournament: Tournament, cast: dict[str, Any]) -> None:
    group = _first_group(tournament, cast)
    staff = client_for(cast["bracket"])
    page = f"/t/{tournament.slug}/match/{group.id}/"
    staff.post(f"{page}results/", {**_rows(group, [300, 250, 200, 180]), "key": "r"})
    staff.post(f"{page}action/", {"action": "penalty", "seat": "4", "points": "400",
                                  "reason": "遅刻", "key": "p"})
    placed = next(p for p in sel.group_view(group).result.players if p.seat == 4)
    assert placed.score == placed.screen_score - placed.penalty < 0
    shown = penalised_score_html(placed)
    assert f"{placed.screen_score}" in shown and f"{placed.penalty}" in shown
    pages = {"match": staff.get(page),
             "round": staff.get(f"/t/{tournament.slug}/rounds/{group.round.number}/"),
             "public": Client().get(f"/p/{tournament.slug}/r/{group.round.number}/")}
    for name, response in pages.items():
        assert response.status_code == 200, name
        assert shown in response.content.decode(), name


def test_a_losing_tablet_is_told_which_results_are_saved(tournament: Tournament,
                                                         cast: dict[str, Any]) -> None:
    """Two tablets on one match: the second save from an older page is refused; its typed
    values stay in the inputs, and the page says they are not saved and what is."""
    group = _first_group(tournament, cast)
    page = f"/t/{tournament.slug}/match/{group.id}/"
    seen = Group.objects.get(id=group.id).version
    first, second = client_for(cast["bracket"]), client_for(cast["organiser"])
    won = first.post(f"{page}results/", {**_rows(group, [300, 250, 200, 150]),
                                         "version": str(seen), "key": "a"})
    assert won.status_code == 302
    lost = second.post(f"{page}results/", {**_rows(group, [310, 250, 200, 150]),
                                           "version": str(seen), "key": "b"})
    assert lost.status_code == 409
    html = lost.content.decode()
    assert 'id="stale-which-saved"' in html and "まだ保存されていません" in html
    assert 'value="310"' in html  # what this tablet typed, kept
    assert html.count('class="small text-danger saved-elsewhere"') == 1  # only seat 1 differs
    assert "保存済：300.00点 1位" in html
    assert ResultFact.objects.get(group=group, seat__number=1).score == Decimal(300)


def test_the_dice_field_says_whose_roll_comes_first(tournament: Tournament,
                                                     cast: dict[str, Any]) -> None:
    build_kyushu(tournament, cast["organiser"], upto=6)
    final = Round.objects.get(tournament=tournament, number=7)
    html = client_for(cast["bracket"]).get(
        reverse("round_special", args=[tournament.slug, final.number])).content.decode()
    first, second = re.search(r'name="a" value="(\d+)"><input type="hidden" name="b" '
                              r'value="(\d+)"', html).groups()
    a, b = (Entrant.objects.get(id=int(i)).name for i in (first, second))
    order = re.search(r'<p[^>]*id="dice-order"[^>]*>(.*?)</p>', html, re.DOTALL).group(1)
    assert f"「{a}の目-{b}の目」の順" in order
    assert 'aria-describedby="dice-order"' in html
